"""The blossom matching is maximum: against a brute force on random graphs, odd cycles included."""

from random import Random

from hypothesis import given, settings, strategies as st

from bswtichu.events.matching import UNMATCHED, maximum_matching

from pairing_reference import largest_matching, random_graph


def neighbours_of(size, edges):
    out = [[] for _ in range(size)]
    for a, b in edges:
        out[a].append(b)
        out[b].append(a)
    return out


def check_matching(size, edges, matched):
    """A valid matching along edges: symmetric, each vertex at most once."""
    allowed = {frozenset(e) for e in edges}
    for v, w in enumerate(matched):
        if w != UNMATCHED:
            assert matched[w] == v
            assert frozenset((v, w)) in allowed


@settings(max_examples=300)
@given(st.integers(0, 2 ** 32 - 1), st.integers(1, 14), st.floats(0.05, 0.9))
def test_the_matching_is_as_large_as_any(seed, size, density):
    rng = Random(seed)
    edges = random_graph(rng, size, density)
    neighbours = neighbours_of(size, edges)
    start = [UNMATCHED] * size
    for a, b in edges:  # a random greedy start, which the search must grow to a maximum
        if start[a] == UNMATCHED and start[b] == UNMATCHED and rng.random() < 0.5:
            start[a], start[b] = b, a
    matched = maximum_matching(neighbours, start)
    check_matching(size, edges, matched)
    assert sum(w != UNMATCHED for w in matched) // 2 == largest_matching(size, edges)
    assert all(matched[v] != UNMATCHED for v in range(size) if start[v] != UNMATCHED), "a vertex lost its partner"


def test_a_blossom_is_shrunk_to_find_the_path():
    """A triangle 0-1-2 whose edge 1-2 is matched, 3 hanging from 1: searching from 0, 2 is
    reached through its partner 1 after 1 through 0, an odd cycle; only once it is shrunk
    is 1 a vertex the path may leave from, to 3."""
    edges = [(0, 1), (0, 2), (1, 2), (1, 3)]
    start = [UNMATCHED, 2, 1, UNMATCHED]
    matched = maximum_matching(neighbours_of(4, edges), start)
    assert matched == [2, 3, 0, 1]
