"""A seed fixes a game in every process, not only in one: a restart must not change any bot decision.

Cards hashed by address made sets of cards iterate in a different order in each
process, so legal actions came in another order and a bot's random tie-break
picked another card from the same generator state.
"""

from __future__ import annotations

import os
import subprocess
import sys

GAME = """
from bswtichu.engine import GameOptions
from bswtichu.play import GameSeeds, headless_driver, seated_bots
options = GameOptions(round_limit=2)
for seed in range(6):
    seeds = GameSeeds.from_seed(seed)
    bots = seated_bots(tuple(range(4)), options, {0: "basic", 1: "random", 2: "basic", 3: "random"}, seeds)
    driver, clock = headless_driver([bots[i] for i in range(4)], options, seeds)
    driver.start()
    while not driver.finished:
        clock.advance(0)
    print([[a.notation() for a in r.history] for r in driver.game.rounds])
"""


def run_in_new_process(hash_seed: str) -> str:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    return subprocess.run([sys.executable, "-c", GAME], env=env, capture_output=True, text=True,
                          check=True, timeout=120).stdout


def test_the_same_seed_plays_the_same_game_in_another_process():
    first = run_in_new_process("1")
    assert first.count("\n") == 6
    for hash_seed in ("2", "3", "4"):
        assert run_in_new_process(hash_seed) == first
