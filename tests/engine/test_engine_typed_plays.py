"""A typed play and the listed play of its classification are one action.

The server classifies what a player types and applies ``play_of(seat, combo)``
(the form the engine lists), so the engine does not classify it again. That is
only right if `Round.apply` treats both alike: the same events, or the same
error with the same message, and the same state after, in every position. Random
rounds are played to random points; there every seat tries random subsets of its
hand and some of its legal plays, with every reading `readings` allows (the
Phoenix's too), both ways, on two copies.
"""

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from bswtichu.engine import Exchange, IllegalActionError, Play, Round, readings
from bswtichu.engine.actions import play_of
from bswtichu.engine.combos import Combo
from bswtichu.engine.events import Event
from bswtichu.engine.round import OVER, PLAY


def plain(value):
    """Events, plays and combos with every field spelled out, for comparison."""
    if isinstance(value, Combo):
        return ("Combo", value.type, value.rank, value.length, value.mask, value.phoenix_as)
    if isinstance(value, Play):
        return ("Play", value.seat, value.cards, value.phoenix_as)
    if isinstance(value, Event):
        return (type(value).__name__, tuple(sorted((k, plain(v)) for k, v in vars(value).items())))
    if isinstance(value, (list, tuple)):
        return tuple(plain(v) for v in value)
    return value


def outcome(rnd: Round, action: Play):
    try:
        return ("events", plain(rnd.apply(action)))
    except IllegalActionError as error:
        return ("refused", str(error))


def state(rnd: Round):
    return (plain(rnd.history), [frozenset(hand) for hand in rnd.hands], plain(rnd.top), rnd.top_seat,
            rnd.turn, rnd.wish, rnd.phase, list(rnd.finish_order), rnd.trick_won)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2 ** 32 - 1))
def test_a_typed_play_and_the_listed_play_of_its_reading_apply_alike(seed):
    rng = Random(seed)
    rnd = Round.deal_random(rng)
    compared = 0
    while rnd.phase != OVER:
        if rnd.phase == PLAY:
            for seat in range(4):
                hand = sorted(rnd.hands[seat], key=lambda card: card.index)
                listed = [a.cards for a in rnd.legal_actions(seat) if isinstance(a, Play)]
                tried = rng.sample(listed, min(4, len(listed)))  # legal ones, Phoenix readings among them
                tried += [rng.sample(hand, rng.randint(1, min(6, len(hand)))) for _ in range(3) if hand]
                for cards in tried:
                    for combo in readings(cards):
                        typed, listed = rnd.copy(), rnd.copy()
                        assert outcome(typed, Play(seat, cards, combo.phoenix_as)) == \
                            outcome(listed, play_of(seat, combo))
                        assert state(typed) == state(listed)
                        compared += 1
        actions = [a for seat in range(4) for a in rnd.legal_actions(seat)]
        exchanges = [a for a in actions if isinstance(a, Exchange)]
        rnd.apply(rng.choice(exchanges) if exchanges else rng.choice(actions))
    assert compared > 0
