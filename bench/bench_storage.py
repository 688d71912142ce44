"""Benchmark: the cost of durability, game actions per second with and without storage.

50 tables of four bots run at once on one clock (as on one reactor thread),
each game journaled into SQLite the way the server does it (one committed
INSERT per step, before anyone is told), or not at all.  Every mode plays the
same games (the same seeds); the modes alternate and each is timed several
times, the best time counts.

    python bench/bench_storage.py                       # 50 tables of basic bots, 2 rounds each
    python bench/bench_storage.py --level random        # cheap bots: the worst case for the ratio
    python bench/bench_storage.py --tables 50 --rounds 1 --repeat 3
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from twisted.internet.task import Clock

from bswtichu.engine import GameOptions
from bswtichu.play import GameDriver, GameSeeds, seated_bots
from bswtichu.server.games.durable import DurableGame
from bswtichu.storage import Storage

PLAYERS = ("bot-a", "bot-b", "bot-c", "bot-d")
MODES = ("none", "memory", "wal-normal", "wal-full")


def run(mode: str, tables: int, rounds: int, level: str, folder: Path) -> tuple[int, float, int]:
    """Play ``tables`` games at once; returns (actions, seconds, journal rows)."""
    storage = None
    if mode == "memory":
        storage = Storage.open()
    elif mode.startswith("wal-"):
        path = folder / f"{mode}-{time.monotonic_ns()}.sqlite3"
        storage = Storage.open(str(path), synchronous=mode.split("-")[1])
    clock = Clock()
    options = GameOptions(round_limit=rounds)
    levels = {p: level for p in PLAYERS}
    drivers = []
    for number in range(tables):
        seeds = GameSeeds.from_seed(f"bench/{number}")
        driver = GameDriver(PLAYERS, options, seeds, seated_bots(PLAYERS, options, levels, seeds), clock)
        if storage is not None:
            game_id = storage.games.begin(number + 1, number + 1, f"bench/{number}", options.as_data(), PLAYERS, {})
            driver.subscribe(DurableGame(storage, game_id, PLAYERS, levels, False))
        drivers.append(driver)
    start = time.perf_counter()
    for driver in drivers:
        driver.start()
    while not all(d.finished for d in drivers):
        clock.advance(0)
    seconds = time.perf_counter() - start
    actions = sum(len(r.history) for d in drivers for r in d.game.rounds)
    rows = storage.games.writes if storage is not None else 0
    if storage is not None:
        storage.close()
    return actions, seconds, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--level", default="basic")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--modes", default=",".join(MODES))
    args = parser.parse_args()
    modes = args.modes.split(",")
    best: dict[str, tuple[int, float, int]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.repeat):
            for mode in modes:
                result = run(mode, args.tables, args.rounds, args.level, Path(folder))
                if mode not in best or result[1] < best[mode][1]:
                    best[mode] = result
    base_rate = best[modes[0]][0] / best[modes[0]][1]
    print(f"{args.tables} tables of {args.level} bots, {args.rounds} round(s) each, best of {args.repeat}:")
    for mode in modes:
        actions, seconds, rows = best[mode]
        rate = actions / seconds
        print(f"  {mode:11s} {actions:6d} actions in {seconds:6.2f} s = {rate:8.0f} actions/s"
              f" ({rows} rows written; {rate / base_rate:6.1%} of {modes[0]})")


if __name__ == "__main__":
    main()
