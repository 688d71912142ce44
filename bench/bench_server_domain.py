"""The server's own work per game action, without sockets: the lobby, the tables, the
games, the journal in SQLite and the game logs, driven in one process.

    python bench/bench_server_domain.py [--tables 20] [--actions 40000] [--batch 4]
                                        [--profile FILE] [--compare REV]

Tables of four machine-mode clients play random legal moves as bench_server.py's
do (pushed LEGAL lists, ``round 1`` games started again when over; the deals and the
choices follow the run's seed, so each revision plays the same games), but the clients
call `Lobby.receive` directly and read what their sessions were sent. ``--batch``
lines are handled per reactor turn before the turn's flush (commit, then writes),
as when one poll returns several ready sockets. Only the time inside the lobby's
calls and the flushes counts as the server's. Without the kernel's sockets and the
clients' competition for the cores, and timed as this thread's CPU time, this shows
the domain's share of bench_server.py's figure with far less noise; ``--compare REV`` measures another
revision's domain in the same run (alternating), ``--profile`` writes cProfile stats
(read them with profile_summary.py).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

from table_clients import ROOT, Worktree

RUNNER = r'''
import cProfile, json, random, sys, time
from twisted.internet.task import Clock
from bswtichu.config import ServerConfig
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
from table_clients import follow_hand

folder, tables, actions, batch, seed, profile = sys.argv[1:7]
tables, actions, batch, seed = int(tables), int(actions), int(batch), int(seed)
clock = Clock()
config = ServerConfig(log_folder=folder + "/logs", database=folder + "/db.sqlite")
storage = Storage.open(config.database, config.synchronous)
deals = random.Random(seed)  # the same games for every revision measured
wiring = GameWiring(clock, GameLogStore(config.log_folder), config.bot_delay, config.reconnect_grace,
                    seeds=lambda: deals.getrandbits(64), storage=storage)
flushes = []
lobby = build_lobby(clock, config, wiring, wiring.logs, storage=storage, later=flushes.append)
rng = random.Random(seed)
server_seconds = 0.0
applied = 0
queue = []  # (client, line) to send, in order


class Client:
    def __init__(self, nick, starter):
        self.nick, self.starter, self.lines, self.seat, self.hand = nick, starter, [], None, set()
        self.session = lobby.connect(self)
        self.closed = False

    def send_lines(self, lines, droppable=False):
        self.lines.extend(lines)

    def close(self):
        self.closed = True

    def react(self):
        global applied
        lines, self.lines = self.lines, []
        for line in lines:
            keyword, _, payload = line.partition(" ")
            if keyword in ("TURN", "TRICK_WON", "TRICK_TAKEN") or not payload.startswith("{"):
                continue
            fields = json.loads(payload)
            mine = fields.get("seat") == self.seat
            if keyword in ("PLAYED", "PASSED", "TICHU", "GRAND_DECIDED", "EXCHANGE_SUBMITTED", "WISH",
                           "DRAGON_GIVEN") and mine:
                applied += 1
            if keyword == "ERROR":
                raise SystemExit(f"{self.nick}: {line}")
            follow_hand(self.hand, keyword, fields, mine)
            if keyword == "STARTED":
                self.seat = fields["seats"].index(self.nick) + 1
                self.hand.clear()
            elif keyword == "LEGAL" and fields["commands"]:
                if fields["exchange"]:
                    cards = rng.sample(sorted(self.hand), 3)
                    self.hand -= set(cards)
                    queue.append((self, "/schupf " + " ".join(cards)))
                else:
                    queue.append((self, rng.choice(fields["commands"])))
            elif keyword == "TABLE_OPEN" and self.starter:
                queue.append((self, "/start"))


def turn(lines):
    """One reactor turn: the lines, then the flush they scheduled; server time only."""
    global server_seconds
    started = time.thread_time()
    for client, line in lines:
        lobby.receive(client.session, line)
    while flushes:
        flushes.pop(0)()
    server_seconds += time.thread_time() - started


everyone = []
for t in range(tables):
    clients = [Client(f"T{t}s{s}", s == 1) for s in range(1, 5)]
    everyone += clients
    turn([(c, "/mode machine") for c in clients] + [(c, f"/nick {c.nick}") for c in clients])
    turn([(c, "/legal push on") for c in clients])
    turn([(clients[0], "/join"), (clients[0], "/round 1")])
    turn([(c, f"/join {t + 1}") for c in clients[1:]] + [(clients[0], "/start")])
for client in everyone:
    client.react()


def play(limit):
    global applied
    applied = 0
    server_seconds_before = server_seconds
    while applied < limit:
        if not queue:
            raise SystemExit("nobody has a move")
        lines = queue[:batch]
        del queue[:batch]
        turn(lines)
        for client in everyone:
            if client.lines:
                client.react()
    return server_seconds - server_seconds_before


play(actions // 10)  # warm up
if profile != "-":
    profiler = cProfile.Profile()
    profiler.enable()
seconds = play(actions)
if profile != "-":
    profiler.disable()
    profiler.dump_stats(profile)
print(json.dumps({"actions": applied, "seconds": seconds}))
'''


def measure(source: Path, tables: int, actions: int, batch: int, seed: int, profile: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="bswtichu-domain-") as folder:
        # run from the folder: only ``source``'s bswtichu (and this folder's table_clients) on the path
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(source), str(Path(__file__).resolve().parent)]))
        done = subprocess.run([sys.executable, "-c", RUNNER, folder, str(tables), str(actions), str(batch),
                               str(seed), str(Path(profile).resolve()) if profile != "-" else profile],
                              env=env, cwd=folder, capture_output=True, text=True, check=False)
        if done.returncode:
            raise SystemExit(f"the run in {source} failed:\n{done.stdout}{done.stderr[-3000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20, help="tables of four clients (default 20)")
    parser.add_argument("--actions", type=int, default=40000, help="game actions measured (default 40000)")
    parser.add_argument("--batch", type=int, default=4, help="input lines per reactor turn (default 4: about the rows"
                        " per commit of bench_server.py's server at 50 tables)")
    parser.add_argument("--repeat", type=int, default=3, help="alternating measurements of each (default 3)")
    parser.add_argument("--compare", metavar="REV", help="another git revision, measured side by side")
    parser.add_argument("--profile", help="write this checkout's cProfile stats here (one run)")
    args = parser.parse_args()
    if min(args.tables, args.actions, args.batch, args.repeat) < 1:
        parser.error("--tables, --actions, --batch and --repeat must be at least 1")
    if args.profile:
        result = measure(ROOT, args.tables, args.actions, args.batch, 1, args.profile)
        print(f"profiled {result['actions']} actions into {args.profile}")
        return
    with ExitStack() as stack:
        sources = {"new": ROOT}
        if args.compare:
            sources[f"old {args.compare}"] = stack.enter_context(Worktree(args.compare))
        results: dict[str, list[float]] = {label: [] for label in sources}
        for run in range(args.repeat):
            for label, source in sources.items():
                result = measure(source, args.tables, args.actions, args.batch, run + 1, "-")
                micros = 1e6 * result["seconds"] / result["actions"]
                results[label].append(micros)
                print(f"{label:>16}: {micros:6.1f} us per action ({result['actions']} actions)", flush=True)
        for label, runs in results.items():
            print(f"{label:>16}: best {min(runs):.1f}, median {sorted(runs)[len(runs) // 2]:.1f} us per action")
        if args.compare:
            new, old = (min(runs) for runs in results.values())
            print(f"old / new (best runs): x{old / new:.2f}")


if __name__ == "__main__":
    main()
