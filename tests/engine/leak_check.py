"""One leak check for the compiled engine: reference counts and traced memory over many calls."""

from __future__ import annotations

import gc
import sys
import tracemalloc
from collections.abc import Callable


def assert_no_leak(work: Callable[[], None], shared: list, wandering: int, repeats: int) -> None:
    """Run ``work`` ``repeats`` times after a warm-up: the reference counts of ``shared`` and
    the traced memory must not grow.

    The first ``wandering`` objects of ``shared`` (None, True, ...) are referred to from
    everywhere, so their counts wander by a few; a leak (or a reference too few) in any
    call would move them by thousands. The others' counts must come back exactly.
    """
    work()  # warm up: caches, interned ints
    gc.collect()
    counts = [sys.getrefcount(x) for x in shared]
    tracemalloc.start()
    try:
        work()
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(repeats):
            work()
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    after = [sys.getrefcount(x) for x in shared]
    assert all(abs(a - b) < 50 for a, b in zip(after[:wandering], counts[:wandering]))
    assert after[wandering:] == counts[wandering:]
    assert grown < 10_000, f"{grown} bytes kept after {repeats} rounds of calls"
