"""A duplicate event played by bots, without the server: 8 pairs, 2 rounds of 4 deals. Every
table of a round is dealt the round's deals in the same seats, and the standings equal the
reference's match points computed from the games' own round results."""

from __future__ import annotations

from fractions import Fraction
from random import Random

from twisted.internet.task import Clock

from bswtichu.engine import GameOptions
from bswtichu.engine.deal import first_cards, last_cards
from bswtichu.events.duplicate import (
    DealResult, duplicate_standings, round_deals, seat_duplicate_round, table_seats,
)
from bswtichu.play import GameDriver, GameSeeds, seated_bots

from duplicate_reference import reference_match_points

PAIRS = [f"P{i}" for i in range(1, 9)]
MEMBERS = {pair: (pair + "n", pair + "s") for pair in PAIRS}
SEED = 36
DEALS = 4


def play_table(players: tuple[str, ...], deals, seed: int) -> GameDriver:
    """A game of four bots at one table, given the round's deals, played to its end."""
    options = GameOptions(round_limit=len(deals))
    seeds = GameSeeds.from_seed(seed)
    bots = seated_bots(players, options, {p: "basic" for p in players}, seeds)
    clock = Clock()
    driver = GameDriver(players, options, seeds, bots, clock, deals=deals)
    driver.start()
    clock.advance(0)
    assert driver.finished
    return driver


def seats_hands(deal):
    return [(frozenset(first_cards(deal, s)), frozenset(last_cards(deal, s))) for s in range(4)]


def test_eight_pairs_over_two_rounds_of_four_deals():
    rng = Random(SEED)
    rounds, results = [], []
    for number in (1, 2):
        standings = {s.pair: s.match_points for s in duplicate_standings(rounds, results, DEALS)}
        seated = seat_duplicate_round(PAIRS, standings, rounds, rng)
        rounds.append(seated)
        deals = round_deals(SEED, number, DEALS)
        for table, match in enumerate(seated.matches):
            driver = play_table(table_seats(match, MEMBERS), deals, seed=100 * number + table)
            game = driver.game
            assert [seats_hands(r.deal) for r in game.rounds] == [seats_hands(d) for d in deals[:len(game.rounds)]]
            for deal, rnd in enumerate(game.rounds, start=1):
                assert rnd.result is not None
                results.append(DealResult(number, deal, match.first, match.second, rnd.result.score))
    met = [frozenset((m.first, m.second)) for r in rounds for m in r.matches]
    assert len(set(met)) == 8  # no rematch

    expected: dict[str, Fraction] = {}
    for number, seated in enumerate(rounds, start=1):
        for deal in range(1, DEALS + 1):
            played = [(r.north_south, r.east_west, r.points) for r in results
                      if (r.round, r.deal) == (number, deal)]
            scores = reference_match_points(played, len(seated.matches))
            for match in seated.matches:
                for pair in (match.first, match.second):
                    expected[pair] = expected.get(pair, Fraction(0)) + scores.get(pair, Fraction(3))
    standings = duplicate_standings(rounds, results, DEALS)
    assert {s.pair: s.match_points for s in standings} == expected
    assert sum(expected.values()) == 2 * DEALS * 2 * 4 * 3  # rounds x deals x directions x T(T-1)
    assert all(s.top == 2 * DEALS * 6 for s in standings)
