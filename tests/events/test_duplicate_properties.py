"""Properties of duplicate match points over random rounds: the reference agrees, each deal
hands out the same total, the two directions mirror each other, the order of tables and
results does not matter, equal margins tie, a better margin never scores less, and the
standings add the deals up."""

from fractions import Fraction
from random import Random

from hypothesis import given, strategies as st

from bswtichu.events.duplicate import (
    DealResult, deal_match_points, duplicate_standings, match_points, round_deals,
)
from bswtichu.events.pairing import Match, PairsRound

from duplicate_reference import reference_match_points

#: (N/S, E/W) round points as the engine gives them, few enough that ties are common
POINTS = st.sampled_from([(100, 0), (0, 100), (50, 50), (60, 40), (40, 60), (75, 25), (170, 30),
                          (-50, 150), (200, 0), (0, 200), (-140, 40), (300, -100)])


@st.composite
def duplicate_rounds(draw, most_tables: int = 7):
    """Rounds of a field of pairs with each table's results: some tables may miss a deal, a
    pair may sit out. Returns (rounds, results, deals per round)."""
    tables = draw(st.integers(min_value=2, max_value=most_tables))
    deals = draw(st.integers(min_value=1, max_value=3))
    bye = draw(st.booleans())
    pairs = [f"P{i}" for i in range(2 * tables + bye)]
    rounds, results = [], []
    for number in range(1, draw(st.integers(min_value=1, max_value=3)) + 1):
        order = draw(st.permutations(pairs))
        matches = tuple(Match(order[2 * i], order[2 * i + 1]) for i in range(tables))
        rounds.append(PairsRound(matches, order[-1] if bye else None))
        for deal in range(1, deals + 1):
            for match in matches:
                if draw(st.integers(min_value=0, max_value=9)):  # one in ten not played
                    results.append(DealResult(number, deal, match.first, match.second, draw(POINTS)))
    return rounds, results, deals


def by_deal(results):
    out = {}
    for result in results:
        out.setdefault((result.round, result.deal), []).append(result)
    return out


@given(duplicate_rounds())
def test_the_match_points_agree_with_the_reference(event):
    rounds, results, deals = event
    scores = match_points(rounds, results, deals)
    for (number, deal), played in by_deal(results).items():
        tables = len(rounds[number - 1].matches)
        expected = reference_match_points([(r.north_south, r.east_west, r.points) for r in played], tables)
        assert {pair: scores[number, deal][pair] for pair in expected} == expected


@given(duplicate_rounds())
def test_every_deal_hands_out_the_same_total_per_direction_and_a_bye_the_average(event):
    rounds, results, deals = event
    scores = match_points(rounds, results, deals)
    for (number, deal), deal_scores in scores.items():
        seated = rounds[number - 1]
        tables = len(seated.matches)
        assert sum(deal_scores[m.first] for m in seated.matches) == tables * (tables - 1)
        assert sum(deal_scores[m.second] for m in seated.matches) == tables * (tables - 1)
        if seated.bye is not None:
            assert deal_scores[seated.bye] == tables - 1


@given(duplicate_rounds())
def test_at_a_table_that_all_played_the_two_directions_share_the_top(event):
    rounds, results, deals = event
    for played in by_deal(results).values():
        tables = len(rounds[played[0].round - 1].matches)
        if len(played) == tables:
            scores = deal_match_points(played)
            assert all(scores[r.north_south] + scores[r.east_west] == 2 * (tables - 1) for r in played)


@given(duplicate_rounds())
def test_told_from_the_other_side_the_scores_are_the_same(event):
    """Every table's directions swapped (E/W becomes N/S, the points swapped with them): each
    pair is compared with the same pairs on the same margin, so it scores the same."""
    rounds, results, deals = event
    mirrored_rounds = [PairsRound(tuple(Match(m.second, m.first) for m in r.matches), r.bye) for r in rounds]
    mirrored = [DealResult(r.round, r.deal, r.east_west, r.north_south, r.points[::-1]) for r in results]
    assert match_points(mirrored_rounds, mirrored, deals) == match_points(rounds, results, deals)


