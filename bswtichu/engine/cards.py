"""Cards, the deck and their text notations.

Cards are interned immutable values: there are exactly 56 `Card` objects, so
cards compare by identity and hash cheaply.  Each card has an ``index``
(0..55) used for bit masks and a canonical text form (rules.md R2.4):
``7j``, ``Tr``, ``MJ``, ``DG``, ``PH``, ``DR``.  BrettspielWelt's log tokens
(``R7``, ``GK``, ``SB``, ``B10``, ``Ma``, ``Hu``, ``Ph``, ``Dr``) are read and
written by `parse_bsw_card` and `Card.bsw`.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Iterable

from .errors import ParseError

#: Suits in a fixed order: Jade (green), Sword (black), Pagoda (blue), Star (red).
SUITS = ("j", "s", "p", "r")
SUIT_NAMES = {"j": "Jade", "s": "Sword", "p": "Pagoda", "r": "Star"}

MAHJONG_RANK = 1
ACE = 14
DRAGON_RANK = 15
NATURAL_RANKS = range(2, ACE + 1)

_RANK_TEXT = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
              10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_BY_TEXT = {text: rank for rank, text in _RANK_TEXT.items()}
_RANK_BY_TEXT["10"] = 10

_BSW_RANK_TEXT = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
                  10: "10", 11: "B", 12: "D", 13: "K", 14: "A"}
_BSW_RANK_BY_TEXT = {text: rank for rank, text in _BSW_RANK_TEXT.items()}
_BSW_SUIT_TEXT = {"j": "G", "s": "S", "p": "B", "r": "R"}
_BSW_SUIT_BY_TEXT = {text: suit for suit, text in _BSW_SUIT_TEXT.items()}

_SUIT_BY_TEXT = {"j": "j", "s": "s", "p": "p", "r": "r", "g": "j", "k": "s", "b": "p"}

# Special card kinds (the ``kind`` of a natural card is "N").
NATURAL = "N"
MAHJONG = "MJ"
DOG = "DG"
PHOENIX = "PH"
DRAGON = "DR"

_SPECIAL_ALIASES = {
    "MJ": MAHJONG, "1": MAHJONG, "MA": MAHJONG, "MAHJONG": MAHJONG,
    "DG": DOG, "DOG": DOG, "HU": DOG,
    "PH": PHOENIX, "PHX": PHOENIX, "PHOENIX": PHOENIX,
    "DR": DRAGON, "DRA": DRAGON, "DRAGON": DRAGON,
}
_BSW_SPECIAL_TEXT = {MAHJONG: "Ma", DOG: "Hu", PHOENIX: "Ph", DRAGON: "Dr"}

_POINTS = {5: 5, 10: 10, 13: 10}
_SPECIAL_ORDER = {DOG: 0, MAHJONG: 1, PHOENIX: 15, DRAGON: 16}


class Card:
    """One of the 56 cards.  Never construct one: use `DECK`, `card()` or parse."""

    __slots__ = ("index", "kind", "rank", "suit", "points", "text", "bit", "order")

    def __init__(self, index: int, kind: str, rank: int, suit: str | None, points: int, text: str):
        self.index = index
        self.kind = kind
        self.rank = rank  # 2..14 for natural cards, 1 Mahjong, 15 Dragon, 0 Dog and Phoenix
        self.suit = suit
        self.points = points
        self.text = text
        self.bit = 1 << index
        key = self.sort_key()
        self.order = 4 * key[0] + key[1]  # the print order of sort_key as one number

    @property
    def is_natural(self) -> bool:
        return self.kind == NATURAL

    @property
    def bsw(self) -> str:
        """The card as BrettspielWelt's logs write it."""
        if self.kind != NATURAL:
            return _BSW_SPECIAL_TEXT[self.kind]
        return _BSW_SUIT_TEXT[self.suit] + _BSW_RANK_TEXT[self.rank]  # type: ignore[index]  # a natural card has a suit

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (card, (self.text,))

    def __hash__(self) -> int:
        # by index, not by address: sets of cards iterate in the same order in every
        # process, so a seed fixes every bot decision after a restart too
        return self.index

    def sort_key(self) -> tuple[int, int]:
        """Order for printing hands: by rank, the Dog first and the Phoenix before the Dragon."""
        if self.kind == NATURAL:
            return (self.rank, SUITS.index(self.suit))
        return (_SPECIAL_ORDER[self.kind], 0)


def _build_deck() -> tuple[Card, ...]:
    cards = []
    for rank in NATURAL_RANKS:
        for suit in SUITS:
            index = (rank - 2) * 4 + SUITS.index(suit)
            cards.append(Card(index, NATURAL, rank, suit, _POINTS.get(rank, 0), _RANK_TEXT[rank] + suit))
    cards.append(Card(52, MAHJONG, MAHJONG_RANK, None, 0, "MJ"))
    cards.append(Card(53, DOG, 0, None, 0, "DG"))
    cards.append(Card(54, PHOENIX, 0, None, -25, "PH"))
    cards.append(Card(55, DRAGON, DRAGON_RANK, None, 25, "DR"))
    return tuple(cards)


#: All 56 cards, ordered by ``index``.
DECK: tuple[Card, ...] = _build_deck()
MAHJONG_CARD, DOG_CARD, PHOENIX_CARD, DRAGON_CARD = DECK[52:56]
_BY_TEXT = {c.text: c for c in DECK}
_TEXTS = tuple(c.text for c in DECK)
_MAHJONG_BIT, _DOG_BIT, _PHOENIX_BIT, _DRAGON_BIT = (c.bit for c in DECK[52:56])
_NATURALS_MASK = (1 << 52) - 1


