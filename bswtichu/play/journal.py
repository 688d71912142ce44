"""A game is its journal: the deals and the ordered steps that rebuild it exactly.

`Journal` is a driver subscriber that turns what happened into `JournalEntry`
values and hands each to a sink (the storage writes it to SQLite) before the
subscribers after it tell anyone.  `replay_journal` applies the entries to a
fresh driver built from the same seed and players: the engine reaches the same
state, and the bots, asked again at every step they took, make the same choices
and draw the same random numbers, so they go on as they would have.

The kinds of entry are listed with the record type, `bswtichu.records` (storage keeps
the entries without importing this layer).

What the bots' future choices depend on is their seed, the events they saw and
the choices they made; a bot's ``interrupt`` that offers nothing must not change
its state (the driver asks it at moments that depend on timing).
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from twisted.logger import Logger

from bswtichu.engine import Action, Event
from bswtichu.records import (
    ACT, BOT, DEAL, HAND_OVER, REPLACE, SUBSTITUTE, SUBSTITUTE_END, TIMEOUT, JournalEntry, Player,
)
from .driver import GameDriver
from .replay import Replay
from .standins import SeatHandedOver, SubstituteEnded, SubstituteStarted
from .turnclock import ClockRanOut


class ReplayError(Exception):
    """A journal that does not rebuild a game (a different deal, an illegal action)."""


class Journal:
    """The driver subscriber that writes each step to ``sink`` as it happens."""

    def __init__(self, sink: Callable[[JournalEntry], None]):
        self.sink = sink
        self._seen = 0  # actions of the current round already written
        self._timed_out: Player | None = None  # his next action is the stand-in's (a timeout)

    def caught_up(self, driver: GameDriver) -> None:
        """The driver was rebuilt from the journal: go on after what its round already holds."""
        self._seen = len(driver.round.history)

    def round_dealt(self, driver: GameDriver) -> None:
        self._seen = 0
        self.sink(JournalEntry(DEAL, round=len(driver.game.rounds), deal=driver.round.deal))

    def happened(self, driver: GameDriver, events: Sequence[Event]) -> None:
        for event in events:
            if type(event) is SubstituteStarted:
                kind = REPLACE if event.reason == "replaced" else SUBSTITUTE
                self.sink(JournalEntry(kind, player=event.player))
            elif type(event) is SubstituteEnded:
                self.sink(JournalEntry(SUBSTITUTE_END, player=event.player))
            elif type(event) is ClockRanOut:
                self._timed_out = event.player
            elif type(event) is SeatHandedOver:
                self.sink(JournalEntry(HAND_OVER, player=event.player, to=event.to))
        game = driver.game
        history = driver.round.history
        seen = self._seen
        if seen < len(history):
            is_bot, sink = driver.is_bot, self.sink
            players = [driver.player_at(seat) for seat in range(game.variant.seats)]  # who plays each hand
            for action in history[seen:]:
                player = players[action.seat]
                if player == self._timed_out:
                    self._timed_out = None
                    sink(_action_entry(TIMEOUT, player, action))
                else:
                    sink(_action_entry(BOT if is_bot(player) else ACT, player, action))
            self._seen = len(history)


_new = object.__new__


def _action_entry(kind: str, player: Player, action: Action) -> JournalEntry:
    """``JournalEntry(kind, player=player, action=action)`` made without the frozen class's
    per-field ``object.__setattr__`` calls: one is made for every action of every game."""
    entry = _new(JournalEntry)
    entry.__dict__.update(kind=kind, player=player, action=action, round=None, deal=None, to=None)
    return entry


log = Logger()


def replay_journal(driver: GameDriver, entries: Iterable[JournalEntry]) -> int:
    """Rebuild a game on a fresh, not yet started ``driver``; returns how many bot choices differed.

    The driver's subscribers should only be those that must follow the game
    without telling anyone (its own `BotSeats`); subscribe the others afterwards.
    A bot choosing differently from the journal (a changed bot) is logged; the
    journal's action is applied anyway, so the game itself is always exact.
    """
    differed = 0
    with Replay(driver, start=True) as replay:
        for number, entry in enumerate(entries):
            try:
                differed += _replay_one(replay, entry)
            except ReplayError:
                raise
            except Exception as error:
                raise ReplayError(f"journal entry {number} ({entry.kind}) does not apply: {error}") from error
    return differed


def _replay_one(replay: Replay, entry: JournalEntry) -> int:
    """Apply one entry again; 1 if a bot or stand-in chose differently from it (logged), else 0."""
    driver, action = replay.driver, entry.action
    if entry.kind == DEAL:
        assert entry.deal is not None  # a deal entry holds its cards
        if len(driver.game.rounds) != entry.round or tuple(driver.round.deal) != tuple(entry.deal):
            raise ReplayError(f"round {entry.round} was dealt differently; the seed does not rebuild it")
    elif entry.kind == ACT:
        assert action is not None  # an act, bot or timeout entry holds its action
        replay.act(action)
    elif entry.kind == BOT:
        assert action is not None
        if not replay.bot(action):
            log.warn("a bot chose differently from the journal; the journal's {action!r} is applied",
                     action=entry.action)
            return 1
    elif entry.kind == TIMEOUT:
        assert action is not None
        if not replay.timeout(entry.player, action):
            log.warn("a stand-in chose differently from the journal; the journal's {action!r} is applied",
                     action=entry.action)
            return 1
    elif entry.kind == SUBSTITUTE:
        replay.substitute(entry.player)
    elif entry.kind == HAND_OVER:
        replay.hand_over(entry.player, entry.to)
    elif entry.kind == REPLACE:
        replay.replace(entry.player)
    elif entry.kind == SUBSTITUTE_END:
        replay.substitute_end(entry.player)
    else:
        raise ReplayError(f"unknown journal entry {entry.kind!r}")
    return 0