@given(duplicate_rounds(), st.randoms(use_true_random=False))
def test_the_order_of_tables_and_results_changes_nothing(event, rng):
    rounds, results, deals = event
    shuffled_rounds = []
    for seated in rounds:
        matches = list(seated.matches)
        rng.shuffle(matches)
        shuffled_rounds.append(PairsRound(tuple(matches), seated.bye))
    shuffled = list(results)
    rng.shuffle(shuffled)
    assert match_points(shuffled_rounds, shuffled, deals) == match_points(rounds, results, deals)
    assert duplicate_standings(shuffled_rounds, shuffled, deals) == duplicate_standings(rounds, results, deals)


@given(st.integers(min_value=2, max_value=9), POINTS)
def test_equal_margins_everywhere_give_everyone_half_the_top(tables, points):
    played = [DealResult(1, 1, f"N{i}", f"E{i}", points) for i in range(tables)]
    assert set(deal_match_points(played).values()) == {tables - 1}


@given(duplicate_rounds(), st.data())
def test_a_better_margin_never_scores_less_nor_helps_the_others(event, data):
    rounds, results, deals = event
    if not results:
        return
    index = data.draw(st.integers(min_value=0, max_value=len(results) - 1))
    better = list(results)
    chosen = better[index]
    better[index] = DealResult(chosen.round, chosen.deal, chosen.north_south, chosen.east_west,
                               (chosen.points[0] + data.draw(st.integers(1, 200)), chosen.points[1]))
    before = match_points(rounds, results, deals)[chosen.round, chosen.deal]
    after = match_points(rounds, better, deals)[chosen.round, chosen.deal]
    same_direction = {m.first for m in rounds[chosen.round - 1].matches}
    assert after[chosen.north_south] >= before[chosen.north_south]
    assert all(after[p] <= before[p] for p in same_direction - {chosen.north_south})


@given(duplicate_rounds())
def test_the_standings_add_the_deals_and_rank_by_match_points_then_margin(event):
    rounds, results, deals = event
    scores = match_points(rounds, results, deals)
    standings = duplicate_standings(rounds, results, deals)
    totals: dict[str, Fraction] = {}
    for deal_scores in scores.values():
        for pair, points in deal_scores.items():
            totals[pair] = totals.get(pair, Fraction(0)) + points
    assert {s.pair: s.match_points for s in standings} == totals
    assert sum(s.margin for s in standings) == 0  # a margin over the field is won from the field
    keys = [(s.match_points, s.margin) for s in standings]
    assert keys == sorted(keys, reverse=True)
    for s in standings:
        assert s.place == 1 + sum(1 for key in keys if key > (s.match_points, s.margin))
        assert 0 <= s.match_points <= s.top and 0 <= s.percentage <= 100  # Neuberg too: T / n >= 1


@given(st.integers(min_value=0, max_value=2 ** 64), st.integers(min_value=0, max_value=2 ** 64))
def test_two_seeds_deal_differently_and_one_seed_always_the_same(one, two):
    assert round_deals(one, 1, 2) == round_deals(one, 1, 2)
    if one != two:
        assert round_deals(one, 1, 2) != round_deals(two, 1, 2)


def test_the_deals_look_shuffled():
    """Over 4,000 deals, each card lands in each seat's hand about a quarter of the time
    (a broken shuffle, say one that never moves the last card, fails this at once)."""
    counts = [[0] * 4 for _ in range(56)]
    rng = Random(0)
    for _ in range(1000):
        seed = rng.getrandbits(32)
        for deal in round_deals(seed, 1, 4):
            for position, card in enumerate(deal):
                seat = position // 8 if position < 32 else (position - 32) // 6
                counts[card.index][seat] += 1
    assert all(850 <= n <= 1150 for row in counts for n in row)  # 1000 expected, sd about 27
