"""Combinations: classifying a set of cards, comparing plays, generating plays from a hand.

A `Combo` is an immutable value: its type, length, rank, cards and, if the
Phoenix stands in for a rank, which one (``phoenix_as``).  Two readings of the
same cards (``5 6 7 8 PH`` as 4-8 or 5-9) are two different combos.

Ranks: natural cards 2..14, Mahjong 1, Dragon 15.  A single Phoenix has the
value half a rank above what it was played on (1.5 when led), so single ranks
may be ``x.5`` floats (exact in binary).  Multi-card combos rank by their
triple (full house) or their top card or pair.

How it is fast (docs/engine.md, "Speed"): a set of cards is a 56-bit mask
(`Card.bit`), natural rank ``r`` owning the four bits ``4*(r-2)`` to
``4*(r-2)+3`` (its "nibble", one bit per suit).  Per-rank counts, ranks
present and ranks holding a pair come from a few shifts of the mask; windows of
ranks for straights and stairs are masks too.  The combinations of at most
four cards (singles, pairs, triples, four-of-a-kind bombs, two-pair stairs)
and the straight-flush bombs are built once at import and shared; longer ones
are built from their mask, and a combo's ``cards`` set is made only when asked.

Play generation has an optional compiled twin, ``_combos_accel.c``: when it
was built and BSWTICHU_PURE is not set, `play_list`, `plays`, the bombs of a
`HandIndex`, `listed_plays` and `sorted_cards_of` are its functions; the pure
ones (``pure_*``) stay as the reference it is tested against.
"""

from __future__ import annotations

import enum
import os
from itertools import combinations
from typing import Any, Iterable, Iterator, Sequence

from .actions import Play, play_of
from .cards import (
    ACE, DECK, DOG_CARD, DRAGON_CARD, DRAGON_RANK, MAHJONG_CARD, MAHJONG_RANK, NATURAL_RANKS,
    PHOENIX_CARD, SUITS, Card, cards_of, format_cards, format_mask, mask_of, rank_text, sort_cards,
    texts_of_mask,
)
from .errors import IllegalActionError

#: The cards of a mask (for `Combo.cards`) and the mask of cards (for `HandIndex`):
#: the compiled versions when they are loaded (end of module).
_cards_of, _mask_of = cards_of, mask_of


#: Natural ranks in words, plural: how a combination of equal ranks is named to people.
RANK_PLURALS = dict(zip(NATURAL_RANKS, ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
                                        "nines", "tens", "jacks", "queens", "kings", "aces")))


class ComboType(enum.Enum):
    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    FULL_HOUSE = "full house"
    STRAIGHT = "straight"
    STAIRS = "stairs"
    FOUR_BOMB = "four-of-a-kind bomb"
    STRAIGHT_FLUSH = "straight-flush bomb"
    DOG = "dog"


BOMB_TYPES = (ComboType.FOUR_BOMB, ComboType.STRAIGHT_FLUSH)
PHOENIX_LEAD_RANK = 1.5

SINGLE, PAIR, TRIPLE = ComboType.SINGLE, ComboType.PAIR, ComboType.TRIPLE
FULL_HOUSE, STRAIGHT, STAIRS = ComboType.FULL_HOUSE, ComboType.STRAIGHT, ComboType.STAIRS
FOUR_BOMB, STRAIGHT_FLUSH, DOG_TYPE = ComboType.FOUR_BOMB, ComboType.STRAIGHT_FLUSH, ComboType.DOG

MJ_BIT, DOG_BIT, PH_BIT, DR_BIT = (c.bit for c in (MAHJONG_CARD, DOG_CARD, PHOENIX_CARD, DRAGON_CARD))
#: The 52 natural cards.
NATURALS = (1 << 52) - 1
#: One bit per natural rank, at the rank's lowest (Jade) bit: the ranks' "spread" form.
RANK_UNITS = sum(1 << 4 * i for i in range(13))


def _shift(rank: int) -> int:
    """Where the nibble of natural ``rank`` starts in a mask."""
    return 4 * (rank - 2)


