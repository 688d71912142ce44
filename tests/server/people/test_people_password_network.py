"""One connection's burst of password commands freezes nobody (issue 30 item 2), over real
sockets with the real thread pool, and against a running ``bswtichu`` process; and a
command typed at a password prompt over Debian telnet runs (issue 31 item 9).

No wall-clock assertions: the tests look at the order of what arrives and count the
hashes run and the refusals.
"""

from __future__ import annotations

import json
import re

import pytest
import pytest_twisted
from twisted.internet.defer import Deferred

from test_net_network import TIMEOUT, RunningServer, reactor
from test_cli_process import Server
from test_net_telnet_client import TELNET, telnet_session

PASSWORD = "a-pw-123"
BURST = 100


class Gate:
    """Holds every hash until ``open()``, then hands it (and every later one) to the real
    hasher: the test knows the server is hashing while it asks something else."""

    def __init__(self, hasher) -> None:
        self.hasher = hasher
        self.held: list[tuple[object, tuple, Deferred]] = []
        self.passed = 0
        self.first: Deferred = Deferred().addTimeout(TIMEOUT, reactor())
        self.is_open = False

    def __call__(self, work, *args) -> Deferred:
        self.passed += 1
        if not self.first.called:
            self.first.callback(None)
        if self.is_open:
            return self.hasher(work, *args)
        answer: Deferred = Deferred()
        self.held.append((work, args, answer))
        return answer

    def open(self) -> None:
        self.is_open = True
        for work, args, answer in self.held:
            self.hasher(work, *args).chainDeferred(answer)
        self.held.clear()


@pytest_twisted.ensureDeferred
async def test_a_burst_of_password_commands_holds_up_only_its_own_connection():
    async with RunningServer() as server:
        ann = await server.bot("Ann")
        ann.send(f"/register {PASSWORD}")  # one of the name's 6 password commands a minute
        await ann.message("REGISTERED")
        bob = await server.bot("Bob")
        hashing = server.service.lobby.names.guard.hashing
        gate = hashing.hasher = Gate(hashing.hasher)
        ann.transport.write(f"/password {PASSWORD} {PASSWORD}\r\n".encode() * BURST + b"/who\r\n")
        await gate.first  # Ann's first command waits for its hash
        bob.send("/who")
        who = await bob.message("WHO")  # answered while Ann's hash is held
        assert who["total"] == 2
        assert not [line for line in ann.lines if line.startswith(("PASSWORD", "ERROR"))]
        assert len(gate.held) == 1
        gate.open()
        answers = [await ann.wait_for(lambda line: line.startswith(("PASSWORD ", "ERROR ")))
                   for _ in range(BURST)]
        await ann.message("WHO")  # her own /who, after her passwords
        codes = [json.loads(line.partition(" ")[2]).get("code", "changed") for line in answers]
        assert codes == ["changed"] * 5 + ["password_budget"] * (BURST - 5)
        assert gate.passed == 5 * 2  # the present password's check and the new one's hash, 5 times
        assert hashing.in_flight == 0


@pytest.mark.skipif(TELNET is None, reason="needs telnet (Debian package telnet)")
@pytest_twisted.ensureDeferred
async def test_debian_telnet_a_command_at_a_password_prompt_runs_as_a_command(tmp_path):
    async with RunningServer(log_folder=str(tmp_path / "logs")) as server:
        server.service.lobby.names.guard.accounts.register("Ann", PASSWORD)
        async with telnet_session(server) as (process, screen):
            process.write(b"/nick Bob\r")
            await screen.until(rb"You are now Bob\.")
            process.write(b"/nick Ann\r")
            await screen.until(rb"Password \(not shown; an empty line gives up\):\r\n")
            process.write(b"not-her-password\r")
            await screen.until(rb"wrong password for Ann\r\n[^\r]*Password \(not shown")
            process.write(b"/who\r")  # a command, not her password
            await screen.until(rb"Online \(1\): Bob \(lobby\)")
            process.write(b"/quit\r")  # the echo is back: this line shows
            await screen.until(rb"/quit\r\n[^\r]*Goodbye\.")
    text = screen.screen.decode("utf-8", "replace")
    assert "too many failed attempts" not in text and "not-her-password" not in text


def test_the_running_program_answers_others_while_one_connection_sends_password_commands(tmp_path):
    """``bswtichu`` as a process: Ann sends 100 password commands in one burst; Bob, once
    Ann's first answer came, asks /who and sends Ann a message, which reaches her before
    her last answer (the old server read Bob's lines only after hashing all of hers)."""
    server = Server(tmp_path, "--set", "passwords.per_name=20", "--set", "passwords.per_address=100")
    try:
        ann, bob = server.connect("Ann"), server.connect("Bob")
        ann.ask(f"/register {PASSWORD}", "REGISTERED")  # one of the name's 20 a minute
        ann.sock.sendall(f"/password {PASSWORD} {PASSWORD}\r\n".encode() * BURST)
        order = [ann.expect("PASSWORD")[0]]
        assert bob.ask("/who", "WHO")["total"] == 2
        bob.say("/msg Ann still there?")
        while len([k for k in order if k != "MSG"]) < BURST:
            keyword, fields = ann.message()
            if keyword in ("PASSWORD", "ERROR", "MSG"):
                order.append(fields.get("code", keyword))
        assert order.count("PASSWORD") == 19 and order.count("password_budget") == BURST - 19
        assert order.index("MSG") < len(order) - 1  # Bob's message came before her last answer
        assert "still there" not in server.log_text() and PASSWORD not in server.log_text()
    finally:
        server.stop(15)
    assert not re.search(r"Traceback|Unhandled", server.log_text())
