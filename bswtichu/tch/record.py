"""Turn a round played through the engine into a `RoundLog`, as BrettspielWelt logs it.

The inverse of `replay`: BSW's conventions are produced here.  The trick
winner's own ``passt.`` line is written when he collects a trick by leading
(not when he is out), a Dragon trick's collection is followed by its
``Drache an`` line, a Tichu called before the play is written at the top of
the play section, and no pass is written after the play that ends the round.

A game server logs every round it plays, so this is written for speed: the
round's history is walked once with a small tally of who holds how many cards
and whether the open trick is won (instead of replaying the round through the
engine), the plays' combinations are the ones the engine recorded, and the
model values come from `of_engine` constructors or are shared.  The tests hold
the plain replaying version as the reference it must agree with.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Sequence

from ..engine import (
    CallGrand, CallTichu, DeclineGrand, Exchange, GiveDragon, MakeWish, Pass, Play, Round,
)
from ..engine.cards import NATURAL_RANKS, PHOENIX_CARD, Card
from ..engine.combos import ComboType, classify
from ..engine.deal import first_cards, last_cards
from ..engine.round import OVER, trick_won
from . import model

#: a card's place high to low as BSW lists cards (Dragon, Phoenix, A..2 with the suits
#: Star, Pagoda, Sword, Jade, Mahjong, Dog): its print order, read backwards
_ORDER = attrgetter("order")
_FULL_HOUSE = ComboType.FULL_HOUSE
_START_HAND = 14

# The entries that name only a seat (or a rank) are the same values every time: shared.
_PASSES = tuple(model.Pass(seat) for seat in model.SEATS)
_TICHU_CALLS = tuple(model.TichuCall(seat) for seat in model.SEATS)
_GRAND_TICHU_CALLS = tuple(model.GrandTichuCall(seat) for seat in model.SEATS)
_DRAGON_GIFTS = tuple(model.DragonGift(seat) for seat in model.SEATS)
_WISHES = {rank: model.Wish(rank) for rank in NATURAL_RANKS}


def _phoenix_order(phoenix_as: int) -> float:
    """The Phoenix's place when it stands for ``phoenix_as``: after that rank's cards, before the next lower."""
    return 4 * phoenix_as - 0.5


def bsw_order(cards, phoenix_as: int | None = None) -> tuple[Card, ...]:
    """Cards high to low as BSW lists them: Dragon, Phoenix, A..2, Mahjong, Dog.

    In a play the Phoenix stands where its rank puts it (``S10 B9 G8 Ph B6``).
    """
    if phoenix_as is None:
        return tuple(sorted(cards, key=_ORDER, reverse=True))
    phoenix = _phoenix_order(phoenix_as)
    return tuple(sorted(cards, key=lambda c: phoenix if c is PHOENIX_CARD else c.order, reverse=True))


def _play_order(action: Play) -> tuple[Card, ...]:
    """A play's cards in log order; a full house lists its triple first, the Phoenix in its group.

    The engine's history carries each play's combination; a play built elsewhere is classified.
    """
    combo = action.combo
    if combo is None:
        combo = classify(action.cards, action.phoenix_as)
    phoenix_as = combo.phoenix_as
    cards = bsw_order(action.cards, phoenix_as)
    if combo.type is _FULL_HOUSE:
        rank = combo.rank
        in_triple = tuple(c for c in cards if (phoenix_as if c is PHOENIX_CARD else c.rank) == rank)
        cards = in_triple + tuple(c for c in cards if c not in in_triple)
    return cards


def round_log(rnd: Round, names: Sequence[str]) -> model.RoundLog:
    """The log of a round (finished or not) for players ``names`` in seat order."""
    deal = rnd.deal
    grand_hands = tuple(bsw_order(first_cards(deal, s)) for s in range(4))
    start_hands = tuple(bsw_order(tuple(first_cards(deal, s)) + tuple(last_cards(deal, s))) for s in range(4))
    exchanges: list = [None] * 4
    grand_calls = []
    entries: list[model.Entry] = []
    add = entries.append
    # The tally of the play: cards left per seat (a seat with none is out), the open
    # trick's owner, the passes since its last play, and whether they won it.
    left = [_START_HAND] * 4
    top_seat = None
    passes = 0
    won = False
    for action in rnd.history:
        if type(action) is Play:
            seat = action.seat
            if won and seat == top_seat:
                add(_PASSES[seat])  # the winner takes the trick, then leads
            cards = _play_order(action)
            add(model.Play.of_engine(seat, cards))
            left[seat] -= len(cards)
            top_seat, passes, won = seat, 0, False
        elif type(action) is Pass:
            add(_PASSES[action.seat])
            passes += 1
            if trick_won(passes, left.count(0), left[top_seat] == 0):  # type: ignore[index]  # one passes only on a trick
                won = True
        elif type(action) is CallTichu:
            add(_TICHU_CALLS[action.seat])
        elif type(action) is MakeWish:
            if action.rank is not None:
                add(_WISHES[action.rank])
        elif type(action) is GiveDragon:
            if left[action.seat]:  # the Dragon's owner, still in, collects the trick first
                add(_PASSES[action.seat])
            add(_DRAGON_GIFTS[action.to])
            top_seat, passes, won = None, 0, False
        elif type(action) is Exchange:
            exchanges[action.seat] = action.cards
        elif type(action) is CallGrand:
            grand_calls.append(_GRAND_TICHU_CALLS[action.seat])
        elif type(action) is not DeclineGrand:
            raise TypeError(f"unknown action {action!r}")
    if rnd.phase == OVER:
        assert rnd.result is not None  # an ended round has its result
        score = rnd.result.score
        add(model.Result(score[0], score[1]))
    if any(e is None for e in exchanges):
        raise ValueError("a round is logged once its exchange is complete")
    return model.RoundLog.of_engine(
        seat_names=tuple(names), grand_hands=grand_hands, start_hands=start_hands,  # type: ignore[arg-type]  # a .tch round: four seats
        exchanges=tuple(exchanges), entries=tuple(entries), grand_tichu_calls=tuple(grand_calls))


def game_log(rounds: Sequence[tuple[Round, Sequence[str]]], source: str = "") -> model.GameLog:
    """A game's log from its rounds, each with the names in that round's seat order."""
    return model.GameLog(tuple(round_log(r, names) for r, names in rounds), source)
