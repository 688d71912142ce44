"""How a deal (an ordering of the 56 cards) is laid out: 8 cards per seat, then 6 more.

Rules.md R3: each player first sees 8 cards (the Grand Tichu decision), then
receives his last 6.  Every reader of a deal (the round, the log recorder, the
texts) asks here rather than computing the slices itself.
"""

from __future__ import annotations

from typing import Sequence, TypeVar

SEATS = 4
FIRST_CARDS = 8
LAST_CARDS = 6
HAND_SIZE = FIRST_CARDS + LAST_CARDS

T = TypeVar("T")


def first_cards(deal: Sequence[T], seat: int) -> Sequence[T]:
    """The 8 cards ``seat`` sees before deciding on Grand Tichu."""
    return deal[FIRST_CARDS * seat: FIRST_CARDS * (seat + 1)]


def last_cards(deal: Sequence[T], seat: int) -> Sequence[T]:
    """The 6 cards ``seat`` receives after the Grand Tichu decisions."""
    start = FIRST_CARDS * SEATS + LAST_CARDS * seat
    return deal[start: start + LAST_CARDS]


def deal_from_hands(first: Sequence[Sequence[T]], last: Sequence[Sequence[T]]) -> list[T]:
    """The deal that gives seat s the cards ``first[s]`` (8), then ``last[s]`` (6)."""
    deal: list = [None] * (SEATS * HAND_SIZE)
    for seat in range(SEATS):
        if len(first[seat]) != FIRST_CARDS or len(last[seat]) != LAST_CARDS:
            raise ValueError(f"seat {seat} needs {FIRST_CARDS} + {LAST_CARDS} cards")
        start = FIRST_CARDS * seat
        deal[start: start + FIRST_CARDS] = first[seat]
        start = FIRST_CARDS * SEATS + LAST_CARDS * seat
        deal[start: start + LAST_CARDS] = last[seat]
    return deal
