"""Replay speed of game logs: `.tch` against our variant log (`.tvl`), in rounds per second.

Bots play headless games (the same seeds for every format); each game is written
as a file, and `bswtichu replay`'s `replay_file` (reading, parsing, the engine's
check) is timed over all of them, best of ``--repeat``.  The 4-player games are
written both ways, so the two formats are compared on the very same rounds; the
Tientsin and Trichu games show the variant log on its own variants.

    python bench/bench_replay.py [--games 30] [--repeat 3]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from twisted.internet.task import Clock

from bswtichu.engine import NANJING, TIENTSIN, TRICHU, GameOptions
from bswtichu.play.driver import GameDriver, GameSeeds, seated_bots
from bswtichu.tch import write_tch
from bswtichu.tch.record import game_log
from bswtichu.tch.replay import replay_file
from bswtichu.tch.variant_record import VariantLogWriter

NAMES = ("Ann", "Bob", "Cy", "Dan", "Eve", "Fay")


def played(variant, seed: int):
    seeds = GameSeeds.from_seed(seed, variant.seats)
    players = NAMES[:variant.players]
    bots = seated_bots(players, GameOptions(), {p: "basic" for p in players}, seeds, variant=variant)
    clock = Clock()
    driver = GameDriver(players, GameOptions(), seeds, bots, clock, max_rounds=40, variant=variant)
    driver.start()
    clock.advance(0)
    return driver.game


def timed(files: list[Path], repeat: int) -> tuple[int, float, int]:
    """Rounds replayed, the best time for all files, and their bytes."""
    best = float("inf")
    rounds = 0
    for _ in range(repeat):
        start = time.perf_counter()
        reports = [r for f in files for r in replay_file(f)]
        best = min(best, time.perf_counter() - start)
        assert all(r.ok for r in reports), [r.error for r in reports if not r.ok][:3]
        rounds = len(reports)
    return rounds, best, sum(f.stat().st_size for f in files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        sets: dict[str, list[Path]] = {"nanjing .tch": [], "nanjing .tvl": [], "tientsin .tvl": [],
                                       "trichu .tvl": []}
        for number in range(args.games):
            game = played(NANJING, number)
            finished = list(zip(game.rounds, game.seatings))
            path = folder / f"nanjing-{number}.tch"
            path.write_text(write_tch(game_log(finished)), encoding="utf-8")
            sets["nanjing .tch"].append(path)
            for variant in (NANJING, TIENTSIN, TRICHU):
                game = played(variant, number) if variant is not NANJING else game
                path = folder / f"{variant.name}-{number}.tvl"
                path.write_text(VariantLogWriter().text(game), encoding="utf-8")
                sets[f"{variant.name} .tvl"].append(path)
        print(f"{'logs':14} {'rounds':>7} {'KiB/round':>10} {'rounds/s':>9}")
        for label, files in sets.items():
            rounds, seconds, size = timed(files, args.repeat)
            print(f"{label:14} {rounds:7d} {size / rounds / 1024:10.2f} {rounds / seconds:9.0f}")


if __name__ == "__main__":
    main()
