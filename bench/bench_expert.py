"""Benchmark: `expert` against `basic`, partners against partners, over complete games.

Reports expert's win rate (target: at least 75%), the average point difference
per round (expert's team minus basic's) with a 95% confidence interval, the
success rates of both sides' Tichu and Grand Tichu calls (target for expert's
Tichu calls: at least 70%), and expert's time per decision (median, p99).
The sides swap seats every game.  The search is budgeted in playouts, so a
seed gives the same games on any machine; only the times differ.

    python bench/bench_expert.py --games 200                   # the default budget (1000)
    python bench/bench_expert.py --games 1000 --budget 40      # a big sample, a small budget
    python bench/bench_expert.py --bsw ../shared/bsw-logs      # BSW players' call success, for reference

Long runs: start them with nohup and poll the output file.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

from bench_bots import TimedBot, percentile

from bswtichu.bots import BotSettings, make_bot
from bswtichu.engine import GameOptions, Round
from bswtichu.engine.events import RoundEnded
from bswtichu.play import GameSeeds, headless_driver


class CpuTimedBot(TimedBot):
    """Also records the processor time of each decision: on a busy machine wall time overstates it."""

    def __init__(self, inner, choose_times, interrupt_times, cpu_times):
        super().__init__(inner, choose_times, interrupt_times)
        self.cpu_times = cpu_times

    def choose(self, view, legal):
        start = time.process_time()
        action = super().choose(view, legal)
        self.cpu_times.append(time.process_time() - start)
        return action


class RoundLedger:
    """A subscriber that notes each round's point difference and the calls, from expert's side."""

    def __init__(self, expert_players: set[int]):
        self.expert_players = expert_players
        self.diffs: list[int] = []
        self.calls = {side: {"tichu": [0, 0], "grand": [0, 0]} for side in ("expert", "basic")}

    def round_dealt(self, driver) -> None:
        pass

    def happened(self, driver, events) -> None:
        seating = driver.game.seating
        for event in events:
            if not isinstance(event, RoundEnded):
                continue
            result = event.result
            expert_team = next(s % 2 for s, p in enumerate(seating) if p in self.expert_players)
            self.diffs.append(result.score[expert_team] - result.score[1 - expert_team])
            for seat, call in enumerate(result.calls):
                if call:
                    side = "expert" if seating[seat] in self.expert_players else "basic"
                    tally = self.calls[side][call]
                    tally[0] += 1
                    tally[1] += result.finish_order[0] == seat


def play_one(task: tuple) -> tuple:
    """One game; returns (outcome for expert, rounds, point differences, calls, decision times)."""
    seed, number, budget = task
    expert_players = {0, 2} if number % 2 == 0 else {1, 3}
    seeds = GameSeeds.from_seed(f"{seed}/{number}")
    choose_times: list[float] = []
    interrupt_times: list[float] = []
    cpu_times: list[float] = []
    bots = []
    for player in range(4):
        level = "expert" if player in expert_players else "basic"
        bot = make_bot(level, player, seeds.seats[player], BotSettings(expert_budget=budget))
        bots.append(CpuTimedBot(bot, choose_times, interrupt_times, cpu_times) if level == "expert" else bot)
    driver, clock = headless_driver(bots, GameOptions(), seeds)
    ledger = RoundLedger(expert_players)
    driver.subscribe(ledger)
    driver.start()
    clock.advance(0)
    game = driver.game
    if not game.over:
        outcome = "unfinished"
    elif not game.winners():
        outcome = "draw"
    else:
        outcome = "win" if set(game.winners()) <= expert_players else "loss"
    return outcome, len(game.rounds), ledger.diffs, ledger.calls, choose_times, interrupt_times, cpu_times


def rate(made: int, called: int) -> str:
    return f"{made} / {called}" + (f" ({100 * made / called:.0f}%)" if called else "")


def bsw_reference(folder: str) -> None:
    """Tichu and Grand Tichu success of the people in real BSW logs (replayed by the engine)."""
    from bswtichu.tch.reader import read_tch_file
    from bswtichu.tch.replay import deal_of, replay_round
    tallies = {"tichu": [0, 0], "grand": [0, 0]}
    rounds = 0
    for path in sorted(Path(folder).glob("*.tch")):
        for number, rlog in enumerate(read_tch_file(path).rounds, start=1):
            report = replay_round(rlog, number, str(path))
            if not (report.ok and report.complete):
                continue
            result = Round.replay(deal_of(rlog), report.actions).result
            rounds += 1
            for seat, call in enumerate(result.calls):
                if call:
                    tallies[call][0] += 1
                    tallies[call][1] += result.finish_order[0] == seat
    print(f"BSW logs in {folder}: {rounds} complete rounds")
    print(f"  Tichu made / called        {rate(tallies['tichu'][1], tallies['tichu'][0])}")
    print(f"  Grand Tichu made / called  {rate(tallies['grand'][1], tallies['grand'][0])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=BotSettings().expert_budget,
                        help="expert's playouts per decision (default: the configured default)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--report-every", type=int, default=100, metavar="N",
                        help="also print the figures so far after every N games")
    parser.add_argument("--bsw", metavar="FOLDER", help="only measure the call success in these BSW logs")
    args = parser.parse_args()
    if args.bsw:
        bsw_reference(args.bsw)
        return
    tasks = [(args.seed, number, args.budget) for number in range(args.games)]
    started = time.perf_counter()
    results = []
    with Pool(args.workers) as pool:
        for done, result in enumerate(pool.imap_unordered(play_one, tasks), start=1):
            results.append(result)
            print(f"\r{done}/{args.games} games", end="", file=sys.stderr, flush=True)
            if done % args.report_every == 0 and done < args.games:
                print(f"-- after {done} games (in the order they finished):")
                summarise(results, args, time.perf_counter() - started)
    print(file=sys.stderr)
    summarise(results, args, time.perf_counter() - started)


def summarise(results: list, args: argparse.Namespace, wall: float) -> None:
    games = len(results)
    outcomes = [r[0] for r in results]
    rounds = sum(r[1] for r in results)
    diffs = [d for r in results for d in r[2]]
    calls = {side: {kind: [sum(r[3][side][kind][i] for r in results) for i in (0, 1)]
                    for kind in ("tichu", "grand")} for side in ("expert", "basic")}
    chooses = sorted(t for r in results for t in r[4])
    interrupts = sorted(t for r in results for t in r[5])
    cpu = sorted(t for r in results for t in r[6])
    wins = outcomes.count("win")
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    print(f"expert (budget {args.budget} playouts) vs basic: {games} games to 1000 points, "
          f"seed {args.seed}, {args.workers} worker(s)")
    print(f"  expert won {wins} ({100 * wins / games:.1f}%), lost {outcomes.count('loss')}, "
          f"draws {outcomes.count('draw')}, unfinished {outcomes.count('unfinished')}")
    print(f"  points per round, expert minus basic: {mean:+.1f} ± {half:.1f} (95% CI, {len(diffs)} rounds)")
    for side in ("expert", "basic"):
        print(f"  {side:6} Tichu made / called {rate(calls[side]['tichu'][1], calls[side]['tichu'][0]):>16}"
              f"   Grand Tichu {rate(calls[side]['grand'][1], calls[side]['grand'][0])}")
    print(f"  {rounds} rounds ({rounds / games:.1f} per game) in {wall:.0f} s: "
          f"{games / wall:.3f} games/s")
    print(f"  expert decisions (choose): {len(chooses)}, median {1000 * statistics.median(chooses):.1f} ms, "
          f"p99 {1000 * percentile(chooses, 0.99):.0f} ms, max {1000 * chooses[-1]:.0f} ms; processor time:"
          f" median {1000 * statistics.median(cpu):.1f} ms, p99 {1000 * percentile(cpu, 0.99):.0f} ms,"
          f" max {1000 * cpu[-1]:.0f} ms")
    print(f"  out-of-turn offers (interrupt): {len(interrupts)}, "
          f"median {1000 * statistics.median(interrupts):.3f} ms, "
          f"p99 {1000 * percentile(interrupts, 0.99):.1f} ms, max {1000 * interrupts[-1]:.0f} ms",
          flush=True)


if __name__ == "__main__":
    main()
