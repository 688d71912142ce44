"""The engine's first, plain classifier and play generator, kept as a test oracle.

This is the code the fast bit-mask engine (`bswtichu.engine.combos`) replaced:
a direct reading of the rules, one `Combo` built per play from lists of cards.
The tests check that the fast paths give the same combinations, readings and
order of kinds as this reference and as a brute force over all subsets.
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Iterable, Iterator

from bswtichu.engine.cards import (
    ACE, DOG, DRAGON, DRAGON_RANK, MAHJONG, NATURAL, PHOENIX, Card, natural,
)
from bswtichu.engine.combos import PHOENIX_LEAD_RANK, Combo, ComboType


# --------------------------------------------------------------------------
# Classification
# --------------------------------------------------------------------------

def readings(cards: Iterable[Card]) -> list[Combo]:
    """Every reading of ``cards`` as one combination, highest rank first; [] if none."""
    cards = list(cards)
    n = len(cards)
    if n == 0 or len(set(cards)) != n:
        return []
    if n == 1:
        c = cards[0]
        if c.kind == DOG:
            return [Combo(ComboType.DOG, 0, cards)]
        if c.kind == PHOENIX:
            return [Combo(ComboType.SINGLE, PHOENIX_LEAD_RANK, cards)]
        return [Combo(ComboType.SINGLE, c.rank, cards)]
    kinds = [c.kind for c in cards]
    if DOG in kinds or DRAGON in kinds:
        return []
    has_ph = PHOENIX in kinds
    has_mj = MAHJONG in kinds
    naturals = [c for c in cards if c.kind == NATURAL]
    counts: dict[int, int] = {}
    for c in naturals:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    out: list[Combo] = []
    if n >= 5:
        out.extend(_straight_readings(cards, naturals, counts, has_ph, has_mj))
    if has_mj:
        return out
    if n in (2, 3) and len(counts) == 1:
        (rank,) = counts
        kind = ComboType.PAIR if n == 2 else ComboType.TRIPLE
        out.append(Combo(kind, rank, cards, rank if has_ph else None))
    elif n == 4 and not has_ph and len(counts) == 1:
        out.append(Combo(ComboType.FOUR_BOMB, naturals[0].rank, cards))
    if n == 5:
        out.extend(_full_house_readings(cards, counts, has_ph))
    if n >= 4 and n % 2 == 0:
        out.extend(_stairs_readings(cards, counts, has_ph))
    out.sort(key=lambda c: c.rank, reverse=True)
    return out


def _straight_readings(cards, naturals, counts, has_ph, has_mj) -> list[Combo]:
    if any(v > 1 for v in counts.values()):
        return []
    ranks = sorted(counts) if not has_mj else [1] + sorted(counts)
    if len(ranks) != len(set(ranks)):
        return []
    n = len(cards)
    low, high = ranks[0], ranks[-1]
    if not has_ph:
        if high - low + 1 != n:
            return []
        if not has_mj and len({c.suit for c in naturals}) == 1:
            return [Combo(ComboType.STRAIGHT_FLUSH, high, cards)]
        return [Combo(ComboType.STRAIGHT, high, cards)]
    span = high - low + 1
    if span == n:  # the Phoenix fills the one gap
        missing = (set(range(low, high + 1)) - set(ranks)).pop()
        if missing < 2:
            return []
        return [Combo(ComboType.STRAIGHT, high, cards, missing)]
    if span == n - 1:  # the Phoenix extends one end
        out = []
        if high < ACE:
            out.append(Combo(ComboType.STRAIGHT, high + 1, cards, high + 1))
        if low > 2:
            out.append(Combo(ComboType.STRAIGHT, high, cards, low - 1))
        return out
    return []


def _full_house_readings(cards, counts, has_ph) -> list[Combo]:
    shape = sorted(counts.values())
    if not has_ph:
        if shape == [2, 3]:
            triple = next(r for r, k in counts.items() if k == 3)
            return [Combo(ComboType.FULL_HOUSE, triple, cards)]
        return []
    if shape == [2, 2]:
        return [Combo(ComboType.FULL_HOUSE, r, cards, r) for r in counts]
    if shape == [1, 3]:
        triple = next(r for r, k in counts.items() if k == 3)
        single = next(r for r, k in counts.items() if k == 1)
        return [Combo(ComboType.FULL_HOUSE, triple, cards, single)]
    return []


def _stairs_readings(cards, counts, has_ph) -> list[Combo]:
    ranks = sorted(counts)
    if ranks[-1] - ranks[0] + 1 != len(ranks) or len(ranks) * 2 != len(cards):
        return []
    singles = [r for r, k in counts.items() if k == 1]
    if any(k > 2 for k in counts.values()):
        return []
    if has_ph:
        if len(singles) != 1:
            return []
        return [Combo(ComboType.STAIRS, ranks[-1], cards, singles[0])]
    if singles:
        return []
    return [Combo(ComboType.STAIRS, ranks[-1], cards)]


# --------------------------------------------------------------------------
# Generating plays from a hand
# --------------------------------------------------------------------------

class HandIndex:
    """A hand grouped by rank, with bit masks of the ranks present, built once per query."""

    __slots__ = ("by_rank", "phoenix", "mahjong", "dog", "dragon", "by_suit", "present",
                 "pairable", "_pairs", "_bombs")

    def __init__(self, hand: Iterable[Card]):
        by_rank: list[list[Card]] = [[] for _ in range(16)]
        self.by_suit: dict[str, int] = {}
        self.phoenix = self.mahjong = self.dog = self.dragon = None
        for c in hand:
            kind = c.kind
            if kind == NATURAL:
                by_rank[c.rank].append(c)
                self.by_suit[c.suit] = self.by_suit.get(c.suit, 0) | (1 << c.rank)
            elif kind == PHOENIX:
                self.phoenix = c
            elif kind == MAHJONG:
                self.mahjong = c
                by_rank[1].append(c)
            elif kind == DOG:
                self.dog = c
            else:
                self.dragon = c
        self.by_rank = by_rank
        present = pairable = 0
        for rank in range(1, 15):
            count = len(by_rank[rank])
            if count:
                present |= 1 << rank
                if count >= 2 and rank > 1:
                    pairable |= 1 << rank
        self.present = present
        self.pairable = pairable
        self._pairs: dict[int, list[tuple]] = {}
        self._bombs: list[Combo] | None = None

    def pairs(self, rank: int) -> list[tuple]:
        """The natural pairs of ``rank`` (cached: stairs ask for them repeatedly)."""
        found = self._pairs.get(rank)
        if found is None:
            found = self._pairs[rank] = list(combinations(self.by_rank[rank], 2))
        return found


def plays(hand: Iterable[Card], top: Combo | None = None) -> Iterator[Combo]:
    """Every combination in ``hand`` that may be played onto ``top``, bombs included.

    With ``top`` None this is every lead (the Dog included).  A single Phoenix
    comes with the value it would take over ``top``.
    """
    h = hand if isinstance(hand, HandIndex) else HandIndex(hand)
    if top is None:
        yield from _singles(h, None)
        yield from _sets(h, 2, 0)
        yield from _sets(h, 3, 0)
        yield from _full_houses(h, 0)
        for length in range(5, 15):
            yield from _straights(h, length, 0)
        for pairs in range(2, 8):
            yield from _stairs(h, pairs, 0)
        yield from bombs(h, None)
        return
    t = top.type
    if t is ComboType.SINGLE:
        yield from _singles(h, top)
    elif t is ComboType.PAIR:
        yield from _sets(h, 2, top.rank)
    elif t is ComboType.TRIPLE:
        yield from _sets(h, 3, top.rank)
    elif t is ComboType.FULL_HOUSE:
        yield from _full_houses(h, top.rank)
    elif t is ComboType.STRAIGHT:
        yield from _straights(h, top.length, top.rank)
    elif t is ComboType.STAIRS:
        yield from _stairs(h, top.length // 2, top.rank)
    elif t is ComboType.DOG:
        return
    yield from bombs(h, top)


def _singles(h: HandIndex, top: Combo | None) -> Iterator[Combo]:
    floor = top.rank if top is not None else 0
    single = ComboType.SINGLE
    if top is None:
        if h.dog:
            yield Combo(ComboType.DOG, 0, (h.dog,))
        if h.mahjong:
            yield Combo(single, 1, (h.mahjong,))
    for rank in range(max(2, int(floor) + 1), ACE + 1):
        for c in h.by_rank[rank]:
            yield Combo(single, rank, (c,))
    if h.phoenix and floor < DRAGON_RANK:
        yield Combo(single, PHOENIX_LEAD_RANK if top is None else floor + 0.5, (h.phoenix,))
    if h.dragon and floor < DRAGON_RANK:
        yield Combo(single, DRAGON_RANK, (h.dragon,))


def _sets(h: HandIndex, size: int, floor: float) -> Iterator[Combo]:
    kind = ComboType.PAIR if size == 2 else ComboType.TRIPLE
    ph = h.phoenix
    for rank in range(max(2, int(floor) + 1), ACE + 1):
        cards = h.by_rank[rank]
        n = len(cards)
        if n >= size:
            for combo in combinations(cards, size):
                yield Combo(kind, rank, combo)
        if ph and n >= size - 1 and n:
            for combo in combinations(cards, size - 1):
                yield Combo(kind, rank, combo + (ph,), rank)


def _full_houses(h: HandIndex, floor: float) -> Iterator[Combo]:
    ph = h.phoenix
    full_house = ComboType.FULL_HOUSE
    by_rank = h.by_rank
    ranks = [r for r in range(2, ACE + 1) if by_rank[r]]
    for t in ranks:
        cards = by_rank[t]
        if t <= floor or len(cards) < (2 if ph else 3):
            continue
        triples = list(combinations(cards, 3))
        ph_triples = [g + (ph,) for g in combinations(cards, 2)] if ph else []
        for p in ranks:
            if p == t:
                continue
            pairs = h.pairs(p)
            for tr in triples:
                for pa in pairs:
                    yield Combo(full_house, t, tr + pa)
                if ph:
                    for c in by_rank[p]:
                        yield Combo(full_house, t, tr + (c, ph), p)
            for tr in ph_triples:
                for pa in pairs:
                    yield Combo(full_house, t, tr + pa, t)


def _straights(h: HandIndex, length: int, floor: float) -> Iterator[Combo]:
    ph = h.phoenix
    allowed_gaps = 1 if ph else 0
    present = h.present
    by_rank = h.by_rank
    window = (1 << length) - 1
    for high in range(max(length, int(floor) + 1), ACE + 1):
        low = high - length + 1
        gaps = length - (present >> low & window).bit_count()
        if gaps > allowed_gaps:
            continue
        options = by_rank[low:high + 1]
        if not gaps:
            for cards in product(*options):
                first = cards[0]
                if first.kind == NATURAL:
                    suit = first.suit
                    if all(c.suit == suit for c in cards):
                        continue  # a straight flush is a bomb, not a straight
                yield Combo(ComboType.STRAIGHT, high, cards)
        if not ph:
            continue
        positions = [i for i, o in enumerate(options) if not o] if gaps else range(length)
        for i in positions:
            if low + i < 2:
                continue  # the Phoenix never stands for the Mahjong
            rest = options[:i] + options[i + 1:]
            for cards in product(*rest):
                yield Combo(ComboType.STRAIGHT, high, cards + (ph,), low + i)


def _stairs(h: HandIndex, pairs: int, floor: float) -> Iterator[Combo]:
    ph = h.phoenix
    window = (1 << pairs) - 1
    for high in range(max(pairs + 1, int(floor) + 1), ACE + 1):
        low = high - pairs + 1
        short = pairs - (h.pairable >> low & window).bit_count()
        if short > (1 if ph else 0):
            continue
        if ph and (h.present >> low & window).bit_count() < pairs:
            continue
        natural_pairs = [h.pairs(r) for r in range(low, high + 1)]
        if not short:
            for chosen in product(*natural_pairs):
                yield Combo(ComboType.STAIRS, high, [c for pair in chosen for c in pair])
        if not ph:
            continue
        positions = [i for i, o in enumerate(natural_pairs) if not o] if short else range(pairs)
        for i in positions:
            rank = low + i
            halves = [(c, ph) for c in h.by_rank[rank]]
            options = natural_pairs[:i] + [halves] + natural_pairs[i + 1:]
            for chosen in product(*options):
                yield Combo(ComboType.STAIRS, high, [c for pair in chosen for c in pair], rank)


def bombs(hand: Iterable[Card] | HandIndex, top: Combo | None = None) -> Iterator[Combo]:
    """Every bomb in ``hand`` that beats ``top`` (all bombs when ``top`` is None)."""
    h = hand if isinstance(hand, HandIndex) else HandIndex(hand)
    if h._bombs is None:
        h._bombs = list(_all_bombs(h))
    if top is None:
        return iter(h._bombs)
    return (b for b in h._bombs if b.beats(top))


def _all_bombs(h: HandIndex) -> Iterator[Combo]:
    for rank in range(2, ACE + 1):
        cards = h.by_rank[rank]
        if len(cards) == 4:
            yield Combo(ComboType.FOUR_BOMB, rank, cards)
    for suit, ranks in h.by_suit.items():
        if ranks.bit_count() < 5:
            continue
        for low in range(2, ACE - 3):
            if not ranks >> low & 1:
                continue
            high = low
            while ranks >> (high + 1) & 1:
                high += 1
            for top_rank in range(low + 4, high + 1):
                cards = [natural(r, suit) for r in range(low, top_rank + 1)]
                yield Combo(ComboType.STRAIGHT_FLUSH, top_rank, cards)
