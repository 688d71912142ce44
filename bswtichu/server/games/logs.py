"""Numbered game logs, one file per game, in a folder: a 4-player game's in BrettspielWelt's
.tch format (``game-000001.tch``), another variant's in our own (``game-000002.tvl``,
docs/variant-log.md).

Numbers continue after the highest file already in the folder, so a restart
never reuses one.  A game's file is rewritten after every round; a number
whose game still runs is "open", and `/log N` shows only finished games.
A game played at a private table is read by its players and admins only (`GameReaders`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from twisted.logger import Logger

from bswtichu.server.text.i18n import _
from bswtichu.engine import NANJING
from bswtichu.engine.events import GameOver, RoundScored
from bswtichu.engine.round import OVER
from bswtichu.play import GameStopped
from bswtichu.server.text.messages import Refusal
from bswtichu.storage.games import GameStore
from bswtichu.tch.record import round_log
from bswtichu.tch.variant_log import EXTENSION as VARIANT_SUFFIX
from bswtichu.tch.variant_record import VariantLogWriter
from bswtichu.tch.writer import round_tch

TCH_SUFFIX = ".tch"
_SUFFIXES = (TCH_SUFFIX, VARIANT_SUFFIX)
_NAME = re.compile(r"^game-(\d+)\.(?:tch|tvl)$")
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_TRUNC  # as open(..., "w")


class GameLogStore:
    """The folder of game logs; it creates the folder on first use."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self._folder_name = os.fspath(self.folder)
        self._open: set[int] = set()
        self._next: int | None = None

    def _highest_on_disk(self) -> int:
        if not self.folder.is_dir():
            return 0
        numbers = [int(m.group(1)) for p in self.folder.iterdir() if (m := _NAME.match(p.name))]
        return max(numbers, default=0)

    def path(self, number: int) -> Path:
        """The game's log file: the one there is (a variant's game has a ``.tvl``), else its ``.tch``."""
        for suffix in _SUFFIXES:
            path = self.folder / f"game-{number:06d}{suffix}"
            if path.is_file():
                return path
        return self.folder / f"game-{number:06d}{TCH_SUFFIX}"

    def reserve(self, drawn: int | None = None) -> int:
        """A new game's number (``drawn`` from the database, when it draws them: several
        processes on one PostgreSQL, `GameStore.next_log_number`); its log stays open until `finish`."""
        if drawn is not None:
            self.reopen(drawn)
            return drawn
        if self._next is None:
            self._next = self._highest_on_disk() + 1
        number = self._next
        self._next += 1
        self._open.add(number)
        return number

    def save_text(self, number: int, text: str, suffix: str = TCH_SUFFIX) -> None:
        """Write the game's log text so far (``suffix``: which format) (atomically: a reader never sees half a file);
        the folder is made when it is missing.  Written with plain `os` calls, no file object:
        a server saves a log after every round of every game."""
        target = os.path.join(self._folder_name, f"game-{number:06d}{suffix}")
        partial = target + ".partial"
        data = memoryview(text.encode("utf-8"))
        try:
            fd = os.open(partial, _NEW_FILE, 0o666)
        except FileNotFoundError:
            os.makedirs(self._folder_name, exist_ok=True)
            fd = os.open(partial, _NEW_FILE, 0o666)
        try:
            while data:
                data = data[os.write(fd, data):]
        finally:
            os.close(fd)
        os.replace(partial, target)

    def continue_after(self, number: int) -> None:
        """New numbers come after ``number`` too (the highest stored game, whose log may not exist yet)."""
        if self._next is None:
            self._next = self._highest_on_disk() + 1
        self._next = max(self._next, number + 1)

    def reopen(self, number: int) -> None:
        """A restored game's number is open again until it ends."""
        self._open.add(number)
        self.continue_after(number)

    def finish(self, number: int) -> None:
        self._open.discard(number)

    def is_open(self, number: int) -> bool:
        return number in self._open

    def read(self, number: int) -> str | None:
        """A finished game's log text, or None if there is no such file."""
        path = self.path(number)
        if not path.is_file():
            return None
        return path.read_text(encoding="utf-8")


class GameReaders:
    """Who may read a finished game (`/log N`, `/review N`, its `/history` row): anyone, but a
    game played while its table was private only its players and admins; the mark is stored
    with the game (`GameStore.readable`), so it holds after a restart."""

    def __init__(self, games: GameStore, is_admin: Callable[[str], bool]):
        self._games = games
        self._is_admin = is_admin

    def check(self, nick: str, number: int) -> None:
        """Refuse ``nick`` game ``number`` if it is private and he neither played it nor is an admin."""
        if not self._is_admin(nick) and not self._games.readable(number, nick):
            raise Refusal("private_game", _('game %(number)s was played at a private table; only its players and admins may read it', number=number))

    def history_reader(self, nick: str) -> str | None:
        """Whose view `/history` lists (`GameStore.history`'s ``reader``): an admin's sees every game."""
        return None if self._is_admin(nick) else nick


class GameLogRecorder:
    """A game driver's subscriber that writes the game's log after every round.

    The 4-player game's log is BSW's `.tch`; another variant's is ours (`VariantLogWriter`),
    which also says how the game ended.  The log covers the finished rounds; the number
    stays open until the game is over or the table closes.  A full disk or a bug in the recorder must not stop the game:
    the failure is logged and play goes on.
    """

    log = Logger()

    def __init__(self, store: GameLogStore, number: int):
        self.store = store
        self.number = number
        #: each finished round's `.tch` text, made once (its log replays the round)
        self._round_texts: list[str] = []
        self._variant_log: VariantLogWriter | None = None

    def round_dealt(self, driver) -> None:
        pass

    def happened(self, driver, events) -> None:
        for event in events:  # every action's events pass here: checked by exact type
            kind = type(event)
            if kind is RoundScored:
                self.save(driver.game)
            elif kind is GameOver or kind is GameStopped:
                self.store.finish(self.number)

    def save(self, game) -> None:
        """Write the finished rounds now (also for a restored game that turned out to be over)."""
        if game.variant is not NANJING:
            self._save_variant_log(game)
            return
        finished = [(rnd, seating) for rnd, seating in zip(game.rounds, game.seatings)
                    if rnd.phase == OVER]
        try:
            self._round_texts += [round_tch(round_log(rnd, seating))
                                  for rnd, seating in finished[len(self._round_texts):]]
            self.store.save_text(self.number, "".join(self._round_texts))
        except Exception:
            self.log.failure("cannot write game log {number}", number=self.number)

    def _save_variant_log(self, game) -> None:
        try:
            if self._variant_log is None:
                self._variant_log = VariantLogWriter()
            self.store.save_text(self.number, self._variant_log.text(game), VARIANT_SUFFIX)
        except Exception:
            self.log.failure("cannot write game log {number}", number=self.number)
