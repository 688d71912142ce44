"""Questions a card table asks about a hand: is this selection playable now, and what is
worth suggesting.  Pure functions over a `Round`.

Whether a play is legal is never decided here: it is read from the round's own legal-move
generator (`Round.iter_legal_actions`), so the rules stay in one place.  What is added is
what a person is told: a combination's name as players say it (`combo_name`) and, for a
selection that may not be played, the one short reason why (`check_selection`), which the
property tests hold against the engine's own refusals.

    >>> from bswtichu.engine import Round, card
    >>> from bswtichu.engine.combos import classify
    >>> combo_name(classify([card(t) for t in ("8j", "8s", "8p", "4j", "4r")]))
    'full house of eights over fours'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .actions import Pass, Play
from .cards import MAHJONG_CARD, NATURAL, PHOENIX_CARD, Card, mask_of, rank_text, sort_cards
from .combos import (
    DOG_TYPE, FULL_HOUSE, PAIR, RANK_PLURALS, SINGLE, STAIRS, STRAIGHT, TRIPLE, Combo, readings,
)
from .round import EXCHANGE, GRAND, PLAY, Round

#: The kinds `suggestions` offers one play of, in this order (bombs come apart).
SUGGESTED_KINDS = (SINGLE, DOG_TYPE, PAIR, TRIPLE, FULL_HOUSE, STRAIGHT, STAIRS)
#: At most this many suggested plays, and bombs.
MAX_SUGGESTED, MAX_BOMBS = 6, 3
#: What a selection outside the play phase is told.
_PHASE_REASONS = {GRAND: "Grand Tichu is decided first", EXCHANGE: "the exchange comes first: /schupf"}


def combo_name(combo: Combo) -> str:
    """The combination as players say it: 'straight 3-7', 'pair of nines', 'single Phoenix',
    'full house of eights over fours', 'bomb: four fives' (equal ranks as words: '9s' reads
    as the nine of Swords)."""
    if combo.type is SINGLE and combo.mask == PHOENIX_CARD.bit:
        return "single Phoenix"
    name = combo.describe()
    if combo.type is FULL_HOUSE:
        triple = int(combo.rank)
        pair = next(c.rank for c in combo.cards if c.kind == NATURAL and c.rank != triple)
        name += f" over {RANK_PLURALS[pair]}"
    return name


@dataclass(frozen=True)
class SelectionCheck:
    """What `check_selection` found.  ``plays`` are the legal plays of the cards (one per
    reading the rules allow now; several only where the Phoenix makes them ambiguous);
    ``how`` is "turn" or "bomb" (out of turn) when there are any; ``wish`` is "make" (the
    Mahjong is in the play), "fulfil" (the play holds the wished rank) or None; ``why`` a
    stable code and ``reason`` a short sentence when there are none."""

    cards: tuple[Card, ...]
    name: str | None
    plays: tuple[Play, ...]
    how: str | None
    wish: str | None
    why: str | None
    reason: str | None

    @property
    def playable(self) -> bool:
        return bool(self.plays)


def check_selection(rnd: Round, seat: int, cards: Iterable[Card]) -> SelectionCheck:
    """Whether ``seat`` may play exactly ``cards`` now, read from the round's legal moves."""
    chosen = tuple(sort_cards(set(cards)))
    options = readings(chosen)
    name = combo_name(options[0]) if options else None
    plays = _legal_plays_of(rnd, seat, mask_of(chosen))
    if plays:
        return SelectionCheck(chosen, name, plays, _how(rnd, seat), _wish_effect(rnd, plays[0].combo),
                              None, None)
    why, reason = _why_not(rnd, seat, chosen, options)
    return SelectionCheck(chosen, name, (), None, None, why, reason)


def _legal_plays_of(rnd: Round, seat: int, mask: int) -> tuple[Play, ...]:
    """The legal plays (listed by the engine) whose cards are exactly ``mask``, highest reading first."""
    if rnd.phase != PLAY or not mask:
        return ()
    found = [a for a in rnd.iter_legal_actions(seat) if type(a) is Play and a.combo.mask == mask]
    return tuple(sorted(found, key=lambda play: -play.combo.rank))


def _how(rnd: Round, seat: int) -> str:
    """A legal play is the seat's turn (a lead or a follow), or a bomb out of turn."""
    return "turn" if rnd.waiting_for == seat and rnd.need in ("lead", "follow") else "bomb"


def _wish_effect(rnd: Round, combo: Combo) -> str | None:
    if MAHJONG_CARD.bit & combo.mask:
        return "make"
    if rnd.wish is not None and combo.contains_rank(rnd.wish):
        return "fulfil"
    return None


