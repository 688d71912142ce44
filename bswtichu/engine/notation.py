"""Reading what a player types: cards with ``PH=x`` and rank-only shorthand (``7 7``).

Shorthand is resolved against the hand deterministically: the choice never
makes a straight-flush bomb of a typed non-bomb, avoids breaking a bomb in
the hand, and otherwise takes suits in the order j, s, p, r.  Where the
choice would break a bomb and several choices exist, it raises
`AmbiguousError` listing them so the player can name the suits.
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Callable, Iterable

from .actions import (
    Action, CallGrand, CallTichu, DeclineGrand, DogLead, Exchange, GiveDragon, MakeWish, Pass, Play,
)
from .cards import (
    DRAGON, MAHJONG, NATURAL, PHOENIX, PHOENIX_CARD, SUITS, Card, format_cards, parse_card, parse_rank, rank_text,
    split_tokens,
)
from .combos import ComboType, bombs, readings
from .errors import AmbiguousError, ParseError
from .variant import Variant

_RANK_TOKENS = {"2", "3", "4", "5", "6", "7", "8", "9", "T", "10", "J", "Q", "K", "A"}


def parse_wish(text: str) -> int | None:
    """``7``, ``T``, ``10``, ``A`` → the rank; ``none`` / ``0`` / ``-`` → None (no wish)."""
    token = text.strip().upper()
    if token in ("NONE", "NO", "0", "-"):
        return None
    try:
        return parse_rank(token)
    except ParseError:
        raise ParseError(f"'{text}' is not a wish; wish a rank 2-9, T, J, Q, K, A, or 'none'") from None


def parse_play(text: str | Iterable[str], hand: Iterable[Card]) -> tuple[list[Card], int | None]:
    """Cards and Phoenix reading from typed text, resolving shorthand ranks against ``hand``."""
    tokens = split_tokens(text) if isinstance(text, str) else list(text)
    if not tokens:
        raise ParseError("name the cards to play, e.g. 7j 7s (or 7 7), MJ, PH=9")
    hand = list(hand)
    explicit: list[Card] = []
    wanted: list[int] = []
    roles: list[int] = []
    for token in tokens:
        upper = token.upper()
        if upper.startswith("PH") and upper not in ("PH", "PHX", "PHOENIX"):
            roles.append(parse_rank(upper[3:] if upper.startswith("PH=") else upper[2:]))
        elif upper in _RANK_TOKENS:
            wanted.append(parse_rank(upper))
        else:
            explicit.append(parse_card(token))
    if len(set(explicit)) != len(explicit):
        raise ParseError("the same card is named twice")
    if len(roles) > 1:
        raise ParseError("the Phoenix's rank is named twice; name it once, e.g. PH=9")
    phoenix_as = roles[0] if roles else None
    if roles and PHOENIX_CARD not in explicit:  # "PH=9" alone names the card too
        explicit.append(PHOENIX_CARD)
    if wanted:
        explicit += _resolve_shorthand(explicit, wanted, hand)
    return explicit, phoenix_as


def _too_few(rank: int, free: list[Card], count: int, besides: bool) -> str:
    """Why a rank named ``count`` times cannot be played: "you hold only one 9 (9p); you asked for 2"."""
    held = len(free)
    amount = "no" if not held else ("only " + ("one", "two", "three")[held - 1])
    more = " more" if besides else ""
    which = f" ({format_cards(free)})" if free else ""
    return (f"you hold {amount}{more} {rank_text(rank)}{'s' if held != 1 else ''}{which};"
            f" you asked for {count}")


def _resolve_shorthand(explicit: list[Card], wanted: list[int], hand: list[Card]) -> list[Card]:
    need: dict[int, int] = {}
    for rank in wanted:
        need[rank] = need.get(rank, 0) + 1
    options_per_rank = []
    for rank, count in sorted(need.items()):
        free = sorted((c for c in hand if c.kind == NATURAL and c.rank == rank and c not in explicit),
                      key=lambda c: SUITS.index(c.suit))
        if len(free) < count:
            raise ParseError(_too_few(rank, free, count, besides=any(c.rank == rank for c in explicit)))
        options_per_rank.append(list(combinations(free, count)))
    bomb_sets = [b.cards for b in bombs(hand)]
    scored = []
    for choice in product(*options_per_rank):
        chosen = [c for group in choice for c in group]
        play = explicit + chosen
        makes_flush = any(r.type is ComboType.STRAIGHT_FLUSH for r in readings(play))
        broken = sum(1 for b in bomb_sets if b & set(chosen) and not b <= set(play))
        scored.append(((makes_flush, broken), chosen))
    scored.sort(key=lambda item: item[0])
    (flush, broken), best = scored[0]
    if flush:
        raise AmbiguousError(
            "those cards would make a straight-flush bomb; to bomb, name the suits",
            [format_cards(explicit + best)])
    if broken:
        tied = [chosen for key, chosen in scored if key == (flush, broken)]
        if len(tied) > 1:
            choices = [format_cards(explicit + c) for c in tied[:8]]
            raise AmbiguousError("that breaks a bomb in your hand; name the suits: " + " | ".join(choices), choices)
    return best


#: What the 4-player exchange takes, said when it is given something else.
EXCHANGE_HINT = ("name three cards: to the right opponent, the partner, the left opponent"
                 " (e.g. /schupf 2j 9s 3p, or 2 9 3)")


def parse_exchange(text: str, hand: Iterable[Card], count: int = 3, order: str | None = None) -> tuple[Card, ...]:
    """Three cards to pass, in order (right opponent, partner, left opponent); in another
    variant ``count`` cards, ``order`` (its `Variant.exchange_text`) saying which go where.

    A rank alone (``2 9 3``) takes a card of that rank from ``hand``: one that is in
    no bomb if there is one, else in suit order j, s, p, r.
    """
    tokens = split_tokens(text)
    if len(tokens) != count:
        raise ParseError(EXCHANGE_HINT if order is None else order)
    hand = list(hand)
    named = {parse_card(t) for t in tokens if t.upper() not in _RANK_TOKENS}
    in_bombs = {card for bomb in bombs(hand) for card in bomb.cards}
    chosen: list[Card] = []
    for token in tokens:
        if token.upper() not in _RANK_TOKENS:
            chosen.append(parse_card(token))
            continue
        rank = parse_rank(token.upper())
        free = [c for c in hand if c.kind == NATURAL and c.rank == rank
                and c not in named and c not in chosen]
        if not free:
            other = "other " if any(c.rank == rank for c in named | set(chosen)) else ""
            raise ParseError(f"you hold no {other}{rank_text(rank)} to pass")
        chosen.append(min(free, key=lambda c: (c in in_bombs, SUITS.index(c.suit))))
    return tuple(chosen)  # the round refuses a card named twice or not held


#: The cards a suggested exchange keeps while the hand has others to pass.
_KEPT_IN_EXCHANGE = frozenset({DRAGON, PHOENIX, MAHJONG})


def suggested_exchange(seat: int, hand: Iterable[Card], variant: Variant) -> Exchange:
    """A pass the seat may send as it is (/legal lists it for the exchange): its lowest cards,
    none of a bomb and not the Dragon, Phoenix or Mahjong while others are left; the lowest go
    to opponents, the highest to partners.  Deterministic: the same hand, the same pass."""
    hand = list(hand)
    in_bombs = {card for bomb in bombs(hand) for card in bomb.cards}
    targets = variant.exchange_targets[seat]
    passed = sorted(hand, key=lambda c: (c.kind in _KEPT_IN_EXCHANGE, c in in_bombs, c.sort_key()))
    passed = sorted(passed[:len(targets)], key=Card.sort_key)
    partners = variant.partners[seat]
    receivers = sorted(targets, key=lambda target: target in partners)  # opponents first, in order
    card_for = dict(zip(receivers, passed))
    return Exchange(seat, tuple(card_for[target] for target in targets))


_NO_ARGUMENT: dict[str, Callable[[int], Action]] = {"grand": CallGrand, "nogrand": DeclineGrand, "tichu": CallTichu, "pass": Pass}


def parse_action(seat: int, text: str) -> Action:
    """The action whose `notation()` is ``text``, taken by ``seat``: the one spelling read back.

    ``play`` takes full card tokens (``PH=x`` for the Phoenix's rank), ``exchange`` its cards
    in the variant's order, ``give``/``dog`` a seat as people count it (1..N).  Raises
    `ParseError` saying what is wrong; whether the action is legal is the round's to say.
    """
    keyword, _, rest = text.strip().partition(" ")
    rest = rest.strip()
    if keyword in _NO_ARGUMENT:
        if rest:
            raise ParseError(f"'{keyword}' takes nothing after it; drop '{rest}'")
        return _NO_ARGUMENT[keyword](seat)
    if keyword == "play":
        tokens = split_tokens(rest)
        if not tokens:
            raise ParseError("'play' needs its cards, e.g. play 7j 7s")
        roles = [t for t in tokens if t.upper().startswith("PH=")]
        if len(roles) > 1:
            raise ParseError("the Phoenix's rank is named twice; name it once, e.g. PH=9")
        cards = [PHOENIX_CARD if t in roles else parse_card(t) for t in tokens]
        if len(set(cards)) != len(cards):
            raise ParseError("the same card is named twice")
        return Play(seat, cards, parse_rank(roles[0][3:]) if roles else None)
    if keyword == "exchange":
        given = tuple(parse_card(t) for t in split_tokens(rest))
        if not given:
            raise ParseError("'exchange' needs its cards, e.g. exchange 2j 9s 3p")
        return Exchange(seat, given)
    if keyword == "wish":
        if not rest:
            raise ParseError("'wish' needs a rank or 'none', e.g. wish 7")
        return MakeWish(seat, parse_wish(rest))
    if keyword in ("give", "dog"):
        if not rest.isdigit() or int(rest) < 1:
            raise ParseError(f"'{keyword}' needs a seat number (1..N), not '{rest}'")
        return (GiveDragon if keyword == "give" else DogLead)(seat, int(rest) - 1)
    raise ParseError(f"'{keyword}' is no action; actions are grand, nogrand, tichu, exchange, play,"
                     " pass, wish, give, dog")
