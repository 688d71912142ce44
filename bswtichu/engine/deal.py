"""How a deal (an ordering of the 56 cards) is laid out: every seat's first cards, then the rest.

Rules.md R4.1: each player first sees 8 cards (the Grand Tichu decision), then
receives his last 6.  A variant lays the deal out the same way with its own
counts (`Variant.deal_slices`: Tientsin 6 first, then 3 or 4).  Every reader
of a deal (the round, the log recorder, the texts) asks here or there rather
than computing the slices itself.  The constants are the 4-player game's.
"""

from __future__ import annotations

from typing import Sequence, TypeVar

from .variant import NANJING, Variant

SEATS = NANJING.seats
FIRST_CARDS = NANJING.grand_after
HAND_SIZE = NANJING.hand_sizes()[0]
LAST_CARDS = HAND_SIZE - FIRST_CARDS

T = TypeVar("T")


def first_cards(deal: Sequence[T], seat: int, variant: Variant = NANJING, dealer: int = 0) -> Sequence[T]:
    """The cards ``seat`` sees before deciding on Grand Tichu (8 in the 4-player game)."""
    return deal[variant.deal_slices(dealer)[seat][0]]


def last_cards(deal: Sequence[T], seat: int, variant: Variant = NANJING, dealer: int = 0) -> Sequence[T]:
    """The cards ``seat`` receives after the Grand Tichu decisions (6 in the 4-player game)."""
    return deal[variant.deal_slices(dealer)[seat][1]]


def deal_from_hands(first: Sequence[Sequence[T]], last: Sequence[Sequence[T]],
                    variant: Variant = NANJING, dealer: int = 0) -> list[T]:
    """The deal that gives seat s the cards ``first[s]``, then ``last[s]``."""
    slices = variant.deal_slices(dealer)
    deal: list[T | None] = [None] * sum(variant.hand_sizes(dealer))
    for seat, (head, tail) in enumerate(slices):
        want_first, want_last = head.stop - head.start, tail.stop - tail.start
        if len(first[seat]) != want_first or len(last[seat]) != want_last:
            raise ValueError(f"seat {seat} needs {want_first} + {want_last} cards")
        deal[head] = first[seat]
        deal[tail] = last[seat]
    return deal  # type: ignore[return-value]  # no None left: the slices cover the whole deal
