"""The rules the round, the .tch recorder and the bots' playouts share: the trick, the end, the tally.

Worked examples from rules.md (R9 the trick, R10 the end of a round and its
scoring), then the round's own results checked against the tally on random
rounds.
"""

from __future__ import annotations

from random import Random

import pytest

from bswtichu.engine import OVER, Round, card_points
from bswtichu.engine.round import (
    GRAND_BONUS, TICHU_BONUS, double_victory, round_over, round_points, trick_won,
)


@pytest.mark.parametrize("passes, out, owner_out, won", [
    (2, 0, False, False),  # four in: the three others must pass
    (3, 0, False, True),
    (1, 1, False, False),  # one out, the owner in: the two others
    (2, 1, False, True),
    (2, 1, True, False),   # the owner went out with his play: the three still in must pass
    (3, 1, True, True),
    (1, 2, False, True),   # two out, the owner in: his one opponent
    (2, 2, True, True),
])
def test_a_trick_is_won_when_every_other_seat_still_in_has_passed(passes, out, owner_out, won):
    assert trick_won(passes, out, owner_out) is won


@pytest.mark.parametrize("finish_order, team", [
    ([], None), ([0], None), ([0, 2], 0), ([3, 1], 1), ([0, 1], None), ([0, 1, 2], None),
])
def test_a_double_victory_is_both_partners_out_first(finish_order, team):
    assert double_victory(finish_order) == team


@pytest.mark.parametrize("finish_order, over", [
    ([], False), ([1], False), ([1, 2], False), ([1, 3], True), ([1, 2, 0], True),
])
def test_the_round_ends_at_a_double_victory_or_with_three_out(finish_order, over):
    assert round_over(finish_order) is over


def test_the_last_seats_tricks_go_to_the_first_out_and_his_hand_to_the_other_team():
    # seat 2 is last: its tricks (15) go to seat 0, the first out (team 0); the 25
    # points left in its hand go to team 1, the opponents of seat 2
    cards, calls, double = round_points([0, 1, 3], [0, 0, 0, 0], [30, 20, 15, 10], 25)
    assert cards == (30 + 15, 20 + 10 + 25) and calls == (0, 0) and double is None


def test_the_last_seats_tricks_go_to_the_first_out_of_either_team():
    # seat 1 first out (team 1), seat 3 last (team 1 too): its tricks stay with team 1,
    # its hand goes to team 0
    cards, _, _ = round_points([1, 0, 2], [0, 0, 0, 0], [10, 35, 5, 20], 30)
    assert cards == (10 + 5 + 30, 35 + 20)


def test_a_double_victory_scores_its_points_and_no_cards():
    cards, calls, double = round_points([1, 3], [0, 0, 0, 0], [50, 0, 50, 0], 0)
    assert (cards, calls, double) == ((0, 200), (0, 0), 1)
    assert round_points([2, 0], [0, 0, 0, 0], [0, 0, 0, 0], 0, double_victory_points=100)[0] == (100, 0)


def test_a_call_is_won_by_the_first_out_only_and_lost_by_every_other_caller():
    _, calls, _ = round_points([0, 1, 3], [TICHU_BONUS, GRAND_BONUS, 0, TICHU_BONUS], [25, 25, 25, 25], 0)
    assert calls == (TICHU_BONUS, -GRAND_BONUS - TICHU_BONUS)


def test_every_random_round_is_scored_by_the_tally():
    """The round's result is `round_points` of its piles and calls; cards sum to 100 or a double victory."""
    for seed in range(60):
        rng = Random(seed)
        rnd = Round.deal_random(rng)
        while rnd.phase != OVER:
            options = []
            for seat in range(4):
                if rnd.phase == "exchange":
                    if rnd.exchanges[seat] is None:
                        options = list(rnd.iter_legal_actions(seat))
                        break
                    continue
                options += rnd.legal_actions(seat)
            rnd.apply(rng.choice(options[:50]))
        result = rnd.result
        if result.double_victory is None:
            assert sum(result.card_points) == 100
            tail = result.finish_order[3]
            assert rnd.piles[tail] == []  # its tricks went to the first out's pile
            for team in (0, 1):
                expected = sum(card_points(rnd.piles[s]) for s in range(4) if s % 2 == team)
                if team != tail % 2:
                    expected += card_points(rnd.hands[tail])
                assert result.card_points[team] == expected
        else:
            assert result.card_points[result.double_victory] == 200
        bonuses = [GRAND_BONUS if c == "grand" else TICHU_BONUS if c else 0 for c in result.calls]
        first = result.finish_order[0]
        for team in (0, 1):
            expected = sum(b if s == first else -b for s, b in enumerate(bonuses) if s % 2 == team)
            assert result.call_points[team] == expected
