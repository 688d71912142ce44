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
tables at a time against repeated opponents; (4) the seats at each table, the arrangement
that puts its players where they have sat least.

Pairs: the bye, then matches of pairs that have never met, by the same matching.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Optional

from .matching import UNMATCHED, maximum_matching

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


def fewer_repeated_meetings(matches: list[tuple[int, int]],
                            repeats: Callable[[int, int], int]) -> list[tuple[int, int]]:
    """The matches improved two at a time: of a match with repeats and any other (four
    items), the other two ways to match their items are tried, and one is kept if it has
    fewer matches with repeats, or as many and fewer repeats in all. Each change lowers
    that cost, so it ends; the number of matches with repeats never grows."""
    def cost(pairs: Sequence[tuple[int, int]]) -> tuple[int, int]:
        counts = [repeats(a, b) for a, b in pairs]
        return sum(1 for c in counts if c), sum(counts)

    def improve_once(result: list[tuple[int, int]]) -> bool:
        for one, (a, b) in enumerate(result):
            if repeats(a, b) == 0:
                continue
            for two, (c, d) in enumerate(result):
                if two == one:
                    continue
                better = min(([(a, c), (b, d)], [(a, d), (b, c)]), key=cost)
                if cost(better) < cost([(a, b), (c, d)]):
                    result[one], result[two] = [(min(x), max(x)) for x in better]
                    return True
        return False

    result = list(matches)
    while improve_once(result):
        pass
    return sorted(result)


def seat_table(first: Sequence[str], second: Sequence[str], seats: Mapping[tuple[str, int], int],
               rng: Random) -> Table:
    """The two partnerships at a table in the seats where their players have sat least:
    of the 8 arrangements (which team takes seats 1+3, and who of each team sits first),
    the one whose most repeated seat is repeated least, then whose repeats add up least."""
    arrangements = []
    for one, two in ((first, second), (second, first)):
        for a, c in (one, one[::-1]):
            for b, d in (two, two[::-1]):
                arrangements.append((a, b, c, d))
    rng.shuffle(arrangements)

    def crowding(arrangement: tuple[str, str, str, str]) -> tuple[int, int]:
        counts = [seats.get((name, seat), 0) for seat, name in enumerate(arrangement)]
        return max(counts), sum(counts)

    return Table(min(arrangements, key=crowding))


def seat_individual_round(players: Iterable[str], standings: Mapping[str, float],
                          rounds: Sequence[IndividualRound], rng: Random) -> IndividualRound:
    """The tables of the next round of an individual event for the players present (at
    least four), with ``len(players) % 4`` byes. Guaranteed: fair byes (``choose_byes``) and
    the fewest repeated partnerships possible among the seated players; heuristic: repeated
    opponents, the spread of standings at a table, the seats (docs/rules.md)."""
    history = IndividualHistory.of(rounds)
    present = sorted(set(players))
    if len(present) < TABLE_SIZE:
        raise ValueError(f"an individual round needs at least {TABLE_SIZE} players, not {len(present)}")
    byes = choose_byes(present, len(present) % TABLE_SIZE, standings, history.byes, rng)
    seated = by_standing(set(present) - set(byes), standings, rng)
    partnered = history.partners.get
    teams = [(seated[i], seated[j]) for i, j in fewest_repeats_matching(
        len(seated), lambda i, j: partnered(frozenset((seated[i], seated[j])), 0))]
    opposed_before = history.opponents.get

    def opposed(i: int, j: int) -> int:
        return sum(opposed_before(frozenset((a, b)), 0) for a in teams[i] for b in teams[j])

    matches = fewer_repeated_meetings(fewest_repeats_matching(len(teams), opposed), opposed)
    tables = tuple(seat_table(teams[i], teams[j], history.seats, rng) for i, j in matches)
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
