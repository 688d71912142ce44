"""An event's format: how a round is seated and how its results make the standings.

The seam between an event (the server's, which opens tables and waits for their games)
and the rules of its format: a format is given the units present (players, or pairs),
the standings so far and the rounds seated before, and returns the round's tables (the
players in seats 1-4) and byes; it turns the rounds played into standings. What a table
is given besides its seats (duplicate's preset deals) is the format's too
(`Format.table_deals`). Pure: names are strings, randomness the caller's ``Random``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Protocol

from .duplicate import FEWEST_PAIRS, Deal, DealResult, duplicate_standings, round_deals, seat_duplicate_round, table_seats
from .pairing import IndividualRound, Match, PairsRound, Table, pair_pairs_round, seat_individual_round
from .scoring import PlayedRound, Standing, individual_standings, pairs_standings

#: the players at one table in seats 1, 2, 3 and 4
Seats = tuple[str, str, str, str]


@dataclass(frozen=True)
class RoundPlan:
    """A seated round: its tables (players in seats 1-4) and the units that sit out."""

    tables: tuple[Seats, ...]
    byes: tuple[str, ...] = ()

    def to_data(self) -> dict[str, object]:
        return {"tables": [list(t) for t in self.tables], "byes": list(self.byes)}

    @classmethod
    def from_data(cls, data: Mapping[str, Sequence[Sequence[str]]]) -> RoundPlan:
        tables = tuple((t[0], t[1], t[2], t[3]) for t in data["tables"])
        return cls(tables, tuple(str(name) for name in data["byes"]))


class Format(Protocol):
    """What an event needs of its format."""

    #: its name as players type it
    name: str
    #: players per unit: 1 (individual) or 2 (pairs)
    unit_size: int
    #: the fewest units a round can seat
    minimum: int

    def seat(self, present: Sequence[str], standings: Mapping[str, float],
             earlier: Sequence[RoundPlan], rng: Random) -> RoundPlan:
        """The next round for the units ``present``."""

    def standings(self, rounds: Sequence[PlayedRound]) -> list[Standing]:
        """The standings after ``rounds``, best first."""

    def table_deals(self, round_number: int, table: int) -> tuple[Deal, ...] | None:
        """What a table deals instead of shuffling (duplicate), or None."""


class IndividualFormat:
    """Individual: Swiss seating in fours with byes (`pairing.seat_individual_round`),
    victory points per deal (`scoring.individual_standings`)."""

    name = "individual"
    unit_size = 1
    minimum = 4

    def __init__(self, players: Sequence[str], deals_per_round: int) -> None:
        self.players = tuple(players)
        self.deals_per_round = deals_per_round

    def seat(self, present: Sequence[str], standings: Mapping[str, float],
             earlier: Sequence[RoundPlan], rng: Random) -> RoundPlan:
        rounds = [IndividualRound(tuple(Table(seats) for seats in plan.tables), plan.byes) for plan in earlier]
        seated = seat_individual_round(present, standings, rounds, rng)
        return RoundPlan(tuple(table.seats for table in seated.tables), seated.byes)

    def standings(self, rounds: Sequence[PlayedRound]) -> list[Standing]:
        return individual_standings(self.players, rounds, self.deals_per_round)

    def table_deals(self, round_number: int, table: int) -> tuple[Deal, ...] | None:
        return None


def pair_name(first: str, second: str) -> str:
    """A pair's name: its players joined by ``+``, as they entered."""
    return f"{first}+{second}"


class PairsFormat:
    """Pairs: fixed partners, Swiss matches of pairs (`pairing.pair_pairs_round`), victory
    points per match (`scoring.pairs_standings`). The first pair of a match takes seats 1+3."""

    name = "pairs"
    unit_size = 2
    minimum = 2

    def __init__(self, pairs: Sequence[tuple[str, str]]) -> None:
        self.pairs = {pair_name(a, b): (a, b) for a, b in pairs}
        self._pair_of = {player: name for name, players in self.pairs.items() for player in players}

    def matches(self, tables: Sequence[Seats], byes: Sequence[str]) -> PairsRound:
        """A round's tables as matches of pairs (seats 1+3 against seats 2+4)."""
        return PairsRound(tuple(Match(self._pair_of[t[0]], self._pair_of[t[1]]) for t in tables),
                          byes[0] if byes else None)

    def seat(self, present: Sequence[str], standings: Mapping[str, float],
             earlier: Sequence[RoundPlan], rng: Random) -> RoundPlan:
        rounds = [self.matches(plan.tables, plan.byes) for plan in earlier]
        seated = pair_pairs_round(present, standings, rounds, rng)
        tables = []
        for match in seated.matches:
            (a, c), (b, d) = self.pairs[match.first], self.pairs[match.second]
            tables.append((a, b, c, d))
        return RoundPlan(tuple(tables), () if seated.bye is None else (seated.bye,))

    def standings(self, rounds: Sequence[PlayedRound]) -> list[Standing]:
        return pairs_standings(self.pairs, rounds)

    def table_deals(self, round_number: int, table: int) -> tuple[Deal, ...] | None:
        return None


class DuplicateFormat(PairsFormat):
    """Duplicate: fixed pairs, pairs Swiss (`duplicate.seat_duplicate_round`, at least 4
    pairs), every table of a round dealt the same deals from the event's seed
    (`duplicate.round_deals`), match points per deal (`duplicate.duplicate_standings`): a
    standing's ``victory_points`` are its match points, its ``points`` its margin over the field."""

    name = "duplicate"
    minimum = FEWEST_PAIRS

    def __init__(self, pairs: Sequence[tuple[str, str]], seed: int, deals_per_round: int) -> None:
        super().__init__(pairs)
        self.seed = seed
        self.deals_per_round = deals_per_round

    def seat(self, present: Sequence[str], standings: Mapping[str, float],
             earlier: Sequence[RoundPlan], rng: Random) -> RoundPlan:
        rounds = [self.matches(plan.tables, plan.byes) for plan in earlier]
        seated = seat_duplicate_round(present, standings, rounds, rng)
        return RoundPlan(tuple(table_seats(match, self.pairs) for match in seated.matches),
                         () if seated.bye is None else (seated.bye,))

    def standings(self, rounds: Sequence[PlayedRound]) -> list[Standing]:
        matches = [self.matches([t.seats for t in played.tables], played.byes) for played in rounds]
        results = [DealResult(number, deal, match.first, match.second, score.points)
                   for number, (played, seated) in enumerate(zip(rounds, matches), 1)
                   for table, match in zip(played.tables, seated.matches)
                   for deal, score in enumerate(table.deals, 1)]
        counts = {s.name: s for s in pairs_standings(self.pairs, rounds)}
        return [Standing(s.pair, s.place, s.match_points, s.margin, counts[s.pair].games,
                         counts[s.pair].byes, counts[s.pair].stood_in)
                for s in duplicate_standings(matches, results, self.deals_per_round)]

    def table_deals(self, round_number: int, table: int) -> tuple[Deal, ...] | None:
        return round_deals(self.seed, round_number, self.deals_per_round)


#: the formats by name, as `/newevent` takes them
FORMAT_NAMES = ("individual", "pairs", "duplicate")
