"""Soak: kill the real server (kill -9) at random moments of running games; every game must come back exactly.

Each table has one registered person (playing his first legal command whenever
he may) and three ``basic`` bots; finished games start again.  At random
moments the server is killed with SIGKILL and started again on the same
database.  After every kill the script checks:

- nothing anyone was told is lost: the plays and passes each person saw in
  that life are in the journal (every step is committed before it is told);
- every unfinished game comes back: the person gets his held seat and sees the
  hand and turn that replaying the stored journal gives;
- at the end, every game's whole journal (across all restarts) replays in one
  go with the bots choosing exactly what was stored: the restarts changed no
  bot decision, and every finished game's stored result is the replay's.

    python bench/soak_restarts.py                   # 20 kills, 3 tables
    python bench/soak_restarts.py --kills 40 --tables 5 --seed 7
"""

from __future__ import annotations

import argparse
import json
import re
import select
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from random import Random

from twisted.internet.task import Clock

from bswtichu.engine import GameOptions
from bswtichu.play import GameDriver, GameSeeds, seated_bots
from bswtichu.play.journal import replay_journal
from bswtichu.storage.games import GameStore

PORT_LINE = re.compile(r"people: telnet [\d.]+:\d+; bots: [\d.]+:(\d+)")
PASSWORD = "soak-pass-1"
TIMEOUT = 30.0


class Person:
    def __init__(self, name: str, port: int):
        self.name = name
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.sock.setblocking(False)
        self.buffer = b""
        self.pending: str | None = None
        self.log_number: int | None = None
        self.seen: dict[int, int] = {}  # log number -> plays and passes told in this life
        self.held: tuple[int, int] | None = None
        self.hand: list[str] | None = None  # the last HAND he was shown
        self.messages: list[tuple[str, dict]] = []
        self.inbox: list[tuple[str, dict]] = []

    def log_in(self, first: bool) -> None:
        """Machine mode, then the name: registered the first time, logged in after (which
        brings back a held seat and hand, told before the answer to the closing /mode)."""
        self.say("/mode machine")
        self.wait_for("MODE")
        if first:
            self.say(f"/nick {self.name}")
            self.wait_for("NICK")
            self.say(f"/register {PASSWORD}")
            self.wait_for("REGISTERED")
        else:
            self.say(f"/nick {self.name} {PASSWORD}")
            self.wait_for("NICK")
        self.say("/mode")
        self.wait_for("MODE")

    def say(self, line: str) -> None:
        self.sock.setblocking(True)
        self.sock.sendall(line.encode() + b"\r\n")
        self.sock.setblocking(False)

    def read(self) -> list[tuple[str, dict]]:
        try:
            data = self.sock.recv(1 << 16)
        except BlockingIOError:
            return []
        if not data:
            raise ConnectionError(f"{self.name}: the server hung up")
        self.buffer += data
        *lines, self.buffer = self.buffer.split(b"\r\n")
        out = []
        for line in lines:
            keyword, _, payload = line.decode().partition(" ")
            if payload.startswith("{"):
                out.append((keyword, json.loads(payload)))
        return out

    def wait_for(self, keyword: str) -> dict:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            if not self.inbox:
                select.select([self.sock], [], [], 1.0)
                self.inbox += self.read()
            while self.inbox:
                key, fields = self.inbox.pop(0)
                self.handle(key, fields)
                if key == keyword:
                    return fields
                if key == "ERROR":
                    raise AssertionError(f"{self.name}: {fields}")
        raise AssertionError(f"{self.name}: no {keyword}")

    def drain(self) -> None:
        """Handle what has come (and what waited in the inbox)."""
        self.inbox += self.read()
        while self.inbox:
            self.handle(*self.inbox.pop(0))

    def handle(self, keyword: str, fields: dict) -> None:
        """Keep count of what he was told; play when the server says he may."""
        self.messages.append((keyword, fields))
        if keyword == "GAME":
            self.log_number = fields["log"]
        elif keyword in ("PLAYED", "PASSED") and self.log_number is not None:
            self.seen[self.log_number] = self.seen.get(self.log_number, 0) + 1
        elif keyword == "SEAT_HELD":
            self.held = (fields["table"], fields["seat"])
        elif keyword == "HAND":
            self.hand = sorted(fields["cards"])
        elif keyword == "GAME_OVER":
            self.say("/start")
        elif keyword == "LEGAL" and self.pending == "legal":
            self.pending = None
            commands = [c for c in fields["commands"] if c != "/tichu"]
            if commands and commands[0].startswith("/schupf"):
                self.pending = "hand"
                self.say("/hand")
            elif commands:
                self.say(commands[0])
        elif keyword == "HAND" and self.pending == "hand":
            self.pending = None
            self.say("/schupf " + " ".join(fields["cards"][:3]))
        elif keyword == "ERROR" and fields["code"] not in ("no_game", "table_started", "illegal", "not_your_turn"):
            print(f"  {self.name} was refused: {fields}", file=sys.stderr)
            self.pending = None
        if self.pending is None and keyword in ("TURN", "PHASE", "DEALT", "TRICK_WON", "RECEIVED", "TABLE_OPEN",
                                                 "GAME", "RETURNED", "PLAYED"):
            self.pending = "legal"
            self.say("/legal")