class Combo:
    """A valid combination of cards with one reading.

    ``mask`` is the cards as a bit mask; ``cards`` (a frozenset) is built from
    it on first use.  Equal combos have the same cards and ``phoenix_as``.
    """

    __slots__ = ("type", "length", "rank", "mask", "phoenix_as", "_cards")

    def __init__(self, type: ComboType, rank: float, cards: Iterable[Card], phoenix_as: int | None = None):
        self.type = type
        cards = self._cards = frozenset(cards)
        self.length = len(cards)
        self.rank = rank
        self.phoenix_as = phoenix_as
        m = 0
        for c in cards:
            m |= c.bit
        self.mask = m

    @property
    def cards(self) -> frozenset[Card]:
        """The cards, built from ``mask`` on first use: the generators make combos from masks.

        A property, not ``__getattr__``: a class with ``__getattr__`` has every
        attribute read go the slow way (CPython does not specialize it).
        """
        try:
            return self._cards
        except AttributeError:
            cards = self._cards = frozenset(_cards_of(self.mask))
            return cards

    @property
    def is_bomb(self) -> bool:
        return self.type in BOMB_TYPES

    @property
    def bomb_key(self) -> tuple[int, int, float]:
        """Bomb order of rules.md R9.3: every straight flush beats every four of a kind."""
        if self.type is FOUR_BOMB:
            return (0, 0, self.rank)
        return (1, self.length, self.rank)

    def beats(self, top: "Combo | None") -> bool:
        """Whether this combo may be played onto ``top`` (None: an empty table)."""
        if top is None:
            return True
        mine, theirs = self.type, top.type
        if mine is DOG_TYPE or theirs is DOG_TYPE:
            return False
        if mine in BOMB_TYPES:
            return theirs not in BOMB_TYPES or self.bomb_key > top.bomb_key
        if theirs in BOMB_TYPES or mine is not theirs or self.length != top.length:
            return False
        if mine is SINGLE and self.mask == PH_BIT:
            return top.rank < DRAGON_RANK
        return self.rank > top.rank

    def played_over(self, top: "Combo | None") -> "Combo":
        """The combo as it lies on the table: a single Phoenix takes its value from ``top``."""
        if self.mask == PH_BIT:
            rank = PHOENIX_LEAD_RANK if top is None else top.rank + 0.5
            if rank != self.rank:
                return phoenix_single(rank)
        return self

    def contains_rank(self, rank: int) -> bool:
        """Whether a natural card of ``rank`` is in the combo (the Phoenix never counts)."""
        return 2 <= rank <= ACE and bool(self.mask >> (4 * rank - 8) & 15)

    def to_dict(self) -> dict[str, object]:
        """The combination as plain data (events, server messages): one form everywhere."""
        return {"type": self.type.value, "cards": texts_of_mask(self.mask),
                "rank": self.rank, "phoenix_as": self.phoenix_as, "text": self.describe()}

    def notation(self) -> str:
        """Cards as a player types them, with ``PH=x`` when the Phoenix stands for a rank."""
        return format_mask(self.mask, self.phoenix_as)

    def describe(self) -> str:
        """Readable name: 'pair of sevens', 'straight 4-8', 'single PH (10.5)'.

        Ranks of pairs, triples, full houses and four-of-a-kinds are words: "pair of 7s"
        would read as the card 7s (seven of Swords); a run from the Mahjong starts "MJ".
        """
        t = self.type
        if t is SINGLE:
            if self.mask == PH_BIT:
                return f"single PH ({self.rank:g})"
            return f"single {next(iter(self.cards)).text}"
        if t is DOG_TYPE:
            return "the Dog"
        rank = int(self.rank)
        if t is PAIR:
            return f"pair of {RANK_PLURALS[rank]}"
        if t is TRIPLE:
            return f"triple of {RANK_PLURALS[rank]}"
        if t is FULL_HOUSE:
            return f"full house of {RANK_PLURALS[rank]}"
        if t is FOUR_BOMB:
            return f"bomb: four {RANK_PLURALS[rank]}"
        low = rank - (self.length // 2 if t is STAIRS else self.length) + 1
        name = {STAIRS: "stairs", STRAIGHT: "straight", STRAIGHT_FLUSH: "bomb: straight flush"}[t]
        return f"{name} {'MJ' if low == MAHJONG_RANK else rank_text(low)}-{rank_text(rank)}"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Combo) and self.mask == other.mask
                and self.phoenix_as == other.phoenix_as)

    def __hash__(self) -> int:
        return hash((self.mask, self.phoenix_as))

    def __repr__(self) -> str:
        return f"Combo({self.describe()!r}, {self.notation()!r})"


_new = object.__new__


def _combo(type: ComboType, rank: float, mask: int, length: int, phoenix_as: int | None = None) -> Combo:
    """A combo from its mask, without building its card set (the generator's fast path)."""
    combo = _new(Combo)
    combo.type = type
    combo.rank = rank
    combo.mask = mask
    combo.length = length
    combo.phoenix_as = phoenix_as
    return combo


# --------------------------------------------------------------------------
# Tables built once: the combinations of at most four cards, by rank and nibble
# --------------------------------------------------------------------------

def _nibble_cards(rank: int, nibble: int) -> list[Card]:
    """The cards of natural ``rank`` whose suits are set in ``nibble``."""
    return [DECK[_shift(rank) + s] for s in range(4) if nibble >> s & 1]


#: A table by rank (2..14; ranks 0 and 1 None, so that a rank indexes directly), then by
#: nibble (the suits held): what `_build_rank_tables` makes, its items per table.
RankTable = list[Any]


def _build_rank_tables() -> tuple[RankTable, ...]:
    """For each rank 2..14 and each nibble (the suits held): the cards' bits and small combos."""
    tables: tuple[dict[tuple[int, int], tuple[Any, ...]], ...] = tuple({} for _ in range(6))
    bits, singles, pairs, ph_pairs, triples, ph_triples = tables
    for rank in NATURAL_RANKS:
        for nibble in range(16):
            held = _nibble_cards(rank, nibble)
            key = (rank, nibble)
            bits[key] = tuple(c.bit for c in held)
            singles[key] = tuple(Combo(SINGLE, rank, (c,)) for c in held)
            pairs[key] = tuple(Combo(PAIR, rank, g) for g in combinations(held, 2))
            ph_pairs[key] = tuple(Combo(PAIR, rank, (c, PHOENIX_CARD), rank) for c in held)
            triples[key] = tuple(Combo(TRIPLE, rank, g) for g in combinations(held, 3))
            ph_triples[key] = tuple(Combo(TRIPLE, rank, g + (PHOENIX_CARD,), rank)
                                    for g in combinations(held, 2))

    def by_rank(table: dict[tuple[int, int], tuple[Any, ...]]) -> RankTable:  # [rank][nibble], ranks 0..14 so a rank indexes directly
        return [None, None] + [tuple(table[(r, n)] for n in range(16)) for r in NATURAL_RANKS]

    return tuple(by_rank(t) for t in tables)


_BITS, _SINGLES, _PAIRS, _PH_PAIRS, _TRIPLES, _PH_TRIPLES = _build_rank_tables()
_PAIR_MASKS: RankTable = [None, None] + [tuple(tuple(c.mask for c in _PAIRS[r][n]) for n in range(16))
                              for r in NATURAL_RANKS]


