"""The real program survives kill -9 and SIGTERM: a subprocess on free ports with a temporary database.

People play some moves over TCP, the server is killed, a new process on the
same database restores the game: Ann logs in, Bob resumes with his token, both
/join their seats and see the same hand and table as before, then play to the
end.  An impostor without the password and a guest without the token get no seat.

The bots are of the ``random`` level, which never acts out of turn, so the game
stands still while a person is to act: the moment of the kill is well defined.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

TIMEOUT = 20.0
START_TIMEOUT = 60.0  # a loaded 2-core machine can take long to start Python and Twisted
PORT_LINE = re.compile(r"people: telnet [\d.]+:(\d+); bots: [\d.]+:(\d+)")
PASSWORD = "ann-secret-1"
ADMIN = ("--set", "admin.admins=Ann")  # Ann may /shutdown


class Server:
    """``bswtichu`` as a child process; its ports are read from its log."""

    def __init__(self, tmp_path: Path, *more: str, database: str | None = None, standby: bool = False):
        """Started and listening; or, ``standby``, started and saying it waits (`listening`
        then waits for its ports)."""
        self.tmp_path = tmp_path
        args = [sys.executable, "-X", "faulthandler", "-c", "from bswtichu.cli import main; main()",
                "--telnet", "tcp:0:interface=127.0.0.1", "--line", "tcp:0:interface=127.0.0.1",
                "--database", database or str(tmp_path / "bswtichu.sqlite3"), "--log-folder", str(tmp_path / "logs"),
                "--bot-delay", "0.02", "--line-flood-rate", "100000", "--line-flood-burst", "100000",
                "--set", "listen.websocket=", *more]
        self.process = subprocess.Popen(args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.output: list[str] = []
        self._pending = b""
        self.ports: dict[str, int] = {}
        if standby:
            self.wait_for("standby: another bswtichu", START_TIMEOUT)
        else:
            self.listening(START_TIMEOUT)

    def wait_for(self, text: str, timeout: float) -> str:
        """The first line of the output (from now on) that holds ``text``."""
        deadline = time.monotonic() + timeout
        try:
            while True:
                line = self._read_line(deadline)
                if text in line:
                    return line
        except BaseException:
            self.process.kill()  # never leave a server behind
            self.process.wait(TIMEOUT)
            raise

    def listening(self, timeout: float) -> dict[str, int]:
        """Its ports, once its log says where it listens."""
        match = PORT_LINE.search(self.wait_for("people: telnet", timeout))
        assert match, self.log_text()
        self.ports = {"telnet": int(match.group(1)), "line": int(match.group(2))}
        return self.ports

    def _read_line(self, deadline: float) -> str:
        """The next line of the server's output (read straight from the pipe: a buffered
        reader could hold lines that select() then never announces)."""
        while b"\n" not in self._pending:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self.process.stdout], [], [], remaining)[0]:
                self.process.send_signal(signal.SIGABRT)  # faulthandler shows where it stands
                rest = self.process.communicate(timeout=TIMEOUT)[0].decode("utf-8", "replace")
                raise AssertionError("the server did not start in time:\n" + "".join(self.output) + rest)
            data = os.read(self.process.stdout.fileno(), 65536)
            if not data:
                raise AssertionError("the server ended:\n" + "".join(self.output))
            self._pending += data
        line, self._pending = self._pending.split(b"\n", 1)
        self.output.append(line.decode("utf-8", "replace") + "\n")
        return self.output[-1]

    def connect(self, nick: str | None = None) -> Player:
        player = Player(self.ports["line"])
        player.say("/mode machine")
        player.expect("MODE")
        if nick:
            player.say(f"/nick {nick}")
            player.expect("NICK")
        return player

    def stop(self, how: int | None) -> int:
        """Send signal ``how`` (None: the server stops by itself, after /shutdown); its exit code."""
        if how is not None:
            self.process.send_signal(how)
        try:
            code = self.process.wait(TIMEOUT)
        finally:
            rest = self._pending + self.process.stdout.read()
            self.output.append(rest.decode("utf-8", "replace"))
        return code

    def log_text(self) -> str:
        return "".join(self.output)


def bswtichu(tmp_path: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """The ``bswtichu`` command run to its end in ``tmp_path`` (on the test's database unless
    ``args`` name another), ``stdin`` its input."""
    return subprocess.run([sys.executable, "-c", "from bswtichu.cli import main; raise SystemExit(main())",
                           *args], input=stdin, cwd=tmp_path, capture_output=True, text=True,
                          timeout=START_TIMEOUT)


def claim_admin(tmp_path: Path, name: str, password: str, database: str | None = None) -> str:
    """``bswtichu admin add NAME`` with the password on standard input; what it says."""
    done = bswtichu(tmp_path, "admin", "add", name, "--database", database or str(tmp_path / "bswtichu.sqlite3"),
                    stdin=password + "\n")
    assert done.returncode == 0, done.stderr
    return done.stdout


class Player:
    """A bot-port client with blocking reads (each bounded by a timeout)."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.buffer = b""
        self.seen: list[tuple[str, dict]] = []

    def say(self, line: str) -> None:
        self.sock.sendall(line.encode() + b"\r\n")

    def line(self) -> str:
        while b"\r\n" not in self.buffer:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("the server hung up")
            self.buffer += data
        line, self.buffer = self.buffer.split(b"\r\n", 1)
        return line.decode("utf-8")

    def message(self) -> tuple[str, dict]:
        while True:
            keyword, _, payload = self.line().partition(" ")
            if payload.startswith("{"):
                self.seen.append((keyword, json.loads(payload)))
                return self.seen[-1]

    def expect(self, *keywords: str) -> tuple[str, dict]:
        """The next message with one of ``keywords`` (or an ERROR, which fails unless expected)."""
        while True:
            keyword, fields = self.message()
            if keyword in keywords:
                return keyword, fields
            assert keyword != "ERROR", fields

    def ask(self, command: str, keyword: str) -> dict:
        self.say(command)
        return self.expect(keyword)[1]

    def refused(self, command: str) -> str:
        self.say(command)
        return self.expect("ERROR")[1]["code"]

    def over(self) -> bool:
        return any(k == "GAME_OVER" for k, _ in self.seen)

    def close(self) -> None:
        self.sock.close()


