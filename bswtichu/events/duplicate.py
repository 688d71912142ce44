"""Duplicate Tichu: the same deals at every table of a round, each pair scored against those
who held the same cards.

Pure: deals are derived from the event's seed alone (no generator is passed around), pairs
are names, a table's result on a deal is its two teams' round points. The rules are written
in docs/rules.md, "Events: duplicate" (items 60-69); what each function guarantees is said
where it is done.

- The deals (`event_deal`, `round_deals`): deal ``d`` of round ``r`` is a shuffle of the
  engine's deck drawn from SHA-256 of the seed, ``r`` and ``d`` (`DEAL_METHOD`), so it is
  the same on every machine and Python version, and a finished event can be dealt again.
- The movement (`seat_duplicate_round`): pairs Swiss (`pairing.pair_pairs_round`); of a
  match, the pair of seats 1+3 is North/South and holds the N/S cards of every deal.
- The scoring (`deal_match_points`, `match_points`, `duplicate_standings`): match points,
  2 for each pair of the same cards beaten on the deal's margin, 1 for each tie; a deal some
  tables did not play is scaled up (Neuberg), the others and a bye get the average.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from hashlib import sha256
from random import Random

from bswtichu.engine.cards import DECK, Card

from .pairing import Match, PairsRound, pair_pairs_round

#: one deal: the 56 cards in the engine's layout (`bswtichu.engine.deal`: every seat's first
#: 8 cards in seat order, then every seat's last 6), as `Game.start_round(deal=...)` takes it
Deal = tuple[Card, ...]

#: the name and version of the way deals are made from a seed (docs/rules.md item 61); a
#: change of method gets a new name, so an old event can still be dealt again
DEAL_METHOD = "bswtichu-duplicate-deal/1"

#: a round's fewest pairs: two tables, so that each deal is compared
FEWEST_PAIRS = 4

#: the team indexes of the engine's round result (`RoundResult.score`): seats 1+3, seats 2+4
NORTH_SOUTH, EAST_WEST = 0, 1


# ---------------------------------------------------------------------------- the deals


def _seed_text(seed: int | str) -> str:
    """The seed as the deal method reads it: ``i`` and the decimal digits of an int, ``s`` and
    the text of a string (so the seed 7 and the seed "7" deal differently)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise TypeError(f"an event's seed is an int or a str, not {type(seed).__name__}")
    return f"i{seed}" if isinstance(seed, int) else f"s{seed}"


class _HashStream:
    """Uniform numbers from SHA-256 in counter mode: block k is SHA-256(key + "/" + k)."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.block = 0
        self.buffer = b""

    def _bytes(self, count: int) -> bytes:
        while len(self.buffer) < count:
            self.buffer += sha256(self.key + b"/" + str(self.block).encode()).digest()
            self.block += 1
        out, self.buffer = self.buffer[:count], self.buffer[count:]
        return out

    def below(self, bound: int) -> int:
        """A uniform number in 0..bound-1: 8 bytes read big-endian, rejected while they fall in
        the last, incomplete multiple of ``bound`` below 2**64, then taken modulo ``bound``."""
        limit = 2 ** 64 - 2 ** 64 % bound
        while True:
            value = int.from_bytes(self._bytes(8), "big")
            if value < limit:
                return value % bound


def event_deal(seed: int | str, round_number: int, deal_number: int) -> Deal:
    """Deal ``deal_number`` (from 1) of round ``round_number`` (from 1) of the event with
    ``seed``: the engine's deck (`DECK` order) shuffled by Fisher-Yates (for i from 55 down
    to 1, swap card i with card ``below(i + 1)``), the numbers drawn from SHA-256 of the text
    ``DEAL_METHOD/<seed>/<round>/<deal>`` (`_HashStream`). Every table of the round gets
    it in the same seats."""
    if round_number < 1 or deal_number < 1:
        raise ValueError(f"rounds and deals are counted from 1, not round {round_number} deal {deal_number}")
    key = f"{DEAL_METHOD}/{_seed_text(seed)}/{round_number}/{deal_number}".encode()
    stream = _HashStream(key)
    cards = list(DECK)
    for i in range(len(cards) - 1, 0, -1):
        j = stream.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


def round_deals(seed: int | str, round_number: int, count: int) -> tuple[Deal, ...]:
    """The ``count`` deals of round ``round_number``, in the order they are played."""
    if count < 1:
        raise ValueError(f"a round has at least one deal, not {count}")
    return tuple(event_deal(seed, round_number, number) for number in range(1, count + 1))


# ---------------------------------------------------------------------------- the movement


def seat_duplicate_round(pairs: Iterable[str], standings: Mapping[str, Fraction | float],
                         rounds: Sequence[PairsRound], rng: Random) -> PairsRound:
    """The tables of the next duplicate round: pairs Swiss by ``standings`` (match points so
    far, `duplicate_standings`), with the fewest rematches and each pair's directions balanced
    (`pair_pairs_round`). Of each `Match`, ``first`` sits North/South (seats 1+3) and
    ``second`` East/West (seats 2+4); with an odd number of pairs one sits out (its score:
    `match_points`). Needs `FEWEST_PAIRS` pairs present: two tables at least."""
    present = sorted(set(pairs))
    if len(present) < FEWEST_PAIRS:
        raise ValueError(f"a duplicate round needs at least {FEWEST_PAIRS} pairs (two tables, so that"
                         f" each deal is compared), not {len(present)}")
    return pair_pairs_round(present, {pair: float(points) for pair, points in standings.items()}, rounds, rng)


def table_seats(match: Match, members: Mapping[str, tuple[str, str]]) -> tuple[str, str, str, str]:
    """The players of a duplicate table in seats 1-4 (the engine's seats 0-3, which the deal is
    laid out for): the N/S pair's members in seats 1 and 3, the E/W pair's in seats 2 and 4,
    each pair's in the order ``members`` gives."""
    (north, south), (east, west) = members[match.first], members[match.second]
    return north, east, south, west


