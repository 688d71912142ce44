"""How good a hand is: split it into combinations and price the split.

The `basic` bot judges every candidate play by what it leaves behind, so this
module answers one question fast: "how much work is this hand still?"  A hand
is reduced to its *shape* (cards per rank, which specials, which bombs); the
cheapest split of the shape into combinations is found by a memoised search
over rank counts (the Phoenix as a wild card), so suits only matter for
spotting straight-flush bombs.

Costs are in "trick units": every combination costs 10 (one more time the
hand needs the lead or a winning follow), minus how likely it is to win its
trick by itself (a Dragon almost always does, a low single never), plus a
little for low singles and pairs, which are hard to get rid of.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Iterator

from ..engine import Card

ACE = 14
#: Index 1 counts the Mahjong (it can only be a single or start a straight), 2..14 the natural ranks.
RANK_SLOTS = 15

COMBO_COST = 10.0
DRAGON_COST = 1.0
PHOENIX_SINGLE_COST = 4.5
DOG_COST = 7.0
BOMB_COST = -4.0  # a bomb is an asset: it wins a trick whenever it is needed

# Which part of a trick unit a high single or pair wins on its own.
_SINGLE_CONTROL = {14: 5.0, 13: 3.0, 12: 1.5, 11: 0.5}
_PAIR_CONTROL = {14: 5.0, 13: 3.5, 12: 2.0, 11: 1.0}


@dataclass(frozen=True)
class Shape:
    """A hand reduced to what its value depends on; bombs are set apart and kept whole."""

    counts: tuple[int, ...]  # RANK_SLOTS entries, cards outside bombs
    phoenix: bool
    dog: bool
    dragon: bool
    bombs: tuple[frozenset[Card], ...]

    @property
    def bomb_cards(self) -> frozenset[Card]:
        return frozenset().union(*self.bombs)


def shape_of(cards: Iterable[Card]) -> Shape:
    """The shape of a hand: straight flushes first, then four of a kind, the rest by rank."""
    cards = list(cards)
    by_suit: dict[str, dict[int, Card]] = {}
    phoenix = dog = dragon = False
    counts = [0] * RANK_SLOTS
    for c in cards:
        if c.is_natural:
            by_suit.setdefault(c.suit, {})[c.rank] = c  # type: ignore[arg-type]  # a natural card has a suit
        elif c.kind == "PH":
            phoenix = True
        elif c.kind == "DG":
            dog = True
        elif c.kind == "DR":
            dragon = True
        else:
            counts[1] = 1
    bombs: list[frozenset[Card]] = []
    in_bomb: set[Card] = set()
    for suited in by_suit.values():
        for run in _runs(sorted(suited)):
            if len(run) >= 5:
                bomb = frozenset(suited[r] for r in run)
                bombs.append(bomb)
                in_bomb |= bomb
    by_rank: dict[int, list[Card]] = {}
    for c in cards:
        if c.is_natural and c not in in_bomb:
            by_rank.setdefault(c.rank, []).append(c)
    for rank, group in by_rank.items():
        if len(group) == 4:
            bombs.append(frozenset(group))
        else:
            counts[rank] = len(group)
    return Shape(tuple(counts), phoenix, dog, dragon, tuple(bombs))


def _runs(ranks: list[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    for r in ranks:
        if runs and runs[-1][-1] == r - 1:
            runs[-1].append(r)
        else:
            runs.append([r])
    return runs


def shape_cost(shape: Shape) -> float:
    """The price of the cheapest way to play the hand out (lower is a stronger hand)."""
    cost = BOMB_COST * len(shape.bombs)
    if shape.dog:
        cost += DOG_COST
    if shape.dragon:
        cost += DRAGON_COST
    return cost + _split(shape.counts, shape.phoenix)[0]


def hand_cost(cards: Iterable[Card]) -> float:
    return shape_cost(shape_of(cards))


def combo_count(shape: Shape) -> int:
    """How many plays the hand needs, bombs and specials included."""
    return _split(shape.counts, shape.phoenix)[1] + len(shape.bombs) + shape.dog + shape.dragon


@lru_cache(maxsize=1 << 17)
def _split(counts: tuple[int, ...], phoenix: bool) -> tuple[float, int]:
    """(cost, number of combinations) of the cheapest split of ``counts`` and maybe the Phoenix.

    The lowest rank present must be in some combination, with or without the
    Phoenix; a Phoenix left over at the end is played as a single.
    """
    low = next((r for r in range(1, RANK_SLOTS) if counts[r]), None)
    if low is None:
        return (PHOENIX_SINGLE_COST, 1) if phoenix else (0.0, 0)
    best = (float("inf"), 0)
    for kind, ranks, uses_phoenix in _combos_from(counts, low, phoenix):
        rest = list(counts)
        for r in ranks:
            rest[r] -= 1
        if uses_phoenix:
            rest[uses_phoenix] += 1  # the Phoenix stood in for that rank
        sub_cost, sub_count = _split(tuple(rest), phoenix and not uses_phoenix)
        cost = sub_cost + combo_cost(kind, ranks)
        if cost < best[0]:
            best = (cost, sub_count + 1)
    return best


#: A combination as the hand's shape counts it: (kind, ranks as played, Phoenix rank or 0).
ShapeCombo = tuple[str, tuple[int, ...], int]


def _combos_from(counts: tuple[int, ...], low: int, phoenix: bool) -> Iterator[ShapeCombo]:
    """Every combination that uses the lowest rank ``low``: (kind, ranks, Phoenix rank or 0).

    Ranks are given as played, the Phoenix counted as the rank it stands for.
    """
    yield "single", (low,), 0
    if low >= 2:
        yield from _sets_from(counts, low, phoenix)
        yield from _stairs_from(counts, low, phoenix)
    yield from _straights_from(counts, low, phoenix)


def _sets_from(counts: tuple[int, ...], low: int, phoenix: bool) -> Iterator[ShapeCombo]:
    n = counts[low]
    others = range(low + 1, ACE + 1)
    if n >= 2:
        yield "pair", (low, low), 0
        for t in others:
            if counts[t] >= 3:
                yield "full house", (t, t, t, low, low), 0
            elif phoenix and counts[t] == 2:
                yield "full house", (t, t, t, low, low), t
    if n >= 3:
        yield "triple", (low, low, low), 0
        for p in others:
            if counts[p] >= 2:
                yield "full house", (low, low, low, p, p), 0
            elif phoenix and counts[p] == 1:
                yield "full house", (low, low, low, p, p), p
    if phoenix:
        yield "pair", (low, low), low
        if n >= 2:
            yield "triple", (low, low, low), low
            for p in others:
                if counts[p] >= 2:
                    yield "full house", (low, low, low, p, p), low
        for t in others:
            if counts[t] >= 3:
                yield "full house", (t, t, t, low, low), low


def _stairs_from(counts: tuple[int, ...], low: int, phoenix: bool) -> Iterator[ShapeCombo]:
    """Pairs from ``low`` up; with the Phoenix one of them may be a single card."""
    short = 0 if counts[low] >= 2 else low
    if short and not phoenix:
        return
    high = low
    while high + 1 <= ACE:
        nxt = counts[high + 1]
        if nxt >= 2:
            high += 1
        elif nxt == 1 and phoenix and not short:
            high += 1
            short = high
        else:
            break
        yield "stairs", tuple(r for r in range(low, high + 1) for _ in (0, 1)), short


def _straights_from(counts: tuple[int, ...], low: int, phoenix: bool) -> Iterator[ShapeCombo]:
    """Straights from ``low`` up; the Phoenix may fill one gap, or stand below a run up to the Ace."""
    gap = 0
    high = low
    while high + 1 <= ACE:
        if counts[high + 1]:
            high += 1
        elif phoenix and not gap:
            high += 1
            gap = high
        else:
            break
        if high - low + 1 >= 5:
            yield "straight", tuple(range(low, high + 1)), gap
    if phoenix and not gap and high == ACE and low > 2 and ACE - low + 2 >= 5:
        yield "straight", tuple(range(low - 1, ACE + 1)), low - 1


def combo_cost(kind: str, ranks: tuple[int, ...]) -> float:
    """One combination's price: a trick unit, less its chance to win, plus a low-card malus."""
    top = max(ranks) if ranks else 0
    if kind == "single":
        return COMBO_COST - _SINGLE_CONTROL.get(top, 0.0) + max(0, 9 - top) * 0.4
    if kind == "phoenix":
        return PHOENIX_SINGLE_COST
    if kind == "pair":
        return COMBO_COST - _PAIR_CONTROL.get(top, 0.0) + max(0, 8 - top) * 0.2
    if kind == "triple":
        return COMBO_COST - 2.0 - max(0, top - 8) * 0.5
    if kind == "full house":
        return COMBO_COST - 3.0 - max(0, ranks[0] - 8) * 0.5
    if kind == "straight":
        return COMBO_COST - 3.0 - (len(ranks) - 5) * 0.7 - max(0, top - 10) * 0.5
    # stairs
    return COMBO_COST - 2.5 - (len(ranks) // 2 - 2) * 1.0 - max(0, top - 9) * 0.5