def _build_byte_tables() -> list[tuple[tuple[tuple[Combo, ...], ...], ...]]:
    """The small combos by byte of the mask: two ranks (the Ace alone in the last byte).

    ``[kind][k][byte]`` for byte ``k`` (ranks ``2k+2`` and ``2k+3``): the singles,
    the natural pairs, the pairs with and without the Phoenix (rank by rank),
    the natural triples, the triples with and without the Phoenix.
    """
    kinds = ((_SINGLES,), (_PAIRS,), (_PAIRS, _PH_PAIRS), (_TRIPLES,), (_TRIPLES, _PH_TRIPLES))
    tables = []
    for parts in kinds:
        per_byte: list[tuple[tuple[Combo, ...], ...]] = []
        for k in range(7):
            ranks = [r for r in (2 * k + 2, 2 * k + 3) if r <= ACE]
            per_byte.append(tuple(
                tuple(c for r in ranks for part in parts for c in part[r][byte >> 4 * (r - 2 * k - 2) & 15])
                for byte in range(256)))
        tables.append(tuple(per_byte))
    return tables


#: Per byte of a mask (`_build_byte_tables`): the small combos of its two ranks.
ByteTables = tuple[tuple[tuple[Combo, ...], ...], ...]
(_SINGLES_BY_BYTE, _PAIRS_BY_BYTE, _PAIRS_WITH_PH_BY_BYTE, _TRIPLES_BY_BYTE,
 _TRIPLES_WITH_PH_BY_BYTE) = _build_byte_tables()
_FOUR_BOMBS: RankTable = [None, None] + [Combo(FOUR_BOMB, r, _nibble_cards(r, 15)) for r in NATURAL_RANKS]
_DOG_COMBO = Combo(DOG_TYPE, 0, (DOG_CARD,))
_MAHJONG_SINGLE = Combo(SINGLE, MAHJONG_RANK, (MAHJONG_CARD,))
_DRAGON_SINGLE = Combo(SINGLE, DRAGON_RANK, (DRAGON_CARD,))
_PHOENIX_SINGLES: dict[float, Combo] = {}
_PHOENIX_LEAD = _PHOENIX_SINGLES[PHOENIX_LEAD_RANK] = Combo(SINGLE, PHOENIX_LEAD_RANK, (PHOENIX_CARD,))


def phoenix_single(rank: float) -> Combo:
    """The single Phoenix worth ``rank`` (shared: there are only a few dozen values)."""
    combo = _PHOENIX_SINGLES.get(rank)
    if combo is None:
        combo = _PHOENIX_SINGLES[rank] = Combo(SINGLE, rank, (PHOENIX_CARD,))
    return combo


def _build_straight_flushes() -> dict[tuple[int, int, int], Combo]:
    """Every straight-flush bomb by (suit index, lowest rank, highest rank)."""
    out: dict[tuple[int, int, int], Combo] = {}
    for s, suit in enumerate(SUITS):
        for low in range(2, ACE - 3):
            for high in range(low + 4, ACE + 1):
                cards = [DECK[_shift(r) + s] for r in range(low, high + 1)]
                out[(s, low, high)] = Combo(STRAIGHT_FLUSH, high, cards)
    return out


_STRAIGHT_FLUSHES = _build_straight_flushes()


def _small_readings() -> dict[int, Combo]:
    """Every combination of one to four cards by its mask (each has exactly one reading)."""
    table: dict[int, Combo] = {}
    for combo in (_DOG_COMBO, _MAHJONG_SINGLE, _DRAGON_SINGLE, _PHOENIX_LEAD,
                  *_FOUR_BOMBS[2:]):
        table[combo.mask] = combo
    for rank in NATURAL_RANKS:
        for kinds in (_SINGLES, _PAIRS, _PH_PAIRS, _TRIPLES, _PH_TRIPLES):
            for combo in kinds[rank][15]:
                table[combo.mask] = combo
    for low in range(2, ACE):  # stairs of two pairs: low and low + 1
        for first in _PAIRS[low][15]:
            for second in _PAIRS[low + 1][15]:
                table[first.mask | second.mask] = _combo(STAIRS, low + 1, first.mask | second.mask, 4)
        for rank, other in ((low, low + 1), (low + 1, low)):  # the Phoenix completes ``rank``
            for half in _BITS[rank][15]:
                for pair in _PAIRS[other][15]:
                    mask = half | PH_BIT | pair.mask
                    table[mask] = _combo(STAIRS, low + 1, mask, 4, rank)
    for combo in table.values():
        combo.cards  # shared values: build their card sets now, once
    return table


_SMALL = _small_readings()


# --------------------------------------------------------------------------
# Classification
# --------------------------------------------------------------------------

def _rank_counts(naturals: int) -> int:
    """Per-rank card counts, one per nibble (0..4 fits: no carries between nibbles)."""
    return ((naturals & RANK_UNITS) + (naturals >> 1 & RANK_UNITS)
            + (naturals >> 2 & RANK_UNITS) + (naturals >> 3 & RANK_UNITS))


def readings(cards: Iterable[Card]) -> list[Combo]:
    """Every reading of ``cards`` as one combination, highest rank first; [] if none."""
    try:
        n = len(cards)  # type: ignore[arg-type]  # a sized collection, most often; the except takes the rest
    except TypeError:
        cards = list(cards)
        n = len(cards)
    mask = 0
    for c in cards:
        mask |= c.bit
    if n <= 4:
        combo = _SMALL.get(mask)
        return [combo] if combo is not None and n == combo.length else []
    if mask.bit_count() != n:
        return []
    shapes = _LONG_SHAPES.get(_rank_counts(mask & NATURALS) | mask & _SHAPE_SPECIALS)
    if shapes is None:
        return []
    out = []
    for type, rank, phoenix_as in shapes:
        if type is STRAIGHT and mask in _ALL_FLUSH_MASKS:
            type = STRAIGHT_FLUSH
        out.append(_combo(type, rank, mask, n, phoenix_as))
    return out


