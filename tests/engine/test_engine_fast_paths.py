"""The bit-mask classifier and generator agree with the plain reference they replaced.

`combos_reference` is the engine's first classifier and play generator, a
direct reading of the rules; these properties compare every field of every
combination, and the order of kinds, on random hands, tables and card sets.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from bswtichu.engine import DECK, classify, plays, readings
from bswtichu.engine.cards import cards_of
from bswtichu.engine.combos import BOMB_TYPES, ComboType, HandIndex, bombs, has_bomb

import combos_reference as reference

hands = st.lists(st.sampled_from(DECK), min_size=1, max_size=14, unique=True)
card_sets = st.lists(st.sampled_from(DECK), min_size=0, max_size=14, unique=True)


def fields(combo):
    return (combo.type, combo.rank, combo.length, combo.mask, combo.phoenix_as, combo.cards)


def kind_order(combos):
    """The sequence of (type, length) blocks: the generator's documented order of kinds."""
    out = []
    for c in combos:
        key = (c.type, c.length)
        if not out or out[-1] != key:
            out.append(key)
    return out


@settings(max_examples=400)
@given(card_sets)
def test_readings_agree_with_the_reference(cards):
    assert [fields(c) for c in readings(cards)] == [fields(c) for c in reference.readings(cards)]


@settings(max_examples=300)
@given(st.lists(st.sampled_from(DECK), min_size=5, max_size=14, unique=True).filter(
    lambda cs: sum(c.is_natural for c in cs) >= len(cs) - 1))
def test_readings_of_long_natural_sets_agree_with_the_reference(cards):
    """Mostly natural cards: more straights, stairs and full houses than uniform draws give."""
    assert [fields(c) for c in readings(cards)] == [fields(c) for c in reference.readings(cards)]


@settings(max_examples=300)
@given(st.lists(st.sampled_from(range(2, 8)), min_size=4, max_size=14), st.booleans(), st.randoms())
def test_readings_of_dense_rank_sets_agree_with_the_reference(ranks, phoenix, rnd):
    """Few ranks, many of each: the shapes (pairs, stairs, full houses) the classifier must sort."""
    pool = [c for c in DECK if c.is_natural and c.rank in set(ranks)]
    cards = rnd.sample(pool, min(len(ranks), len(pool)))
    if phoenix:
        cards.append(DECK[54])
    assert [fields(c) for c in readings(cards)] == [fields(c) for c in reference.readings(cards)]


@settings(max_examples=200)
@given(hands, hands)
def test_plays_agree_with_the_reference(hand, other):
    leads = list(plays(hand))
    expected = list(reference.plays(hand))
    assert sorted(map(fields, leads), key=repr) == sorted(map(fields, expected), key=repr)
    assert len(set(leads)) == len(leads)
    assert kind_order(leads) == kind_order(expected)
    tops = [c for c in reference.plays(other) if c.type is not ComboType.DOG]
    for top in tops[:: max(1, len(tops) // 12)]:
        following = list(plays(hand, top))
        expected = list(reference.plays(hand, top))
        assert sorted(map(fields, following), key=repr) == sorted(map(fields, expected), key=repr)
        assert kind_order(following) == kind_order(expected)


@settings(max_examples=200)
@given(hands)
def test_bombs_agree_with_the_reference(hand):
    found = list(bombs(hand))
    assert [fields(b) for b in found] == [fields(b) for b in reference.bombs(hand)
                                        if b.type is ComboType.FOUR_BOMB] + [
        fields(b) for b in sorted((b for b in reference.bombs(hand) if b.type is ComboType.STRAIGHT_FLUSH),
                                  key=lambda b: (min(c.index for c in b.cards) % 4, b.rank - b.length, b.rank))]
    assert has_bomb(hand) == bool(found)
    assert all(b.type in BOMB_TYPES for b in found)


@given(hands)
def test_a_hand_index_counts_ranks_as_the_cards_do(hand):
    h = HandIndex(hand)
    assert sorted(cards_of(h.mask), key=lambda c: c.index) == sorted(hand, key=lambda c: c.index)
    for rank in range(2, 15):
        held = [c for c in hand if c.is_natural and c.rank == rank]
        shift = 4 * (rank - 2)
        assert h.counts >> shift & 15 == len(held)
        assert h.present >> shift & 1 == (len(held) >= 1)
        assert h.pairable >> shift & 1 == (len(held) >= 2)
        assert h.nibble(rank) == sum(1 << (c.index % 4) for c in held)


@settings(max_examples=200)
@given(card_sets, st.sampled_from([None] + list(range(2, 15))))
def test_classify_with_a_phoenix_reading_matches_the_reference(cards, phoenix_as):
    options = reference.readings(cards)
    wanted = [c for c in options if phoenix_as is None or c.phoenix_as == phoenix_as]
    if not wanted:
        return
    assert fields(classify(cards, phoenix_as)) == fields(wanted[0])


def test_lazy_card_sets_are_the_combos_cards():
    hand = [c for c in DECK if c.is_natural and c.rank <= 8] + [DECK[54]]
    for combo in plays(hand[:13] + [DECK[54]]):
        assert combo.cards == frozenset(cards_of(combo.mask))
        assert len(combo.cards) == combo.length
