"""The turn clock: how long a person may take over each decision, and what happens when it runs out.

The table option ``clock`` (`GameOptions.clock` seconds) times each decision the
round waits for from a person (his Grand Tichu decision, his exchange, his turn,
the Dragon gift, the wish) from the moment it is asked; out-of-turn actions
(bombs, Tichu calls) are not.  A person who plays more than one seat has one clock,
running while the round waits for any of them.  With ``CLOCK_WARNING`` seconds left
he is warned (`ClockWarning`, to his seat only).  When the time runs out, a stand-in
(a fresh ``SUBSTITUTE_LEVEL`` bot that has seen what his seat saw) makes that one
decision, announced by `ClockRanOut`; after ``CLOCK_STRIKES`` of them in a row (no
action of his between) the stand-in stays (`bswtichu.play.standins`).

While the game is paused or held for someone away, and while a journal is replayed,
the clocks do not run: each keeps what it had left and goes on from there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from twisted.internet.interfaces import IDelayedCall, IReactorTime

from bswtichu.engine import Event, Game
from bswtichu.play.calls import cancel_call
from bswtichu.records import Player
from .standins import SUBSTITUTE_LEVEL, OwningDriver

#: seconds left on the turn clock when the player is warned
CLOCK_WARNING = 10
#: decisions in a row that ran out of time before the stand-in stays for the player
CLOCK_STRIKES = 2


@dataclass(frozen=True)
class ClockWarning(Event):
    """``seconds`` are left on ``player``'s turn clock for what the round waits for (``need``:
    "grand", "exchange", or the turn's "lead", "follow", "wish", "give")."""

    player: Player
    seat: int
    seconds: int
    need: str
    kind = "clock_warning"

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True)
class ClockRanOut(Event):
    """``player``'s time ran out: a bot of ``level`` makes this one decision (``strikes``:
    how many in a row; at ``CLOCK_STRIKES`` the stand-in stays)."""

    player: Player
    seat: int
    level: str
    strikes: int
    kind = "clock_out"


class TurnClock:
    """Each timed person's deadline (and its warning), what was left while stopped, and his strikes.

    A call that may act on the game names the ``driver`` (the one that owns this): holding
    no reference to it, a finished game is freed without the cycle collector."""

    def __init__(self, clock: IReactorTime, game: Game, seconds: int | None):
        """``seconds`` for each decision of ``game``; None or 0: untimed, nothing here runs."""
        self.clock = clock
        self.game = game
        self.seconds = seconds
        #: per timed person whose clock runs now: (his deadline's call, its warning's call or None)
        self.running: dict[Player, tuple[IDelayedCall, IDelayedCall | None]] = {}
        #: while paused or held: the seconds each timed person had left
        self._left: dict[Player, float] = {}
        #: per person, decisions in a row that ran out of time
        self.strikes: dict[Player, int] = {}

    def time_left(self, player: Player) -> int | None:
        """Whole seconds left (rounded up) on ``player``'s turn clock, or None if it does not run."""
        clock = self.running.get(player)
        if clock is None:
            left = self._left.get(player)
            return None if left is None else math.ceil(left)
        return max(0, math.ceil(clock[0].getTime() - self.clock.seconds()))

    def run(self, driver: OwningDriver, acted: int | None) -> None:
        """Start the clock of each person the round now waits for (again for the seat that
        just acted, ``acted``: a new decision), stop it for those it no longer waits for."""
        if not self.seconds or driver.stopped:
            return
        game = self.game
        rnd, seating, hands_with = game.round, game.seating, game.variant.hands_with
        if rnd is None:
            return  # nothing dealt yet: nothing to time
        for first in game.variant.person_seats:
            player, seats = seating[first], hands_with[first]
            if player in driver.bots or not any(rnd.waits_for(seat) for seat in seats):
                self.forget(player)
            elif driver.paused or driver.holding or driver.replaying:
                if acted in seats or player not in self._left:
                    self._left[player] = float(self.seconds)
            elif acted in seats or player not in self.running:
                self._start(driver, player, self._left.pop(player, float(self.seconds)))

    def _start(self, driver: OwningDriver, player: Player, seconds: float) -> None:
        self.stop(player)
        later = self.clock.callLater
        deadline = later(seconds, self._time_out, driver, player)
        warning = later(seconds - CLOCK_WARNING, self._warn, driver, player) if seconds > CLOCK_WARNING else None
        self.running[player] = (deadline, warning)

    def stop(self, player: Player) -> None:
        """``player``'s clock stops; what it had left is kept if it was frozen (see `forget`)."""
        for call in self.running.pop(player, ()):
            cancel_call(call)

    def forget(self, player: Player) -> None:
        """``player`` is no longer timed now: his clock stops and what it had left goes."""
        self.stop(player)
        self._left.pop(player, None)

    def freeze(self) -> None:
        """Stop the running clocks, keeping what each had left (a pause, a hold)."""
        clock = self.clock
        for player in list(self.running):
            self._left[player] = self.running[player][0].getTime() - clock.seconds()
            self.stop(player)

    def cancel(self) -> None:
        """Every clock stops and nothing is kept (a new deal, the end of the game)."""
        for player in list(self.running):
            self.stop(player)
        self._left.clear()

    def waiting_seat(self, player: Player) -> int:
        """The first of ``player``'s seats that the round waits for (his first seat if none)."""
        game, rnd = self.game, self.game.round
        assert rnd is not None  # a clock runs only in a dealt round
        seats = game.seats_played_by(player)
        return next((seat for seat in seats if rnd.waits_for(seat)), seats[0])

    def _need(self) -> str:
        """What the round waits for now, in one word."""
        rnd = self.game.round
        assert rnd is not None  # a clock runs only in a dealt round
        return rnd.need or rnd.phase  # in play what the turn needs (`Round.need`), else the phase

    def _warn(self, driver: OwningDriver, player: Player) -> None:
        deadline, _ = self.running[player]
        self.running[player] = (deadline, None)
        driver._tell([ClockWarning(player, self.waiting_seat(player), CLOCK_WARNING, self._need())])

    def _time_out(self, driver: OwningDriver, player: Player) -> None:
        """His time is up: a stand-in makes this one decision; the second time in a row it stays."""
        self.running.pop(player, None)
        if driver.stopped or driver.paused or driver.holding or player in driver.bots:
            return
        strikes = self.strikes.get(player, 0) + 1
        driver._tell([ClockRanOut(player, self.waiting_seat(player), SUBSTITUTE_LEVEL, strikes)])
        driver.stand_ins.decide_for(driver, player, self.waiting_seat(player))
        self.strikes[player] = strikes
        if strikes >= CLOCK_STRIKES and not driver.stopped:
            driver.stand_ins.substitute(driver, player, "clock")