def act_once(people: list[Player]) -> bool:
    """The first person with something to do does it; returns whether anyone did."""
    for person in people:
        person.say("/legal")
        keyword, fields = person.expect("LEGAL", "ERROR")
        if keyword == "ERROR":
            assert fields["code"] == "no_game" and person.over(), fields
            return True  # the game is over; the caller sees it
        commands = [c for c in fields["commands"] if c != "/tichu"]
        if not commands:
            continue
        command = commands[0]
        if command.startswith("/schupf"):
            command = "/schupf " + " ".join(person.ask("/hand", "HAND")["cards"][:3])
        person.say(command)
        return True
    return False


def play(people: list[Player], until) -> None:
    """People act whenever they can; otherwise wait for the next message (bots acting)."""
    for _ in range(5000):
        if until():
            return
        if not act_once(people):
            people[0].message()
    raise AssertionError("the game did not get there")


def to_act(people: list[Player]) -> Player | None:
    """The person whose turn it is in the play phase, if any."""
    table = people[0].ask("/table", "TABLE")
    if table["phase"] != "play" or table["turn"] is None:
        return None
    name = table["names"][table["turn"] - 1]
    return next((p for p in people if p.nick == name), None)


def seen_state(person: Player) -> tuple[dict, dict]:
    return person.ask("/table", "TABLE"), person.ask("/hand", "HAND")


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, None], ids=["kill-9", "sigterm", "shutdown"])
def test_a_game_survives_the_servers_death(tmp_path, how):
    """Killed, stopped by SIGTERM, or by an admin's /shutdown 0 (how None): the game comes back;
    the clean stops say goodbye to everyone and exit 0."""
    game_survives(tmp_path, how)


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
def test_a_game_on_postgresql_survives_kill_9(tmp_path, postgres_url, how):
    """The same on PostgreSQL (``--database postgresql://...``): the account, the journal and
    the finished game's history are the database's, read back by the new process; a clean
    stop waits for the journal's writer (its thread and connection) and says goodbye."""
    game_survives(tmp_path, how, postgres_url)


