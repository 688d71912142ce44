"""Actions a seat can take in a round, as small immutable values with a text form.

Seats are 0..N-1 inside the engine (who partners whom is the round's
`Variant`'s); people see them as 1..N.  Every action carries the seat that takes it, so a list of
actions is a complete, replayable record of a round.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass
from typing import Any, Iterable

from .cards import Card, format_mask, format_play, rank_text


@dataclass(frozen=True, slots=True)
class CallGrand:
    """Call Grand Tichu after seeing the first 8 cards."""
    seat: int

    def notation(self) -> str:
        return "grand"


@dataclass(frozen=True, slots=True)
class DeclineGrand:
    """Decline Grand Tichu and see the last 6 cards."""
    seat: int

    def notation(self) -> str:
        return "nogrand"


@dataclass(frozen=True, slots=True)
class CallTichu:
    seat: int

    def notation(self) -> str:
        return "tichu"


@dataclass(frozen=True, slots=True)
class Exchange:
    """One card for each receiver, in the variant's order (`Variant.exchange_steps`).

    In the 4-player game three: to the right opponent (seat+1), the partner
    (seat+2), the left opponent (seat+3).
    """
    seat: int
    cards: tuple[Card, ...]

    def notation(self) -> str:
        return "exchange " + " ".join(c.text for c in self.cards)


class Play:
    """Play cards (a lead, a follow or a bomb).

    ``phoenix_as`` names the rank the Phoenix stands for; None takes the
    default (highest) reading.  The engine records the resolved reading.
    A play the engine lists (`play_of`) carries its combination, so applying
    it needs no classifying, and makes its ``cards`` set only when asked.
    ``combo`` is then a `combos.Combo`; it is typed ``Any`` so that this module
    does not import combos, which imports it (no import cycle in the engine).

    Immutable like the other actions.  Written out rather than a dataclass for
    its lazy ``cards`` (a property: a class with ``__getattr__`` has every
    attribute read go the slow way); equal plays have the same seat, cards
    and ``phoenix_as``, whatever their ``combo``.
    """

    __slots__ = ("seat", "_cards", "phoenix_as", "combo")
    __match_args__ = ("seat", "cards", "phoenix_as")

    seat: int
    _cards: frozenset[Card]
    phoenix_as: int | None
    combo: Any

    def __init__(self, seat: int, cards: Iterable[Card], phoenix_as: int | None = None):
        _set_seat(self, seat)
        _set_cards(self, frozenset(cards))
        _set_phoenix_as(self, phoenix_as)
        _set_combo(self, None)

    @property
    def cards(self) -> frozenset[Card]:
        try:
            return self._cards
        except AttributeError:  # a listed play: the cards are its combination's
            cards: frozenset[Card] = self.combo.cards
            _set_cards(self, cards)
            return cards

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: Any) -> bool:  # Any: the class test below is the narrowing, kept fast
        if other.__class__ is not Play:
            return NotImplemented
        return (self.seat == other.seat and self.phoenix_as == other.phoenix_as
                and self.cards == other.cards)

    def __hash__(self) -> int:
        return hash((self.seat, self.cards, self.phoenix_as))

    def __repr__(self) -> str:
        return f"Play(seat={self.seat!r}, cards={self.cards!r}, phoenix_as={self.phoenix_as!r})"

    def __reduce__(self) -> tuple[type[Play], tuple[int, frozenset[Card], int | None]]:
        return (Play, (self.seat, self.cards, self.phoenix_as))

    def notation(self) -> str:
        combo = self.combo  # a listed play: its text from the combination's mask, no cards made
        if combo is not None:
            return "play " + format_mask(combo.mask, self.phoenix_as)
        return "play " + format_play(self.cards, self.phoenix_as)


_new = object.__new__
_set_seat = Play.__dict__["seat"].__set__
_set_cards = Play.__dict__["_cards"].__set__
_set_phoenix_as = Play.__dict__["phoenix_as"].__set__
_set_combo = Play.__dict__["combo"].__set__


def play_of(seat: int, combo: Any) -> Play:
    """The play of ``combo`` (a `combos.Combo`) by ``seat``: equal to ``Play(seat, combo.cards, combo.phoenix_as)``."""
    play = _new(Play)
    _set_seat(play, seat)
    _set_phoenix_as(play, combo.phoenix_as)
    _set_combo(play, combo)
    return play


@dataclass(frozen=True, slots=True)
class Pass:
    seat: int

    def notation(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class MakeWish:
    """The wish after playing the Mahjong: a rank 2..14, or None for no wish."""
    seat: int
    rank: int | None

    def notation(self) -> str:
        return "wish " + ("none" if self.rank is None else rank_text(self.rank))


@dataclass(frozen=True, slots=True)
class GiveDragon:
    """Give the trick won with the Dragon to an opponent."""
    seat: int
    to: int

    def notation(self) -> str:
        return f"give {self.to + 1}"


@dataclass(frozen=True, slots=True)
class DogLead:
    """After leading the Dog where the variant lets its player choose (Tientsin): the partner who leads."""
    seat: int
    to: int

    def notation(self) -> str:
        return f"dog {self.to + 1}"


Action = CallGrand | DeclineGrand | CallTichu | Exchange | Play | Pass | MakeWish | GiveDragon | DogLead


def action_text(action: Action) -> str:
    """``seat N: notation`` with the seat as people count it (1..N)."""
    return f"{action.seat + 1}: {action.notation()}"


__all__ = [
    "Action", "CallGrand", "DeclineGrand", "CallTichu", "Exchange", "Play", "Pass",
    "MakeWish", "GiveDragon", "DogLead", "action_text",
]
