"""Soak: two bswtichu processes on one PostgreSQL, the active one killed (kill -9) at random moments.

Each table has one registered person (playing his first legal command whenever he
may) and three ``basic`` bots; finished games start again.  A second process stands
by on the same database and the same ports.  At random moments the active one is
killed with SIGKILL; the standby takes over, the people reconnect to the same ports
and ``/nick NAME PASSWORD`` seats them again, and a new standby is started in the
dead one's place.  Every ``--pause-every``-th time the active one is paused (SIGSTOP)
past its lease instead, and continued once the standby has taken over: it must
write nothing and exit 3.

Figures: failover (from kill -9 to the first accepted action of a reconnected
person: a PLAYED, PASSED, EXCHANGE_SUBMITTED... naming him) p50, p99 and max over the kills; accepted actions
lost (the plays and passes people were told, against the journal); journal gaps or
duplicates (each game's steps numbered 0..n-1); rows written under a fenced epoch
(the journal's rows counted when the standby has taken over and again once the
paused one, continued, has exited).

    python bench/soak_failover.py                        # 20 kills, 10 tables, a throwaway cluster
    python bench/soak_failover.py --kills 4 --tables 3   # the small version
    python bench/soak_failover.py --database postgresql://...   # an empty database of yours
"""

from __future__ import annotations

import argparse
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from random import Random

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))
from soak_restarts import Person, told_counts  # noqa: E402  (the same person and counts)

ROOT = Path(__file__).resolve().parent.parent
PORT_LINE = re.compile(r"people: telnet [\d.]+:(\d+); bots: [\d.]+:(\d+)")
TIMEOUT = 60.0
#: the messages that say a person's action was accepted (they name him as ``player``)
ACCEPTED = ("PLAYED", "PASSED", "GRAND_DECIDED", "TICHU", "EXCHANGE_SUBMITTED", "WISH", "TRICK_WON")


class Player(Person):
    """soak_restarts' person, who sends the exchange `LEGAL` spells out as it is (its
    ``/schupf C1 C2 C3``) instead of asking for his hand first."""

    def handle(self, keyword: str, fields: dict) -> None:
        if keyword == "LEGAL" and self.pending == "legal":
            commands = [c for c in fields["commands"] if c != "/tichu"]
            if commands and commands[0].startswith("/schupf ") and len(commands[0].split()) == 4:
                self.messages.append((keyword, fields))
                self.pending = None
                self.say(commands[0])
                return
        super().handle(keyword, fields)


class Process:
    """One ``bswtichu`` on the database: its output read line by line with a deadline."""

    def __init__(self, folder: Path, url: str, ports: tuple[int, int] | None, args: argparse.Namespace):
        folder.mkdir(parents=True, exist_ok=True)
        telnet, line = ports if ports else (0, 0)
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from bswtichu.cli import main; main()",
             "--telnet", f"tcp:{telnet}:interface=127.0.0.1", "--line", f"tcp:{line}:interface=127.0.0.1",
             "--database", url, "--log-folder", str(folder / "logs"), "--bot-delay", str(args.bot_delay),
             "--line-flood-rate", "100000", "--line-flood-burst", "100000", "--set", "listen.websocket=",
             "--set", f"storage.lease={args.lease}", "--set", f"storage.renew={args.renew}",
             "--set", "limits.uncapped_addresses=127.0.0.1"],  # every person registers from here
            cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.pending = b""
        self.output: list[str] = []

    def wait_for(self, text: str, timeout: float = TIMEOUT) -> str:
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self.pending:
                line, self.pending = self.pending.split(b"\n", 1)
                self.output.append(line.decode("utf-8", "replace"))
                if text in self.output[-1]:
                    return self.output[-1]
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self.process.stdout], [], [], remaining)[0]:
                raise AssertionError(f"no {text!r} in time:\n" + "\n".join(self.output[-20:]))
            data = os.read(self.process.stdout.fileno(), 65536)
            if not data:
                raise AssertionError(f"the process ended before {text!r}:\n" + "\n".join(self.output[-20:]))
            self.pending += data

    def ports(self) -> tuple[int, int]:
        match = PORT_LINE.search(self.wait_for("people: telnet"))
        assert match
        return int(match.group(1)), int(match.group(2))

    def end(self) -> int:
        try:
            return self.process.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait(TIMEOUT)


def throwaway_cluster(folder: Path) -> str:
    started = subprocess.run([str(ROOT / ".ci" / "postgres"), "start", str(folder)], capture_output=True,
                             text=True, timeout=120)
    if started.returncode != 0:
        raise SystemExit(f"no PostgreSQL (Debian package postgresql): {started.stderr.strip()}")
    server = started.stdout.strip().splitlines()[-1]
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute("CREATE DATABASE soak_failover")
    return server.rsplit("/", 1)[0] + "/soak_failover"


def seated(names: list[str], port: int, rounds: int, first: bool) -> tuple[list[Player], int]:
    """Each person on the line port: registered (first) or back by password; a new game for
    one without a held seat.  Returns the people and how many got a held seat back."""
    people, back = [], 0
    for name in names:
        person = Player(name, port)
        person.log_in(first)
        if person.held is not None:
            back += 1
        else:
            person.say("/join")
            for line in (f"/round {rounds}", "/bot", "/bot", "/bot", "/start"):
                person.say(line)
        people.append(person)
    return people, back


