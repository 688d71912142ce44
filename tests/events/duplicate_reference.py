"""An independent computation of duplicate match points, for the tests: every pair of tables
compared one by one from the raw points, with no shared helper of the module under test."""

from __future__ import annotations

from fractions import Fraction


def reference_match_points(tables: list[tuple[str, str, tuple[int, int]]],
                           all_tables: int | None = None) -> dict[str, Fraction]:
    """Match points on one deal: ``tables`` is (N/S pair, E/W pair, (N/S points, E/W points))
    for each table that played it; ``all_tables`` the round's tables (default: those)."""
    count = len(tables)
    full = count if all_tables is None else all_tables
    out: dict[str, Fraction] = {}
    for i, (north_south, east_west, (ns_points, ew_points)) in enumerate(tables):
        ns_total = ew_total = 0
        for j, (_, _, (other_ns, other_ew)) in enumerate(tables):
            if i == j:
                continue
            mine, theirs = ns_points - ew_points, other_ns - other_ew
            ns_total += 1 + (mine > theirs) - (mine < theirs)
            ew_total += 1 + (-mine > -theirs) - (-mine < -theirs)
        for pair, total in ((north_south, ns_total), (east_west, ew_total)):
            # Neuberg: the n - 1 comparisons made stand for the full - 1 that should have been
            out[pair] = Fraction(full, count) * (total + 1) - 1
    return out
