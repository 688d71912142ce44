"""Events: what happened, so a server can tell each seat its own news without the rules.

Every event has ``private_to``: None for news the whole table (and spectators)
may hear, or the one seat that may hear it (its cards).  ``to_dict`` gives a
JSON-ready form with cards in rules.md R2.4 notation.
"""

from __future__ import annotations

from dataclasses import Field, dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar

from .cards import Card, sort_cards
from .combos import Combo


def _plain(value: Any) -> Any:
    if isinstance(value, Card):
        return value.text
    if isinstance(value, (list, tuple, frozenset, set)):
        items = sort_cards(value) if value and all(isinstance(v, Card) for v in value) else value
        return [_plain(v) for v in items]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if hasattr(value, "to_dict"):
        return value.to_dict()
    return value


class Event:
    """Base of all events.

    Events are frozen dataclasses.  Those a round makes (all but the game's
    and the few made once and shared) define their constructor and fill
    ``__dict__`` at once; the generated one calls ``object.__setattr__`` per
    field, which cost more than the rest of a pass.
    """

    kind = "event"
    if TYPE_CHECKING:  # every event class is a dataclass: `fields` reads them
        __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def private_to(self) -> int | None:
        return None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"event": self.kind}
        for f in fields(self):
            data[f.name] = _plain(getattr(self, f.name))
        return data


@dataclass(frozen=True)
class CardsDealt(Event):
    """A seat's new cards: 8 at the deal, its last 6 after the Grand Tichu decision, or all 14."""
    seat: int
    cards: tuple[Card, ...]
    kind = "dealt"

    def __init__(self, seat: int, cards: tuple[Card, ...]):
        self.__dict__.update(seat=seat, cards=cards)

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True)
class GrandDecided(Event):
    seat: int
    called: bool
    kind = "grand_decided"


@dataclass(frozen=True)
class TichuCalled(Event):
    seat: int
    grand: bool
    kind = "tichu_called"


@dataclass(frozen=True)
class PhaseStarted(Event):
    """``phase`` is "grand", "exchange" or "play"."""
    phase: str
    kind = "phase"


@dataclass(frozen=True)
class ExchangeSubmitted(Event):
    seat: int
    kind = "exchange_submitted"


@dataclass(frozen=True)
class CardsReceived(Event):
    """What a seat got in the exchange, by giver seat."""
    seat: int
    received: dict[int, Card]
    kind = "received"

    def __init__(self, seat: int, received: dict[int, Card]):
        self.__dict__.update(seat=seat, received=received)

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True)
class TurnStarted(Event):
    """Someone must act: ``need`` is "lead", "follow", "wish", "give" or "dog" (choose who leads after the Dog)."""
    seat: int
    need: str
    kind = "turn"

    def __init__(self, seat: int, need: str):
        self.__dict__.update(seat=seat, need=need)  # fast: see Event


@dataclass(frozen=True)
class Played(Event):
    seat: int
    combo: Combo
    out_of_turn: bool
    cards_left: int
    kind = "played"

    def __init__(self, seat: int, combo: Combo, out_of_turn: bool, cards_left: int):
        self.__dict__.update(seat=seat, combo=combo, out_of_turn=out_of_turn, cards_left=cards_left)


@dataclass(frozen=True)
class Passed(Event):
    seat: int
    kind = "passed"

    def __init__(self, seat: int):
        self.__dict__["seat"] = seat


@dataclass(frozen=True)
class WishMade(Event):
    seat: int
    rank: int | None
    kind = "wish"

    def __init__(self, seat: int, rank: int | None):
        self.__dict__.update(seat=seat, rank=rank)


@dataclass(frozen=True)
class WishFulfilled(Event):
    seat: int
    rank: int
    kind = "wish_fulfilled"

    def __init__(self, seat: int, rank: int):
        self.__dict__.update(seat=seat, rank=rank)


@dataclass(frozen=True)
class TrickWon(Event):
    """Everyone else passed: ``seat`` wins, ``leader`` leads next; bombs may still come (R9.6)."""
    seat: int
    leader: int
    kind = "trick_won"

    def __init__(self, seat: int, leader: int):
        self.__dict__.update(seat=seat, leader=leader)


@dataclass(frozen=True)
class TrickCollected(Event):
    """The trick's cards went to ``to`` (the winner, or the Dragon gift's receiver)."""
    winner: int
    to: int
    points: int
    kind = "trick_collected"

    def __init__(self, winner: int, to: int, points: int):
        self.__dict__.update(winner=winner, to=to, points=points)  # fast: see Event


@dataclass(frozen=True)
class DragonGiven(Event):
    seat: int
    to: int
    points: int
    kind = "dragon_given"

    def __init__(self, seat: int, to: int, points: int):
        self.__dict__.update(seat=seat, to=to, points=points)


@dataclass(frozen=True)
class DogLeadChosen(Event):
    """The Dog's player chose the partner ``to``; ``leader`` leads (``to`` or, if he is out, the next one in)."""
    seat: int
    to: int
    leader: int
    kind = "dog_lead"


@dataclass(frozen=True)
class PlayerOut(Event):
    seat: int
    place: int
    kind = "out"

    def __init__(self, seat: int, place: int):
        self.__dict__.update(seat=seat, place=place)


@dataclass(frozen=True)
class RoundEnded(Event):
    result: object
    kind = "round_ended"


@dataclass(frozen=True)
class RoundScored(Event):
    """A round of a game was scored: its result, and the game's standings after it."""
    number: int
    result: object
    totals: tuple[int, ...]
    standings: tuple[object, ...]
    kind = "round_scored"


@dataclass(frozen=True)
class GameOver(Event):
    """``winners``: the players who won (several on a shared first place); empty for a draw."""
    winners: tuple[object, ...]
    standings: tuple[object, ...]
    kind = "game_over"


@dataclass(frozen=True)
class SeatingChanged(Event):
    """The players in seat order for the next round (tournament rotation, tichujoin swap)."""
    players: tuple[object, ...]
    kind = "seating"
