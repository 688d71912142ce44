"""Seating a round of an event: Swiss pairing for individual and pairs tournaments.

Pure: players and pairs are names, standings are numbers (victory points so far), the
history is the rounds seated before, randomness comes from the caller's ``Random``. The
rules are written in docs/rules.md, "Events: pairing"; what each step guarantees is said
where it is done.

Individual, a round in four steps: (1) the byes, fewest byes so far first; (2) the
partnerships, a maximum matching of players who have never partnered, grown from the
greedy one that pairs neighbours in the standings, so that the number of repeated
partnerships is the least possible; (3) the tables, partnerships matched in the same way
(two partnerships that have never opposed each other are preferred), then improved two
neighbouring tables at a time, seated again in the best of the 315 ways (the fewest
repeated partnerships, then repeated opponents); (4) the seats at each table, the arrangement
that puts its players where they have sat least.

Pairs: the bye, then matches of pairs that have never met, by the same matching.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Optional, TypeVar

from .matching import UNMATCHED, maximum_matching

T = TypeVar("T")

#: seats 1+3 and 2+4 are partners (indexes into a table's seats)
PARTNER_SEATS = ((0, 2), (1, 3))
#: a table's four seats
TABLE_SIZE = 4


@dataclass(frozen=True)
class Table:
    """One table of an individual round: the players in seats 1, 2, 3 and 4."""

    seats: tuple[str, str, str, str]

    def partnerships(self) -> tuple[frozenset[str], frozenset[str]]:
        """The two teams: seats 1+3 and seats 2+4."""
        return (frozenset(self.seats[i] for i in PARTNER_SEATS[0]),
                frozenset(self.seats[i] for i in PARTNER_SEATS[1]))

    def opponents(self) -> list[frozenset[str]]:
        """The four pairs of players who play against each other here."""
        first, second = self.partnerships()
        return [frozenset((a, b)) for a in sorted(first) for b in sorted(second)]


@dataclass(frozen=True)
class IndividualRound:
    """A seated round of an individual event: its tables and who sits out."""

    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Match:
    """One table of a pairs round: ``first`` takes seats 1 and 3, ``second`` seats 2 and 4."""

    first: str
    second: str


@dataclass(frozen=True)
class PairsRound:
    """A round of a pairs event: its matches and the pair that sits out, if any."""

    matches: tuple[Match, ...]
    bye: Optional[str] = None


@dataclass
class IndividualHistory:
    """What earlier rounds say about each player: counts of partners, opponents, byes, seats."""

    partners: Counter[frozenset[str]] = field(default_factory=Counter)
    opponents: Counter[frozenset[str]] = field(default_factory=Counter)
    byes: Counter[str] = field(default_factory=Counter)
    seats: Counter[tuple[str, int]] = field(default_factory=Counter)

    @classmethod
    def of(cls, rounds: Iterable[IndividualRound]) -> IndividualHistory:
        """The counts over the given rounds."""
        history = cls()
        for played in rounds:
            history.byes.update(played.byes)
            for table in played.tables:
                history.partners.update(table.partnerships())
                history.opponents.update(table.opponents())
                history.seats.update((name, seat) for seat, name in enumerate(table.seats))
        return history


@dataclass
class PairsHistory:
    """What earlier rounds say about each pair: whom it met, its byes, and how many more
    times it sat in seats 1+3 than in seats 2+4."""

    met: Counter[frozenset[str]] = field(default_factory=Counter)
    byes: Counter[str] = field(default_factory=Counter)
    first_balance: Counter[str] = field(default_factory=Counter)

    @classmethod
    def of(cls, rounds: Iterable[PairsRound]) -> PairsHistory:
        """The counts over the given rounds."""
        history = cls()
        for played in rounds:
            if played.bye is not None:
                history.byes[played.bye] += 1
            for match in played.matches:
                history.met[frozenset((match.first, match.second))] += 1
                history.first_balance[match.first] += 1
                history.first_balance[match.second] -= 1
        return history


def by_standing(names: Iterable[str], standings: Mapping[str, float], rng: Random) -> list[str]:
    """Best standing first; equal standings in a random order (a name without one has 0)."""
    order = sorted(names)
    rng.shuffle(order)
    return sorted(order, key=lambda name: -standings.get(name, 0))


def choose_byes(names: Sequence[str], count: int, standings: Mapping[str, float],
                byes: Mapping[str, int], rng: Random) -> list[str]:
    """Who sits out: fewest byes so far, then the lowest standing, then chance. So nobody
    sits out a second time before everyone present has sat out once."""
    lowest_first = list(reversed(by_standing(names, standings, rng)))
    return sorted(lowest_first, key=lambda name: byes.get(name, 0))[:count]


def fewest_repeats_matching(count: int, repeats: Callable[[int, int], int]) -> list[tuple[int, int]]:
    """Items 0..count-1 (count even, in standing order) matched in pairs with the fewest
    pairs whose ``repeats`` is not 0: a maximum matching of the fresh pairs, grown from the
    greedy one that takes each item's nearest fresh neighbour in the order. The items that
    no fresh pair can cover are then paired in order, each with the one it repeats least."""
    neighbours: list[list[int]] = [[] for _ in range(count)]
    for i in range(count):
        for j in range(i + 1, count):
            if repeats(i, j) == 0:
                neighbours[i].append(j)
                neighbours[j].append(i)
    greedy = [UNMATCHED] * count
    for i in range(count):
        if greedy[i] == UNMATCHED:
            nearest = next((j for j in neighbours[i] if j > i and greedy[j] == UNMATCHED), UNMATCHED)
            if nearest != UNMATCHED:
                greedy[i], greedy[nearest] = nearest, i
    matched = maximum_matching(neighbours, greedy)
    pairs = [(i, matched[i]) for i in range(count) if i < matched[i]]
    left = [i for i in range(count) if matched[i] == UNMATCHED]
    while left:
        item = left.pop(0)
        other = min(left, key=lambda j: (repeats(item, j), j - item))
        left.remove(other)
        pairs.append((item, other))
    return sorted(pairs)


def pairings(items: Sequence[T]) -> Iterator[list[tuple[T, T]]]:
    """Every way to split an even number of items into unordered pairs (105 for 8)."""
    if not items:
        yield []
        return
    head, rest = items[0], items[1:]
    for index, other in enumerate(rest):
        for remaining in pairings(list(rest[:index]) + list(rest[index + 1:])):
            yield [(head, other)] + remaining


#: a table as its two partnerships, before its seats are chosen
Teams = tuple[tuple[str, str], tuple[str, str]]


class _Repeats:
    """How often two players partnered and opposed before, and what that costs two tables."""

    def __init__(self, history: IndividualHistory) -> None:
        self.partnered = history.partners.get
        self.opposed = history.opponents.get

    def partners(self, team: tuple[str, str]) -> int:
        """How often the two partnered before."""
        return self.partnered(frozenset(team), 0)

    def meetings(self, table: Teams) -> int:
        """How many times the opponents at this table met before, summed over their 4 pairs."""
        return sum(self.opposed(frozenset((a, b)), 0) for a in table[0] for b in table[1])

    def cost(self, tables: Sequence[Teams]) -> tuple[int, int]:
        """Repeated partnerships, then repeated meetings of opponents."""
        return (sum(1 for table in tables for team in table if self.partners(team)),
                sum(self.meetings(table) for table in tables))

    def best_two_tables(self, tables: Sequence[Teams]) -> list[Teams]:
        """The 8 players of two tables seated again in the cheapest way (315 ways)."""
        players = [name for table in tables for team in table for name in team]
        best, best_cost = list(tables), self.cost(tables)
        for teams in pairings(players):
            if sum(1 for team in teams if self.partners(team)) > best_cost[0]:
                continue
            for first, second in pairings(teams):
                candidate = [first, second]
                if self.cost(candidate) < best_cost:
                    best, best_cost = candidate, self.cost(candidate)
        return best


#: how far apart (in the standing order of tables) two tables may be to be seated again together
RESEAT_REACH = 2


def fewer_repeated_meetings(tables: list[Teams], repeats: _Repeats) -> list[Teams]:
    """The tables improved two at a time: a table where opponents meet again and one of its
    RESEAT_REACH neighbours in standing order are seated again in the cheapest way, as long
    as that lowers the repeated partnerships (never, they are already fewest) or, as many,
    the repeated meetings. Each change lowers the total, so it ends."""
    result = list(tables)
    improved = True
    while improved:
        improved = False
        for one in range(len(result)):
            for two in range(max(0, one - RESEAT_REACH), min(len(result), one + RESEAT_REACH + 1)):
                if two == one or not repeats.meetings(result[one]):
                    continue
                pair = [result[one], result[two]]
                better = repeats.best_two_tables(pair)
                if repeats.cost(better) < repeats.cost(pair):
                    result[one], result[two] = better
                    improved = True
    return result


def seat_table(first: Sequence[str], second: Sequence[str], seats: Mapping[tuple[str, int], int],
               rng: Random) -> Table:
    """The two partnerships at a table in the seats where their players have sat least:
    of the 8 arrangements (which team takes seats 1+3, and who of each team sits first),
    the one whose most crowded seat is crowded least, then the second most, and so on; a
    seat's crowding is how much more often than a quarter of his games its player sat there
    (raw counts let a player with few games take his most-used seat again, hidden by a
    neighbour with many games and an equal count)."""
    arrangements = []
    for one, two in ((first, second), (second, first)):
        for a, c in (one, one[::-1]):
            for b, d in (two, two[::-1]):
                arrangements.append((a, b, c, d))
    rng.shuffle(arrangements)

    def excess(name: str, seat: int) -> int:
        """How much more often than a quarter of his games he has sat there (times 4)."""
        games = sum(seats.get((name, other), 0) for other in range(TABLE_SIZE))
        return TABLE_SIZE * seats.get((name, seat), 0) - games

    def crowding(arrangement: tuple[str, str, str, str]) -> list[int]:
        return sorted((excess(name, seat) for seat, name in enumerate(arrangement)), reverse=True)

    return Table(min(arrangements, key=crowding))


def seat_individual_round(players: Iterable[str], standings: Mapping[str, float],
                          rounds: Sequence[IndividualRound], rng: Random) -> IndividualRound:
    """The tables of the next round of an individual event for the players present (at
    least four), with ``len(players) % 4`` byes. Guaranteed: fair byes (``choose_byes``) and
    the fewest repeated partnerships possible among the seated players, and at two tables
    the fewest repeated opponents too; heuristic: repeated opponents at more tables, the
    spread of standings at a table, the seats (docs/rules.md)."""
    history = IndividualHistory.of(rounds)
    present = sorted(set(players))
    if len(present) < TABLE_SIZE:
        raise ValueError(f"an individual round needs at least {TABLE_SIZE} players, not {len(present)}")
    byes = choose_byes(present, len(present) % TABLE_SIZE, standings, history.byes, rng)
    seated = by_standing(set(present) - set(byes), standings, rng)
    repeats = _Repeats(history)
    teams = [(seated[i], seated[j]) for i, j in fewest_repeats_matching(
        len(seated), lambda i, j: repeats.partners((seated[i], seated[j])))]
    matches = fewest_repeats_matching(len(teams), lambda i, j: repeats.meetings((teams[i], teams[j])))
    improved = fewer_repeated_meetings([(teams[i], teams[j]) for i, j in matches], repeats)
    tables = tuple(seat_table(first, second, history.seats, rng) for first, second in improved)
    return IndividualRound(tables, tuple(sorted(byes)))


def pair_pairs_round(pairs: Iterable[str], standings: Mapping[str, float],
                     rounds: Sequence[PairsRound], rng: Random) -> PairsRound:
    """The matches of the next round of a pairs event for the pairs present (at least two),
    with a bye if their number is odd. Guaranteed: fair byes and the fewest rematches
    possible; of a match, seats 1+3 go to the pair that has had them less often (than
    seats 2+4), by lot if equal. Heuristic: the standing distance of a match (docs/rules.md)."""
    history = PairsHistory.of(rounds)
    present = sorted(set(pairs))
    if len(present) < 2:
        raise ValueError(f"a pairs round needs at least 2 pairs, not {len(present)}")
    byes = choose_byes(present, len(present) % 2, standings, history.byes, rng)
    playing = by_standing(set(present) - set(byes), standings, rng)
    matches = []
    for i, j in fewest_repeats_matching(
            len(playing), lambda i, j: history.met[frozenset((playing[i], playing[j]))]):
        one, two = playing[i], playing[j]
        one_more = history.first_balance[one] - history.first_balance[two]
        if one_more > 0 or (one_more == 0 and rng.random() < 0.5):
            one, two = two, one
        matches.append(Match(one, two))
    return PairsRound(tuple(matches), byes[0] if byes else None)


def individual_penalty(seated: IndividualRound, standings: Mapping[str, float],
                       rounds: Sequence[IndividualRound]) -> tuple[int, int, float]:
    """How bad a seating is, compared in this order: the partnerships that are repeats, the
    opponent pairs' earlier meetings (summed), the spread of standings at the tables (the
    best minus the worst standing at each table, summed)."""
    history = IndividualHistory.of(rounds)
    partners = sum(1 for table in seated.tables for team in table.partnerships() if history.partners[team])
    opponents = sum(history.opponents[pair] for table in seated.tables for pair in table.opponents())
    spread = sum(max(standings.get(n, 0) for n in table.seats) - min(standings.get(n, 0) for n in table.seats)
                 for table in seated.tables)
    return partners, opponents, spread


def pairs_penalty(seated: PairsRound, standings: Mapping[str, float],
                  rounds: Sequence[PairsRound]) -> tuple[int, float]:
    """How bad a pairs round is: its rematches, then the standing distance of its matches."""
    history = PairsHistory.of(rounds)
    rematches = sum(1 for m in seated.matches if history.met[frozenset((m.first, m.second))])
    distance = sum(abs(standings.get(m.first, 0) - standings.get(m.second, 0)) for m in seated.matches)
    return rematches, distance
