"""The compiled play generator (``_combos_accel.c``) gives exactly what the pure version gives.

Same inputs, same lists: every field of every combination, in the same order,
for leads and for every kind of table; the bombs, card lists and listed plays
too.  Bad input is refused with an exception, never a crash, and many calls
leave no references or memory behind.  Skipped where the extension was not
built (no C compiler at install time) or BSWTICHU_PURE is set.
"""

import os
import subprocess
import sys
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bswtichu.engine import DECK, Play
from bswtichu.engine import combos
from bswtichu.engine.actions import play_of
from bswtichu.engine.cards import cards_of, mask_of
from bswtichu.engine.combos import ComboType, HandIndex, pure_bombs, pure_play_list

from leak_check import assert_no_leak

accel = combos._accel
pytestmark = pytest.mark.skipif(
    accel is None,
    reason="the compiled play generator is not in use (not built: it needs gcc and the Python headers, "
           "Debian packages gcc and python3-dev, at install time; or BSWTICHU_PURE is set)")

PHOENIX = DECK[54]
hands = st.lists(st.sampled_from(DECK), min_size=0, max_size=14, unique=True)
#: Few ranks, the Phoenix often: the hands with many straights, stairs and full houses.
dense_hands = st.builds(
    lambda naturals, phoenix, mahjong: naturals + [PHOENIX] * phoenix + [DECK[52]] * mahjong,
    st.lists(st.sampled_from([c for c in DECK if c.is_natural and 4 <= c.rank <= 11]),
             min_size=4, max_size=12, unique=True),
    st.booleans(), st.booleans())


def fields(combo):
    return (combo.type, type(combo.rank), combo.rank, combo.length, combo.mask, combo.phoenix_as,
            combo.cards)


def tables_from(cards):
    """Every kind of table the hand ``cards`` could put down (a sample of its plays)."""
    found = pure_play_list(HandIndex(cards), None)
    by_kind = {}
    for combo in found:
        by_kind.setdefault((combo.type, combo.length), []).append(combo)
    tops = [group[i] for group in by_kind.values() for i in {0, len(group) // 2, len(group) - 1}]
    if PHOENIX in cards:
        tops.append(combos.phoenix_single(7.5))
    return tops


def assert_same_plays(hand, top):
    h = HandIndex(hand)
    assert [fields(c) for c in accel.play_list(h.mask, top)] == [fields(c) for c in pure_play_list(h, top)]


def assert_same_plays_on_every_table(hand, other):
    """Leads, and follows on every table ``other`` can make: the same as the pure ones."""
    assert_same_plays(hand, None)
    for top in tables_from(other):
        assert_same_plays(hand, top)


@settings(max_examples=300)
@given(hands, hands)
def test_plays_are_the_pure_ones_in_the_same_order(hand, other):
    assert_same_plays_on_every_table(hand, other)


@settings(max_examples=300)
@given(dense_hands, dense_hands)
def test_plays_of_dense_hands_with_the_phoenix_are_the_pure_ones(hand, other):
    assert_same_plays_on_every_table(hand, other)


@settings(max_examples=200)
@given(hands)
def test_bombs_and_card_lists_are_the_pure_ones(hand):
    h = HandIndex(hand)
    assert [fields(b) for b in accel.bombs(h.mask)] == [fields(b) for b in pure_bombs(h)]
    assert accel.mask_of(hand) == mask_of(hand) == accel.mask_of(set(hand))
    assert accel.cards_of(h.mask) == cards_of(h.mask)
    assert accel.sorted_cards_of(h.mask) == combos.pure_sorted_cards_of(h.mask)


@settings(max_examples=100)
@given(hands, st.integers(min_value=0, max_value=3))
def test_listed_plays_are_the_plays_of_their_combos(hand, seat):
    options = accel.play_list(mask_of(hand), None)
    made = accel.plays_of(seat, options)
    expected = combos.pure_listed_plays(seat, options)
    assert made == expected
    assert [(p.seat, p.phoenix_as, p.combo, p.cards) for p in made] == [
        (p.seat, p.phoenix_as, p.combo, p.cards) for p in expected]
    assert all(type(p) is Play for p in made)


def test_the_engine_uses_the_compiled_functions():
    assert combos.ACCELERATED
    assert combos.play_list is accel.play_list
    hand = DECK[:14]
    assert list(combos.plays(hand)) == accel.play_list(mask_of(hand), None)


def test_a_combo_made_in_c_builds_its_cards_on_first_use():
    straight = next(c for c in accel.play_list(mask_of(DECK[:24] + (PHOENIX,)), None)
                    if c.type is ComboType.STRAIGHT and c.phoenix_as)
    assert straight.cards == frozenset(cards_of(straight.mask))
    assert PHOENIX in straight.cards and len(straight.cards) == straight.length
    assert play_of(0, straight).cards == straight.cards


@pytest.mark.parametrize("bad", [-1, 1 << 56, 1 << 200, "7j", 2.5, None])
def test_bad_masks_are_refused_with_an_exception(bad):
    for call in (lambda: accel.play_list(bad, None), lambda: accel.bombs(bad),
                 lambda: accel.cards_of(bad), lambda: accel.sorted_cards_of(bad)):
        with pytest.raises((TypeError, ValueError, AttributeError)):
            call()


def test_bad_tables_and_cards_are_refused_with_an_exception():
    with pytest.raises(TypeError):
        accel.play_list(0, "a pair")
    with pytest.raises(TypeError):
        accel.play_list(0)
    with pytest.raises(AttributeError):
        accel.mask_of([DECK[0], "7j"])
    with pytest.raises(TypeError):
        accel.mask_of(5)
    with pytest.raises(TypeError):
        accel.plays_of(0, (DECK[0],))
    with pytest.raises(TypeError):
        accel.plays_of(0, [DECK[0]])


def test_a_hand_of_the_whole_deck_works_as_in_python():
    """A mask no round makes (every card), but a valid one: it must just work."""
    h = HandIndex(DECK)
    pair, stairs = combos.readings(DECK[:2]), combos.readings(DECK[:2] + DECK[4:6])
    for top in (pair[0], stairs[0]):
        assert [fields(c) for c in accel.play_list(h.mask, top)] == [fields(c) for c in pure_play_list(h, top)]


def test_many_calls_leave_no_references_or_memory_behind():
    """Leak check: reference counts of the shared objects, and traced memory, over many calls."""
    rng = Random(12)
    hands_ = [rng.sample(DECK, 14) for _ in range(8)] + [rng.sample(DECK[:32], 13) + [PHOENIX]]
    tops = [None] + [c for hand in hands_[:4] for c in pure_play_list(HandIndex(hand), None)[::7]]
    shared = [None, PHOENIX, *combos._SINGLES[7][15], *ComboType, combos._PHOENIX_LEAD]

    def work():
        for hand in hands_:
            mask = mask_of(hand)
            for top in tops:
                accel.plays_of(2, accel.play_list(mask, top))
            accel.bombs(mask)
            accel.sorted_cards_of(mask)
            accel.cards_of(mask)
            accel.mask_of(hand)
            for bad in (-1, 1 << 60, "x"):
                try:
                    accel.play_list(bad, None)
                except (TypeError, ValueError, AttributeError):
                    pass

    assert_no_leak(work, shared, wandering=1, repeats=20)


def test_bswtichu_pure_switches_the_compiled_version_off():
    env = dict(os.environ, BSWTICHU_PURE="1")
    out = subprocess.run(
        [sys.executable, "-c", "from bswtichu.engine import combos; "
         "print(combos.ACCELERATED, combos.play_list is combos.pure_play_list)"],
        env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]
