"""Engine benchmark (not a test): classifications, legal-play enumerations and random rounds per second.

Run:  python bench/bench_engine.py [--seconds 3] [--seed 1]
      python bench/bench_engine.py --against ../old-checkout [--rounds 7]
      python bench/bench_engine.py --profile   (where a random round's time goes)
      BSWTICHU_PURE=1 python bench/bench_engine.py ...   (without the compiled parts)

Alone, each figure is measured in one process for about ``--seconds``.
Inputs are drawn before timing starts, so the figures measure the engine alone.

``--profile`` splits the time of the random rounds: the setup phases, then
per play-phase action the actions applied alone, with the four seats' legal
lists, and the benchmark's whole loop; then cProfile's top functions.

``--against DIR`` compares with the engine of another checkout (say a git
worktree of main) side by side in this one process: that checkout's
``bswtichu/engine`` is copied into a temporary folder and imported under
another name (the engine imports only itself), both engines get the same
inputs, and the workloads alternate between them ``--rounds`` times.  Each
figure is the best of those rounds in CPU time, so a busy machine slows both
alike; the last column is the ratio this checkout / the other.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import pstats
import random
import shutil
import sys
import tempfile
import time
import tracemalloc
from itertools import combinations
from pathlib import Path

import bswtichu.engine as this_engine


def rate(label: str, work, count: int, seconds: float) -> float:
    """Call ``work`` (a batch of ``count`` operations) for about ``seconds``; print and return ops/s."""
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        work()
        done += count
    elapsed = time.perf_counter() - start
    per_second = done / elapsed
    print(f"{label:<48} {per_second:>10,.0f} /s   ({done:,} in {elapsed:.2f} s)")
    return per_second


def is_legal_on(engine, cards, top) -> bool:
    """One legal-play query: do these cards form a combination that beats ``top``?"""
    options = engine.readings(cards)
    return bool(options) and options[0].played_over(top).beats(top)


def random_round(engine, rng: random.Random) -> int:
    """One round where every seat picks uniformly among its legal actions; returns the action count.

    All four seats' legal actions are listed at every step, as a simulating bot would.
    """
    rnd = engine.Round.deal_random(rng)
    actions = 0
    while rnd.phase != engine.OVER:
        options = []
        for seat in range(4):
            if rnd.phase == "exchange":
                if rnd.exchanges[seat] is None:  # a uniform trio, without listing all 2,184
                    hand = sorted(rnd.hands[seat], key=lambda c: c.index)
                    options.append(engine.Exchange(seat, tuple(rng.sample(hand, 3))))
                continue
            options.extend(rnd.iter_legal_actions(seat))
        rnd.apply(rng.choice(options))
        actions += 1
    return actions


def halfway_rounds(engine, count: int, seed: int) -> list:
    """Rounds played at random up to about half their actions (for copy and memory figures)."""
    out = []
    for i in range(count):
        rng = random.Random(seed + i)
        rnd = engine.Round.deal_random(rng)
        while rnd.phase != engine.OVER and len(rnd.history) < 55:
            options = [a for s in range(4) for a in (
                rnd.iter_legal_actions(s) if rnd.phase != "exchange" else
                ([engine.Exchange(s, tuple(rng.sample(sorted(rnd.hands[s], key=lambda c: c.index), 3)))]
                 if rnd.exchanges[s] is None else []))]
            rnd.apply(rng.choice(options))
        out.append(rnd)
    return out


def workloads(engine, seed: int, size: int = 2000) -> list[tuple[str, object, int]]:
    """The benchmark's workloads on ``engine``: (label, a function doing one batch, batch size)."""
    rng = random.Random(seed)
    deck, plays, readings = engine.DECK, engine.plays, engine.readings
    hands = [rng.sample(deck, 14) for _ in range(size)]
    subsets = [rng.sample(hand, rng.randint(1, 8)) for hand in hands]
    valid = [s for s in subsets if readings(s)]
    tops = []
    for hand in hands[:size // 4]:
        others = [c for c in deck if c not in hand]
        options = [c for c in plays(rng.sample(others, 14)) if c.type.value != "dog"]
        tops.append((hand, rng.choice(options)))
    queries = []  # half real legal plays, half random card sets of the table's size
    for hand, top in tops:
        legal = list(plays(hand, top))
        if legal:
            queries.append((list(rng.choice(legal).cards), top))
        queries.append((rng.sample(hand, min(top.length, len(hand))), top))
    round_seeds = list(range(seed, seed + 10))
    halfway = halfway_rounds(engine, 50, seed)
    return [
        ("classifications (random 1-8 card sets)", lambda: [readings(s) for s in subsets], len(subsets)),
        ("classifications (valid combinations only)", lambda: [readings(s) for s in valid], len(valid)),
        ("legal-play enumerations, leading (14 cards)",
         lambda: [sum(1 for _ in plays(h)) for h in hands], len(hands)),
        ("legal-play enumerations, following (14 cards)",
         lambda: [sum(1 for _ in plays(h, t)) for h, t in tops], len(tops)),
        ("legality checks (these cards on this table?)",
         lambda: [is_legal_on(engine, c, t) for c, t in queries], len(queries)),
        ("complete random rounds",
         lambda: [random_round(engine, random.Random(s)) for s in round_seeds], len(round_seeds)),
        ("Round.copy() halfway through a round", lambda: [r.copy() for r in halfway], len(halfway)),
    ]


def round_memory(engine, seed: int) -> tuple[float, float]:
    """Bytes held by one round's state halfway through, and by a copy of it (tracemalloc)."""
    rounds = halfway_rounds(engine, 1, seed)  # warm up: the engine's tables are built
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    rounds = halfway_rounds(engine, 20, seed)
    held = (tracemalloc.get_traced_memory()[0] - before) / len(rounds)
    middle = tracemalloc.get_traced_memory()[0]
    copies = [r.copy() for r in rounds]
    copied = (tracemalloc.get_traced_memory()[0] - middle) / len(copies)
    tracemalloc.stop()
    del rounds, copies
    return held, copied


def generator_in_use() -> str:
    """Which play generator this checkout's engine runs (docs/engine.md, "Speed")."""
    from bswtichu.engine import combos
    if getattr(combos, "ACCELERATED", False):
        return "compiled play generator"
    return "pure Python play generator"


def load_other_engine(checkout: Path):
    """The engine of another checkout, imported as a separate package (``baseline_engine``)."""
    source = checkout / "bswtichu" / "engine"
    if not (source / "__init__.py").exists():
        raise SystemExit(f"{checkout} has no bswtichu/engine package")
    folder = Path(tempfile.mkdtemp(prefix="bench-engine-"))
    shutil.copytree(source, folder / "baseline_engine")
    sys.path.insert(0, str(folder))
    return importlib.import_module("baseline_engine"), folder


def best_rates(batches: list, rounds: int, least_seconds: float = 0.05) -> list[list[float]]:
    """Run every engine's batches in turn, ``rounds`` times; the best rate of each (CPU time).

    A batch is repeated so that one timing lasts at least ``least_seconds``
    (same repeat count for every engine), which keeps short batches measurable.
    """
    repeats = []
    for _, work, _ in batches[0]:
        start = time.process_time()
        work()
        elapsed = time.process_time() - start
        repeats.append(max(1, int(least_seconds / max(elapsed, 1e-6)) + 1))
    best = [[0.0] * len(b) for b in batches]
    for _ in range(rounds):
        for i, times in enumerate(repeats):
            for e, engine_batches in enumerate(batches):
                _, work, count = engine_batches[i]
                start = time.process_time()
                for _ in range(times):
                    work()
                elapsed = time.process_time() - start
                best[e][i] = max(best[e][i], count * times / elapsed)
    return best


def compare(other_checkout: Path, seed: int, rounds: int) -> None:
    other, folder = load_other_engine(other_checkout)
    try:
        print(f"this checkout: {Path(this_engine.__file__).parent.parent.parent} ({generator_in_use()})")
        print(f"compared with: {other_checkout.resolve()} (best of {rounds} alternating rounds, CPU time)")
        batches = [workloads(this_engine, seed, 600), workloads(other, seed, 600)]
        mine, theirs = best_rates(batches, rounds)
        print(f"{'':<48} {'this':>12} {'other':>12} {'ratio':>7}")
        for (label, _, _), a, b in zip(batches[0], mine, theirs):
            print(f"{label:<48} {a:>10,.0f}/s {b:>10,.0f}/s {a / b:>7.2f}")
        for name, engine in (("this", this_engine), ("other", other)):
            held, copied = round_memory(engine, seed)
            print(f"memory of a round halfway ({name}): {held / 1024:,.1f} KiB, "
                  f"a copy of it {copied / 1024:,.1f} KiB")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def recorded_rounds(engine, seeds) -> list:
    """The deal, the setup actions and the play-phase actions of the benchmark's rounds."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        rnd = engine.Round.deal_random(rng)
        setup, play = [], []
        while rnd.phase != engine.OVER:
            options = []
            for seat in range(4):
                if rnd.phase == "exchange":
                    if rnd.exchanges[seat] is None:
                        hand = sorted(rnd.hands[seat], key=lambda c: c.index)
                        options.append(engine.Exchange(seat, tuple(rng.sample(hand, 3))))
                    continue
                options.extend(rnd.iter_legal_actions(seat))
            action = rng.choice(options)
            (play if rnd.phase == "play" else setup).append(action)
            rnd.apply(action)
        out.append((rnd.deal, setup, play))
    return out


def profile(engine, seed: int, count: int = 300) -> None:
    """Where a random round's time goes: a plain split by replaying recorded rounds, then cProfile."""
    games = recorded_rounds(engine, range(seed, seed + count))
    actions = sum(len(play) for _, _, play in games)

    def setup_only():
        for deal, setup, _ in games:
            rnd = engine.Round(deal)
            for action in setup:
                if rnd.phase == "grand":
                    for seat in range(4):
                        list(rnd.iter_legal_actions(seat))
                rnd.apply(action)

    def ready_rounds():
        rounds = []
        for deal, setup, _ in games:
            rnd = engine.Round(deal)
            for action in setup:
                rnd.apply(action)
            rounds.append(rnd)
        return rounds

    def play_applied(listing: bool):
        def run():
            for rnd, (_, _, play) in zip(ready_rounds(), games):
                for action in play:
                    if listing:
                        for seat in range(4):
                            list(rnd.iter_legal_actions(seat))
                    rnd.apply(action)
        return run

    def whole_loop():
        for s in range(seed, seed + count):
            random_round(engine, random.Random(s))

    def best(work, repeat: int = 5) -> float:
        times = []
        for _ in range(repeat):
            start = time.process_time()
            work()
            times.append(time.process_time() - start)
        return min(times)

    copies = best(ready_rounds)
    print(f"{count} rounds, {actions / count:.1f} play-phase actions each (best of 5, CPU time)")
    print(f"{'setup (deal, Grand Tichu with four legal lists a step, exchange)':<66} "
          f"{best(setup_only) / count * 1e6:8.1f} us/round")
    print(f"{'play phase: the actions applied':<66} "
          f"{(best(play_applied(False)) - copies) / actions * 1e6:8.2f} us/action")
    print(f"{'play phase: applied, with the four seats legal lists before each':<66} "
          f"{(best(play_applied(True)) - copies) / actions * 1e6:8.2f} us/action")
    print(f"{'the benchmark loop (random_round), all phases':<66} "
          f"{best(whole_loop) / count * 1e6:8.1f} us/round")
    profiler = cProfile.Profile()
    profiler.runcall(whole_loop)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", type=Path, help="another checkout to compare with, side by side")
    parser.add_argument("--rounds", type=int, default=7, help="alternations with --against")
    parser.add_argument("--profile", action="store_true", help="where the random rounds' time goes")
    args = parser.parse_args()
    if args.profile:
        print(f"engine: {generator_in_use()}")
        profile(this_engine, args.seed)
        return
    if args.against:
        compare(args.against, args.seed, args.rounds)
        return
    engine = this_engine
    print(f"engine: {generator_in_use()}")
    for label, work, count in workloads(engine, args.seed):
        rate(label, work, count, args.seconds)
    held, copied = round_memory(engine, args.seed)
    print(f"memory of a round halfway: {held / 1024:,.1f} KiB, a copy of it {copied / 1024:,.1f} KiB")

    rng = random.Random(args.seed)
    brute_hands = [rng.sample(engine.DECK, 14) for _ in range(20)]
    start = time.perf_counter()
    for hand in brute_hands:
        found = {c for n in range(1, 15) for s in combinations(hand, n) for c in engine.readings(s)}
        assert found == set(engine.plays(hand)), "fast generator disagrees with brute force"
    print(f"brute-force cross-check on {len(brute_hands)} 14-card hands: agreed "
          f"({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