def _counts_of(ranks: dict[int, int]) -> int:
    """A rank-count vector (`_rank_counts` form) from {natural rank: count}."""
    return sum(count << 4 * (rank - 2) for rank, count in ranks.items())


def _long_shapes() -> dict[int, tuple[tuple[ComboType, int, int | None], ...]]:
    """The readings of every combination of five or more cards, by its shape.

    A shape is the rank-count vector of the natural cards plus the Mahjong and
    Phoenix bits: all a reading depends on, but for a straight being a flush
    (checked on the mask).  Readings are (type, rank, phoenix_as), highest first.
    """
    shapes: dict[int, list[tuple[ComboType, int, int | None]]] = {}

    def add(counts: dict[int, int], specials: int, reading: tuple[ComboType, int, int | None]) -> None:
        shapes.setdefault(_counts_of(counts) | specials, []).append(reading)

    for low in range(1, ACE + 1):  # straights: low..high, the Mahjong as rank 1
        for high in range(low + 3, ACE + 1):
            ranks = range(low, high + 1)
            mj = MJ_BIT if low == 1 else 0
            run = {r: 1 for r in ranks if r > 1}
            if len(ranks) >= 5:
                add(run, mj, (STRAIGHT, high, None))
                for gap in ranks[1:-1]:  # the Phoenix fills a gap inside
                    add({r: 1 for r in ranks if r > 1 and r != gap}, mj | PH_BIT, (STRAIGHT, high, gap))
            if len(ranks) >= 4:  # the Phoenix extends the run at either end
                if high < ACE:
                    add(run, mj | PH_BIT, (STRAIGHT, high + 1, high + 1))
                if low > 2:
                    add(run, mj | PH_BIT, (STRAIGHT, high, low - 1))
    for triple in NATURAL_RANKS:  # full houses
        for other in NATURAL_RANKS:
            if other != triple:
                add({triple: 3, other: 2}, 0, (FULL_HOUSE, triple, None))
                add({triple: 3, other: 1}, PH_BIT, (FULL_HOUSE, triple, other))
                if triple > other:  # two pairs and the Phoenix: either pair becomes the triple
                    add({triple: 2, other: 2}, PH_BIT, (FULL_HOUSE, triple, triple))
                    add({triple: 2, other: 2}, PH_BIT, (FULL_HOUSE, other, other))
    for low in range(2, ACE):  # stairs of three pairs or more (two pairs are in _SMALL)
        for high in range(low + 2, ACE + 1):
            pairs = {r: 2 for r in range(low, high + 1)}
            add(pairs, 0, (STAIRS, high, None))
            for single in range(low, high + 1):
                add({**pairs, single: 1}, PH_BIT, (STAIRS, high, single))
    return {shape: tuple(found) for shape, found in shapes.items()}


_SHAPE_SPECIALS = MJ_BIT | PH_BIT | DOG_BIT | DR_BIT  # the Dog and the Dragon are in no shape
_LONG_SHAPES = _long_shapes()
_ALL_FLUSH_MASKS = frozenset(sf.mask for sf in _STRAIGHT_FLUSHES.values())


def classify(cards: Iterable[Card], phoenix_as: int | None = None) -> Combo:
    """The combination these cards form: the highest reading, or the one ``PH=x`` names."""
    cards = list(cards)
    options = readings(cards)
    if not options:
        raise IllegalActionError(f"{format_cards(cards) or 'nothing'} is not a valid combination")
    if phoenix_as is None:
        return options[0]
    for combo in options:
        if combo.phoenix_as == phoenix_as:
            return combo
    named = " or ".join(f"PH={rank_text(c.phoenix_as)}" for c in options if c.phoenix_as is not None)
    if PHOENIX_CARD not in cards:
        raise IllegalActionError("PH= names the Phoenix's rank, but the Phoenix is not in the play")
    raise IllegalActionError(
        f"the Phoenix cannot stand for {rank_text(phoenix_as)} in {format_cards(cards)}"
        + (f"; possible: {named}" if named else "")
    )


# --------------------------------------------------------------------------
# Generating plays from a hand
# --------------------------------------------------------------------------

class HandIndex:
    """A hand as masks, for play generation: built once per hand, immutable afterwards.

    Singles, pairs, triples and bombs need only ``mask``.  The rest is worked
    out on first use and kept: `count_ranks` fills ``counts`` (each rank's
    card count in its nibble) and ``present``, ``pairable``, ``triples`` (the
    ranks with at least one, two, three cards, one bit per rank at its
    nibble); `ranks` gives plain rank bit sets; `bombs` the bombs.
    """

    __slots__ = ("mask", "counts", "present", "pairable", "triples", "phoenix", "_bombs", "_ranks")

    def __init__(self, hand: Iterable[Card] | int):
        mask = self.mask = hand if isinstance(hand, int) else _mask_of(hand)
        self.phoenix = bool(mask & PH_BIT)
        self.counts: int | None = None
        self._bombs: list[Combo] | None = None
        self._ranks: tuple[int, int, int] | None = None

    def count_ranks(self) -> "HandIndex":
        """Fill ``counts``, ``present``, ``pairable`` and ``triples`` (once); returns the index."""
        if self.counts is None:
            counts = self.counts = _rank_counts(self.mask & NATURALS)
            pairable = self.pairable = (counts >> 1 | counts >> 2) & RANK_UNITS
            self.present = (counts | pairable) & RANK_UNITS
            self.triples = (counts >> 2 | counts >> 1 & counts) & RANK_UNITS
        return self

    def nibble(self, rank: int) -> int:
        """The suits held of natural ``rank``, one bit per suit."""
        return self.mask >> (4 * rank - 8) & 15

    def ranks(self) -> tuple[int, int, int]:
        """Bit sets of ranks: held (the Mahjong as rank 1), held naturally, held twice or more."""
        found = self._ranks
        if found is None:
            self.count_ranks()
            naturals = _compact(self.present)
            found = self._ranks = (naturals | (2 if self.mask & MJ_BIT else 0), naturals,
                                   _compact(self.pairable))
        return found

    def bombs(self) -> list[Combo]:
        """Every bomb in the hand: four of a kinds by rank, then straight flushes by suit and rank."""
        found = self._bombs
        if found is None:
            found = self._bombs = _all_bombs(self) if _accel is None else _accel.bombs(self.mask)
        return found


