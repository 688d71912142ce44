"""An event's record: what it is, who entered, its rounds, their tables and results.

Plain data that survives a restart (`to_data` / `from_data`, kept whole by the storage's
`EventStore`); the rules it applies are its format's (`bswtichu.events.formats`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bswtichu.events.formats import (FORMAT_NAMES, DuplicateFormat, Format, IndividualFormat, PairsFormat,
                                     RoundPlan, pair_name)
from bswtichu.events.scoring import DealScore, PlayedRound, Standing, TableResult

#: an event's states, in order
OPEN, RUNNING, FINISHED, CANCELLED = "open", "running", "finished", "cancelled"


@dataclass
class TableRecord:
    """One table of a round: its number at the hall, its game's log number, its seats, and
    once its game is over the deals' scores; ``stood_in``: players a bot played for."""

    table: int
    seats: tuple[str, str, str, str]
    log: int | None = None
    deals: list[DealScore] | None = None
    stood_in: set[str] = field(default_factory=set)
    #: the game's id in the storage (None without one)
    game: int | None = None

    @property
    def done(self) -> bool:
        return self.deals is not None

    def result(self) -> TableResult:
        return TableResult(self.seats, tuple(self.deals or ()), frozenset(self.stood_in))

    def to_data(self) -> dict[str, Any]:
        return {"table": self.table, "seats": list(self.seats), "log": self.log,
                "deals": None if self.deals is None else [d.to_data() for d in self.deals],
                "stood_in": sorted(self.stood_in), "game": self.game}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> TableRecord:
        deals = data["deals"]
        return cls(data["table"], tuple(data["seats"]), data["log"],
                   None if deals is None else [DealScore.from_data(d) for d in deals], set(data["stood_in"]),
                   data.get("game"))


@dataclass
class RoundRecord:
    """A seated round: the plan (seats and byes) and its tables."""

    plan: RoundPlan
    tables: list[TableRecord]

    @property
    def done(self) -> bool:
        return all(table.done for table in self.tables)

    def played(self) -> PlayedRound:
        return PlayedRound(tuple(t.result() for t in self.tables), self.plan.byes)

    def to_data(self) -> dict[str, Any]:
        return {"plan": self.plan.to_data(), "tables": [t.to_data() for t in self.tables]}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> RoundRecord:
        return cls(RoundPlan.from_data(data["plan"]), [TableRecord.from_data(t) for t in data["tables"]])


@dataclass
class EventRecord:
    """An event: its settings (name, format, start, rounds, deals per round, turn clock, who may
    enter), its creator and seed, its state, its entrants (units: a player's name, or a pair's
    two names) and offers of pairs not yet confirmed, and its rounds."""

    number: int
    name: str
    format: str
    start: float
    rounds: int
    deals: int
    clock: int
    entry: str
    creator: str
    seed: int
    state: str = OPEN
    entrants: list[tuple[str, ...]] = field(default_factory=list)
    #: pairs events: a player's offer (his name -> the partner he named) not yet confirmed
    offers: dict[str, str] = field(default_factory=dict)
    #: entrants who left the event after its start (no later round seats them)
    withdrawn: list[str] = field(default_factory=list)
    played: list[RoundRecord] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.format not in FORMAT_NAMES:
            raise ValueError(f"unknown format {self.format}")

    # -- who --------------------------------------------------------------

    @property
    def unit_size(self) -> int:
        return 1 if self.format == "individual" else 2

    def unit_name(self, unit: tuple[str, ...]) -> str:
        return unit[0] if len(unit) == 1 else pair_name(unit[0], unit[1])

    def unit_of(self, nick: str) -> tuple[str, ...] | None:
        """The entrant (a player, or his pair) ``nick`` is part of (names casefolded)."""
        key = nick.casefold()
        return next((unit for unit in self.entrants if key in (n.casefold() for n in unit)), None)

    def offer_from(self, nick: str) -> str | None:
        """The name, as its player spelt it, of ``nick``'s open offer to enter as a pair."""
        key = nick.casefold()
        return next((name for name in self.offers if name.casefold() == key), None)

    def players(self) -> list[str]:
        return [name for unit in self.entrants for name in unit]

    def staying(self) -> list[str]:
        """The entrants' names (a player, a pair's name) who have not withdrawn."""
        return [self.unit_name(u) for u in self.entrants if self.unit_name(u) not in self.withdrawn]

    def rules(self) -> Format:
        """The format's rules for these entrants."""
        if self.format == "duplicate":
            return DuplicateFormat([(u[0], u[1]) for u in self.entrants], self.seed, self.deals)
        if self.format == "pairs":
            return PairsFormat([(u[0], u[1]) for u in self.entrants])
        return IndividualFormat([u[0] for u in self.entrants], self.deals)

    # -- results ----------------------------------------------------------

    @property
    def current(self) -> RoundRecord | None:
        """The round being played (seated, not every table done), if any."""
        return self.played[-1] if self.played and not self.played[-1].done else None

    def standings(self) -> list[Standing]:
        """The standings over the rounds whose every table is done."""
        return self.rules().standings([r.played() for r in self.played if r.done])

    def label(self, round_number: int) -> str:
        return f"event {self.number} round {round_number}"

    # -- data -------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """What /events lists of it."""
        return {"event": self.number, "name": self.name, "format": self.format, "start": self.start,
                "rounds": self.rounds, "deals": self.deals, "clock": self.clock, "entry": self.entry,
                "creator": self.creator, "state": self.state, "entrants": len(self.entrants),
                "round": len(self.played)}

    def to_data(self) -> dict[str, Any]:
        return {**self.summary(), "seed": self.seed, "entrants": [list(u) for u in self.entrants],
                "offers": dict(self.offers), "withdrawn": list(self.withdrawn),
                "played": [r.to_data() for r in self.played]}

    def public_data(self) -> dict[str, Any]:
        """What /event shows: everything but the seed until the event is over (the seed makes
        a duplicate event's deals: docs/rules.md item 68)."""
        data = self.to_data()
        if self.state not in (FINISHED, CANCELLED):
            data["seed"] = None
        return data

    def plays_now(self, nick: str) -> bool:
        """Whether ``nick`` has a seat in the round being played."""
        current = self.current
        key = nick.casefold()
        return current is not None and any(key == n.casefold() for t in current.tables for n in t.seats)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> EventRecord:
        return cls(data["event"], data["name"], data["format"], data["start"], data["rounds"], data["deals"],
                   data["clock"], data["entry"], data["creator"], data["seed"], data["state"],
                   [tuple(u) for u in data["entrants"]], dict(data["offers"]), list(data["withdrawn"]),
                   [RoundRecord.from_data(r) for r in data["played"]])
