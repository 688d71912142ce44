"""The hall: every table of the server by number, opened and forgotten here.

It holds the settings all tables share (`TableSettings`), gives a new table the lowest
free number, names the bots so that no two on the server share a name, and answers the
questions asked across tables: the open table quick play seats a person at, the seat held
for a name.  Apart from `Table`, which is one table and knows nothing of the others.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, nullcontext
from itertools import count
from typing import Protocol

from twisted.internet.interfaces import IReactorTime

from bswtichu import names
from bswtichu.server.text import messages
from bswtichu.server.tables.table import AwayOf, FindReader, GameFactory, Table, TableSettings

#: the short names bots get, in this order (then Ada2, Bea2, ...)
BOT_NAMES = ("Ada", "Bea", "Cy", "Dot", "Eli", "Fay", "Gus", "Hal")


class TableNumbers(Protocol):
    """Table numbers shared with other processes (`storage.TableClaims`): claimed before use."""

    def claim(self, number: int) -> bool: ...

    def release(self, number: int) -> None: ...


class TableHall:
    """All tables by number; opens new ones at the lowest free number (that ``numbers``, the
    numbers shared with other processes on one database, lets it claim; None: this hall's own)."""

    def __init__(
        self,
        reader: FindReader,
        clock: IReactorTime,
        reconnect_grace: float,
        game_factory: GameFactory | None = None,
        abandon_after: float = 24 * 3600.0,
        outbox: AbstractContextManager = nullcontext(),
        clock_default: int | None = None,
        vote_timeout: float = 60.0,
        pause_limit: float = 300.0,
        bot_game_after: float = 600.0,
        away_of: AwayOf = lambda reader, viewer: reader.away,
        hand_commands: Iterable[str] = (),
        numbers: TableNumbers | None = None,
    ) -> None:
        """The settings every table shares (`TableSettings` says what each is); ``hand_commands``:
        every name of the commands a second hand is played with (none: its sentences are only
        marked as his)."""
        self._tables: dict[int, Table] = {}
        self._numbers = numbers
        #: the reason the server stops soon (an admin's /shutdown), or None: no game starts meanwhile
        self.closing: str | None = None
        self.settings = TableSettings(reader, clock, reconnect_grace, game_factory, abandon_after, outbox,
                                      clock_default, vote_timeout, pause_limit, bot_game_after, away_of,
                                      closing=lambda: self.closing,
                                      hand_commands=messages.hand_command_pattern(hand_commands))

    def __iter__(self) -> Iterator[Table]:
        return iter(sorted(self._tables.values(), key=lambda t: t.number))

    def __len__(self) -> int:
        return len(self._tables)

    def get(self, number: int) -> Table | None:
        return self._tables.get(number)

    def open(self, number: int | None = None) -> Table:
        """A new table at the lowest free number (or at ``number``, for a stored table)."""
        if number is None:
            number = 1
            while number in self._tables or (self._numbers is not None and not self._numbers.claim(number)):
                number += 1
        elif number in self._tables:
            raise ValueError(f"table {number} exists already")
        elif self._numbers is not None:
            self._numbers.claim(number)  # a stored table: its number is this owner's, claimed or not
        table = Table(number, self.settings, on_abandoned=self._forget)
        self._tables[number] = table
        return table

    def bot_name(self, level: str) -> str:
        """A name for a new bot of ``level``: the first of Ada, Bea, ... (then Ada2, Bea2, ...)
        that no bot on the server has."""
        taken = {names.key(names.short_name(bot)) for table in self for bot, _unused in table.bots.values()}
        candidates = (name if n == 1 else f"{name}{n}" for n in count(1) for name in BOT_NAMES)
        return names.bot_name(level, next(c for c in candidates if names.key(c) not in taken))

    def longest_waiting(self) -> Table | None:
        """The open table (a free seat, a person seated, not started) that opened first."""
        waiting = [t for t in self if t.state == "open"
                   and any(seat not in t.bots for seat, _unused in t.players())]
        return min(waiting, key=lambda t: (t.waiting_since, t.number), default=None)

    def held_seat(self, nick: str) -> tuple[Table, int] | None:
        """The table and seat held for ``nick`` while he is away, if any."""
        for table in self:
            seat = table.seat_of(nick)
            if seat is not None and table.is_away(seat):
                return table, seat
        return None

    def retire(self, table: Table) -> list[str]:
        """An event's table whose game is over goes (its event seats the next round elsewhere):
        the names that were at it, present players and spectators, in the lobby now."""
        there = [nick for nick in map(table.present_at, table.seat_numbers) if nick is not None]
        there += table.spectators
        table.close()
        self._forget(table)
        return there

    def close_all(self) -> None:
        for table in list(self._tables.values()):
            table.close()
        self._tables.clear()

    def _forget(self, table: Table) -> None:
        if self._tables.pop(table.number, None) is not None and self._numbers is not None:
            self._numbers.release(table.number)
