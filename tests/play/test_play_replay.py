"""Replay alone: a `Replay` applies stored steps to a fresh driver on a `Clock`, with no timers meanwhile."""

from __future__ import annotations

from twisted.internet.task import Clock

from bswtichu.engine import GameOptions, parse_cards
from bswtichu.engine.actions import DeclineGrand, Pass, Play
from bswtichu.play import GameDriver, GameSeeds, seated_bots
from bswtichu.play.journal import Journal
from bswtichu.play.replay import Replay, same_action
from bswtichu.records import BOT, TIMEOUT

PLAYERS = ("ann", "b1", "bob", "b2")


def driven(clock_seconds=3):
    clock = Clock()
    seeds = GameSeeds.from_seed(11)
    options = GameOptions(round_limit=1, clock=clock_seconds)
    bots = seated_bots(PLAYERS, options, {"b1": "basic", "b2": "basic"}, seeds)
    return GameDriver(PLAYERS, options, seeds, bots, clock, bot_delay=1.0), clock


def played():
    """A game whose journal holds bots' actions and one time-out for each person."""
    driver, clock = driven()
    entries = []
    driver.subscribe(Journal(entries.append))
    driver.start()
    for _ in range(3):
        clock.advance(1)
    return driver, entries


def test_bots_and_a_stand_in_out_of_time_choose_again_as_they_did_live():
    live, entries = played()
    assert {e.kind for e in entries} >= {BOT, TIMEOUT}
    again, clock = driven()
    with Replay(again) as replay:
        assert not clock.getDelayedCalls()  # no bot step, no clock while replaying
        for entry in entries[1:]:
            if entry.kind == BOT:
                assert replay.bot(entry.action)
            else:
                assert replay.timeout(entry.player, entry.action)
    assert again.round.history == live.round.history and again.strikes == live.strikes
    assert clock.getDelayedCalls()  # afterwards the game goes on: its bots and clocks are due


def test_a_stored_action_is_applied_even_when_the_bots_choose_otherwise():
    again, clock = driven(clock_seconds=None)
    with Replay(again) as replay:
        chosen = again.next_bot_action()
        other = next(a for a in again.round.legal_actions(chosen.seat) if not same_action(a, chosen))
        assert not replay.bot(other)
        replay.act(DeclineGrand(0))
    assert other in again.round.history and DeclineGrand(0) in again.round.history


def test_a_bots_play_is_the_stored_one_when_the_engine_only_resolved_its_phoenix():
    pair = parse_cards("7j PH")
    assert same_action(Play(1, pair), Play(1, pair, phoenix_as=7))  # the engine stores the rank it read
    assert not same_action(Play(1, pair, phoenix_as=8), Play(1, pair, phoenix_as=7))
    assert same_action(Pass(1), Pass(1)) and not same_action(Pass(1), Pass(2))
