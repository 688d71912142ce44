"""Stand-ins: a bot that plays a person's seats while he is away, out of time, or voted out.

A person away longer than ``substitute_after`` seconds gets a stand-in bot that has
seen everything his seat saw this round; it stands aside as soon as he acts again.
Until then the game holds for him (``holding``): no bot moves and no turn clock
runs, so a dropped connection costs nobody a decision; his return or his stand-in
ends it.  A stand-in also stays after the turn clock ran out ``CLOCK_STRIKES`` times
in a row (`bswtichu.play.turnclock`), until he types anything or acts.  By a vote at
his table a bot may play his seat for good (`replace`), or another person may take it
(`hand_over`).  A stand-in for a person takes all his seats (Trichu's dealer's dummy,
Duo's partner seat).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

from twisted.internet.interfaces import IDelayedCall, IReactorTime

from bswtichu.bots import Bot
from bswtichu.engine import Action, Event, Game, Round
from bswtichu.play.calls import cancel_call
from bswtichu.records import Player

#: the level of every stand-in bot
SUBSTITUTE_LEVEL = "basic"


@dataclass(frozen=True)
class SubstituteStarted(Event):
    """A bot of ``level`` plays for ``player``: he stayed away too long (``reason`` "away"),
    let the turn clock run out ``CLOCK_STRIKES`` times in a row ("clock"), his table voted
    to hand his seat to a bot for the rest of the game ("replaced": it never stands aside),
    or he was banned ("banned": at once, without the grace time)."""

    player: Player
    level: str
    reason: str = "away"
    kind = "substitute"


@dataclass(frozen=True)
class SeatHandedOver(Event):
    """By a vote at the table, ``to`` (a person) plays ``player``'s seat from now on, as him."""

    player: Player
    to: Player
    kind = "hand_over"


@dataclass(frozen=True)
class SubstituteEnded(Event):
    """``player`` is back and plays his seat again."""

    player: Player
    kind = "substitute_end"


class ClockOfStandIns(Protocol):
    """What the stand-ins do to the turn clock: a person with a stand-in is not timed."""

    strikes: dict[Player, int]

    def run(self, driver: OwningDriver, acted: int | None) -> None: ...

    def forget(self, player: Player) -> None: ...

    def freeze(self) -> None: ...


class OwningDriver(Protocol):
    """The driver as its parts (these stand-ins, the turn clock) see it: the game and its bots,
    its state and timers, and its ways to seat a bot, apply an action, tell what happened
    and let the bots go on."""

    game: Game
    clock: IReactorTime
    bots: dict[Player, Bot]
    holding: set[Player]
    substitute_after: float
    stopped: bool
    paused: bool
    replaying: bool

    @property
    def round(self) -> Round: ...

    @property
    def turn_clock(self) -> ClockOfStandIns: ...

    @property
    def stand_ins(self) -> StandIns: ...

    def seat_of(self, player: Player) -> int: ...

    def _seat_bot(self, level: str, seat: int) -> Bot: ...

    def _seat_further_hands(self) -> None: ...

    def _checked(self, seat: int, action: Action, legal: Sequence[Action]) -> Action: ...

    def _apply(self, action: Action) -> None: ...

    def _tell(self, events: Sequence[Event]) -> None: ...

    def _schedule_bots(self) -> None: ...

    def _cancel_bot_call(self) -> None: ...


