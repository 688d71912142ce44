"""Presence at a table: who is away, how long his seat is held, how long a game waits for people.

A seated player who leaves or loses his connection is *away*: his seat is held for him.
Before the start it is held for ``reconnect_grace`` seconds, then freed; after the start
it is held to the end of the game (the grace, when he dropped, decides only whether he
keeps it once the game ends).  A running game with no seated person present pauses,
and is abandoned if nobody comes back within ``abandon_after`` (``bot_game_after`` for a
bots' game nobody watches).

These timers run on the injected clock and change often (every leave, drop, return and
spectator), so they live here, apart from the seats; what happens when one comes due (a
seat freed, the table closed) is the table's (`PresenceTable`).
"""

from __future__ import annotations

from typing import Protocol

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger


class WaitingGame(Protocol):
    """The running game as presence holds it (the table's `RunningGame`)."""

    def pause(self) -> None:
        """Nobody is present: bots wait."""


class PresenceTable(Protocol):
    """What presence needs from its table (the `Table`)."""

    number: int
    spectators: list[str]
    bots: dict[int, tuple[str, str]]
    log: Logger

    @property
    def game(self) -> WaitingGame | None:
        """The running game, if any."""

    @property
    def bots_game(self) -> bool:
        """Bots hold every seat but one person's at most."""

    def players(self) -> list[tuple[int, str]]:
        """(seat, nick) for every taken seat."""

    def grace_ended(self, seat: int) -> None:
        """The grace of the player away from ``seat`` ran out."""

    def nobody_came_back(self) -> None:
        """The running game waited for its people in vain: it is abandoned."""


class Presence:
    """Who at one table is away, and the timers that wait for people to come back."""

    def __init__(self, table: PresenceTable, clock: IReactorTime, reconnect_grace: float,
                 abandon_after: float, bot_game_after: float) -> None:
        self.table = table
        self._clock = clock
        self.grace = reconnect_grace
        self._abandon_after = abandon_after
        self._bot_game_after = bot_game_after
        #: seat -> the pending grace timer of the player away from it, or None once it ran out
        #: (or if he left a started table: no grace then)
        self.away: dict[int, IDelayedCall | None] = {}
        self._abandon_timer: IDelayedCall | None = None
        #: the running abandon timer is the short one of a bots' game nobody watches
        self._abandon_soon = False

    # -- who is away ----------------------------------------------------------

    def is_away(self, seat: int) -> bool:
        return seat in self.away

    @property
    def anyone_away(self) -> bool:
        return bool(self.away)

    @property
    def within_grace(self) -> bool:
        """Some player away may still come back within his grace."""
        return any(timer is not None for timer in self.away.values())

    def people_present(self) -> list[str]:
        """The seated people (not bots) who are at the table, in seat order."""
        away, bots = self.away, self.table.bots
        return [nick for seat, nick in self.table.players() if seat not in bots and seat not in away]

    def grace_ran_out(self) -> list[int]:
        """The seats held for players whose grace ran out (or who left the started table), in order."""
        return sorted(seat for seat, timer in self.away.items() if timer is None)

    def hold(self, seat: int, timed: bool) -> None:
        """``seat``'s player is away; with ``timed`` his grace starts (`PresenceTable.grace_ended`)."""
        self.away[seat] = self._clock.callLater(self.grace, self._grace_over, seat) if timed else None

    def release(self, seat: int) -> None:
        """``seat`` is no longer held: its player is back, or lost it."""
        timer = self.away.pop(seat, None)
        if timer is not None and timer.active():
            timer.cancel()

    def _grace_over(self, seat: int) -> None:
        self.away[seat] = None
        self.table.grace_ended(seat)

    # -- the running game waits -------------------------------------------------

    @property
    def waiting_for_people(self) -> bool:
        """The running game is paused because no seated person is present."""
        return self._abandon_timer is not None

    def wait_for_people(self) -> None:
        """With no seated person present the running game waits: ``abandon_after``, or only
        ``bot_game_after`` for a bots' game nobody watches (said again as spectators come
        and go: a watcher gives it the long wait, the last one's going the short one)."""
        table = self.table
        if self.people_present():
            return
        soon = table.bots_game and not table.spectators
        if self._abandon_timer is not None:
            if soon == self._abandon_soon:
                return
            self.stop_waiting()
        else:
            table.log.info("table {number} pauses: no player is present", number=table.number)
            assert table.game is not None
            table.game.pause()
        self._abandon_soon = soon
        self._abandon_timer = self._clock.callLater(self._bot_game_after if soon else self._abandon_after,
                                                    self._abandon)

    def stop_waiting(self) -> bool:
        """A seated person is back (or the game ended): no more waiting; True if it waited."""
        timer, self._abandon_timer = self._abandon_timer, None
        if timer is not None and timer.active():
            timer.cancel()
        return timer is not None

    def _abandon(self) -> None:
        self._abandon_timer = None
        self.table.nobody_came_back()

    def cancel(self) -> None:
        """The table closes: every timer is dropped, nobody is held for."""
        self.stop_waiting()
        for timer in self.away.values():
            if timer is not None and timer.active():
                timer.cancel()
        self.away.clear()
