"""Immutable values for a BrettspielWelt Tichu log: a game, its rounds, their entries.

The model holds what a `.tch` file says, not what it means: seats are 0..3,
cards keep the order the file lists them in, and nothing here knows the
rules.  A game server builds these values from scratch to log a game; the
reader builds them from a file.  Only `bswtichu.tch.writer` knows the layout.

Names: each round has one authoritative name per seat (`RoundLog.seat_names`).
A line that shows another name for its seat (a stale name, or the Dragon line
that omits it) records that text in its own ``name`` field; ``None`` there
means "the seat's name", which is what a server always writes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional, Union

from ..engine.cards import Card, NATURAL_RANKS

SEATS = range(4)
_new = object.__new__
GRAND_HAND_SIZE = 8
START_HAND_SIZE = 14
EXCHANGE_SIZE = 3


def _check_seat(seat: int) -> None:
    if seat not in SEATS:
        raise ValueError(f"seat {seat!r} is not 0-3")


def _check_name(name: Optional[str]) -> None:
    if name is not None and ("\n" in name or "\r" in name):
        raise ValueError(f"name {name!r} holds a line break; a log line cannot")


def _card_tuple(cards: Iterable[Card], size: Optional[int], what: str) -> tuple[Card, ...]:
    """The cards as a tuple, checked for type, repeats and (if given) count."""
    result = tuple(cards)
    if any(not isinstance(c, Card) for c in result):
        raise ValueError(f"{what} holds something that is not a Card: {result!r}")
    if len(set(result)) != len(result):
        raise ValueError(f"{what} names a card twice: {result!r}")
    if size is not None and len(result) != size:
        raise ValueError(f"{what} has {len(result)} cards, not {size}")
    return result


def _four(values: Iterable, what: str) -> tuple:
    result = tuple(values)
    if len(result) != 4:
        raise ValueError(f"{what} needs one entry per seat, got {len(result)}")
    return result


@dataclass(frozen=True)
class Play:
    """``(s)name: cards`` - the seat plays these cards (file order kept)."""

    seat: int
    cards: tuple[Card, ...]
    name: Optional[str] = None
    line: Optional[int] = field(default=None, compare=False)

    def __post_init__(self):
        _check_seat(self.seat)
        _check_name(self.name)
        cards = _card_tuple(self.cards, None, f"play of seat {self.seat}")
        if not cards:
            raise ValueError(f"play of seat {self.seat} has no cards")
        object.__setattr__(self, "cards", cards)

    @classmethod
    def of_engine(cls, seat: int, cards: tuple[Card, ...]) -> "Play":
        """A play the rules engine vouches for (a seat 0-3, a tuple of different cards), made
        without the checks that guard what the reader parses: a server logs thousands."""
        play = _new(cls)
        play.__dict__.update(seat=seat, cards=cards, name=None, line=None)
        return play


@dataclass(frozen=True)
class _SeatLine:
    """A line that names one seat (and, as written, a name)."""

    seat: int
    name: Optional[str] = None
    line: Optional[int] = field(default=None, compare=False)

    def __post_init__(self):
        _check_seat(self.seat)
        _check_name(self.name)


@dataclass(frozen=True)
class Pass(_SeatLine):
    """``(s)name passt.`` - a pass, or the trick's winner collecting it."""


@dataclass(frozen=True)
class TichuCall(_SeatLine):
    """``Tichu: (s)name`` - a (small) Tichu call."""


@dataclass(frozen=True)
class Wish:
    """``Wunsch:X`` - the rank wished with the Mahjong just played (2..14)."""

    rank: int
    line: Optional[int] = field(default=None, compare=False)

    def __post_init__(self):
        if self.rank not in NATURAL_RANKS:
            raise ValueError(f"wished rank {self.rank!r} is not 2-14")


@dataclass(frozen=True)
class DragonGift(_SeatLine):
    """``Drache an: (s)name`` - the Dragon trick goes to that seat.

    BSW sometimes writes no name (``Drache an: (1)``): then ``name`` is ``""``.
    """


@dataclass(frozen=True)
class Result:
    """``Ergebnis: a - b`` - the round's points for seats 0+2 and seats 1+3."""

    team_0_2: int
    team_1_3: int
    line: Optional[int] = field(default=None, compare=False)


Entry = Union[Play, Pass, TichuCall, Wish, DragonGift, Result]
_ENTRY_TYPES = (Play, Pass, TichuCall, Wish, DragonGift, Result)


@dataclass(frozen=True)
class GrandTichuCall(_SeatLine):
    """``Grosses Tichu: (s)name`` - a Grand Tichu call (BSW may repeat the line)."""


