"""Brute-force references for the pairing: every seating of a small field, and the largest
matching of a small graph, found by trying everything (no cleverness shared with
bswtichu/events)."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from bswtichu.events.pairing import (
    IndividualRound, Match, PairsRound, Table, individual_penalty, pairs_penalty,
)


def all_pairings(items):
    """Every way to split an even number of items into unordered pairs."""
    if not items:
        yield []
        return
    head, rest = items[0], items[1:]
    for index, other in enumerate(rest):
        for remaining in all_pairings(rest[:index] + rest[index + 1:]):
            yield [(head, other)] + remaining


def best_individual_penalty(seated, byes, standings, rounds):
    """The least penalty (individual_penalty) of any seating of ``seated`` in tables of four."""
    best = None
    for teams in all_pairings(sorted(seated)):
        for tables in all_pairings(teams):
            seating = IndividualRound(tuple(Table((a, b, c, d)) for (a, c), (b, d) in tables), tuple(byes))
            penalty = individual_penalty(seating, standings, rounds)
            best = penalty if best is None else min(best, penalty)
    return best


def best_pairs_penalty(playing, bye, standings, rounds):
    """The least penalty (pairs_penalty) of any way to match the pairs ``playing``."""
    return min(pairs_penalty(PairsRound(tuple(Match(a, b) for a, b in matches), bye), standings, rounds)
               for matches in all_pairings(sorted(playing)))


def largest_matching(size, edges):
    """The size of a maximum matching of the graph on 0..size-1 (``edges``: pairs), by trying
    every choice for the lowest vertex left (2^size states at most)."""
    adjacent = {v: {w for e in edges for w in e if v in e and w != v} for v in range(size)}

    @lru_cache(maxsize=None)
    def best(left):
        if not left:
            return 0
        vertex = min(left)
        rest = left - {vertex}
        return max([best(rest)] + [1 + best(rest - {w}) for w in adjacent[vertex] & rest])

    return best(frozenset(range(size)))


def random_graph(rng, size, density):
    """Random edges on 0..size-1, each present with probability ``density``."""
    return [(a, b) for a, b in combinations(range(size), 2) if rng.random() < density]