# ---------------------------------------------------------------------------- the scoring


@dataclass(frozen=True)
class DealResult:
    """One table's result on one deal: round ``round`` (from 1, in the order of the rounds
    given to `match_points`), deal ``deal`` (from 1), the pairs in each direction, and the
    points of their teams as the engine's `RoundResult.score` gives them (seats 1+3 first)."""

    round: int
    deal: int
    north_south: str
    east_west: str
    points: tuple[int, int]

    @property
    def margin(self) -> int:
        """What N/S scored more than E/W (negative: less); E/W's margin is its opposite."""
        return self.points[NORTH_SOUTH] - self.points[EAST_WEST]


def _beaten(margin: int, others: Iterable[int]) -> int:
    """Match points against the others of the group: 2 for each lower margin, 1 for each equal."""
    return sum(2 if margin > other else 1 if margin == other else 0 for other in others)


def deal_match_points(results: Sequence[DealResult], tables: int | None = None) -> dict[str, Fraction]:
    """Each pair's match points on one deal, from the results of the tables that played it.

    A pair is compared with the pairs of the same direction (they held the same cards) on
    its margin (`DealResult.margin`, E/W's is the opposite): 2 for each beaten, 1 for each
    tie, so the top is ``2 * (tables - 1)``. ``tables``: how many tables the round had
    (default: as many as played it); if fewer played it, a pair's match points ``m`` among
    the ``n`` that did are scaled to ``(m + 1) * tables / n - 1`` (Neuberg's formula), so the
    match points of each direction add up to ``tables * (tables - 1)`` as when all played."""
    if not results:
        return {}
    played = len(results)
    tables = played if tables is None else tables
    if played > tables or len({(r.round, r.deal) for r in results}) != 1:
        raise ValueError("the results of one deal: one per table, at most the round's tables")
    margins = {NORTH_SOUTH: [r.margin for r in results], EAST_WEST: [-r.margin for r in results]}
    scores: dict[str, Fraction] = {}
    for index, result in enumerate(results):
        for direction, pair in ((NORTH_SOUTH, result.north_south), (EAST_WEST, result.east_west)):
            group = margins[direction]
            points = _beaten(group[index], group[:index] + group[index + 1:])
            scores[pair] = (Fraction(points + 1) * tables / played) - 1
    return scores


