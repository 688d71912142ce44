"""The turn clock alone: a `TurnClock` on a `Clock`, with a stand-in for the driver that records what it is asked."""

from __future__ import annotations

from random import Random

from twisted.internet.task import Clock

from bswtichu.engine import Game, GameOptions
from bswtichu.play.turnclock import CLOCK_STRIKES, CLOCK_WARNING, ClockRanOut, ClockWarning, TurnClock

PLAYERS = ("ann", "b1", "bob", "b2")


class Owner:
    """The driver as the turn clock sees it (`TimedGame`), and its stand-ins, recording their calls."""

    def __init__(self):
        self.bots = {"b1": object(), "b2": object()}
        self.holding: set = set()
        self.stopped = self.paused = self.replaying = False
        self.told: list = []
        self.decided: list = []
        self.substituted: list = []
        self.stand_ins = self

    def _tell(self, events):
        self.told.extend(events)

    def decide_for(self, driver, player, seat):
        self.decided.append((player, seat))

    def substitute(self, driver, player, reason):
        self.substituted.append((player, reason))


def timed(seconds=30):
    """A clock over a dealt round that waits for everyone's Grand Tichu decision."""
    game = Game(PLAYERS, GameOptions(clock=seconds), Random(1))
    game.start_round()
    clock = Clock()
    return TurnClock(clock, game, seconds), Owner(), clock


def test_each_person_waited_for_is_timed_and_warned_and_a_bot_is_not():
    turn_clock, owner, clock = timed(30)
    turn_clock.run(owner, None)
    assert set(turn_clock.running) == {"ann", "bob"}
    clock.advance(30 - CLOCK_WARNING)
    assert [turn_clock.time_left(p) for p in ("ann", "b1", "bob")] == [CLOCK_WARNING, None, CLOCK_WARNING]
    assert sorted((w.player, w.seat, w.need) for w in owner.told if isinstance(w, ClockWarning)) == [
        ("ann", 0, "grand"), ("bob", 2, "grand")]


def test_a_time_out_asks_the_stand_ins_for_one_decision_and_the_strikes_make_one_stay():
    turn_clock, owner, clock = timed(30)
    for strike in range(1, CLOCK_STRIKES + 1):
        turn_clock.run(owner, None)  # asked again: the fake stand-ins decided nothing
        clock.advance(30)
        outs = [e for e in owner.told if isinstance(e, ClockRanOut)]
        assert sorted((e.player, e.strikes) for e in outs[-2:]) == [("ann", strike), ("bob", strike)]
    assert sorted(owner.decided) == [("ann", 0), ("ann", 0), ("bob", 2), ("bob", 2)]
    assert sorted(owner.substituted) == [("ann", "clock"), ("bob", "clock")]
    assert turn_clock.strikes == {"ann": CLOCK_STRIKES, "bob": CLOCK_STRIKES}


def test_a_frozen_clock_keeps_what_it_had_left_and_goes_on_from_there():
    turn_clock, owner, clock = timed(30)
    turn_clock.run(owner, None)
    clock.advance(12)
    turn_clock.freeze()
    owner.paused = True
    turn_clock.run(owner, None)  # while paused nothing starts
    clock.advance(100)
    assert not turn_clock.running and turn_clock.time_left("ann") == 18 and not owner.told
    owner.paused = False
    turn_clock.run(owner, None)
    assert turn_clock.time_left("ann") == 18
    turn_clock.forget("ann")
    assert turn_clock.time_left("ann") is None and turn_clock.time_left("bob") == 18


def test_an_untimed_game_runs_no_clock():
    turn_clock, owner, clock = timed(None)
    turn_clock.run(owner, None)
    clock.advance(1000)
    assert not turn_clock.running and turn_clock.time_left("ann") is None and not owner.told
    assert not clock.getDelayedCalls()
