"""A small run of bench/bench_fuzz.py: the real server in a subprocess, 20,000 hostile
lines and byte streams over 20 connections on both ports, then a game."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from bench_fuzz import run_fuzz  # noqa: E402


def test_twenty_thousand_hostile_lines_then_a_game():
    report = run_fuzz(lines=20_000, connections=20, seed=3)
    assert report.lines >= 20_000
    assert report.received_lines > 10_000  # the server answered (markers included)
    assert report.internal == 0
    assert report.tracebacks == 0 and report.unhandled == 0
    assert report.game_over
