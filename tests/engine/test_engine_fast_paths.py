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
    h = HandIndex(hand).count_ranks()
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


# --------------------------------------------------------------------------
# Round: the field-by-field copy and the plays the engine lists
# --------------------------------------------------------------------------

from random import Random  # noqa: E402

from bswtichu.engine import OVER, Play, Round  # noqa: E402

from test_engine_support import random_step, snapshot  # noqa: E402

SEEDS = st.integers(min_value=0, max_value=2 ** 32 - 1)


@settings(max_examples=20)
@given(SEEDS, st.booleans())
def test_a_copy_is_the_replayed_state_and_independent(seed, grand):
    rng = Random(seed)
    rnd = Round.deal_random(rng, grand_tichu=grand)
    while rnd.phase != OVER:
        if rng.random() < 0.3:
            copied = rnd.copy()
            assert snapshot(copied) == snapshot(Round.replay(rnd.deal, rnd.history, grand_tichu=grand))
            assert [copied.legal_actions(s) for s in range(4)] == [rnd.legal_actions(s) for s in range(4)]
            before = snapshot(rnd)
            random_step(copied, Random(seed + 1))
            assert snapshot(rnd) == before, "acting on the copy changed the original"
        random_step(rnd, rng)


def test_copy_does_not_replay_the_history(monkeypatch):
    rnd = Round.deal_random(Random(3))
    while len(rnd.history) < 40:
        random_step(rnd, Random(len(rnd.history)))

    def refuse(self, action):
        raise AssertionError("copy() applied an action")

    monkeypatch.setattr(Round, "apply", refuse)
    assert snapshot(rnd.copy()) == snapshot(rnd)


def test_a_copy_whose_hand_is_replaced_lists_plays_from_the_new_hand():
    """Hand indexes are kept per hand set: a caller that swaps a hand gets fresh plays."""
    rnd = Round.deal_random(Random(8), grand_tichu=False)
    while rnd.phase != "play":
        random_step(rnd, Random(len(rnd.history)))
    seat = rnd.view().turn
    rnd.legal_actions(seat)
    other = rnd.copy()
    neighbour = (seat + 1) % 4
    other.hands[seat], other.hands[neighbour] = set(rnd.hands[neighbour]), set(rnd.hands[seat])
    listed = {a.cards for a in other.legal_actions(seat) if isinstance(a, Play)}
    assert listed and all(cards <= rnd.hands[neighbour] for cards in listed)


@settings(max_examples=20)
@given(SEEDS)
def test_listed_plays_apply_exactly_as_typed_ones(seed):
    """A listed play carries its combination; the same play built by hand is classified."""
    rng = Random(seed)
    rnd = Round.deal_random(rng)
    while rnd.phase != OVER:
        if rnd.phase == "play" and rng.random() < 0.3:
            for seat in range(4):
                for action in rnd.legal_actions(seat):
                    if not isinstance(action, Play):
                        continue
                    typed = Play(action.seat, action.cards, action.phoenix_as)
                    assert typed == action and hash(typed) == hash(action)
                    listed_copy, typed_copy = rnd.copy(), rnd.copy()
                    assert listed_copy.apply(action) == typed_copy.apply(typed)
                    assert snapshot(listed_copy) == snapshot(typed_copy)
        random_step(rnd, rng)
