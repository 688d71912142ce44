"""The expert's playouts keep the engine's rules where they model them (bots/search.py, its docstring).

Random rounds are played through the engine, and every play-phase action is
mirrored into a `Playout` started from the same hands.  After each step the
two must agree on whose turn it is, the cards each seat holds, who is out,
the points each seat has taken, and at the end on the score, in every
variant.  Where the engine does what a playout leaves out, the test steers or
stops: the Dragon goes to the opponent the playout would give it to, the Dog's
lead (Tientsin) to the partner it would choose, and a bomb onto a won trick
(R9.6), which a playout never sees, ends the comparison of that round.
"""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings, strategies as st

from bswtichu.bots.search import Playout, counts_of, slot_of, table_combo
from bswtichu.engine import (
    NANJING, OVER, VARIANTS, DogLead, Exchange, GiveDragon, Pass, Play, Round, card_points,
)
from bswtichu.engine.actions import CallTichu
from bswtichu.engine.round import GRAND_BONUS, TICHU_BONUS

BONUS = {None: 0, "tichu": TICHU_BONUS, "grand": GRAND_BONUS}


def any_action(rnd: Round, rng: Random):
    """One of the legal actions of all seats, uniformly."""
    return rng.choice([a for s in range(rnd.variant.seats) for a in rnd.legal_actions(s)])


def setup_phases(rnd: Round, rng: Random) -> None:
    """Grand Tichu decisions and the exchange, chosen at random."""
    count = len(rnd.variant.exchange_steps)
    while rnd.phase not in ("play", OVER):
        if rnd.phase == "exchange":
            seat = rnd.exchanges.index(None)
            rnd.apply(Exchange(seat, tuple(rng.sample(sorted(rnd.hands[seat], key=lambda c: c.index), count))))
        else:
            rnd.apply(any_action(rnd, rng))


def playout_of(rnd: Round) -> Playout:
    """A playout at the start of the play phase, with the calls made so far."""
    nobody = (0,) * rnd.variant.seats
    return Playout(rnd.variant, [counts_of(h) for h in rnd.hands], (), None, None, 0, nobody,
                   rnd.waiting_for, 0, [BONUS[c] for c in rnd.calls])


def agree(rnd: Round, playout: Playout) -> None:
    assert playout.sizes == [len(h) for h in rnd.hands]
    assert playout.out == rnd.finish_order
    if rnd.need in ("lead", "follow"):
        assert playout.turn == rnd.waiting_for
    if not rnd.trick_won and rnd.top is not None:  # a trick in play: neither has collected it
        assert playout.top_seat == rnd.top_seat
    if rnd.top is None:  # every trick so far collected on both sides
        assert playout.piles == [card_points(p) for p in rnd.piles]


def compare_round(seed: int, variant=NANJING) -> bool:
    """Play one random round both ways; True if compared to its end, False if stopped at a bomb."""
    rng = Random(seed)
    dealer = seed % variant.seats
    rnd = Round.deal_random(rng, grand_tichu=seed % 2 == 0, variant=variant, dealer=dealer)
    setup_phases(rnd, rng)
    playout = playout_of(rnd)
    while rnd.phase != OVER:
        if rnd.need == "give":
            action = GiveDragon(rnd.gift_pending_seat, playout.dragon_gift(rnd.top_seat))
        elif rnd.need == "dog":
            action = DogLead(rnd.dog_pending_seat, playout.dog_partner(rnd.dog_pending_seat))
        else:
            action = any_action(rnd, rng)
        if isinstance(action, Play) and action.combo.is_bomb and (
                (rnd.trick_won and action.seat != rnd.top_seat) or rnd.gift_pending_seat is not None):
            return False  # a bomb onto a won trick (R9.6): the playout has collected it already
        rnd.apply(action)
        if isinstance(action, Play):
            playout.play(action.seat, table_combo(action.combo), [slot_of(c) for c in action.cards])
        elif isinstance(action, Pass):
            playout.pass_turn(action.seat)
        elif isinstance(action, CallTichu):
            playout.bonus[action.seat] = TICHU_BONUS
        if rnd.phase != OVER:
            agree(rnd, playout)
    assert playout.finished
    assert playout.out == list(rnd.result.finish_order[:len(playout.out)])
    assert playout.score() == rnd.result.score
    return True


@settings(max_examples=75, deadline=None)
@given(st.sampled_from(list(VARIANTS.values())), st.integers(min_value=0, max_value=2**32 - 1))
def test_a_playout_follows_the_engine_step_by_step(variant, seed):
    compare_round(seed, variant)


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=lambda v: v.name)
def test_most_random_rounds_are_compared_to_their_score(variant):
    """The comparison is not vacuous: all but a few rounds (a bomb onto a won trick) reach the end."""
    ends = [compare_round(seed, variant) for seed in range(200)]
    assert sum(ends) >= 180