def start_server(folder: Path, bot_delay: float) -> tuple[subprocess.Popen, int]:
    args = [sys.executable, "-c", "from bswtichu.cli import main; main()",
            "--telnet", "tcp:0:interface=127.0.0.1", "--line", "tcp:0:interface=127.0.0.1",
            "--database", str(folder / "soak.sqlite3"), "--log-folder", str(folder / "logs"),
            "--bot-delay", str(bot_delay), "--line-flood-rate", "100000", "--line-flood-burst", "100000",
            "--set", "listen.websocket="]  # no fixed port of the default config: runs side by side
    process = subprocess.Popen(args, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        line = process.stdout.readline().decode()
        match = PORT_LINE.search(line)
        if match:
            return process, int(match.group(1))
        if "Traceback" in line or "CRITICAL" in line or not line:
            break
    process.kill()  # never leave a server behind
    process.wait(TIMEOUT)
    raise AssertionError(f"the server did not start: {line}")


def replayed(store: GameStore, game) -> tuple[GameDriver, int]:
    """A fresh driver that replayed the stored journal; and how many bot choices differed."""
    players = game.players
    options = GameOptions(game.table_options["round"], False, game.table_options["turnier"])
    seeds = GameSeeds.from_seed(game.seed)
    levels = {name: level for name, level in game.bots.values()}
    driver = GameDriver(players, options, seeds, seated_bots(players, options, levels, seeds), Clock())
    differed = replay_journal(driver, game.entries)
    if differed:
        print(f"  game {game.log_number}: {differed} bot choices differ", file=sys.stderr)
    return driver, differed


def told_counts(db: sqlite3.Connection) -> dict[int, int]:
    """Per log number: the plays and passes in its journal."""
    rows = db.execute("SELECT g.log_number, count(*) FROM game_journal j JOIN games g ON g.id = j.game_id"
                      " WHERE j.kind IN ('act', 'bot') AND (j.data LIKE '%\"type\": \"play\"%'"
                      " OR j.data LIKE '%\"type\": \"pass\"%') GROUP BY g.log_number")
    return dict(rows.fetchall())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--bot-delay", type=float, default=0.005)
    parser.add_argument("--keep", metavar="DIR", help="work in DIR and keep it (the database, the logs)")
    parser.add_argument("--life", type=float, nargs=2, default=(0.3, 2.5), metavar=("MIN", "MAX"),
                        help="seconds a server lives before it is killed")
    args = parser.parse_args()
    rng = Random(args.seed)
    names = [f"Soak{chr(ord('A') + i)}" for i in range(args.tables)]
    failures: list[str] = []
    restored_checks = 0
    lost = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        db_path = folder / "soak.sqlite3"
        before: dict[int, int] = {}
        expected: dict[str, tuple[list[str], int | None]] = {}
        for life in range(args.kills + 1):
            process, port = start_server(folder, args.bot_delay)
            people = []
            for name in names:
                person = Person(name, port)
                person.log_in(first=life == 0)
                if person.held is not None:
                    hand = person.hand
                    want = expected.pop(name, None)
                    restored_checks += 1
                    if want is None or hand != want[0]:
                        failures.append(f"life {life}: {name} holds {hand}, the journal says {want}")
                else:
                    person.say("/join")
                    for line in (f"/round {args.rounds}", "/bot", "/bot", "/bot", "/start"):
                        person.say(line)
                people.append(person)
            for name in expected:
                failures.append(f"life {life}: {name}'s game did not come back")
            expected.clear()
            last = life == args.kills
            deadline = time.monotonic() + (60.0 if last else rng.uniform(*args.life))
            while time.monotonic() < deadline:
                ready, _, _ = select.select([p.sock for p in people], [], [], 0.05)
                for person in people:
                    if person.sock in ready or person.inbox:
                        person.drain()
                if last and all(any(k == "GAME_OVER" for k, _ in p.messages) for p in people):
                    break
            process.send_signal(signal.SIGTERM if last else signal.SIGKILL)
            process.wait(TIMEOUT)
            for person in people:
                person.sock.close()
            db = sqlite3.connect(db_path)
            store = GameStore(db)
            after = told_counts(db)
            for person in people:
                for number, seen in person.seen.items():
                    stored = after.get(number, 0) - before.get(number, 0)
                    if seen > stored:
                        lost += seen - stored
                        failures.append(f"life {life}: {person.name} was told {seen} plays in game {number},"
                                        f" the journal has {stored}")
            before = after
            if not last:
                for game in store.running():
                    driver, _ = replayed(store, game)
                    person = next(p for p in game.players if p in names)
                    seat = driver.seat_of(person)
                    expected[person] = (sorted(c.text for c in driver.game.round.hands[seat]), seat)
            db.close()
            print(f"life {life + 1}: {'stopped' if last else 'killed'} after"
                  f" {sum(after.values())} plays and passes in {len(after)} games", flush=True)
        db = sqlite3.connect(db_path)
        store = GameStore(db)
        games = db.execute("SELECT id, state, result FROM games ORDER BY id").fetchall()
        differed_total = 0
        for game_id, state, result in games:
            row = db.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()
            db.execute("UPDATE games SET state = 'running' WHERE id = ?", (game_id,))  # to read it as running
            game = next(g for g in store.running() if g.id == game_id)
            db.execute("UPDATE games SET state = ? WHERE id = ?", (row[0], game_id))
            driver, differed = replayed(store, game)
            differed_total += differed
            if state == "over":
                standings = [s.to_dict() for s in driver.game.standings()]
                if not driver.game.over or json.loads(result)["standings"] != standings:
                    failures.append(f"game {game_id}: the stored result is not the replay's")
        over = sum(1 for _, state, _ in games if state == "over")
        print(f"{args.kills} kills, {len(games)} games ({over} finished), {restored_checks} restored seats checked,"
              f" {differed_total} bot choices differed from an uninterrupted replay, {lost} told plays lost,"
              f" {len(failures)} failures")
        for failure in failures:
            print("  FAIL", failure)
    return 1 if failures or differed_total else 0


if __name__ == "__main__":
    raise SystemExit(main())