class StandIns:
    """Who is away, who has a stand-in (and who for good), and the grace timers before one starts.

    Each call names the ``driver`` it acts on (the one that owns this): holding no reference
    to it, a finished game is freed without the cycle collector."""

    def __init__(self) -> None:
        self.away: set[Player] = set()
        self.substitutes: set[Player] = set()
        #: persons whose seat a bot plays for good (`replace`)
        self.replaced: set[Player] = set()
        #: persons away whose ``substitute_after`` runs: the game holds (no bot moves, no clocks)
        self.holding: set[Player] = set()
        self._away_calls: dict[Player, IDelayedCall] = {}

    def player_away(self, driver: OwningDriver, player: Player) -> None:
        """A person left or dropped: after ``substitute_after`` a bot plays for him."""
        if driver.stopped or player in driver.bots:
            return
        self.away.add(player)
        if driver.paused:
            return  # his stand-in's timer starts when the game goes on
        if driver.substitute_after <= 0:
            self.substitute(driver, player)
        else:
            later = driver.clock.callLater
            self._away_calls[player] = later(driver.substitute_after, self.substitute, driver, player)
            self._hold(driver, player)

    def substitute_now(self, driver: OwningDriver, player: Player) -> None:
        """A person away for good (banned): his stand-in starts at once, not after the grace."""
        if driver.stopped or player in driver.bots:
            return
        self.away.add(player)
        cancel_call(self._away_calls.pop(player, None))
        if not driver.paused:
            self.substitute(driver, player, "banned")

    def player_back(self, driver: OwningDriver, player: Player) -> None:
        """He is back: his timer stops and any stand-in stands aside."""
        self.away.discard(player)
        cancel_call(self._away_calls.pop(player, None))
        if player in self.substitutes:
            self.end(driver, player)
        self._release(driver, player)

    def player_active(self, driver: OwningDriver, player: Player) -> None:
        """He typed something while present: a stand-in playing for him stands aside."""
        if not driver.stopped and player in self.substitutes and player not in self.away:
            self.end(driver, player)

    def substitute(self, driver: OwningDriver, player: Player, reason: str = "away") -> None:
        """A stand-in starts playing for ``player`` (``reason``: see `SubstituteStarted`)."""
        self._away_calls.pop(player, None)
        if driver.stopped or player in self.substitutes:
            return
        driver.bots[player] = self.stand_in(driver, player)
        driver._seat_further_hands()
        self.substitutes.add(player)
        driver.turn_clock.forget(player)
        driver._tell([SubstituteStarted(player, SUBSTITUTE_LEVEL, reason)])
        self._release(driver, player)
        driver._schedule_bots()

    def end(self, driver: OwningDriver, player: Player) -> None:
        """``player``'s stand-in stands aside: he plays his seats again, timed."""
        self.substitutes.discard(player)
        driver.bots.pop(player, None)
        driver._seat_further_hands()
        driver.turn_clock.strikes.pop(player, None)
        driver.turn_clock.run(driver, None)
        driver._tell([SubstituteEnded(player)])

    def replace(self, driver: OwningDriver, player: Player) -> None:
        """A bot plays ``player``'s seat to the end of the game (his table voted so)."""
        if driver.stopped or player in self.replaced or player not in driver.game.seating:
            return
        self._no_longer_timed(driver, player)
        if player not in driver.bots:
            driver.bots[player] = self.stand_in(driver, player)
            driver._seat_further_hands()
        self.substitutes.discard(player)
        self.replaced.add(player)
        driver._tell([SubstituteStarted(player, SUBSTITUTE_LEVEL, "replaced")])
        self._release(driver, player)
        driver._schedule_bots()

    def hand_over(self, driver: OwningDriver, player: Player, to: Player) -> None:
        """``to``, a person, takes ``player``'s seat, points and past for the rest of the game
        (his table voted so); a stand-in playing the seat stands aside."""
        if driver.stopped or player not in driver.game.seating or player in self.replaced:
            return
        self._no_longer_timed(driver, player)
        self.substitutes.discard(player)
        driver.bots.pop(player, None)
        driver.game.rename(player, to)
        driver._seat_further_hands()
        driver._tell([SeatHandedOver(player, to)])
        self._release(driver, player)
        driver.turn_clock.run(driver, None)
        driver._schedule_bots()

    def _no_longer_timed(self, driver: OwningDriver, player: Player) -> None:
        """His grace timer, his clock and his strikes go; he is no longer away (a vote decided)."""
        cancel_call(self._away_calls.pop(player, None))
        self.away.discard(player)
        driver.turn_clock.forget(player)
        driver.turn_clock.strikes.pop(player, None)

    def stand_in(self, driver: OwningDriver, player: Player, seat: int | None = None) -> Bot:
        """A stand-in bot for ``player`` at ``seat`` (his first by default) that has seen what
        the seat saw this round; his further hands get theirs from the driver's `_seat_further_hands`."""
        return driver._seat_bot(SUBSTITUTE_LEVEL, driver.seat_of(player) if seat is None else seat)

    def decide_for(self, driver: OwningDriver, player: Player, seat: int) -> None:
        """The one decision a fresh stand-in makes for ``player`` at ``seat`` (his time ran out), applied."""
        rnd = driver.round
        legal = rnd.legal_actions(seat)
        driver._apply(driver._checked(seat, self.stand_in(driver, player, seat).choose(rnd.view(seat), legal), legal))

    def _hold(self, driver: OwningDriver, player: Player) -> None:
        """The game waits for ``player`` (away, his stand-in not yet due): the clocks stop."""
        self.holding.add(player)
        driver.turn_clock.freeze()
        driver._cancel_bot_call()

    def _release(self, driver: OwningDriver, player: Player) -> None:
        """``player`` is back or has his stand-in: once nobody is waited for, the game goes on."""
        if player not in self.holding:
            return
        self.holding.discard(player)
        if not self.holding and not driver.paused:
            driver.turn_clock.run(driver, None)
            driver._schedule_bots()

    def resume(self, driver: OwningDriver) -> None:
        """The pause is over: nobody is held any more, and those still away get their grace timers again."""
        self.holding.clear()
        for player in sorted(self.away - self.substitutes, key=str):
            self.away.discard(player)
            self.player_away(driver, player)

    def cancel_timers(self) -> None:
        """No stand-in starts any more (a pause; the end of the game)."""
        for call in self._away_calls.values():
            cancel_call(call)
        self._away_calls.clear()