#: ``_COMPACT4[x]``: the spread form of four ranks (bits 0, 4, 8, 12 of ``x``) as 4 plain bits.
_COMPACT4 = [0] * 0x1112
for _x in range(16):
    _COMPACT4[sum(1 << 4 * _i for _i in range(4) if _x >> _i & 1)] = _x
#: Ranks 2..14 as a plain bit set.
NATURAL_RANK_BITS = sum(1 << r for r in NATURAL_RANKS)


def _compact(spread: int) -> int:
    """Ranks from spread form (a bit per nibble) to plain form (bit ``r`` for rank ``r``)."""
    return (_COMPACT4[spread & 0x1111] | _COMPACT4[spread >> 16 & 0x1111] << 4
            | _COMPACT4[spread >> 32 & 0x1111] << 8 | _COMPACT4[spread >> 48 & 0x1111] << 12) << 2


def plays(hand: Iterable[Card] | HandIndex, top: Combo | None = None) -> Iterator[Combo]:
    """Every combination in ``hand`` that may be played onto ``top``, bombs included.

    With ``top`` None this is every lead (the Dog included).  A single Phoenix
    comes with the value it would take over ``top``.  Order: by kind (singles,
    pairs, triples, full houses, straights by length, stairs by length, bombs),
    then by rank, then by the suits' order j, s, p, r.  Within a straight's or
    stairs' length and top rank: the natural ones first, then those with the
    Phoenix by the rank it stands for.
    """
    if _accel is not None:
        mask = hand.mask if isinstance(hand, HandIndex) else _accel.mask_of(hand)
        return iter(_accel.play_list(mask, top))
    return iter(play_list(hand if isinstance(hand, HandIndex) else HandIndex(hand), top))