def _checked_results(rounds: Sequence[PairsRound], results: Iterable[DealResult],
                     deals_per_round: int) -> dict[tuple[int, int], list[DealResult]]:
    """The results by (round, deal), each checked against the round's tables."""
    by_deal: dict[tuple[int, int], list[DealResult]] = {}
    seen = set()
    for result in results:
        if not 1 <= result.round <= len(rounds) or not 1 <= result.deal <= deals_per_round:
            raise ValueError(f"no deal {result.deal} in round {result.round}: {len(rounds)} rounds"
                             f" of {deals_per_round} deals")
        if Match(result.north_south, result.east_west) not in rounds[result.round - 1].matches:
            raise ValueError(f"{result.north_south} (N/S) and {result.east_west} (E/W) did not play"
                             f" each other in round {result.round}")
        table = (result.round, result.deal, result.north_south)
        if table in seen:
            raise ValueError(f"two results of deal {result.deal} of round {result.round} at the table"
                             f" of {result.north_south}")
        seen.add(table)
        by_deal.setdefault((result.round, result.deal), []).append(result)
    return by_deal


def match_points(rounds: Sequence[PairsRound], results: Iterable[DealResult],
                 deals_per_round: int) -> dict[tuple[int, int], dict[str, Fraction]]:
    """Every pair's match points on every deal of the ``rounds`` (seated by
    `seat_duplicate_round`, in order), keyed by (round, deal), from the tables' ``results``.

    A pair whose table has no result on a deal (not played), and the pair that sits out a
    round, get the average, ``tables - 1``: half the top. A deal with no result at all gives
    every pair of its round the average. The match points of a deal add up to
    ``tables * (tables - 1)`` per direction, plus the average of the pair sitting out."""
    by_deal = _checked_results(rounds, results, deals_per_round)
    scores: dict[tuple[int, int], dict[str, Fraction]] = {}
    for number, seated in enumerate(rounds, start=1):
        tables = len(seated.matches)
        average = Fraction(tables - 1)
        pairs = [pair for match in seated.matches for pair in (match.first, match.second)]
        if seated.bye is not None:
            pairs.append(seated.bye)
        for deal in range(1, deals_per_round + 1):
            played = deal_match_points(by_deal.get((number, deal), []), tables)
            scores[number, deal] = {pair: played.get(pair, average) for pair in pairs}
    return scores


@dataclass(frozen=True)
class DuplicateStanding:
    """A pair's line in the standings: its match points and the most it could have had
    (``top``), and the tie-break ``margin``: what its margins exceeded the average margin of
    its comparison group, summed over the deals it played."""

    pair: str
    place: int
    match_points: Fraction
    top: int
    margin: Fraction

    @property
    def percentage(self) -> float:
        """Its match points as a percentage of the top (50 where the top is 0)."""
        return 50.0 if self.top == 0 else float(100 * self.match_points / self.top)


def _margins_over_field(results: Iterable[DealResult]) -> dict[str, Fraction]:
    """Each pair's margins minus the average margin of its direction on each deal, summed."""
    by_deal: dict[tuple[int, int], list[DealResult]] = {}
    for result in results:
        by_deal.setdefault((result.round, result.deal), []).append(result)
    over: dict[str, Fraction] = {}
    for played in by_deal.values():
        average = Fraction(sum(r.margin for r in played), len(played))
        for r in played:
            over[r.north_south] = over.get(r.north_south, Fraction(0)) + r.margin - average
            over[r.east_west] = over.get(r.east_west, Fraction(0)) - r.margin + average
    return over


def duplicate_standings(rounds: Sequence[PairsRound], results: Iterable[DealResult],
                        deals_per_round: int) -> list[DuplicateStanding]:
    """The standings after the ``rounds`` (those that are over), best first: the most match
    points over all deals (`match_points`), then the largest margin over the field
    (`DuplicateStanding.margin`); pairs equal in both share a place (listed by name)."""
    results = list(results)
    scores = match_points(rounds, results, deals_per_round)
    totals: dict[str, Fraction] = {}
    tops: dict[str, int] = {}
    for (number, _deal), deal_scores in scores.items():
        top = 2 * (len(rounds[number - 1].matches) - 1)
        for pair, points in deal_scores.items():
            totals[pair] = totals.get(pair, Fraction(0)) + points
            tops[pair] = tops.get(pair, 0) + top
    margins = _margins_over_field(results)
    keyed = sorted(totals, key=lambda pair: (-totals[pair], -margins.get(pair, Fraction(0)), pair))
    standings: list[DuplicateStanding] = []
    for index, pair in enumerate(keyed):
        margin = margins.get(pair, Fraction(0))
        place = index + 1
        if standings and (standings[-1].match_points, standings[-1].margin) == (totals[pair], margin):
            place = standings[-1].place
        standings.append(DuplicateStanding(pair, place, totals[pair], tops[pair], margin))
    return standings
