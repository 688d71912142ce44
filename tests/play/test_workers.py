"""Bot decisions in worker processes: the same decision as in-process, a dead worker replaced,
and a game whose expert bots think in workers plays as the same seed does in-process."""

from __future__ import annotations

import copy
import os
import pickle
import signal

import pytest_twisted
from twisted.internet.defer import Deferred
from twisted.internet.task import Clock
from twisted.logger import globalLogPublisher

from bswtichu.bots import BotSettings, must_act
from bswtichu.engine import GameOptions
from bswtichu.play import BotTurns, GameDriver, GameSeeds, seated_bots
from bswtichu.play.workers import BotWorkers

TIMEOUT = 60  # a spawned worker imports the bots first; the machine is shared
CHEAP = BotSettings(expert_budget=20)
OPTIONS = GameOptions(round_limit=1)


def reactor():
    from twisted.internet import reactor as installed

    return installed


def driver_for(seed: int, workers: BotWorkers | None, clock) -> GameDriver:
    seeds = GameSeeds.from_seed(seed)
    bots = seated_bots(tuple(range(4)), OPTIONS, {0: "expert", 1: "basic", 2: "expert", 3: "basic"},
                       seeds, CHEAP)
    return GameDriver(tuple(range(4)), OPTIONS, seeds, bots, clock, turns=BotTurns(clock),
                      max_rounds=1, workers=workers)


def a_decision(seed: int):
    """An expert bot deep in a round, its view and legal actions."""
    driver = driver_for(seed, None, Clock())
    driver.start()
    for step in range(200):
        rnd = driver.round
        experts = [s for s in range(4) if must_act(rnd.view(None), s)
                   and driver.bots[driver.game.seating[s]].level == "expert"]
        if step >= 20 and experts:
            bot = driver.bots[driver.game.seating[experts[0]]]
            return bot, rnd.view(experts[0]), rnd.legal_actions(experts[0])
        driver.step()
    raise AssertionError("no expert decision in 200 steps")


@pytest_twisted.ensureDeferred
async def test_a_worker_decides_as_the_bot_would_here_and_leaves_it_in_the_same_state():
    workers = BotWorkers(reactor(), 1, frozenset({"expert"}))
    try:
        bot, view, legal = a_decision(3)
        here = copy.deepcopy(bot)
        expected = here.choose(view, legal)
        action, after = await workers.choose(bot, view, legal).addTimeout(TIMEOUT, reactor())
        assert action == expected
        assert after.rng.getstate() == here.rng.getstate()
        assert pickle.dumps(after) == pickle.dumps(here)
    finally:
        workers.close()


@pytest_twisted.ensureDeferred
async def test_a_killed_worker_is_replaced_and_the_decision_asked_again():
    workers = BotWorkers(reactor(), 1, frozenset({"expert"}))
    try:
        bot, view, legal = a_decision(4)
        expected = copy.deepcopy(bot).choose(view, legal)
        await workers.choose(copy.deepcopy(bot), view, legal).addTimeout(TIMEOUT, reactor())
        (pid,) = workers.worker_pids()
        os.kill(pid, signal.SIGKILL)
        died: list[dict] = []
        observer = lambda event: died.append(event) if event.get("event") == "worker_died" else None  # noqa: E731
        globalLogPublisher.addObserver(observer)
        try:
            action, _ = await workers.choose(bot, view, legal).addTimeout(TIMEOUT, reactor())
        finally:
            globalLogPublisher.removeObserver(observer)
        assert action == expected
        assert len(died) == 1
        assert workers.worker_pids() and pid not in workers.worker_pids()
    finally:
        workers.close()


class Recorder:
    """Every event of a game, in order; ``done`` fires once the game has ended."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self.done: Deferred = Deferred()

    def round_dealt(self, driver: GameDriver) -> None:
        pass

    def happened(self, driver: GameDriver, events) -> None:
        self.events += [repr(event) for event in events]
        if driver.finished and not self.done.called:
            self.done.callback(None)


@pytest_twisted.ensureDeferred
async def test_a_game_with_worker_decisions_is_the_game_the_seed_gives_in_process():
    clock = Clock()
    here, seen_here = driver_for(11, None, clock), Recorder()
    here.subscribe(seen_here)
    here.start()
    for _ in range(100_000):
        if here.finished:
            break
        clock.advance(0)
    workers = BotWorkers(reactor(), 2, frozenset({"expert"}))
    try:
        there, seen_there = driver_for(11, workers, reactor()), Recorder()
        there.subscribe(seen_there)
        there.start()
        await seen_there.done.addTimeout(TIMEOUT, reactor())
    finally:
        workers.close()
    assert here.finished and len(seen_here.events) > 50
    assert seen_there.events == seen_here.events
