"""The game driver: one way of running bots for server tables and headless matches."""

from __future__ import annotations

import gc
import weakref
from random import Random

import pytest

from twisted.internet.task import Clock

from bswtichu.bots import BasicBot
from bswtichu.engine import GameOptions
from bswtichu.engine import events as ev
from bswtichu.engine.round import OVER
from bswtichu.play import (
    BotTurns, GameDriver, GameSeeds, GameStopped, SubstituteEnded, SubstituteStarted, headless_driver,
    play_game, seated_bots,
)


class Recorder:
    """A subscriber that keeps everything it is told."""

    def __init__(self):
        self.deals = 0
        self.events: list = []

    def round_dealt(self, driver):
        self.deals += 1

    def happened(self, driver, events):
        self.events.extend(events)


def test_the_same_seed_gives_the_same_game_and_another_seed_another():
    first = play_game(["basic", "random"] * 2, GameOptions(round_limit=2), seed="s/1")
    assert first == play_game(["basic", "random"] * 2, GameOptions(round_limit=2), seed="s/1")
    assert first != play_game(["basic", "random"] * 2, GameOptions(round_limit=2), seed="s/2")


class OutOfTurnBomber(BasicBot):
    """Remembers when it was asked for an out-of-turn action, and never takes one."""

    def __init__(self, seat, rng, asked):
        super().__init__(seat, rng)
        self.asked = asked

    def interrupt(self, view, legal):
        self.asked.append(self.seat)
        return None


def test_seats_are_asked_for_out_of_turn_actions_in_play_order_after_the_waiting_seat():
    asked: list[int] = []
    bots = [OutOfTurnBomber(s, Random(s), asked) for s in range(4)]
    driver, _ = headless_driver(bots, GameOptions(round_limit=1), GameSeeds.from_seed(2))
    driver.start()
    while driver.round.phase != "play":
        driver.step()
    several = 0
    while driver.round.phase != OVER:
        turn = driver.round.view().turn
        asked.clear()
        driver.step()
        others = [(turn + k) % 4 for k in (1, 2, 3)]
        assert asked == [s for s in others if s in asked]
        several += len(asked) >= 2
    assert several >= 1


def test_subscribers_hear_every_deal_and_every_event_in_order():
    seeds = GameSeeds.from_seed(4)
    bots = seated_bots(tuple(range(4)), GameOptions(), dict.fromkeys(range(4), "random"), seeds)
    driver = GameDriver(tuple(range(4)), GameOptions(round_limit=3), seeds, bots, Clock())
    recorder = Recorder()
    driver.subscribe(recorder)
    driver.start()
    while driver.step() is not None:
        pass
    assert driver.game.over and recorder.deals == 3
    ends = [e for e in recorder.events if isinstance(e, ev.RoundEnded)]
    assert [e.result for e in ends] == [rnd.result for rnd in driver.game.rounds]
    assert isinstance(recorder.events[-1], ev.GameOver)


def test_a_stand_in_has_seen_what_the_seat_saw_and_stands_aside_when_he_is_back(monkeypatch):
    import bswtichu.play.driver as driver_module

    stand_ins = []

    def recording_bot(level, seat, rng, *settings_and_variant):
        bot = BasicBot(seat, rng)
        bot.told = []
        bot.observe = bot.told.append
        stand_ins.append(bot)
        return bot

    seeds = GameSeeds.from_seed(6)
    players = ("Ann", "Bob", "Cy", "Dan")
    clock = Clock()
    bots = seated_bots(players, GameOptions(), {"Cy": "basic", "Dan": "basic"}, seeds)
    driver = GameDriver(players, GameOptions(round_limit=1), seeds, bots, clock, bot_delay=1.0,
                        substitute_after=30.0)
    recorder = Recorder()
    driver.subscribe(recorder)
    driver.start()
    monkeypatch.setattr(driver_module, "make_bot", recording_bot)
    driver.player_away("Ann")
    clock.advance(29)
    assert "Ann" not in driver.bots and not stand_ins
    clock.advance(1)
    [stand_in] = stand_ins
    assert driver.bots["Ann"] is stand_in and stand_in.seat == 0
    started = [e for e in recorder.events if isinstance(e, SubstituteStarted)]
    assert [(e.player, e.level) for e in started] == [("Ann", "basic")]
    before = recorder.events[:recorder.events.index(started[0])]
    visible = [e for e in before if e.private_to in (None, 0)]
    assert stand_in.told[:len(visible)] == visible
    assert any(e.private_to == 0 for e in stand_in.told)  # his own cards
    clock.advance(5)  # Bob, a person, is to decide: the stand-in has decided for Ann
    assert any(action.seat == 0 for action in driver.round.history)
    driver.player_back("Ann")
    assert isinstance(recorder.events[-1], SubstituteEnded) and "Ann" not in driver.bots


