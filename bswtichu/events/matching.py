"""Maximum matching in a general graph (Edmonds' blossom algorithm).

The pairing asks "how many people can get a partner (or an opponent) they have not had
before?": a maximum matching in the graph of the pairs still allowed. A graph of people is
not bipartite, so augmenting paths must shrink odd cycles (blossoms). O(V³) for V
vertices: about a millisecond for the 64 players of a large evening.
"""

from __future__ import annotations

from collections.abc import Sequence

#: ``matched[v]`` when v has no partner
UNMATCHED = -1


class _Search:
    """One search for an augmenting path from ``root``, over the current matching."""

    def __init__(self, neighbours: Sequence[Sequence[int]], matched: list[int], root: int) -> None:
        size = len(neighbours)
        self.neighbours = neighbours
        self.matched = matched
        self.root = root
        self.parent = [UNMATCHED] * size
        self.base = list(range(size))
        self.reached = [False] * size
        self.reached[root] = True
        self.queue = [root]

    def free_end(self) -> int:
        """An unmatched vertex at the end of an augmenting path from the root, or UNMATCHED."""
        head = 0
        while head < len(self.queue):
            vertex = self.queue[head]
            head += 1
            for other in self.neighbours[vertex]:
                if self.base[vertex] == self.base[other] or self.matched[vertex] == other:
                    continue
                if other == self.root or (self.matched[other] != UNMATCHED
                                          and self.parent[self.matched[other]] != UNMATCHED):
                    self._shrink(vertex, other)
                elif self.parent[other] == UNMATCHED:
                    self.parent[other] = vertex
                    if self.matched[other] == UNMATCHED:
                        return other
                    self.reached[self.matched[other]] = True
                    self.queue.append(self.matched[other])
        return UNMATCHED

    def _common_base(self, first: int, second: int) -> int:
        """The base of the blossom closed by the edge first-second (their lowest common ancestor)."""
        on_path = [False] * len(self.base)
        while True:
            first = self.base[first]
            on_path[first] = True
            if self.matched[first] == UNMATCHED:
                break
            first = self.parent[self.matched[first]]
        while True:
            second = self.base[second]
            if on_path[second]:
                return second
            second = self.parent[self.matched[second]]

    def _mark(self, vertex: int, blossom_base: int, child: int, in_blossom: list[bool]) -> None:
        """Mark the blossom's vertices from ``vertex`` down to its base, re-parenting them."""
        while self.base[vertex] != blossom_base:
            in_blossom[self.base[vertex]] = in_blossom[self.base[self.matched[vertex]]] = True
            self.parent[vertex] = child
            child = self.matched[vertex]
            vertex = self.parent[self.matched[vertex]]

    def _shrink(self, vertex: int, other: int) -> None:
        """Contract the odd cycle closed by vertex-other into one vertex (its base)."""
        blossom_base = self._common_base(vertex, other)
        in_blossom = [False] * len(self.base)
        self._mark(vertex, blossom_base, other, in_blossom)
        self._mark(other, blossom_base, vertex, in_blossom)
        for member in range(len(self.base)):
            if in_blossom[self.base[member]]:
                self.base[member] = blossom_base
                if not self.reached[member]:
                    self.reached[member] = True
                    self.queue.append(member)

    def augment(self, end: int) -> None:
        """Flip the matching along the path from ``end`` back to the root."""
        while end != UNMATCHED:
            previous = self.parent[end]
            further = self.matched[previous]
            self.matched[end] = previous
            self.matched[previous] = end
            end = further


def maximum_matching(neighbours: Sequence[Sequence[int]], matched: Sequence[int]) -> list[int]:
    """A maximum matching of the graph (``neighbours[v]``: v's neighbours), grown from
    ``matched`` (``matched[v]``: v's partner or UNMATCHED), which it keeps where it can:
    an augmenting path only re-pairs the vertices along it, and never unmatches one."""
    result = list(matched)
    for root in range(len(neighbours)):
        if result[root] == UNMATCHED:
            search = _Search(neighbours, result, root)
            end = search.free_end()
            if end != UNMATCHED:
                search.augment(end)
    return result
