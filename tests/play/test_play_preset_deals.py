"""A driver given preset deals (a duplicate event's round) plays exactly those, in order, and
a replay of its journal rebuilds it; a driver without them shuffles as before."""

from __future__ import annotations

import pytest
from twisted.internet.task import Clock

from bswtichu.engine import GameOptions
from bswtichu.events.duplicate import round_deals
from bswtichu.play import GameDriver, GameSeeds, seated_bots
from bswtichu.play.journal import Journal, replay_journal
from bswtichu.records import DEAL

PLAYERS = ("b1", "b2", "b3", "b4")
DEALS = round_deals(2026, 1, 4)


def bot_driver(options: GameOptions, deals=DEALS, seed: int = 5, max_rounds: int | None = None):
    seeds = GameSeeds.from_seed(seed)
    bots = seated_bots(PLAYERS, options, {p: "basic" for p in PLAYERS}, seeds)
    clock = Clock()
    return GameDriver(PLAYERS, options, seeds, bots, clock, max_rounds=max_rounds, deals=deals), clock


def test_a_game_given_four_deals_plays_exactly_those_in_order():
    driver, clock = bot_driver(GameOptions(round_limit=4))
    entries = []
    driver.subscribe(Journal(entries.append))
    driver.start()
    clock.advance(0)
    dealt = [tuple(rnd.deal) for rnd in driver.game.rounds]
    assert driver.game.over and dealt == list(DEALS)
    assert [e.deal for e in entries if e.kind == DEAL] == dealt


def test_two_seeds_play_the_same_deals_and_only_the_bots_differ():
    first, clock_one = bot_driver(GameOptions(round_limit=1), seed=1)
    second, clock_two = bot_driver(GameOptions(round_limit=1), seed=2)
    first.start()
    second.start()
    assert first.round.deal == second.round.deal == DEALS[0]


def test_the_journal_of_a_preset_game_replays_on_a_driver_given_the_same_deals():
    live, clock = bot_driver(GameOptions(round_limit=4))
    entries = []
    live.subscribe(Journal(entries.append))
    live.start()
    for _ in range(120):  # into the game, not to its end
        live.step()
    again, _ = bot_driver(GameOptions(round_limit=4))
    assert replay_journal(again, entries) == 0
    assert [r.deal for r in again.game.rounds] == [r.deal for r in live.game.rounds]
    assert again.round.history == live.round.history


def test_a_replay_given_other_deals_is_refused():
    live, _ = bot_driver(GameOptions(round_limit=4))
    entries = []
    live.subscribe(Journal(entries.append))
    live.start()
    other, _ = bot_driver(GameOptions(round_limit=4), deals=round_deals(2026, 2, 4))
    with pytest.raises(Exception, match="dealt differently"):
        replay_journal(other, entries)


@pytest.mark.parametrize("options, max_rounds", [
    (GameOptions(), None),                 # to 1000: may want more rounds than deals
    (GameOptions(round_limit=5), None),    # more rounds than deals
    (GameOptions(turnier=True), None),     # 9 rounds
])
def test_a_game_that_could_outlast_its_deals_is_refused(options, max_rounds):
    with pytest.raises(ValueError, match="round limit of at most 4"):
        bot_driver(options, max_rounds=max_rounds)


def test_a_limit_by_max_rounds_is_enough():
    driver, _ = bot_driver(GameOptions(), max_rounds=4)
    assert driver.preset_deals == DEALS


def test_a_deal_that_is_not_the_whole_deck_is_refused():
    broken = (DEALS[0][:-1] + DEALS[0][:1],) + DEALS[1:]
    with pytest.raises(ValueError, match="preset deal 1"):
        bot_driver(GameOptions(round_limit=4), deals=broken)


def test_an_ordinary_game_has_no_preset_deals():
    driver, _ = bot_driver(GameOptions(), deals=None)
    driver.start()
    assert driver.preset_deals is None and driver.round.deal not in DEALS
