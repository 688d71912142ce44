"""Turn a round played through the engine into a `RoundLog`, as BrettspielWelt logs it.

The inverse of `replay`: BSW's conventions are produced here.  The trick
winner's own ``passt.`` line is written when he collects a trick by leading
(not when he is out), a Dragon trick's collection is followed by its
``Drache an`` line, a Tichu called before the play is written at the top of
the play section, and no pass is written after the play that ends the round.
"""

from __future__ import annotations

from typing import Sequence

from ..engine import (
    CallGrand, CallTichu, DeclineGrand, Exchange, GiveDragon, MakeWish, Pass, Play, Round,
)
from ..engine.cards import DOG, DRAGON, MAHJONG, PHOENIX, Card
from ..engine.combos import ComboType, classify
from ..engine.deal import first_cards, last_cards
from ..engine.round import OVER
from . import model


def bsw_order(cards, phoenix_as: int | None = None) -> tuple[Card, ...]:
    """Cards high to low as BSW lists them: Dragon, Phoenix, A..2, Mahjong, Dog.

    In a play the Phoenix stands where its rank puts it (``S10 B9 G8 Ph B6``).
    """
    special = {DRAGON: 16, PHOENIX: 15, MAHJONG: 1, DOG: 0}

    def key(c: Card):
        if c.kind == PHOENIX and phoenix_as is not None:
            return (phoenix_as, -1)
        return (special.get(c.kind, c.rank), "jspr".index(c.suit) if c.suit else 0)
    return tuple(sorted(cards, key=key, reverse=True))


def _play_order(action: Play) -> tuple[Card, ...]:
    """A play's cards in log order; a full house lists its triple first, the Phoenix in its group."""
    combo = classify(action.cards, action.phoenix_as)
    cards = bsw_order(action.cards, combo.phoenix_as)
    if combo.type is ComboType.FULL_HOUSE:
        in_triple = [c for c in cards if (combo.phoenix_as if c.kind == PHOENIX else c.rank) == combo.rank]
        cards = tuple(in_triple) + tuple(c for c in cards if c not in in_triple)
    return cards


def round_log(rnd: Round, names: Sequence[str]) -> model.RoundLog:
    """The log of a round (finished or not) for players ``names`` in seat order."""
    deal = rnd.deal
    grand_hands = [bsw_order(first_cards(deal, s)) for s in range(4)]
    start_hands = [bsw_order(tuple(first_cards(deal, s)) + tuple(last_cards(deal, s))) for s in range(4)]
    exchanges: list = [None] * 4
    grand_calls = []
    entries: list = []
    shadow = Round(deal, grand_tichu=rnd.grand_tichu, double_victory_points=rnd.double_victory_points)
    for action in rnd.history:
        if isinstance(action, CallGrand):
            grand_calls.append(model.GrandTichuCall(action.seat))
        elif isinstance(action, Exchange):
            exchanges[action.seat] = action.cards
        elif isinstance(action, CallTichu):
            entries.append(model.TichuCall(action.seat))
        elif isinstance(action, Pass):
            entries.append(model.Pass(action.seat))
        elif isinstance(action, MakeWish):
            if action.rank is not None:
                entries.append(model.Wish(action.rank))
        elif isinstance(action, GiveDragon):
            if shadow.top_seat not in shadow.finish_order and not shadow.ending:
                entries.append(model.Pass(shadow.top_seat))
            entries.append(model.DragonGift(action.to))
        elif isinstance(action, Play):
            if shadow.trick_won and action.seat == shadow.leader and shadow.top_seat == action.seat:
                entries.append(model.Pass(action.seat))  # the winner takes the trick, then leads
            entries.append(model.Play(action.seat, _play_order(action)))
        elif not isinstance(action, DeclineGrand):
            raise TypeError(f"unknown action {action!r}")
        shadow.apply(action)
    if shadow.phase == OVER:
        score = shadow.result.score
        entries.append(model.Result(score[0], score[1]))
    if any(e is None for e in exchanges):
        raise ValueError("a round is logged once its exchange is complete")
    return model.RoundLog(
        seat_names=tuple(names), grand_hands=tuple(grand_hands), start_hands=tuple(start_hands),
        exchanges=tuple(exchanges), entries=tuple(entries), grand_tichu_calls=tuple(grand_calls))


def game_log(rounds: Sequence[tuple[Round, Sequence[str]]], source: str = "") -> model.GameLog:
    """A game's log from its rounds, each with the names in that round's seat order."""
    return model.GameLog(tuple(round_log(r, names) for r, names in rounds), source)
