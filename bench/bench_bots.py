"""Benchmark: `basic` against `random` over many complete games.

Measures basic's win rate (target: at least 90%) and the time basic takes per
decision (target: p99 under 20 ms).  A decision is one call of ``choose``
(the round waits for the bot); the much more frequent out-of-turn offers
(``interrupt``) are timed separately.  Games are split over worker processes;
the sides swap seats every game, as in ``bswtichu match``.

    python bench/bench_bots.py                 # 1000 games to 1000 points
    python bench/bench_bots.py --games 200 --workers 1
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from multiprocessing import Pool

from bswtichu.bots import Bot, make_bot
from bswtichu.engine import GameOptions
from bswtichu.play import GameSeeds, run_game


class TimedBot(Bot):
    """Passes everything to a bot and records how long its decisions take."""

    def __init__(self, inner: Bot, choose_times: list, interrupt_times: list):
        super().__init__(inner.seat, inner.rng)
        self.inner, self.level = inner, inner.level
        self.choose_times, self.interrupt_times = choose_times, interrupt_times

    def begin_round(self, seat):
        super().begin_round(seat)
        self.inner.begin_round(seat)

    def observe(self, event):
        self.inner.observe(event)

    def choose(self, view, legal):
        start = time.perf_counter()
        action = self.inner.choose(view, legal)
        self.choose_times.append(time.perf_counter() - start)
        return action

    def interrupt(self, view, legal):
        start = time.perf_counter()
        action = self.inner.interrupt(view, legal)
        self.interrupt_times.append(time.perf_counter() - start)
        return action


def play_one(task: tuple[int, int, int | None]) -> tuple[str, int, list, list]:
    """One game; returns the outcome for basic ("win", "loss", "draw", "unfinished"), rounds, times."""
    seed, number, round_limit = task
    basic_seats = (0, 2) if number % 2 == 0 else (1, 3)
    seeds = GameSeeds.from_seed(f"{seed}/{number}")
    choose_times: list[float] = []
    interrupt_times: list[float] = []
    bots = []
    for seat in range(4):
        level = "basic" if seat in basic_seats else "random"
        bot = make_bot(level, seat, seeds.seats[seat])
        bots.append(TimedBot(bot, choose_times, interrupt_times) if level == "basic" else bot)
    summary = run_game(bots, GameOptions(round_limit=round_limit), seeds)
    if not summary.finished:
        outcome = "unfinished"
    elif not summary.winners:
        outcome = "draw"
    else:
        outcome = "win" if set(summary.winners) == set(basic_seats) else "loss"
    return outcome, summary.rounds, choose_times, interrupt_times


def percentile(sorted_values: list[float], share: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * share))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=None, help="round limit per game (default: play to 1000)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    tasks = [(args.seed, number, args.rounds) for number in range(args.games)]
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        results = pool.map(play_one, tasks, chunksize=max(1, args.games // (args.workers * 8)))
    wall = time.perf_counter() - started
    outcomes = [r[0] for r in results]
    rounds = sum(r[1] for r in results)
    chooses = sorted(t for r in results for t in r[2])
    interrupts = sorted(t for r in results for t in r[3])
    wins = outcomes.count("win")
    print(f"basic vs random: {args.games} games "
          f"({'to 1000 points' if args.rounds is None else f'at most {args.rounds} rounds'}), "
          f"seed {args.seed}, {args.workers} worker(s)")
    print(f"  basic won {wins} ({100 * wins / args.games:.1f}%), lost {outcomes.count('loss')}, "
          f"draws {outcomes.count('draw')}, unfinished {outcomes.count('unfinished')}")
    print(f"  {rounds} rounds ({rounds / args.games:.1f} per game) in {wall:.1f} s: "
          f"{args.games / wall:.2f} games/s")
    print(f"  basic decisions (choose): {len(chooses)}, median {1000 * statistics.median(chooses):.3f} ms, "
          f"p99 {1000 * percentile(chooses, 0.99):.2f} ms, max {1000 * chooses[-1]:.1f} ms")
    print(f"  out-of-turn offers (interrupt): {len(interrupts)}, "
          f"median {1000 * statistics.median(interrupts):.3f} ms, "
          f"p99 {1000 * percentile(interrupts, 0.99):.3f} ms")


if __name__ == "__main__":
    main()