def pure_play_list(h: HandIndex, top: Combo | None) -> list[Combo]:
    """`plays` as a list, for callers that want all of them anyway (``play_list``).

    This is the reference; the compiled ``play_list`` replaces it when loaded.
    """
    if top is None:
        h.count_ranks()
        out = _singles(h, None)
        ph = h.phoenix
        if h.pairable or ph:
            out += _sets(h, _PAIRS_BY_BYTE, _PAIRS_WITH_PH_BY_BYTE, _PAIRS, _PH_PAIRS, 0)
        if h.triples or ph and h.pairable:
            out += _sets(h, _TRIPLES_BY_BYTE, _TRIPLES_WITH_PH_BY_BYTE, _TRIPLES, _PH_TRIPLES, 0)
            out += _full_houses(h, 0)
        out += _straights(h, 0, 0)
        if h.pairable:
            out += _stairs(h, 0, 0)
        out += h.bombs()
        return out
    t = top.type
    if t is SINGLE:
        out = _singles(h, top)
    elif t is PAIR:
        out = _sets(h, _PAIRS_BY_BYTE, _PAIRS_WITH_PH_BY_BYTE, _PAIRS, _PH_PAIRS, top.rank)
    elif t is TRIPLE:
        out = _sets(h, _TRIPLES_BY_BYTE, _TRIPLES_WITH_PH_BY_BYTE, _TRIPLES, _PH_TRIPLES, top.rank)
    elif t is FULL_HOUSE:
        out = _full_houses(h, top.rank)
    elif t is STRAIGHT:
        out = _straights(h, top.length, top.rank)
    elif t is STAIRS:
        out = _stairs(h, top.length // 2, top.rank)
    elif t is DOG_TYPE:
        return []
    else:
        out = []
    found = h.bombs()
    if found:
        out += [b for b in found if b.beats(top)]
    return out


def _above(spread: int, floor: float) -> int:
    """The ranks of ``spread`` higher than ``floor``."""
    least = int(floor) + 1
    if least <= 2:
        return spread
    shift = 4 * least - 8
    return spread >> shift << shift


def _singles(h: HandIndex, top: Combo | None) -> list[Combo]:
    """Singles that beat ``top`` (all, the Dog included, when None): by rank, then suit."""
    mask = h.mask
    out: list[Combo] = []
    floor: float
    if top is None:
        floor = 0
        if mask & DOG_BIT:
            out.append(_DOG_COMBO)
        if mask & MJ_BIT:
            out.append(_MAHJONG_SINGLE)
    else:
        floor = top.rank
    _add_by_byte(out, mask, _SINGLES_BY_BYTE, _SINGLES, None, max(2, int(floor) + 1))
    if floor < DRAGON_RANK:
        if mask & PH_BIT:
            out.append(_PHOENIX_LEAD if top is None else phoenix_single(floor + 0.5))
        if mask & DR_BIT:
            out.append(_DRAGON_SINGLE)
    return out


def _sets(h: HandIndex, natural_bytes: ByteTables, mixed_bytes: ByteTables, naturals: RankTable,
          with_phoenix: RankTable | None, floor: float) -> list[Combo]:
    """Pairs or triples above ``floor``: rank by rank, natural ones, then those with the Phoenix."""
    out: list[Combo] = []
    if h.phoenix:
        _add_by_byte(out, h.mask, mixed_bytes, naturals, with_phoenix, max(2, int(floor) + 1))
    else:
        _add_by_byte(out, h.mask, natural_bytes, naturals, None, max(2, int(floor) + 1))
    return out


def _add_by_byte(out: list[Combo], mask: int, byte_tables: ByteTables, naturals: RankTable,
                 with_phoenix: RankTable | None, least: int) -> None:
    """Append the small combos of ranks ``least``..A from per-byte tables (`_build_byte_tables`).

    A byte holds two ranks; when ``least`` is the second rank of its byte,
    that rank comes from the per-rank tables: ``naturals``, then
    ``with_phoenix`` unless it is None.
    """
    if least > ACE:
        return
    offset = least - 2
    k = offset >> 1
    if offset & 1:
        nibble = mask >> (4 * least - 8) & 15
        out += naturals[least][nibble]
        if with_phoenix is not None:
            out += with_phoenix[least][nibble]
        k += 1
    for k in range(k, 7):
        out += byte_tables[k][mask >> 8 * k & 255]


def _spread_ranks(spread: int) -> list[int]:
    out = []
    while spread:
        low = spread & -spread
        out.append(((low.bit_length() - 1) >> 2) + 2)
        spread ^= low
    return out


def _full_houses(h: HandIndex, floor: float) -> list[Combo]:
    """Full houses whose triple beats ``floor``: by triple rank, then pair rank, natural first."""
    mask = h.mask
    ph = h.phoenix
    h.count_ranks()
    tops = _above(h.pairable if ph else h.triples, floor)
    if not tops:
        return []
    others: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []  # per rank that can give the pair: its natural pairs, and its cards for the Phoenix
    for p in _spread_ranks(h.present if ph else h.pairable):
        nibble = mask >> (4 * p - 8) & 15
        others.append((p, _PAIR_MASKS[p][nibble], _BITS[p][nibble] if ph else ()))
    new, full_house = _new, FULL_HOUSE
    out = []
    for t in _spread_ranks(tops):
        nibble = mask >> (4 * t - 8) & 15
        triples = [c.mask for c in _TRIPLES[t][nibble]]
        ph_triples = [c.mask for c in _PH_TRIPLES[t][nibble]] if ph else ()
        for p, pairs, halves in others:
            if p == t:
                continue
            for triple in triples:
                for pair in pairs:
                    combo = new(Combo)
                    combo.type, combo.rank, combo.mask, combo.length, combo.phoenix_as = (
                        full_house, t, triple | pair, 5, None)
                    out.append(combo)
                for half in halves:
                    combo = new(Combo)
                    combo.type, combo.rank, combo.mask, combo.length, combo.phoenix_as = (
                        full_house, t, triple | half | PH_BIT, 5, p)
                    out.append(combo)
            for triple in ph_triples:
                for pair in pairs:
                    combo = new(Combo)
                    combo.type, combo.rank, combo.mask, combo.length, combo.phoenix_as = (
                        full_house, t, triple | pair, 5, t)
                    out.append(combo)
    return out


def _window_starts(full: int, partial: int, size: int, use_partial: bool) -> int:
    """Bit ``low`` set where ranks ``low..low+size-1`` are all in ``full``, or (``use_partial``)
    all in ``partial`` and all but at most one in ``full`` (the one the Phoenix completes)."""
    complete = full
    if not use_partial:
        for shift in range(1, size):
            complete &= full >> shift
        return complete
    one_short = partial
    for shift in range(1, size):
        one_short = (one_short & full >> shift) | (complete & partial >> shift)
        complete &= full >> shift
    return one_short


def _straights(h: HandIndex, length: int, floor: float) -> list[Combo]:
    """Straights of ``length`` (every length from 5 when 0) whose top beats ``floor``.

    From each rank that starts a possible straight, the masks of all runs up
    from it grow one rank at a time: ``natural`` without the Phoenix, and
    ``with_ph`` with it (``ph_ranks``: the rank it stands for).  Found
    straights are grouped by length: the order is length, top rank, suits.
    """
    mask = h.mask
    ph = h.phoenix
    held = h.ranks()[0]
    if not ph:
        return _natural_straights(h, held, length, floor)
    if length:
        return _phoenix_straights_of_length(h, held, length, floor)
    starts = _window_starts(held, held | NATURAL_RANK_BITS, 5, ph)
    least_high = int(floor) + 1
    if length:  # only the windows whose top beats the floor
        least_low = least_high - length + 1
        if least_low > 1:
            starts = starts >> least_low << least_low
    if not starts:
        return []
    flushes = {b.mask for b in h.bombs() if b.type is STRAIGHT_FLUSH}
    by_length: list[list[Combo]] = [[] for _ in range(15)]
    new, straight = _new, STRAIGHT
    longest = length or 14
    while starts:
        low_bit = starts & -starts
        starts ^= low_bit
        low = low_bit.bit_length() - 1
        natural = [0]
        with_ph: list[int] = []
        ph_ranks: list[int] = []
        for high in range(low, min(low + longest, ACE + 1)):
            bits: tuple[int, ...]
            if high == 1:
                bits = (MJ_BIT,) if mask & MJ_BIT else ()
            else:
                bits = _BITS[high][mask >> (4 * high - 8) & 15]
            if len(bits) == 1:
                bit = bits[0]
                if ph and high > 1:
                    with_ph = [m | bit for m in with_ph]
                    with_ph += [m | PH_BIT for m in natural]
                    ph_ranks += [high] * len(natural)
                natural = [m | bit for m in natural]
            else:
                if ph and high > 1:
                    ph_ranks = [r for r in ph_ranks for _ in bits]
                    with_ph = [m | b for m in with_ph for b in bits]
                    with_ph += [m | PH_BIT for m in natural]
                    ph_ranks += [high] * len(natural)
                natural = [m | b for m in natural for b in bits]
                if not natural and not with_ph:
                    break
            size = high - low + 1
            if size < 5 or high < least_high or length and size != length:
                continue
            found = by_length[size]
            for m in natural:
                if flushes and m in flushes:
                    continue
                combo = new(Combo)
                combo.type = straight
                combo.rank = high
                combo.mask = m
                combo.length = size
                combo.phoenix_as = None
                found.append(combo)
            for m, r in zip(with_ph, ph_ranks):
                combo = new(Combo)
                combo.type = straight
                combo.rank = high
                combo.mask = m
                combo.length = size
                combo.phoenix_as = r
                found.append(combo)
    if length:
        return by_length[length]
    return [c for found in by_length for c in found]


def _phoenix_straights_of_length(h: HandIndex, held: int, length: int, floor: float) -> list[Combo]:
    """`_straights` of one length with the Phoenix (following a straight): window by window.

    A window where every rank but at most one is held, with one card per rank,
    gives its straights straight from the hand's mask; one with a rank held
    twice multiplies out the choices.  Order: top rank, natural first, then the
    Phoenix's rank, then suits.
    """
    mask = h.mask
    least_low = max(1, int(floor) - length + 2)
    window_bits = (1 << length) - 1
    flushes = None
    new, straight = _new, STRAIGHT
    out: list[Combo] = []
    for low in range(least_low, ACE - length + 2):
        missing_ranks = ~held >> low & window_bits
        if missing_ranks & (missing_ranks - 1):
            continue  # two ranks or more missing
        high = low + length - 1
        if missing_ranks:
            gap = (missing_ranks & -missing_ranks).bit_length() - 1 + low
            if gap == 1:
                continue  # the Phoenix never stands for the Mahjong
        else:
            gap = 0
        first = 2 if low == 1 else low
        window = mask & ((1 << 4 * (high - first + 1)) - 1) << (4 * first - 8)
        if low == 1:
            window |= MJ_BIT
        natural: Sequence[int]
        if window.bit_count() == length - (1 if gap else 0):  # one card per held rank
            natural = () if gap else (window,)
            if gap:
                with_ph = [(window | PH_BIT, gap)]
            else:
                with_ph = [(window & ~(15 << 4 * r - 8) | PH_BIT, r) for r in range(first, high + 1)]
        else:
            natural, with_ph = _window_masks(mask, low, high, (gap,) if gap else range(first, high + 1))
            if gap:
                natural = ()
        if natural:
            if flushes is None:
                flushes = {b.mask for b in h.bombs() if b.type is STRAIGHT_FLUSH}
            for m in natural:
                if flushes and m in flushes:
                    continue
                combo = new(Combo)
                combo.type, combo.rank, combo.mask, combo.length, combo.phoenix_as = straight, high, m, length, None
                out.append(combo)
        for m, r in with_ph:
            combo = new(Combo)
            combo.type, combo.rank, combo.mask, combo.length, combo.phoenix_as = straight, high, m, length, r
            out.append(combo)
    return out


def _window_masks(mask: int, low: int, high: int, phoenix_ranks: Iterable[int]) -> tuple[list[int], list[tuple[int, int]]]:
    """The straights of ranks ``low..high`` in a hand holding some rank twice, as masks.

    Returns every choice of one card per rank (empty if a rank is missing), and
    for each rank of ``phoenix_ranks`` every choice with the Phoenix standing
    for that rank, as (mask, rank); in the order of the ranks' choices.
    """
    options = [(MJ_BIT,) if r == 1 else _BITS[r][mask >> (4 * r - 8) & 15] for r in range(low, high + 1)]
    suffixes = [[0]]
    for bits in reversed(options):
        tail = suffixes[-1]
        suffixes.append([b | t for b in bits for t in tail])
    suffixes.reverse()
    with_ph = []
    prefix = [0]
    at = 0
    for rank in phoenix_ranks:
        i = rank - low
        for bits in options[at:i]:
            prefix = [p | b for p in prefix for b in bits]
        at = i
        with_ph += [(p | PH_BIT | t, rank) for p in prefix for t in suffixes[i + 1]]
    return suffixes[0], with_ph


def _natural_straights(h: HandIndex, held: int, length: int, floor: float) -> list[Combo]:
    """`_straights` without the Phoenix: window by window, by length then top rank.

    A window with one card per rank is one straight, its mask cut from the
    hand's; only windows with a doubled rank multiply out the choices.
    """
    mask = h.mask
    complete = held
    least_high = int(floor) + 1
    flushes = None
    new, straight = _new, STRAIGHT
    out: list[Combo] = []
    for size in range(2, (length or 14) + 1):
        complete &= held >> (size - 1)
        if not complete:
            break
        if size < 5 or length and size != length:
            continue
        least_low = least_high - size + 1
        lows = complete >> least_low << least_low if least_low > 1 else complete
        while lows:
            low_bit = lows & -lows
            lows ^= low_bit
            low = low_bit.bit_length() - 1
            high = low + size - 1
            if low == 1:
                window = mask & ((1 << 4 * (size - 1)) - 1) | MJ_BIT
            else:
                window = mask & ((1 << 4 * size) - 1) << (4 * low - 8)
            masks: Sequence[int]
            if window.bit_count() == size:
                masks = (window,)
            else:
                masks = [0]
                for r in range(low, high + 1):
                    bits = (MJ_BIT,) if r == 1 else _BITS[r][mask >> (4 * r - 8) & 15]
                    masks = [m | b for m in masks for b in bits]
            if flushes is None:
                flushes = {b.mask for b in h.bombs() if b.type is STRAIGHT_FLUSH}
            for m in masks:
                if flushes and m in flushes:
                    continue
                combo = new(Combo)
                combo.type, combo.rank, combo.mask, combo.length, combo.phoenix_as = straight, high, m, size, None
                out.append(combo)
    return out


def _stairs(h: HandIndex, pairs: int, floor: float) -> list[Combo]:
    """Stairs of ``pairs`` pairs (every length from 2 pairs when 0) whose top beats ``floor``.

    Built like `_straights`, one rank (a pair, or a card and the Phoenix) at a time.
    """
    mask = h.mask
    ph = h.phoenix
    _, naturals, doubled = h.ranks()
    starts = _window_starts(doubled, naturals, pairs or 2, ph)
    least_high = int(floor) + 1
    if pairs:  # only the windows whose top beats the floor
        least_low = least_high - pairs + 1
        if least_low > 2:
            starts = starts >> least_low << least_low
    if not starts:
        return []
    by_length: list[list[Combo]] = [[] for _ in range(8)]
    new, stairs = _new, STAIRS
    longest = pairs or 7
    while starts:
        low_bit = starts & -starts
        starts ^= low_bit
        low = low_bit.bit_length() - 1
        natural = [0]
        with_ph: list[int] = []
        ph_ranks: list[int] = []
        for high in range(low, min(low + longest, ACE + 1)):
            nibble = mask >> (4 * high - 8) & 15
            options = _PAIR_MASKS[high][nibble]
            if ph:
                ph_ranks = [r for r in ph_ranks for _ in options]
                with_ph = [m | o for m in with_ph for o in options]
                halves = _BITS[high][nibble]
                with_ph += [m | b | PH_BIT for m in natural for b in halves]
                ph_ranks += [high] * (len(natural) * len(halves))
            natural = [m | o for m in natural for o in options]
            if not natural and not with_ph:
                break
            size = high - low + 1
            if size < 2 or high < least_high or pairs and size != pairs:
                continue
            found = by_length[size]
            for m in natural:
                combo = new(Combo)
                combo.type = stairs
                combo.rank = high
                combo.mask = m
                combo.length = 2 * size
                combo.phoenix_as = None
                found.append(combo)
            for m, r in zip(with_ph, ph_ranks):
                combo = new(Combo)
                combo.type = stairs
                combo.rank = high
                combo.mask = m
                combo.length = 2 * size
                combo.phoenix_as = r
                found.append(combo)
    if pairs:
        return by_length[pairs]
    return [c for found in by_length for c in found]


def has_bomb(hand: Iterable[Card] | HandIndex) -> bool:
    """Cheap test: whether ``hand`` holds any bomb at all."""
    h = hand if isinstance(hand, HandIndex) else HandIndex(hand)
    return bool(h.bombs())


def bombs(hand: Iterable[Card] | HandIndex, top: Combo | None = None) -> Iterator[Combo]:
    """Every bomb in ``hand`` that beats ``top`` (all bombs when ``top`` is None)."""
    h = hand if isinstance(hand, HandIndex) else HandIndex(hand)
    found = h.bombs()
    if top is None:
        return iter(found)
    return iter([b for b in found if b.beats(top)])


def _all_bombs(h: HandIndex) -> list[Combo]:
    naturals = h.mask & NATURALS
    if not (naturals & naturals >> 1 & naturals >> 2 & naturals >> 3 & RANK_UNITS
            or naturals & naturals >> 4 & naturals >> 8 & naturals >> 12 & naturals >> 16):
        return []  # no rank held four times, no suit with five ranks in a row
    fours = naturals & naturals >> 1 & naturals >> 2 & naturals >> 3 & RANK_UNITS
    out = [_FOUR_BOMBS[rank] for rank in _spread_ranks(fours)] if fours else []
    for s in range(4):
        suited = naturals >> s & RANK_UNITS
        if not suited & suited >> 4 & suited >> 8 & suited >> 12 & suited >> 16:
            continue  # no five in a row of this suit
        ranks = _compact(suited)
        for low in range(2, ACE - 3):
            if not ranks >> low & 1:
                continue
            high = low
            while ranks >> (high + 1) & 1:
                high += 1
            for top_rank in range(low + 4, high + 1):
                out.append(_STRAIGHT_FLUSHES[(s, low, top_rank)])
    return out


def pure_bombs(h: HandIndex) -> list[Combo]:
    """`HandIndex.bombs` in Python: the reference the compiled version is tested against."""
    return _all_bombs(h)


def pure_listed_plays(seat: int, combos: list[Combo]) -> list[Play]:
    """`listed_plays` in Python: the play of each combo by ``seat`` (`play_of`)."""
    return [play_of(seat, c) for c in combos]


def pure_sorted_cards_of(mask: int) -> list[Card]:
    """`sorted_cards_of` in Python: the cards of ``mask`` in print order."""
    return sort_cards(cards_of(mask))


# --------------------------------------------------------------------------
# The optional compiled play generator
# --------------------------------------------------------------------------

def _load_accelerator() -> Any:
    """The compiled `play_list` and bombs (``_combos_accel.c``, a module without a stub), or None.

    None when it was not built (no C compiler at install time) or when the
    environment variable BSWTICHU_PURE is set to anything but "" or "0".
    """
    if os.environ.get("BSWTICHU_PURE", "") not in ("", "0"):
        return None
    try:
        from . import _combos_accel
    except ImportError:
        return None
    _combos_accel.configure(
        Combo, (SINGLE, PAIR, TRIPLE, FULL_HOUSE, STRAIGHT, STAIRS, FOUR_BOMB, STRAIGHT_FLUSH, DOG_TYPE),
        tuple(c for rank in NATURAL_RANKS for c in _SINGLES[rank][15]),
        _DOG_COMBO, _MAHJONG_SINGLE, _DRAGON_SINGLE, _PHOENIX_LEAD, phoenix_single, Play, Card, DECK)
    return _combos_accel


_accel = _load_accelerator()
#: Whether the compiled play generator is in use.
ACCELERATED = _accel is not None
if _accel is None:
    play_list, listed_plays, sorted_cards_of = pure_play_list, pure_listed_plays, pure_sorted_cards_of
else:
    play_list, listed_plays, sorted_cards_of = _accel.play_list, _accel.plays_of, _accel.sorted_cards_of
    _cards_of, _mask_of = _accel.cards_of, _accel.mask_of
