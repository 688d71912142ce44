"""End to end over real loopback TCP: the service, both ports, several clients.

Every awaited Deferred gets a 5-second timeout, so a hang fails one test
instead of stalling the run.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest_twisted
from twisted.conch.telnet import DONT, IAC, WILL
from twisted.internet.defer import Deferred
from twisted.internet.error import CannotListenError
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.protocol import Protocol

from bswtichu.config import Listener, ServerConfig
from bswtichu.service import makeService

from telnet_bytes import text_of

TIMEOUT = 5
LINEMODE = b"\x22"  # an option the server refuses
LOOPBACK = "tcp:0:interface=127.0.0.1"
#: a telnet and a line port, on free ports of the loopback interface (read back from ``ports``)
LOOPBACK_LISTENERS = (Listener("telnet", LOOPBACK), Listener("line", LOOPBACK))


def reactor():
    from twisted.internet import reactor as installed

    return installed


class LineClient(Protocol):
    """Collects CRLF lines (and raw bytes) from the server; lets a test wait for one."""

    def __init__(self) -> None:
        self.raw = b""
        self.lines: list[str] = []
        self._pending = b""
        self._waiters: list[tuple[object, Deferred]] = []
        self.lost: Deferred = Deferred()

    def dataReceived(self, data: bytes) -> None:
        self.raw += data
        self._pending += text_of(data)  # telnet offers at connect, GMCP: not lines
        *complete, self._pending = self._pending.split(b"\r\n")
        self.lines += [line.decode("utf-8", "replace") for line in complete]
        self._check()

    def connectionLost(self, reason: object = None) -> None:
        self.lost.callback(None)

    def send(self, line: str) -> None:
        self.transport.write(line.encode("utf-8") + b"\r\n")

    def wait_for(self, predicate, timeout: float = TIMEOUT) -> Deferred:
        """Fires with the first line (so far or later) for which ``predicate`` holds."""
        waiter = Deferred().addTimeout(timeout, reactor())
        self._waiters.append((predicate, waiter))
        self._check()
        return waiter

    async def message(self, keyword: str, **fields: object) -> dict:
        """The first machine-mode message with ``keyword`` and these field values."""

        def matches(line: str) -> bool:
            key, _, payload = line.partition(" ")
            if key != keyword:
                return False
            data = json.loads(payload)
            return all(data.get(k) == v for k, v in fields.items())

        line = await self.wait_for(matches)
        return json.loads(line.partition(" ")[2])

    def _check(self) -> None:
        for predicate, waiter in list(self._waiters):
            for line in self.lines:
                if predicate(line):
                    self._waiters.remove((predicate, waiter))
                    self.lines.remove(line)
                    if not waiter.called:
                        waiter.callback(line)
                    break


async def machine_client_from(port: int, address: str) -> LineClient:
    """A client of the line port on 127.0.0.1:``port`` whose connection comes from ``address``
    (any of 127.0.0.0/8: all loopback on Linux), greeted and in machine mode."""
    endpoint = TCP4ClientEndpoint(reactor(), "127.0.0.1", port, bindAddress=(address, 0))
    client = await connectProtocol(endpoint, LineClient()).addTimeout(TIMEOUT, reactor())
    await client.wait_for(lambda line: line.startswith("Limits:"))
    client.send("/mode machine")
    await client.message("MODE")
    return client


class RunningServer:
    """The real service on ephemeral loopback ports; ``async with`` starts and stops it."""

    def __init__(self, **settings: object) -> None:
        settings.setdefault("listeners", LOOPBACK_LISTENERS)
        #: the games' .tch logs go to a folder of the test's own, not to ./logs
        self.folder = Path(tempfile.mkdtemp(prefix="bswtichu-test-"))
        settings.setdefault("log_folder", str(self.folder / "logs"))
        settings.setdefault("database", ":memory:")
        self.config = ServerConfig(**settings)
        self.service = makeService(self.config, reactor())
        self.clients: list[LineClient] = []

    async def __aenter__(self) -> RunningServer:
        self.service.startService()
        self.ports = await self.service.whenListening().addTimeout(TIMEOUT, reactor())
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        try:
            await self.service.stopService().addTimeout(TIMEOUT, reactor())
            for client in self.clients:
                await client.lost.addTimeout(TIMEOUT, reactor())
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    async def connect(self, port_name: str) -> LineClient:
        port = self.ports[port_name].getHost().port
        endpoint = TCP4ClientEndpoint(reactor(), "127.0.0.1", port)
        client = await connectProtocol(endpoint, LineClient()).addTimeout(TIMEOUT, reactor())
        self.clients.append(client)
        await client.wait_for(lambda line: line.startswith("Limits:"))
        return client

    async def bot(self, nick: str) -> LineClient:
        client = await self.connect("line")
        client.send("/mode machine")
        client.send(f"/nick {nick}")
        await client.message("NICK", nick=nick)
        return client


@pytest_twisted.ensureDeferred
async def test_telnet_client_gets_crlf_and_option_refusal():
    async with RunningServer() as server:
        person = await server.connect("telnet")
        assert text_of(person.raw).startswith(b"Welcome to bswtichu")
        person.transport.write(IAC + WILL + LINEMODE + b"/nick Ann\r\n")
        await person.wait_for(lambda line: line.endswith("You are now Ann."))
        assert IAC + DONT + LINEMODE in person.raw
        assert b"\r\r" not in person.raw


@pytest_twisted.ensureDeferred
async def test_bot_port_has_no_iac_and_speaks_machine_mode():
    async with RunningServer() as server:
        robo = await server.bot("Robo")
        robo.send("/nope")
        error = await robo.message("ERROR")
        assert error == {"code": "unknown_command", "message": "unknown command /nope; /help lists the commands"}
        assert b"\xff" not in robo.raw


@pytest_twisted.ensureDeferred
async def test_overlong_line_and_bad_utf8_over_tcp():
    async with RunningServer(max_line_length=64) as server:
        robo = await server.bot("Robo")
        robo.transport.write(b"x" * 200 + b"\r\n" + b"caf\xe9\r\n")
        assert (await robo.message("ERROR"))["code"] == "line_too_long"
        assert (await robo.message("CHAT"))["text"] == "café"


@pytest_twisted.ensureDeferred
async def test_four_bots_join_chat_and_start_while_a_person_watches():
    async with RunningServer() as server:
        bots = [await server.bot(name) for name in ("Ann", "Bob", "Cy", "Dan")]
        bots[0].send("/join")
        await bots[0].message("JOINED", nick="Ann")
        bots[0].send("/tichujoin on")
        await bots[0].message("OPTION", name="tichujoin", value=True)
        for name, robot in zip(("Bob", "Cy", "Dan"), bots[1:]):
            robot.send("/join 1")
            await robot.message("JOINED", nick=name)
        watcher = await server.connect("telnet")
        watcher.send("/nick Eve")
        watcher.send("/watch 1")
        await watcher.wait_for(lambda line: line == "Eve is watching table 1.")
        bots[1].send("/msg Eve hello")
        assert (await watcher.wait_for(lambda line: line.startswith("*Bob*"))) == "*Bob* hello"
        bots[3].send("/start")
        started = await bots[2].message("STARTED")
        assert started["seats"] == ["Ann", "Cy", "Bob", "Dan"]
        line = await watcher.wait_for(lambda line: line.startswith("Table 1 starts"))
        assert "Partners: Ann + Bob (seats 1+3) against Cy + Dan (seats 2+4)" in line


@pytest_twisted.ensureDeferred
async def test_reconnect_to_the_same_seat_over_tcp():
    async with RunningServer() as server:
        ann, bob = await server.bot("Ann"), await server.bot("Bob")
        ann.send("/join")
        await ann.message("JOINED", nick="Ann")
        token = (await bob.message("RESUME_TOKEN", nick="Bob"))["token"]
        bob.send("/join 1")
        await ann.message("JOINED", nick="Bob")
        bob.transport.loseConnection()
        await bob.lost.addTimeout(TIMEOUT, reactor())
        away = await ann.message("AWAY")
        assert away["seat"] == 2
        impostor = await server.connect("line")
        impostor.send("/mode machine")
        impostor.send("/nick Bob")
        assert (await impostor.message("ERROR"))["code"] == "name_held"
        again = await server.connect("line")
        again.send("/mode machine")
        again.send(f"/resume {token}")
        assert await again.message("SEAT_HELD") == {"table": 1, "seat": 2}
        assert (await again.message("RETURNED"))["nick"] == "Bob"  # seated at once, no /join
        assert (await ann.message("RETURNED"))["nick"] == "Bob"


@pytest_twisted.ensureDeferred
async def test_flood_over_tcp_gets_one_error():
    async with RunningServer(line_flood_burst=5, line_flood_rate=0.01) as server:
        robo = await server.bot("Robo")  # /mode and /nick used two of the five tokens
        robo.transport.write(b"spam\r\n" * 30)
        assert (await robo.message("ERROR"))["code"] == "flood"
        assert sum(line.startswith("CHAT ") for line in robo.lines) == 3


@pytest_twisted.ensureDeferred
async def test_port_in_use_is_reported():
    async with RunningServer() as first:
        busy = f"tcp:{first.ports['telnet'].getHost().port}:interface=127.0.0.1"
        second = makeService(ServerConfig(listeners=(Listener("telnet", busy), Listener("line", LOOPBACK)), database=":memory:"),
                             reactor())
        second.startService()
        try:
            await second.whenListening().addTimeout(TIMEOUT, reactor())
        except CannotListenError:
            assert "telnet" not in second.ports
        else:
            raise AssertionError("listening on a busy port should fail")
        finally:
            await second.stopService().addTimeout(TIMEOUT, reactor())


async def sleeper_and_talker(server: "RunningServer") -> tuple:
    """Two bots at one table, Sleepy and Loud: Loud's chat is what Sleepy will not read."""
    sleepy, loud = await server.bot("Sleepy"), await server.bot("Loud")
    sleepy.send("/join")
    await sleepy.message("JOINED", nick="Sleepy")
    loud.send("/join 1")
    await loud.message("JOINED", nick="Loud")
    return sleepy, loud


@pytest_twisted.ensureDeferred
async def test_a_client_that_stops_reading_gets_its_bye_when_it_reads_again():
    """Past the output hard limit the server drops what waited and hangs up gently: a
    client that reads again (within the close timeout) finds BYE output at the end."""
    async with RunningServer(output_soft_limit=4096, output_hard_limit=8192, line_flood_rate=1e6,
                             line_flood_burst=1000000, line_byte_rate=1e9, line_byte_burst=10 ** 9) as server:
        sleepy, loud = await sleeper_and_talker(server)
        sleepy.transport.pauseProducing()  # stops reading: the kernel's buffers fill, then the server's queue
        session = server.service.lobby.names.find("Sleepy")
        for chunk in range(400):
            loud.transport.write(b"".join(b"%d-%d %s\r\n" % (chunk, n, b"z" * 380) for n in range(100)))
            await loud.wait_for(lambda line, c=chunk: f'"text":"{c}-99 ' in line)
            if session.closed:
                break
        assert session.closed, "the server never gave up on the client that did not read"
        sleepy.transport.resumeProducing()
        await sleepy.lost.addTimeout(TIMEOUT, reactor())
    assert sleepy.lines[-1] == 'BYE {"reason":"output"}'
