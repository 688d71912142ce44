"""The hand evaluator against a brute force over the engine's own combinations."""

from functools import lru_cache
from random import Random

import pytest

from bswtichu.bots.handeval import (
    BOMB_COST, DOG_COST, DRAGON_COST, PHOENIX_SINGLE_COST, combo_cost, combo_count, hand_cost,
    shape_of,
)
from bswtichu.engine import DECK, ComboType, parse_cards, plays


SPECIAL_SINGLE_COSTS = {"DG": DOG_COST, "DR": DRAGON_COST, "PH": PHOENIX_SINGLE_COST}
KIND_NAMES = {ComboType.PAIR: "pair", ComboType.TRIPLE: "triple", ComboType.FULL_HOUSE: "full house",
              ComboType.STRAIGHT: "straight", ComboType.STAIRS: "stairs"}


def engine_combo_cost(combo) -> float:
    """The evaluator's price of one engine combination, read from its cards."""
    if combo.is_bomb:
        return BOMB_COST
    if combo.length == 1:
        (card,) = combo.cards
        if card.kind in SPECIAL_SINGLE_COSTS:
            return SPECIAL_SINGLE_COSTS[card.kind]
        return combo_cost("single", (card.rank,))
    ranks = sorted(c.rank if c.kind != "PH" else combo.phoenix_as for c in combo.cards)
    if combo.type is ComboType.FULL_HOUSE:
        triple = int(combo.rank)
        pair = next(r for r in ranks if r != triple)
        ranks = [triple] * 3 + [pair] * 2
    return combo_cost(KIND_NAMES[combo.type], tuple(ranks))


@lru_cache(maxsize=None)
def brute_force(cards: frozenset) -> float:
    if not cards:
        return 0.0
    first = min(cards, key=lambda c: c.index)
    return min(engine_combo_cost(combo) + brute_force(cards - combo.cards)
               for combo in plays(cards) if first in combo.cards)


def test_a_full_straight_is_one_cheap_play():
    cards = parse_cards("MJ 2j 3j 4s 5p 6r 7r 8r 9j Tj Js Qs Ks As")
    assert combo_count(shape_of(cards)) == 1
    assert hand_cost(cards) < hand_cost(parse_cards("2j 4s 6r 8r Tj Qs As"))


def test_bombs_are_kept_whole():
    shape = shape_of(parse_cards("Aj As Ap Ar 3j 4j 5j 6j 7j 9s PH"))
    assert sorted(len(b) for b in shape.bombs) == [4, 5]
    assert combo_count(shape) == 3  # two bombs and the pair of the 9 with the Phoenix


@pytest.mark.parametrize("seed", range(40))
def test_cost_matches_brute_force_on_small_hands(seed):
    rng = Random(seed)
    phoenix = next(c for c in DECK if c.kind == "PH")
    while True:
        cards = frozenset(rng.sample(DECK, 8))
        if seed % 2:
            cards = frozenset(list(cards - {phoenix})[:7]) | {phoenix}
        if not shape_of(cards).bombs:
            break
    assert hand_cost(cards) == pytest.approx(brute_force(cards))