def _why_not(rnd: Round, seat: int, cards: Sequence[Card], options: list[Combo]) -> tuple[str, str]:
    """The first reason, in the order the engine checks a play, why none of ``options``
    (the readings of ``cards``) may be played by ``seat`` now: said of the highest reading."""
    if rnd.phase != PLAY:
        return "phase", _PHASE_REASONS.get(rnd.phase, "the round is over")
    if rnd.wish_pending_seat is not None:
        return "waiting", "waiting for the wish"
    if seat in rnd.finish_order:
        return "out", "you are out of this round"
    missing = [c for c in cards if c not in rnd.hands[seat]]
    if missing or not cards:
        return "not_in_hand", "not in your hand: " + (" ".join(c.text for c in missing) or "no cards")
    if not options:
        return "not_a_combination", "not a combination"
    combo = options[0]
    if rnd.gift_pending_seat is not None:
        if rnd.ending:
            return "waiting", "the round is over: only the Dragon gift remains"
        if not combo.is_bomb:
            return "waiting", "waiting for the Dragon to be given: only a bomb may come now"
        return _not_beating(rnd)
    return _why_not_placed(rnd, seat, combo)


def _why_not_placed(rnd: Round, seat: int, combo: Combo) -> tuple[str, str]:
    """Why ``combo`` cannot go onto the table now: the turn, the trick, the wish."""
    top = rnd.top
    if rnd.trick_won or top is None:
        if seat == (rnd.leader if rnd.trick_won else rnd.turn):
            return _why_not_led(rnd, seat, combo)
        if not rnd.trick_won or not combo.is_bomb:
            return "not_your_turn", "not your turn"
        return _not_beating(rnd)
    if seat != rnd.turn:
        return _not_beating(rnd) if combo.is_bomb else ("not_your_turn", "not your turn")
    if not combo.played_over(top).beats(top):
        return _not_beating(rnd)
    return _why_not_led(rnd, seat, combo)


def _why_not_led(rnd: Round, seat: int, combo: Combo) -> tuple[str, str]:
    """Why a play in the seat's turn is refused though the trick allows it: the Dog's choice
    pending, or the wish."""
    if rnd.dog_pending_seat is not None:
        return "waiting", "waiting for the Dog's partner to be chosen"
    wish = rnd.wish
    if wish is not None and rnd.wish_binds(seat) and not combo.contains_rank(wish) and (
            rnd.top is None or rnd.trick_won or not combo.is_bomb):
        return "wish", f"you must play the wished {rank_text(wish)}"
    return "not_legal", "not allowed now"  # never, while the generator and the reasons agree


def _not_beating(rnd: Round) -> tuple[str, str]:
    top = rnd.top
    assert top is not None  # a trick to beat lies on the table
    return "does_not_beat", f"does not beat the {combo_name(top)}"


@dataclass(frozen=True)
class Suggestions:
    """A few plays worth showing: one per kind (`SUGGESTED_KINDS`), the bombs apart, the pass.
    ``need`` is what the round waits for from the seat ("lead", "follow", ...), or None."""

    need: str | None
    plays: tuple[Play, ...]
    bombs: tuple[Play, ...]
    can_pass: bool


def suggestions(rnd: Round, seat: int) -> Suggestions:
    """The lowest legal play of each kind (one without the Phoenix where there is one), the
    legal bombs lowest first, and whether ``seat`` may pass: all from its legal moves now."""
    if rnd.phase != PLAY:
        return Suggestions(None, (), (), False)
    need = rnd.need if rnd.waiting_for == seat else None
    actions = rnd.legal_actions(seat)
    plays = [a for a in actions if type(a) is Play]
    bombs = sorted((p for p in plays if p.combo.is_bomb), key=lambda p: p.combo.bomb_key)
    lowest: dict[object, Play] = {}
    if need in ("lead", "follow"):
        for play in plays:
            kind = play.combo.type
            if kind in SUGGESTED_KINDS and (kind not in lowest or _lower(play, lowest[kind])):
                lowest[kind] = play
    chosen = tuple(lowest[kind] for kind in SUGGESTED_KINDS if kind in lowest)[:MAX_SUGGESTED]
    return Suggestions(need, chosen, tuple(bombs[:MAX_BOMBS]), any(type(a) is Pass for a in actions))


def _lower(play: Play, than: Play) -> bool:
    return _suggestion_key(play.combo) < _suggestion_key(than.combo)


def _suggestion_key(combo: Combo) -> tuple[bool, float, int]:
    """Lower is suggested first: without the Phoenix, the lower rank, the longer (a single
    Phoenix counts as above the Ace: it is rarely the card to get rid of)."""
    phoenix = bool(combo.mask & PHOENIX_CARD.bit)
    rank = 14.5 if combo.type is SINGLE and phoenix else combo.rank
    return (phoenix and combo.length > 1, rank, -combo.length)


__all__ = ["SelectionCheck", "Suggestions", "check_selection", "combo_name", "suggestions",
           "SUGGESTED_KINDS", "MAX_SUGGESTED", "MAX_BOMBS"]
