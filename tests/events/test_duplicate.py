"""Duplicate Tichu: the deals from a seed, the seating of a round, and the match points on
worked examples (docs/rules.md items 60-69) and against the reference."""

from fractions import Fraction
from random import Random

import pytest

from bswtichu.engine import DECK, Game, GameOptions
from bswtichu.engine.deal import first_cards, last_cards
from bswtichu.events.duplicate import (
    DEAL_METHOD, DealResult, deal_match_points, duplicate_standings, event_deal, match_points,
    round_deals, seat_duplicate_round, table_seats,
)
from bswtichu.events.pairing import Match, PairsRound

from duplicate_reference import reference_match_points


# ---------------------------------------------------------------------------- the deals


def test_the_same_seed_round_and_deal_give_the_same_deal():
    assert event_deal(7, 1, 1) == event_deal(7, 1, 1)
    assert round_deals("evening-12", 2, 4) == round_deals("evening-12", 2, 4)


def test_different_seeds_rounds_or_deals_give_different_deals():
    deals = [event_deal(seed, r, d) for seed in (1, 2, "1") for r in (1, 2) for d in (1, 2, 3)]
    assert len(set(deals)) == len(deals)


def test_a_deal_is_an_ordering_of_the_whole_deck():
    for number in range(1, 20):
        deal = event_deal(number, 3, number)
        assert len(deal) == len(DECK) and set(deal) == set(DECK)


def test_the_method_is_pinned_so_an_old_event_deals_again_on_any_python():
    """If this fails, the deal method changed: old events would deal differently. Give the
    new method a new DEAL_METHOD name and keep the old one readable instead."""
    assert DEAL_METHOD == "bswtichu-duplicate-deal/1"
    assert " ".join(c.text for c in event_deal(7, 1, 1)[:12]) == "6p Js DG Tj 8p 3j Ts 3p 4s 5s 6s 9r"
    assert " ".join(c.text for c in event_deal("x", 2, 3)[:6]) == "9p 3s 4s 6p 7r PH"


def test_round_deals_are_the_rounds_deals_in_order():
    assert round_deals(5, 2, 3) == (event_deal(5, 2, 1), event_deal(5, 2, 2), event_deal(5, 2, 3))


@pytest.mark.parametrize("call", [lambda: event_deal(1, 0, 1), lambda: event_deal(1, 1, 0),
                                  lambda: round_deals(1, 1, 0), lambda: event_deal(1.5, 1, 1),
                                  lambda: event_deal(True, 1, 1)])
def test_bad_deal_numbers_and_seeds_are_refused(call):
    with pytest.raises((ValueError, TypeError)):
        call()


def test_every_table_given_the_deal_holds_the_same_hands_in_the_same_seats():
    deal = event_deal(11, 1, 1)
    hands = []
    for players in (("a", "b", "c", "d"), ("e", "f", "g", "h")):
        game = Game(players, GameOptions(round_limit=1), Random(0))
        game.start_round(deal)
        hands.append([set(first_cards(deal, seat)) | set(last_cards(deal, seat)) for seat in range(4)])
        assert [set(h) for h in game.round.hands] == [set(first_cards(deal, s)) for s in range(4)]
    assert hands[0] == hands[1]


# ---------------------------------------------------------------------------- the seating


PAIRS = [f"P{i}" for i in range(1, 9)]


def test_a_duplicate_round_is_a_pairs_swiss_round_with_north_south_first():
    seated = seat_duplicate_round(PAIRS, {}, [], Random(3))
    assert isinstance(seated, PairsRound) and len(seated.matches) == 4 and seated.bye is None
    members = {pair: (pair + "a", pair + "b") for pair in PAIRS}
    match = seated.matches[0]
    north, east, south, west = table_seats(match, members)
    assert (north, south) == members[match.first] and (east, west) == members[match.second]


def test_over_rounds_no_rematch_and_directions_alternate():
    rounds: list[PairsRound] = []
    rng = Random(9)
    for _ in range(4):
        rounds.append(seat_duplicate_round(PAIRS, {p: rng.randrange(20) for p in PAIRS}, rounds, rng))
    met = [frozenset((m.first, m.second)) for r in rounds for m in r.matches]
    assert len(met) == len(set(met))
    north_south = {p: sum(1 for r in rounds for m in r.matches if m.first == p) for p in PAIRS}
    assert all(1 <= n <= 3 for n in north_south.values())


