"""Benchmark (not a test): the bot levels in every variant.

Two measurements, each over games of ``--rounds`` rounds (default 9, Trichu's
game; a multiple of 3 so that every Trichu person deals equally often):

``check``: for every variant and level, games with that level in every seat
until ``--check-rounds`` rounds (default 1000) have been played; counts the
rounds, the illegal bot actions (the driver logs each as an error) and any
other error logged or raised (an engine error).

``match``: ``expert`` against ``basic`` in every variant, sides swapping seats
every game as in ``bswtichu match`` (Trichu: the expert is one person, a
different one each game; each dummy plays its dealer's level).  Reports the
expert's share of the games won and, per round, the expert side's points per
player, and its points minus the basic side's, each with a 95% confidence
interval (normal approximation over rounds; the win share's over games).

Games are split over ``--workers`` processes.

    python bench/bench_variants.py check --workers 2 --budget 20
    python bench/bench_variants.py match --games 40 --workers 2 --variants trichu tientsin
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from multiprocessing import Pool

from twisted.logger import LogLevel, globalLogPublisher

from bswtichu.bots import LEVELS, BotSettings
from bswtichu.engine import DUMMY, GameOptions, VARIANTS, variant_named
from bswtichu.engine.events import RoundEnded
from bswtichu.play import GameSeeds, headless_driver
from bswtichu.play.driver import seated_bots
from bswtichu.play.match import sides_in_game


class ErrorCount:
    """A log observer counting error and critical events (an illegal bot action is one)."""

    def __init__(self) -> None:
        self.count = 0
        self.first: str | None = None

    def __call__(self, event: dict) -> None:
        if event.get("log_level") in (LogLevel.error, LogLevel.critical) or "log_failure" in event:
            self.count += 1
            if self.first is None:
                self.first = str(event.get("log_format", event))


ERRORS = ErrorCount()


def _start_worker() -> None:
    globalLogPublisher.addObserver(ERRORS)


class RoundPoints:
    """A subscriber noting, per round, the mean score per player of each side."""

    def __init__(self, side_of_player: tuple[int, ...]):
        self.side_of_player = side_of_player
        self.rounds: list[tuple[float, float]] = []

    def round_dealt(self, driver) -> None:
        pass

    def happened(self, driver, events) -> None:
        for event in events:
            if isinstance(event, RoundEnded):
                teams = driver.game.variant.teams
                points: tuple[list, list] = ([], [])
                for seat, player in enumerate(driver.game.seating):
                    if player is not DUMMY:
                        points[self.side_of_player[player]].append(event.result.score[teams[seat]])
                self.rounds.append(tuple(sum(p) / len(p) if p else 0.0 for p in points))


def play_one(task: tuple) -> dict:
    """One game: its rounds, the side that won (0, 1, None for a draw), the points per round, the errors."""
    variant_name, levels, side_of_player, rounds, seed, budget = task
    variant = variant_named(variant_name)
    options = GameOptions(round_limit=rounds)
    seeds = GameSeeds.from_seed(seed, variant.seats)
    players = tuple(range(variant.players))
    before = ERRORS.count
    ledger = RoundPoints(side_of_player)
    try:
        bots = seated_bots(players, options, dict(enumerate(levels)), seeds, BotSettings(expert_budget=budget),
                           variant)
        driver, clock = headless_driver([bots[p] for p in players], options, seeds, rounds, variant)
        driver.subscribe(ledger)
        driver.start()
        clock.advance(0)
        game = driver.game
        winning = {side_of_player[p] for p in game.winners()}
        winner = winning.pop() if len(winning) == 1 else None
        raised = None
    except Exception as error:  # an engine error: counted, the game is lost for the figures
        winner, raised = None, f"{type(error).__name__}: {error}"
    return {"rounds": ledger.rounds, "winner": winner, "errors": ERRORS.count - before,
            "first_error": ERRORS.first, "raised": raised}


def run(tasks: list[tuple], workers: int) -> tuple[list[dict], float]:
    started = time.perf_counter()
    results = []
    with Pool(workers, initializer=_start_worker) as pool:
        for done, result in enumerate(pool.imap_unordered(play_one, tasks), start=1):
            results.append(result)
            print(f"\r{done}/{len(tasks)} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return results, time.perf_counter() - started


def check(args: argparse.Namespace) -> None:
    games = math.ceil(args.check_rounds / args.rounds)
    for name in args.variants:
        variant = variant_named(name)
        for level in args.levels:
            tasks = [(name, [level] * variant.players, (0,) * variant.players, args.rounds,
                      f"{args.seed}/{name}/{level}/{n}", args.budget) for n in range(games)]
            results, wall = run(tasks, args.workers)
            rounds = sum(len(r["rounds"]) for r in results)
            errors = sum(r["errors"] for r in results)
            raised = [r["raised"] for r in results if r["raised"]]
            first = next((r["first_error"] for r in results if r["first_error"]), None)
            budget = f" (budget {args.budget})" if level == "expert" else ""
            print(f"{variant.title:<9} {level:<7}{budget:<13} {games} games, {rounds} rounds: "
                  f"{errors} errors logged (illegal bot actions), {len(raised)} raised; {wall:.0f} s"
                  + (f"; first: {first or raised[0]}" if errors or raised else ""), flush=True)


def interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:+.1f} ± {half:.1f}"


def match(args: argparse.Namespace) -> None:
    for name in args.variants:
        variant = variant_named(name)
        tasks = []
        for n in range(args.games):
            sides = sides_in_game(variant, n)
            tasks.append((name, ["expert" if side == 0 else "basic" for side in sides], sides, args.rounds,
                          f"{args.seed}/{name}/{n}", args.budget))
        results, wall = run(tasks, args.workers)
        games = len(results)
        wins = sum(r["winner"] == 0 for r in results)
        draws = sum(r["winner"] is None for r in results)
        share = wins / games
        half = 1.96 * math.sqrt(share * (1 - share) / games)
        rounds = [points for r in results for points in r["rounds"]]
        errors = sum(r["errors"] for r in results) + sum(bool(r["raised"]) for r in results)
        fair = 1 / variant.players if variant.per_player_scores else 0.5
        print(f"{variant.title}: expert (budget {args.budget}) vs basic, {games} games of {args.rounds} rounds,"
              f" seed {args.seed}, {args.workers} worker(s), {wall:.0f} s")
        print(f"  expert won {wins} ({100 * share:.1f}% ± {100 * half:.1f}; an even share is"
              f" {100 * fair:.0f}%), draws {draws}; errors {errors}")
        print(f"  points per round and player ({len(rounds)} rounds): expert {interval([e for e, _ in rounds])},"
              f" basic {interval([b for _, b in rounds])}, expert minus basic {interval([e - b for e, b in rounds])}",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("check", "match"))
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    parser.add_argument("--levels", nargs="+", default=list(LEVELS), choices=list(LEVELS),
                        help="check: the levels (default all)")
    parser.add_argument("--rounds", type=int, default=9, help="rounds per game (default 9)")
    parser.add_argument("--check-rounds", type=int, default=1000, help="check: rounds per variant and level")
    parser.add_argument("--games", type=int, default=40, help="match: games per variant (default 40)")
    parser.add_argument("--budget", type=int, default=BotSettings().expert_budget,
                        help="expert's playouts per decision (default: the configured default)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.rounds % 3:
        parser.error("--rounds must be a multiple of 3 (Trichu)")
    (check if args.what == "check" else match)(args)


if __name__ == "__main__":
    main()