@dataclass(frozen=True)
class RoundLog:
    """One round as logged: deal, calls, exchange, and the play section in order.

    ``exchanges[s]`` are the three cards seat ``s`` gives to seats s+1, s+2
    (the partner) and s+3, in that order.  ``bomb_holders`` are the seats of
    the ``BOMBE:`` line (empty: no such line).  ``card_block_names`` are the
    names the two card blocks show when they differ from ``seat_names``
    (BSW's stale names); ``None`` means the same names.  A round whose last
    entry is not a `Result` is incomplete (an unfinished game's last round).
    """

    seat_names: tuple[str, str, str, str]
    grand_hands: tuple[tuple[Card, ...], ...]
    start_hands: tuple[tuple[Card, ...], ...]
    exchanges: tuple[tuple[Card, Card, Card], ...]
    entries: tuple[Entry, ...] = ()
    grand_tichu_calls: tuple[GrandTichuCall, ...] = ()
    bomb_holders: tuple[int, ...] = ()
    card_block_names: Optional[tuple[str, str, str, str]] = None

    def __post_init__(self):
        names = _four(self.seat_names, "seat_names")
        for name in names:
            _check_name(name)
        block_names = None
        if self.card_block_names is not None:
            block_names = _four(self.card_block_names, "card_block_names")
            for name in block_names:
                _check_name(name)
            if block_names == names:
                block_names = None
        grand = _four(self.grand_hands, "grand_hands")
        start = _four(self.start_hands, "start_hands")
        exchanges = _four(self.exchanges, "exchanges")
        entries = tuple(self.entries)
        for position, entry in enumerate(entries):
            if not isinstance(entry, _ENTRY_TYPES):
                raise ValueError(f"entry {entry!r} is not a play-section entry")
            if isinstance(entry, Result) and position != len(entries) - 1:
                raise ValueError("the Result must be the round's last entry")
        calls = tuple(self.grand_tichu_calls)
        if any(not isinstance(call, GrandTichuCall) for call in calls):
            raise ValueError(f"grand_tichu_calls must be GrandTichuCall values: {calls!r}")
        holders = tuple(self.bomb_holders)
        for seat in holders:
            _check_seat(seat)
        set_ = object.__setattr__
        set_(self, "seat_names", names)
        set_(self, "card_block_names", block_names)
        set_(self, "grand_hands", tuple(
            _card_tuple(hand, GRAND_HAND_SIZE, f"Grand Tichu hand of seat {seat}")
            for seat, hand in enumerate(grand)))
        set_(self, "start_hands", tuple(
            _card_tuple(hand, START_HAND_SIZE, f"starting hand of seat {seat}")
            for seat, hand in enumerate(start)))
        set_(self, "exchanges", tuple(
            _card_tuple(given, EXCHANGE_SIZE, f"exchange of seat {seat}")
            for seat, given in enumerate(exchanges)))
        set_(self, "entries", entries)
        set_(self, "grand_tichu_calls", calls)
        set_(self, "bomb_holders", holders)

    @classmethod
    def of_engine(cls, seat_names: tuple[str, str, str, str], grand_hands: tuple[tuple[Card, ...], ...],
                  start_hands: tuple[tuple[Card, ...], ...], exchanges: tuple[tuple[Card, Card, Card], ...],
                  entries: tuple[Entry, ...], grand_tichu_calls: tuple[GrandTichuCall, ...]) -> "RoundLog":
        """A round the rules engine played: its values are tuples of the right sizes and kinds
        already, so the reader's checks are skipped; only the names, which people chose, are checked."""
        seat_names = _four(seat_names, "seat_names")
        for name in seat_names:
            _check_name(name)
        round_log = _new(cls)
        round_log.__dict__.update(
            seat_names=seat_names, grand_hands=grand_hands, start_hands=start_hands, exchanges=exchanges,
            entries=entries, grand_tichu_calls=grand_tichu_calls, bomb_holders=(), card_block_names=None)
        return round_log

    @property
    def grand_tichu_callers(self) -> frozenset[int]:
        """The seats that called Grand Tichu (repeated lines count once)."""
        return frozenset(call.seat for call in self.grand_tichu_calls)

    @property
    def result(self) -> Optional[Result]:
        """The `Ergebnis` line, or None if the round was not finished."""
        if self.entries and isinstance(self.entries[-1], Result):
            return self.entries[-1]
        return None

    @property
    def is_complete(self) -> bool:
        return self.result is not None

    def shown_name(self, seat: int, name: Optional[str]) -> str:
        """The name a line shows for ``seat``: its own ``name`` if set, else the seat's."""
        return self.seat_names[seat] if name is None else name


@dataclass(frozen=True)
class GameLog:
    """A whole `.tch` file: its rounds in order; ``source`` says where it came from."""

    rounds: tuple[RoundLog, ...]
    source: str = ""

    def __post_init__(self):
        rounds = tuple(self.rounds)
        if any(not isinstance(r, RoundLog) for r in rounds):
            raise ValueError("rounds must be RoundLog values")
        for r in rounds[:-1]:
            if not r.is_complete:
                raise ValueError("only the last round may be unfinished")
        object.__setattr__(self, "rounds", rounds)