def first_accepted(people: list[Player], since: float) -> float:
    """Seconds from ``since`` until one of ``people`` has an action of his own accepted."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        for person in people:
            if any(k in ACCEPTED and f.get("player") == person.name for k, f in person.messages):
                return time.monotonic() - since
        ready, _, _ = select.select([p.sock for p in people], [], [], 0.05)
        for person in people:
            if person.sock in ready or person.inbox:
                person.drain()
    raise AssertionError("no reconnected person's action was accepted in time: "
                         + "; ".join(f"{p.name}: {p.messages[-6:]}" for p in people))


def journal_problems(db) -> tuple[int, int]:
    """(gaps, duplicates) over every game's journal: its steps must be numbered 0..n-1."""
    gaps = dups = 0
    for count, distinct, top in db.execute(
            "SELECT count(*), count(DISTINCT seq), max(seq) FROM game_journal GROUP BY game_id"):
        dups += count - distinct
        gaps += top + 1 - distinct
    return gaps, dups


def journal_rows(url: str) -> int:
    with psycopg.connect(url) as db:
        return db.execute("SELECT count(*) FROM game_journal").fetchone()[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20, help="takeovers (kills and pauses)")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--bot-delay", type=float, default=0.02)
    parser.add_argument("--lease", type=float, default=5.0)
    parser.add_argument("--renew", type=float, default=1.0)
    parser.add_argument("--pause-every", type=int, default=5, help="every Nth takeover is a pause (0: none)")
    parser.add_argument("--database", help="an empty PostgreSQL database (default: a throwaway cluster)")
    parser.add_argument("--life", type=float, nargs=2, default=(1.0, 4.0), metavar=("MIN", "MAX"),
                        help="seconds the active process serves before it is killed")
    args = parser.parse_args()
    rng = Random(args.seed)
    names = [f"Fail{chr(ord('A') + i)}" for i in range(args.tables)]
    folder = Path(tempfile.mkdtemp(prefix="bswtichu-failover-"))
    failures: list[str] = []
    failovers: list[float] = []
    pauses: list[float] = []
    lost = fenced_rows = restored = 0
    cluster = Path(tempfile.mkdtemp(prefix="bswtichu-pg-"))  # (its own: the cluster's owner must enter it)
    url = args.database or throwaway_cluster(cluster)
    processes: list[Process] = []
    try:
        active = Process(folder / "p0", url, None, args)
        processes.append(active)
        ports = active.ports()
        standby = Process(folder / "p1", url, ports, args)
        processes.append(standby)
        standby.wait_for("standby: another bswtichu")
        people, _ = seated(names, ports[1], args.rounds, True)
        before: dict[int, int] = {}
        with psycopg.connect(url, autocommit=True) as db:
            for number in range(args.kills):
                deadline = time.monotonic() + rng.uniform(*args.life)
                while time.monotonic() < deadline:
                    ready, _, _ = select.select([p.sock for p in people], [], [], 0.05)
                    for person in people:
                        if person.sock in ready or person.inbox:
                            person.drain()
                pause = args.pause_every and (number + 1) % args.pause_every == 0
                began = time.monotonic()
                active.process.send_signal(signal.SIGSTOP if pause else signal.SIGKILL)
                if pause:  # the standby takes over; it listens once the old one, continued, let go
                    standby.wait_for("took the database over")
                    rows = journal_rows(url)
                    active.process.send_signal(signal.SIGCONT)
                    code = active.end()
                    fenced_rows += journal_rows(url) - rows
                    if code != 3:
                        failures.append(f"takeover {number}: the paused process exited {code}, not 3")
                standby.ports()
                active.end()
                for person in people:
                    person.sock.close()
                after = told_counts(db)
                for person in people:
                    for log_number, seen in person.seen.items():
                        stored = after.get(log_number, 0) - before.get(log_number, 0)
                        if seen > stored:
                            lost += seen - stored
                            failures.append(f"takeover {number}: {person.name} was told {seen} plays in game"
                                            f" {log_number}, the journal has {stored}")
                before = after
                people, back = seated(names, ports[1], args.rounds, False)
                restored += back
                (pauses if pause else failovers).append(first_accepted(people, began))
                active, standby = standby, Process(folder / f"p{number + 2}", url, ports, args)
                processes.append(standby)
                standby.wait_for("standby: another bswtichu")
                print(f"takeover {number + 1} ({'pause' if pause else 'kill -9'}): first accepted action"
                      f" after {(pauses if pause else failovers)[-1]:.2f} s, {back} seats back", flush=True)
            gaps, dups = journal_problems(db)
            games, over = db.execute("SELECT count(*), count(*) FILTER (WHERE state = 'over') FROM games").fetchone()
    finally:
        for process in processes:
            if process.process.poll() is None:
                process.process.send_signal(signal.SIGCONT)
                process.process.kill()
                process.process.wait(TIMEOUT)
        if not args.database:
            subprocess.run([str(ROOT / ".ci" / "postgres"), "stop", str(cluster)], capture_output=True, timeout=120)
        shutil.rmtree(cluster, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)
    failovers.sort()
    p99 = failovers[min(len(failovers) - 1, int(0.99 * len(failovers)))] if failovers else float("nan")
    print(f"{len(failovers)} kills and {len(pauses)} pauses over {args.tables} tables, {games} games ({over}"
          f" finished), {restored} seats back; failover from kill -9 to the first accepted action:"
          f" p50 {failovers[len(failovers) // 2] if failovers else float('nan'):.2f} s, p99 {p99:.2f} s,"
          f" max {max(failovers, default=float('nan')):.2f} s; from a pause (lease {args.lease:g} s):"
          f" max {max(pauses, default=float('nan')):.2f} s; {lost} accepted actions lost, {gaps} journal gaps,"
          f" {dups} duplicates, {fenced_rows} rows written under a fenced epoch, {len(failures)} failures")
    for failure in failures:
        print("  FAIL", failure)
    return 1 if failures or lost or gaps or dups or fenced_rows or p99 > 10 else 0


if __name__ == "__main__":
    raise SystemExit(main())
