"""What one server bot action costs: a person and three bots at a table, in process.

    python bench/bench_server_bots.py [--games 20] [--compare REV]

The real lobby, game wiring and storage (an SQLite file, as the server runs by
default) on a fake clock; the person is a machine-mode session whose lines are
kept in memory (no sockets), and plays his first legal command. Each bot step
(`GameDriver.step` as the clock fires it: choosing, applying, journaling, telling
the table) is timed; the median and p99 are printed. ``--compare REV`` runs the
same for another git revision side by side (a temporary worktree, in a subprocess).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class Connection:
    """The person's connection: keeps his lines until read."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def send_lines(self, lines, droppable=False) -> None:
        self.lines.extend(lines)

    def close(self) -> None:
        pass


def measure(games: int, folder: Path) -> list[float]:
    from random import Random

    from twisted.internet.task import Clock

    from bswtichu.config import ServerConfig
    from bswtichu.play import GameDriver
    try:
        from bswtichu.server.tables.wiring import GameWiring
        from bswtichu.server.games.logs import GameLogStore
    except ImportError:  # a revision before server/ had subpackages (--compare)
        from bswtichu.server.game_table import GameWiring
        from bswtichu.server.gamelogs import GameLogStore
    try:
        from bswtichu.service import build_lobby
    except ImportError:  # a revision before build_lobby (--compare): the lobby built itself
        from bswtichu.server.lobby import Lobby as build_lobby
    from bswtichu.storage import Storage

    timings: list[float] = []
    step = GameDriver.step

    def timed_step(driver):
        started = time.perf_counter()
        action = step(driver)
        if action is not None:
            timings.append(time.perf_counter() - started)
        return action

    GameDriver.step = timed_step
    clock, seeds = Clock(), Random(7)
    config = ServerConfig(log_folder=str(folder / "logs"), bot_delay=0.0)
    storage = Storage.open(str(folder / "bench.sqlite3"))
    wiring = GameWiring(clock, GameLogStore(config.log_folder), 0.0, 60.0,
                        seeds=lambda: seeds.getrandbits(64), storage=storage)
    lobby = build_lobby(clock, config, wiring, wiring.logs, storage=storage)
    connection = Connection()
    session = lobby.connect(connection)
    for line in ("/mode machine", "/nick Ann", "/join", "/round 1", "/bot", "/bot", "/bot"):
        lobby.receive(session, line)
    rng = Random(1)
    for _ in range(games):
        connection.lines.clear()
        lobby.receive(session, "/start")
        over = False
        while not over:
            clock.advance(0)
            lobby.receive(session, "/legal")
            legal = None
            for line in connection.lines:
                keyword, _, payload = line.partition(" ")
                if keyword == "GAME_OVER":
                    over = True
                elif keyword == "LEGAL":
                    legal = json.loads(payload)
            connection.lines.clear()
            if over:
                break
            if legal and legal["commands"]:
                if legal["exchange"]:
                    hand = json.loads(_ask(lobby, session, connection, "/hand").partition(" ")[2])["cards"]
                    lobby.receive(session, "/schupf " + " ".join(rng.sample(hand, 3)))
                else:
                    lobby.receive(session, rng.choice(legal["commands"]))
    storage.close()
    return timings


def _ask(lobby, session, connection, line: str) -> str:
    connection.lines.clear()
    lobby.receive(session, line)
    return connection.lines[-1]


def report(label: str, timings: list[float]) -> str:
    ordered = sorted(timings)
    p99 = ordered[int(0.99 * (len(ordered) - 1))]
    return (f"{label:>12}: {len(timings)} bot actions, median {statistics.median(timings) * 1e6:.0f} us,"
            f" p99 {p99 * 1e6:.0f} us")


def run_source(source: Path, games: int, label: str) -> list[float]:
    """Measure in a subprocess on ``source``; prints its line, returns its timings."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([sys.executable, __file__, "--games", str(games), "--label", label,
                        "--timings", out.name], env=env, check=True)
        return json.loads(Path(out.name).read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--compare", metavar="REV")
    parser.add_argument("--repeat", type=int, default=1, help="alternating measurements of each")
    parser.add_argument("--label", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--timings", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.label is not None:  # a measuring subprocess, on the source its PYTHONPATH names
        with tempfile.TemporaryDirectory() as folder:
            timings = measure(args.games, Path(folder))
        print(report(args.label, timings), flush=True)
        Path(args.timings).write_text(json.dumps(timings))
        return
    if not args.compare:
        for _ in range(args.repeat):
            run_source(ROOT, args.games, "new")
        return
    tree = Path(tempfile.mkdtemp(prefix="bswtichu-compare-")) / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), args.compare],
                   check=True, capture_output=True)
    try:
        new, old = [], []
        for _ in range(args.repeat):
            new += run_source(ROOT, args.games, "new")
            old += run_source(tree, args.games, f"old {args.compare}")
        print(report("new, pooled", new))
        print(report("old, pooled", old))
        print(f"median old / new: x{statistics.median(old) / statistics.median(new):.2f}")
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                       check=False, capture_output=True)
        shutil.rmtree(tree.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