def natural(rank: int, suit: str) -> Card:
    """The natural card of that rank (2..14) and suit."""
    return DECK[(rank - 2) * 4 + SUITS.index(suit)]


def card(text: str) -> Card:
    """Parse one card in the notation of rules.md R2.4 (alias of `parse_card`)."""
    return parse_card(text)


def parse_rank(text: str) -> int:
    """A natural rank 2..14 from ``7``, ``T``, ``10``, ``J``, ``q`` ... (case-insensitive)."""
    rank = _RANK_BY_TEXT.get(text.strip().upper())
    if rank is None:
        raise ParseError(f"'{text}' is not a rank; use 2-9, T (or 10), J, Q, K or A")
    return rank


def rank_text(rank: int) -> str:
    """The printed form of a rank: 2..9, T, J, Q, K, A (1 for the Mahjong)."""
    if rank == MAHJONG_RANK:
        return "1"
    if rank == DRAGON_RANK:
        return "DR"
    return _RANK_TEXT[rank]


def parse_card(text: str) -> Card:
    """Parse one card token: ``7j``, ``Tr``, ``10r``, ``MJ``, ``PH``, aliases included."""
    token = text.strip().upper()
    special = _SPECIAL_ALIASES.get(token)
    if special is not None:
        return DECK[{MAHJONG: 52, DOG: 53, PHOENIX: 54, DRAGON: 55}[special]]
    if len(token) >= 2:
        rank = _RANK_BY_TEXT.get(token[:-1])
        suit = _SUIT_BY_TEXT.get(token[-1].lower())
        if rank is not None and suit is not None:
            return natural(rank, suit)
        if rank is not None:
            raise ParseError(f"'{text}': unknown suit '{token[-1].lower()}'; suits are j, s, p, r (or g, k, b)")
    raise ParseError(
        f"'{text}' is not a card; write rank then suit (7j, Tr, 10r, As) or MJ, DG, PH, DR"
    )


def parse_bsw_card(text: str) -> Card:
    """Parse one card as BrettspielWelt's logs write it: ``R7``, ``GK``, ``SB``, ``B10``, ``Ma``."""
    token = text.strip()
    for kind, bsw in _BSW_SPECIAL_TEXT.items():
        if token.lower() == bsw.lower():
            return DECK[{MAHJONG: 52, DOG: 53, PHOENIX: 54, DRAGON: 55}[kind]]
    if len(token) >= 2:
        suit = _BSW_SUIT_BY_TEXT.get(token[0].upper())
        rank = _BSW_RANK_BY_TEXT.get(token[1:].upper())
        if suit is not None and rank is not None:
            return natural(rank, suit)
    raise ParseError(f"'{text}' is not a BSW card token (e.g. R7, GK, SB, B10, Ma, Hu, Ph, Dr)")


def parse_bsw_rank(text: str) -> int:
    """A wished rank as BSW logs write it (``Wunsch:10``, ``Wunsch:B``)."""
    rank = _BSW_RANK_BY_TEXT.get(text.strip().upper())
    if rank is None:
        raise ParseError(f"'{text}' is not a BSW rank (2-10, B, D, K, A)")
    return rank


def bsw_rank_text(rank: int) -> str:
    return _BSW_RANK_TEXT[rank]


def split_tokens(text: str) -> list[str]:
    """Split on spaces and commas."""
    return [t for t in text.replace(",", " ").split() if t]


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse several card tokens; a repeated card is an error."""
    tokens = split_tokens(text) if isinstance(text, str) else list(text)
    cards = [parse_card(t) for t in tokens]
    if len(set(cards)) != len(cards):
        raise ParseError("the same card is named twice")
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in canonical notation, sorted by rank, separated by spaces."""
    return " ".join(c.text for c in sort_cards(cards))


def format_play(cards: Iterable[Card], phoenix_as: int | None = None) -> str:
    """A play as a player types it: sorted cards, ``PH=x`` where the Phoenix stands for a rank."""
    text = format_cards(cards)
    if phoenix_as is not None:
        text = text.replace("PH", f"PH={rank_text(phoenix_as)}")
    return text


def texts_of_mask(mask: int) -> list[str]:
    """The texts of a bit mask's cards in print order, as `sort_cards` puts them, without
    making the cards: the Dog, the Mahjong, the natural cards by index (their print
    order), the Phoenix, the Dragon."""
    texts = []
    if mask & _DOG_BIT:
        texts.append("DG")
    if mask & _MAHJONG_BIT:
        texts.append("MJ")
    naturals = mask & _NATURALS_MASK
    while naturals:
        low = naturals & -naturals
        texts.append(_TEXTS[low.bit_length() - 1])
        naturals ^= low
    if mask & _PHOENIX_BIT:
        texts.append("PH")
    if mask & _DRAGON_BIT:
        texts.append("DR")
    return texts


def format_mask(mask: int, phoenix_as: int | None = None) -> str:
    """`format_play` of a bit mask's cards (the same text), without making the cards."""
    text = " ".join(texts_of_mask(mask))
    if phoenix_as is not None:
        text = text.replace("PH", f"PH={rank_text(phoenix_as)}")
    return text


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in print order (`Card.sort_key`)."""
    return sorted(cards, key=_PRINT_ORDER)


_PRINT_ORDER = attrgetter("order")


def mask_of(cards: Iterable[Card]) -> int:
    """The cards as a bit mask (bit ``card.index`` per card)."""
    mask = 0
    for c in cards:
        mask |= c.bit
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards of a bit mask, by index."""
    out = []
    while mask:
        low = mask & -mask
        out.append(DECK[low.bit_length() - 1])
        mask ^= low
    return out


def card_points(cards: Iterable[Card]) -> int:
    return sum(map(_POINTS_OF, cards))


_POINTS_OF = attrgetter("points")