def a_game_mid_trick(server: Server) -> tuple[list[Player], str]:
    """Ann (registered) and Bob (a guest) with two random bots, deep in the play phase with a
    person to act; Bob's resume token."""
    ann = server.connect()
    ann.nick = "Ann"
    ann.ask(f"/nick Ann {PASSWORD}", "NICK")
    bob = server.connect()
    bob.nick = "Bob"
    bob.say("/nick Bob")
    token = bob.expect("RESUME_TOKEN")[1]["token"]
    for line in ("/join", "/round 1", "/bot random", "/bot random"):
        ann.say(line)
    ann.expect("JOINED")
    bob.say("/join 1")
    bob.expect("JOINED")
    ann.say("/start")
    ann.expect("GAME")
    people = [ann, bob]
    moves = [0]

    def deep_in_play() -> bool:
        moves[0] += 1
        return moves[0] > 12 and to_act(people) is not None

    play(people, deep_in_play)
    return people, token


def game_survives(tmp_path: Path, how: int | None, database: str | None = None) -> None:
    """A game played over TCP, the server stopped ``how``, a new one on the same ``database``
    (None: a SQLite file in ``tmp_path``) restores it and it is played to its end."""
    claim_admin(tmp_path, "Ann", PASSWORD, database)
    first = Server(tmp_path, *ADMIN, database=database)
    try:
        people, token = a_game_mid_trick(first)
        ann, bob = people
        before = {p.nick: seen_state(p) for p in people}
        number = before["Ann"][0]["log"]
        if how is None:
            ann.say("/shutdown 0 new version")
            assert bob.expect("SHUTDOWN")[1] == {"seconds": 0, "reason": "new version", "by": "Ann"}
    finally:
        code = first.stop(how)
    if how != signal.SIGKILL:
        assert code == 0, first.log_text()
        assert "Traceback" not in first.log_text()
        for person in people:
            assert person.expect("BYE")[1] == {"reason": "shutdown"}
    for person in people:
        person.close()

    second = Server(tmp_path, *ADMIN, database=database)
    try:
        assert "restored 1 unfinished game" in second.log_text()
        impostor = second.connect()
        assert impostor.refused("/nick Ann") == "name_registered"
        assert impostor.refused("/nick Bob") == "name_held"
        assert impostor.refused("/nick Ann wrong-password") == "bad_password"
        assert second.connect().refused("/resume forged-token") == "bad_token"
        assert impostor.ask("/nick Mallory", "NICK")["nick"] == "Mallory"
        assert impostor.refused("/join 1 4") == "table_started"
        assert impostor.refused(f"/log {number}") == "log_running"

        ann = second.connect()
        ann.nick = "Ann"
        ann.say(f"/nick Ann {PASSWORD}")
        assert ann.expect("SEAT_HELD")[1] == {"table": 1, "seat": 1}
        ann.expect("RETURNED")
        bob = second.connect()
        bob.nick = "Bob"
        bob.say(f"/resume {token}")
        bob.expect("SEAT_HELD")
        bob.expect("RETURNED")
        people = [ann, bob]
        assert {p.nick: seen_state(p) for p in people} == before
        play(people, lambda: ann.over() or bob.over())
        assert ann.ask(f"/log {number}", "LOG")
        history = ann.ask("/history", "HISTORY")["games"]
        assert [g["log"] for g in history] == [number]
        new_game = impostor.ask("/join", "JOINED")
        assert new_game["table"] == 2
    finally:
        assert second.stop(signal.SIGTERM) == 0
    assert "Traceback" not in second.log_text(), second.log_text()
    for server in (first, second):  # every login is logged, never its password or token
        assert " is Ann" in server.log_text()
        assert PASSWORD not in server.log_text() and token not in server.log_text()


