"""The events' scoring: a deal's victory points (R13.3.3, the engine's one copy), individual
standings with byes, pairs' match victory points, the tie-breaks and shared places."""

from __future__ import annotations

from fractions import Fraction
from random import Random

from hypothesis import given, strategies as st

from bswtichu.engine.round import RoundResult
from bswtichu.events.formats import IndividualFormat, PairsFormat, RoundPlan
from bswtichu.events.scoring import (DealScore, PlayedRound, Standing, TableResult, individual_standings,
                                     match_victory_points, pairs_standings, plain)


def deal(a: int, b: int, va: int, vb: int) -> DealScore:
    return DealScore((a, b), (va, vb))


def test_a_deal_is_scored_as_the_tournament_scores_it():
    won = RoundResult((0, 1, 2, 3), None, (60, 40), (100, 0), ("tichu", None, None, None))
    assert DealScore.of(won) == deal(160, 40, 2, 0)
    double = RoundResult((1, 3), 1, (0, 200), (0, 100), (None, "tichu", None, None))
    assert DealScore.of(double) == deal(0, 300, 0, 3)
    spoilt = RoundResult((1, 3), 1, (0, 200), (0, -100), (None, None, None, "tichu"))
    assert DealScore.of(spoilt) == deal(0, 100, 0, 2)  # the winners' caller went out second
    tied = RoundResult((0, 1, 2, 3), None, (50, 50), (0, 0), (None,) * 4)
    assert DealScore.of(tied) == deal(50, 50, 1, 1)


def test_individual_standings_sum_each_players_teams_and_score_a_bye_one_per_deal():
    table = TableResult(("A", "B", "C", "D"), (deal(160, 40, 2, 0), deal(50, 50, 1, 1)), frozenset({"D"}))
    rows = individual_standings(["A", "B", "C", "D", "E"], [PlayedRound((table,), ("E",))], 2)
    assert rows == [Standing("A", 1, 3, 210, 1), Standing("C", 1, 3, 210, 1),
                    Standing("E", 3, 2, 0, 0, 1), Standing("B", 4, 1, 90, 1),
                    Standing("D", 4, 1, 90, 1, 0, 1)]


def test_the_points_break_a_tie_of_victory_points():
    one = TableResult(("A", "B", "C", "D"), (deal(100, 0, 2, 0),))
    two = TableResult(("E", "F", "G", "H"), (deal(300, -100, 2, 0),))
    rows = individual_standings("ABCDEFGH", [PlayedRound((one, two))], 1)
    assert [r.name for r in rows[:4]] == ["E", "G", "A", "C"] and [r.place for r in rows[:4]] == [1, 1, 3, 3]


def test_a_pairs_match_scores_two_one_or_nothing_over_its_deals():
    assert [match_victory_points(a, b) for a, b in ((10, 0), (5, 5), (0, 10))] == [2, 1, 0]
    pairs = {"A+C": ("A", "C"), "B+D": ("B", "D"), "E+F": ("E", "F")}
    table = TableResult(("A", "B", "C", "D"), (deal(100, 0, 2, 0), deal(0, 150, 0, 2)))
    rows = pairs_standings(pairs, [PlayedRound((table,), ("E+F",))])
    assert rows == [Standing("B+D", 1, 2, 50, 1), Standing("E+F", 2, 1, 0, 0, 1), Standing("A+C", 3, 0, -50, 1)]


@given(st.lists(st.tuples(st.integers(-25, 125).map(lambda x: 5 * x), st.integers(-25, 125).map(lambda x: 5 * x),
                          st.sampled_from([(2, 0), (1, 1), (0, 2), (3, 0), (0, 3)])), min_size=1, max_size=9))
def test_every_victory_point_of_a_table_goes_to_its_two_teams_players(deals):
    table = TableResult(("A", "B", "C", "D"), tuple(deal(a, b, *vp) for a, b, vp in deals))
    rows = {r.name: r for r in individual_standings("ABCD", [PlayedRound((table,))], len(deals))}
    assert rows["A"].victory_points == rows["C"].victory_points == sum(vp[0] for _, _, vp in deals)
    assert rows["B"].points == rows["D"].points == sum(b for _, b, _ in deals)


def test_formats_seat_a_round_and_keep_partners_fixed_in_pairs():
    pairs = PairsFormat([("A", "C"), ("B", "D"), ("E", "G"), ("F", "H")])
    plan = pairs.seat(list(pairs.pairs), {}, [], Random(1))
    assert len(plan.tables) == 2
    for seats in plan.tables:
        assert {frozenset((seats[0], seats[2])), frozenset((seats[1], seats[3]))} <= {
            frozenset(p) for p in pairs.pairs.values()}
    individual = IndividualFormat("ABCDEFGH", 1)
    seated = individual.seat(list("ABCDEFGH"), {}, [], Random(2))
    assert sorted(n for t in seated.tables for n in t) == list("ABCDEFGH")
    assert RoundPlan.from_data(seated.to_data()) == seated


def test_a_fraction_is_told_to_two_decimals():
    assert plain(Fraction(7, 3)) == 2.33 and plain(Fraction(6, 2)) == 3 and plain(4) == 4
