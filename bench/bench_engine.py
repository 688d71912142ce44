"""Engine benchmark (not a test): classifications, legal-play enumerations and random rounds per second.

Run:  python bench/bench_engine.py [--seconds 3] [--seed 1]

Each figure is measured in one process for about ``--seconds``.  Inputs are
drawn before timing starts, so the figures measure the engine alone.
Targets from the engine issue: >= 100,000 legal-play queries per second and
>= 1,000 complete random rounds per second.
"""

from __future__ import annotations

import argparse
import random
import time
from itertools import combinations

from bswtichu.engine import DECK, OVER, Exchange, Round, plays, readings
from bswtichu.engine.combos import ComboType


def rate(label: str, work, items, seconds: float) -> float:
    """Run ``work`` over ``items`` cyclically for about ``seconds``; print and return ops/s."""
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for item in items:
            work(item)
        done += len(items)
    elapsed = time.perf_counter() - start
    per_second = done / elapsed
    print(f"{label:<48} {per_second:>10,.0f} /s   ({done:,} in {elapsed:.2f} s)")
    return per_second


def is_legal_on(cards, top) -> bool:
    """One legal-play query: do these cards form a combination that beats ``top``?"""
    options = readings(cards)
    return bool(options) and options[0].played_over(top).beats(top)


def random_round(rng: random.Random) -> int:
    """One round where every seat picks uniformly among its legal actions; returns the action count."""
    rnd = Round.deal_random(rng)
    actions = 0
    while rnd.phase != OVER:
        options = []
        for seat in range(4):
            if rnd.phase == "exchange":
                if rnd.exchanges[seat] is None:  # a uniform trio, without listing all 2,184
                    hand = sorted(rnd.hands[seat], key=lambda c: c.index)
                    options.append(Exchange(seat, tuple(rng.sample(hand, 3))))
                continue
            options.extend(rnd.iter_legal_actions(seat))
        rnd.apply(rng.choice(options))
        actions += 1
    return actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    hands = [rng.sample(DECK, 14) for _ in range(2000)]
    subsets = [rng.sample(hand, rng.randint(1, 8)) for hand in hands]
    valid = [s for s in subsets if readings(s)]
    rate("classifications (random 1-8 card sets)", readings, subsets, args.seconds)
    rate("classifications (valid combinations only)", readings, valid, args.seconds)

    rate("legal-play enumerations, leading (14 cards)", lambda h: sum(1 for _ in plays(h)), hands,
         args.seconds)
    tops = []
    for hand in hands[:500]:
        others = [c for c in DECK if c not in hand]
        options = [c for c in plays(rng.sample(others, 14)) if c.type is not ComboType.DOG]
        tops.append((hand, rng.choice(options)))
    rate("legal-play enumerations, following (14 cards)",
         lambda pair: sum(1 for _ in plays(pair[0], pair[1])), tops, args.seconds)
    queries = []  # half real legal plays, half random card sets of the table's size
    for hand, top in tops:
        legal = [c for c in plays(hand, top)]
        if legal:
            queries.append((list(rng.choice(legal).cards), top))
        queries.append((rng.sample(hand, min(top.length, len(hand))), top))
    rate("legality checks (these cards on this table?)", lambda q: is_legal_on(*q), queries,
         args.seconds)
    counts = [sum(1 for _ in plays(h)) for h in hands]
    print(f"  (a 14-card hand has {sum(counts) / len(counts):.1f} leads on average, "
          f"{max(counts)} at most in this sample)")

    round_rng = random.Random(args.seed)
    actions = []
    per_second = rate("complete random rounds", lambda _: actions.append(random_round(round_rng)),
                      [None], args.seconds)
    print(f"  ({sum(actions) / len(actions):.0f} actions per round; "
          f"{per_second * sum(actions) / len(actions):,.0f} actions/s with full legal lists)")

    brute_hands = hands[:20]
    start = time.perf_counter()
    for hand in brute_hands:
        found = {c for n in range(1, 15) for s in combinations(hand, n) for c in readings(s)}
        assert found == set(plays(hand)), "fast generator disagrees with brute force"
    print(f"brute-force cross-check on {len(brute_hands)} 14-card hands: agreed "
          f"({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