def test_sighup_applies_the_new_limits_without_dropping_anyone(tmp_path):
    config = tmp_path / "bswtichu.ini"
    config.write_text("[limits]\nmax_tables = 5\n[tables]\nabandon_after = 100\n", encoding="utf-8")
    server = Server(tmp_path, "--config", str(config))
    try:
        ann = server.connect("Ann")
        ann.ask("/join", "JOINED")
        config.write_text("[limits]\nmax_tables = 1\n[tables]\nabandon_after = 200\n", encoding="utf-8")
        server.process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + TIMEOUT
        while "config reloaded" not in (line := server._read_line(deadline)):
            pass
        assert "max_tables 5 -> 1" in line and "a restart is needed for abandon_after" in line, line
        bob = server.connect("Bob")
        assert bob.refused("/join") == "too_many_tables"
        assert ann.ask("/who", "WHO")  # still connected
        config.write_text("[limits]\nmax_tables = none\n", encoding="utf-8")
        server.process.send_signal(signal.SIGHUP)
        while "not reloaded" not in (line := server._read_line(deadline)):
            pass
        assert bob.refused("/join") == "too_many_tables"  # the limits stay as they were
    finally:
        assert server.stop(signal.SIGTERM) == 0
    assert "Traceback" not in server.log_text(), server.log_text()


def test_a_backup_while_the_server_runs_and_after_it_stopped(tmp_path):
    from bswtichu import cli

    database = tmp_path / "bswtichu.sqlite3"
    server = Server(tmp_path)
    try:
        ann = server.connect("Ann")
        ann.ask(f"/register {PASSWORD}", "REGISTERED")
        assert cli.main(["backup", str(tmp_path / "running.sqlite3"), "--database", str(database)]) == 0
        deadline = time.monotonic() + TIMEOUT
        while "backed up to" not in server._read_line(deadline):
            pass
    finally:
        assert server.stop(signal.SIGTERM) == 0
    assert cli.main(["backup", str(tmp_path / "stopped.sqlite3"), "--database", str(database)]) == 0
    for copy in ("running.sqlite3", "stopped.sqlite3"):
        with contextlib.closing(sqlite3.connect(tmp_path / copy)) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            assert [name for (name,) in db.execute("SELECT name FROM accounts")] == ["Ann"]
    assert not list(tmp_path.glob("*.partial"))


def test_an_admin_is_the_operators_claim_not_the_first_comers(tmp_path):
    """Issue 30 item 1 against the running program: with Root listed and no account yet, a
    stranger can neither take nor register the name; ``bswtichu admin add Root`` (the server
    running: it applies the claim at once) makes the operator's Root an admin, and ``remove``
    with the server stopped undoes it. The database files are the owner's alone."""
    database = tmp_path / "bswtichu.sqlite3"
    server = Server(tmp_path, "--set", "admin.admins=Root")
    try:
        stranger = server.connect()
        for line in ("/nick root", "/nick Root", "/nick ROOT"):
            assert stranger.refused(line) == "nick_reserved"
        assert stranger.refused("/nick root hunter22x") == "not_registered"
        stranger.ask("/nick Mallory", "NICK")
        stranger.ask("/register hunter22x", "REGISTERED")
        assert stranger.refused("/announce I am root") == "not_moderator"
        assert stranger.refused("/shutdown 5") == "not_admin"
        assert "by the running server" in claim_admin(tmp_path, "Root", PASSWORD)
        root = server.connect()
        root.ask(f"/nick Root {PASSWORD}", "NICK")
        assert root.ask("/announce claimed", "ANNOUNCE")["by"] == "Root"
        assert stranger.refused("/nick Root hunter22x") == "bad_password"
        listed = bswtichu(tmp_path, "admin", "list", "--database", str(database))
        assert listed.returncode == 0 and "Root: admin" in listed.stdout, listed.stderr
        assert not [p.name for p in tmp_path.iterdir() if "admin-re" in p.name]  # request and answer gone
        for path in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
            if path.exists():
                assert path.stat().st_mode & 0o777 == 0o600, path
    finally:
        code = server.stop(signal.SIGTERM)
    assert code == 0 and "Traceback" not in server.log_text(), server.log_text()
    assert PASSWORD not in server.log_text()
    removed = bswtichu(tmp_path, "admin", "remove", "Root", "--database", str(database))
    assert removed.returncode == 0 and "Root is an admin no more" in removed.stdout, removed.stderr
    with contextlib.closing(sqlite3.connect(database)) as db:
        assert db.execute("SELECT count(*) FROM admins").fetchone() == (0,)