def test_stop_cancels_the_bots_and_tells_the_subscribers():
    seeds = GameSeeds.from_seed(1)
    players = ("Ann", "Bob", "Cy", "Dan")
    clock = Clock()
    bots = seated_bots(players, GameOptions(), {"Bob": "random", "Cy": "random", "Dan": "random"}, seeds)
    driver = GameDriver(players, GameOptions(), seeds, bots, clock, bot_delay=1.0)
    recorder = Recorder()
    driver.subscribe(recorder)
    driver.start()
    assert clock.getDelayedCalls()
    driver.stop()
    assert not clock.getDelayedCalls() and driver.finished
    assert isinstance(recorder.events[-1], GameStopped)
    driver.stop()
    assert sum(isinstance(e, GameStopped) for e in recorder.events) == 1


def test_max_rounds_stops_a_game_that_does_not_end():
    seeds = GameSeeds.from_seed(1)
    bots = seated_bots(tuple(range(4)), GameOptions(), dict.fromkeys(range(4), "random"), seeds)
    driver, clock = headless_driver([bots[p] for p in range(4)], GameOptions(), seeds, max_rounds=2)
    driver.start()
    clock.advance(0)
    assert driver.finished and len(driver.game.rounds) == 2 and not clock.getDelayedCalls()


class Holder(Recorder):
    """A subscriber that keeps its driver, as a table's game does."""

    def __init__(self, driver):
        super().__init__()
        self.driver = driver


@pytest.mark.parametrize("end", ["over", "stopped", "max_rounds"])
def test_an_ended_game_is_freed_without_the_cycle_collector(end):
    """Once a game has ended and its subscribers heard it, the driver lets go of them: a
    subscriber that keeps the driver makes no reference cycle, so the game's whole state
    goes when the last reference does (no full collection needed)."""
    seeds = GameSeeds.from_seed(2)
    bots = seated_bots(tuple(range(4)), GameOptions(), dict.fromkeys(range(4), "random"), seeds)
    options = GameOptions(round_limit=1) if end == "over" else GameOptions()
    driver = GameDriver(tuple(range(4)), options, seeds, bots, Clock(),
                        max_rounds=1 if end == "max_rounds" else None)
    holder = Holder(driver)
    driver.subscribe(holder)
    driver.start()
    if end == "stopped":
        driver.step()
        driver.stop()
    else:
        while driver.step() is not None:
            pass
    assert driver.finished and holder.events
    gone = weakref.ref(driver)
    gc.disable()
    try:
        del driver, holder
        assert gone() is None
    finally:
        gc.enable()


def test_bot_turns_run_one_due_step_per_turn_in_order():
    clock = Clock()
    turns = BotTurns(clock)
    ran: list[str] = []
    for name in ("a", "b", "c"):
        turns.enqueue(lambda name=name: ran.append(name))
    assert len(clock.getDelayedCalls()) == 1 and len(turns) == 3  # one step per reactor turn
    clock.advance(0)
    assert ran == ["a", "b", "c"] and not clock.getDelayedCalls() and len(turns) == 0


def test_drivers_sharing_bot_turns_play_the_same_games_as_alone():
    def finished_histories(turns):
        clock = Clock()
        drivers = []
        for seed in (1, 2):
            seeds = GameSeeds.from_seed(seed)
            bots = seated_bots(tuple(range(4)), GameOptions(), dict.fromkeys(range(4), "basic"), seeds)
            driver = GameDriver(tuple(range(4)), GameOptions(round_limit=1), seeds, bots, clock,
                                turns=turns(clock))
            driver.start()
            drivers.append(driver)
        clock.advance(0)
        assert all(d.game.over for d in drivers)
        return [d.game.rounds[0].history for d in drivers]

    shared = {}
    assert finished_histories(lambda clock: shared.setdefault("turns", BotTurns(clock))) == \
        finished_histories(lambda clock: None)