def test_an_odd_field_has_a_bye_and_too_few_pairs_are_refused():
    seated = seat_duplicate_round(PAIRS[:5], {}, [], Random(1))
    assert seated.bye is not None and len(seated.matches) == 2
    with pytest.raises(ValueError, match="at least 4 pairs"):
        seat_duplicate_round(PAIRS[:3], {}, [], Random(1))


# ---------------------------------------------------------------------------- the scoring

#: the worked example of docs/rules.md item 66: one deal at four tables
EXAMPLE_ROUND = PairsRound((Match("A", "B"), Match("C", "D"), Match("E", "F"), Match("G", "H")))
EXAMPLE = [
    DealResult(1, 1, "A", "B", (170, 30)),   # N/S made a Tichu: margin +140
    DealResult(1, 1, "C", "D", (60, 40)),    # +20
    DealResult(1, 1, "E", "F", (-50, 50)),   # N/S failed a Tichu: -100
    DealResult(1, 1, "G", "H", (60, 40)),    # +20, a tie with C-D
]


def test_the_worked_example():
    assert deal_match_points(EXAMPLE) == {"A": 6, "C": 3, "E": 0, "G": 3, "B": 0, "D": 3, "F": 6, "H": 3}


def test_the_worked_example_with_a_table_that_did_not_play_the_deal():
    scores = match_points([EXAMPLE_ROUND], EXAMPLE[:3], 1)[1, 1]
    # A beat 2 of 2: (4 + 1) * 4/3 - 1; C beat 1: (2 + 1) * 4/3 - 1; E none: (0 + 1) * 4/3 - 1
    assert scores == {"A": Fraction(17, 3), "C": 3, "E": Fraction(1, 3),
                      "B": Fraction(1, 3), "D": 3, "F": Fraction(17, 3), "G": 3, "H": 3}
    assert sum(scores[p] for p in "ACEG") == 12


def test_the_example_agrees_with_the_reference():
    tables = [(r.north_south, r.east_west, r.points) for r in EXAMPLE]
    assert deal_match_points(EXAMPLE) == reference_match_points(tables)
    assert deal_match_points(EXAMPLE[:3], 4) == reference_match_points(tables[:3], 4)


def test_a_bye_gets_the_average_on_each_deal():
    seated = PairsRound((Match("A", "B"), Match("C", "D")), bye="E")
    results = [DealResult(1, d, m.first, m.second, (100, 0)) for d in (1, 2) for m in seated.matches]
    scores = match_points([seated], results, 2)
    assert scores[1, 1]["E"] == scores[1, 2]["E"] == 1  # two tables: a top of 2, the average 1
    assert scores[1, 1]["A"] == 1  # a tie


def test_the_standings_add_the_deals_and_break_ties_by_the_margin_over_the_field():
    seated = PairsRound((Match("A", "B"), Match("C", "D")))
    results = [DealResult(1, 1, "A", "B", (100, 0)), DealResult(1, 1, "C", "D", (50, 50)),
               DealResult(1, 2, "A", "B", (0, 100)), DealResult(1, 2, "C", "D", (40, 60))]
    standings = duplicate_standings([seated], results, 2)
    # deal 1: A 2, C 0, B 0, D 2; deal 2: A 0, C 2, B 2, D 0: all have 2 of a top of 4
    assert {s.pair: s.match_points for s in standings} == {"A": 2, "B": 2, "C": 2, "D": 2}
    # margins over the field: A +50 -40 = 10, C -50 +40 = -10, B -10, D +10
    assert [(s.pair, s.place, s.margin) for s in standings] == [
        ("A", 1, 10), ("D", 1, 10), ("B", 3, -10), ("C", 3, -10)]
    assert all(s.top == 4 and s.percentage == 50.0 for s in standings)


@pytest.mark.parametrize("bad", [
    DealResult(2, 1, "A", "B", (0, 0)),   # no round 2
    DealResult(1, 3, "A", "B", (0, 0)),   # no deal 3
    DealResult(1, 1, "B", "A", (0, 0)),   # the directions the other way round
    DealResult(1, 1, "A", "D", (0, 0)),   # no such table
])
def test_results_that_do_not_fit_the_rounds_are_refused(bad):
    seated = PairsRound((Match("A", "B"), Match("C", "D")))
    with pytest.raises(ValueError):
        match_points([seated], [bad], 2)


def test_a_table_with_two_results_for_one_deal_is_refused():
    seated = PairsRound((Match("A", "B"), Match("C", "D")))
    twice = [DealResult(1, 1, "A", "B", (0, 0)), DealResult(1, 1, "A", "B", (10, 0))]
    with pytest.raises(ValueError, match="two results"):
        match_points([seated], twice, 1)
