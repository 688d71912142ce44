"""Two real server processes on one PostgreSQL: one serves, the other stands by (issue 33, item 4).

The active one is killed (kill -9) mid-trick: the standby takes the database over, opens
the same ports, and the people who reconnect (``/nick NAME PASSWORD``, ``/resume TOKEN``)
get their seats and hands back and play to the end.  Or it is paused (SIGSTOP) past its
lease: the standby takes over, and the old one, continued, writes nothing (the database's
fence refuses it), tells its clients one line, hangs up and exits 3.

The bots are of the ``random`` level, which never acts out of turn: while a person is to
act the game stands still, so the moments of the kill and the pause are well defined.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from test_cli_process import ADMIN, PASSWORD, Player, Server, a_game_mid_trick, claim_admin, play, seen_state, to_act

#: a short lease so that the paused process loses it soon (renewed 4 times a second)
LEASE = ("--set", "storage.lease=2", "--set", "storage.renew=0.25")
#: how long a takeover may take at most here (a loaded machine starts Python slowly)
TAKEOVER = 60.0


def same_ports(server: Server) -> tuple[str, ...]:
    """The options that make a standby listen where ``server`` does once it takes over."""
    return ("--telnet", f"tcp:{server.ports['telnet']}:interface=127.0.0.1",
            "--line", f"tcp:{server.ports['line']}:interface=127.0.0.1")


def back_in_their_seats(server: Server, token: str) -> list[Player]:
    ann = server.connect()
    ann.nick = "Ann"
    ann.say(f"/nick Ann {PASSWORD}")
    assert ann.expect("SEAT_HELD")[1] == {"table": 1, "seat": 1}
    ann.expect("RETURNED")
    bob = server.connect()
    bob.nick = "Bob"
    bob.say(f"/resume {token}")
    bob.expect("SEAT_HELD")
    bob.expect("RETURNED")
    return [ann, bob]


def an_action(person: Player) -> str:
    """A command ``person`` may give now (a play or a pass)."""
    commands = [c for c in person.ask("/legal", "LEGAL")["commands"] if c != "/tichu"]
    return commands[0]


def journal_rows(url: str) -> int:
    with psycopg.connect(url) as db:
        return db.execute("SELECT count(*) FROM game_journal").fetchone()[0]


def test_the_standby_takes_over_from_a_killed_server_on_the_same_ports(tmp_path, postgres_url):
    claim_admin(tmp_path, "Ann", PASSWORD, postgres_url)
    active = Server(tmp_path, *ADMIN, *LEASE, database=postgres_url)
    standby = None
    try:
        standby = Server(_folder(tmp_path, "standby"), *ADMIN, *LEASE, *same_ports(active),
                         database=postgres_url, standby=True)
        assert "opens no listeners" in standby.log_text()
        people, token = a_game_mid_trick(active)
        before = {p.nick: seen_state(p) for p in people}
        active.stop(signal.SIGKILL)
        for person in people:
            person.close()
        assert standby.listening(TAKEOVER) == active.ports  # the same ports
        assert "took the database over" in standby.log_text()
        assert "restored 1 unfinished game" in standby.log_text()
        people = back_in_their_seats(standby, token)
        assert {p.nick: seen_state(p) for p in people} == before
        play(people, lambda: people[0].over() or people[1].over())
        assert [g["log"] for g in people[0].ask("/history", "HISTORY")["games"]] == [before["Ann"][0]["log"]]
    finally:
        active.stop(signal.SIGKILL) if active.process.poll() is None else None
        if standby is not None:
            assert standby.stop(signal.SIGTERM) == 0
    assert "Traceback" not in standby.log_text(), standby.log_text()


def test_a_paused_server_is_fenced_writes_nothing_and_hangs_up(tmp_path, postgres_url):
    claim_admin(tmp_path, "Ann", PASSWORD, postgres_url)
    active = Server(tmp_path, *ADMIN, *LEASE, database=postgres_url)
    standby = None
    try:
        standby = Server(_folder(tmp_path, "standby"), *ADMIN, *LEASE, database=postgres_url, standby=True)
        people, token = a_game_mid_trick(active)
        before = {p.nick: seen_state(p) for p in people}
        mover = to_act(people)
        action = an_action(mover)
        active.process.send_signal(signal.SIGSTOP)  # paused past its lease: the standby takes over
        standby.listening(TAKEOVER)
        assert "restored 1 unfinished game" in standby.log_text()
        rows = journal_rows(postgres_url)
        mover.say(action)  # read once the old one goes on
        active.process.send_signal(signal.SIGCONT)
        for person in people:  # told one line, then hung up
            assert person.expect("BYE")[1] == {"reason": "shutdown"}
            with pytest.raises(ConnectionError):
                person.line()
        assert active.stop(None) == 3
        assert "lost the database" in active.log_text()
        assert journal_rows(postgres_url) == rows  # nothing written under the fenced epoch
        people = back_in_their_seats(standby, token)
        assert {p.nick: seen_state(p) for p in people} == before  # the refused action never happened
        play(people, lambda: people[0].over() or people[1].over())
    finally:
        if active.process.poll() is None:
            active.process.send_signal(signal.SIGCONT)
            active.stop(signal.SIGKILL)
        if standby is not None:
            assert standby.stop(signal.SIGTERM) == 0
    assert "Traceback" not in active.log_text() + standby.log_text(), active.log_text() + standby.log_text()


def _folder(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    return folder



def test_the_failover_soak_in_small(postgres_url):
    """bench/soak_failover.py (20 kills of 10 tables) in small: 2 kills and a pause of 2 tables;
    nothing told lost, no journal gap or duplicate, no row written under a fenced epoch."""
    soak = Path(__file__).resolve().parents[2] / "bench" / "soak_failover.py"
    done = subprocess.run([sys.executable, str(soak), "--kills", "3", "--tables", "2", "--pause-every", "3",
                           "--lease", "2", "--renew", "0.5", "--database", postgres_url],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 accepted actions lost, 0 journal gaps, 0 duplicates, 0 rows written under a fenced epoch," \
           " 0 failures" in done.stdout
