"""Connections counted and timed from accept on (``net/accept.py``), over real loopback sockets.

The trickle attack of issue 30 at a small scale: slow HTTP requests from one address fill
its share of connections and no more (past the cap each listener kind refuses at once, and
another address is still served), their heads are cut off when late, a TLS handshake that
never comes likewise. The deadlines run on a `Clock` the test advances (the sockets are real).
"""

from __future__ import annotations

import pytest
import pytest_twisted
from twisted.internet.address import IPv4Address
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

from bswtichu.config import ConfigError, LiveConfig, Listener, ServerConfig
from bswtichu.net.accept import AcceptGuard
from bswtichu.net.line import BotLineFactory
from bswtichu.server.games.logs import GameLogStore
from bswtichu.service import build_lobby
from test_net_network import LOOPBACK, TIMEOUT, LineClient, RunningServer, reactor
from test_net_tls import connect_tls, self_signed

HEAD = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX"  # a request's head, one byte into a header
WEB_LISTENERS = (Listener("telnet", LOOPBACK), Listener("line", LOOPBACK), Listener("websocket", LOOPBACK),
                 Listener("metrics", LOOPBACK))


async def raw(server: RunningServer, port_name: str, source: str = "127.0.0.1") -> LineClient:
    """A TCP connection from ``source`` (any 127.x address) that has sent nothing yet."""
    port = server.ports[port_name].getHost().port
    endpoint = TCP4ClientEndpoint(reactor(), "127.0.0.1", port, bindAddress=(source, 0))
    client = await connectProtocol(endpoint, LineClient()).addTimeout(TIMEOUT, reactor())
    server.clients.append(client)
    return client


async def greeted(server: RunningServer, port_name: str, source: str = "127.0.0.1") -> LineClient:
    client = await raw(server, port_name, source)
    await client.wait_for(lambda line: line.startswith("Limits:"))
    return client


async def hang_up(*clients: LineClient) -> None:
    for client in clients:
        client.transport.loseConnection()
        await client.lost.addTimeout(TIMEOUT, reactor())


async def served_page(server: RunningServer, port_name: str = "websocket") -> LineClient:
    """A client that asked for the page and got it (the connection stays open: keep-alive)."""
    client = await raw(server, port_name)
    client.transport.write(HEAD[:-1] + b"\r\n")
    await client.wait_for(lambda line: line.startswith("HTTP/1.1 "))
    return client


@pytest_twisted.ensureDeferred
async def test_trickled_requests_take_their_addresss_share_and_no_more():
    """Issue 30: trickling HTTP requests from one address filled the server's descriptors.
    Now the cap per address counts them from accept: past it every kind refuses at once,
    another address is served, and once the tricklers are cut off the address is served again."""
    clock = Clock()
    async with RunningServer(listeners=WEB_LISTENERS, connections_per_address=4) as server:
        server.service.guard.clock = clock
        tricklers = [await raw(server, "websocket") for _ in range(3)]
        for trickler in tricklers:
            trickler.transport.write(HEAD)
        person = await greeted(server, "telnet")  # the fourth (accepted after the three)
        refused_web = await raw(server, "websocket")
        await refused_web.lost.addTimeout(TIMEOUT, reactor())
        assert refused_web.raw.startswith(b"HTTP/1.1 503 Service Unavailable\r\n")
        assert refused_web.raw.endswith(b"\r\n\r\nAt most 4 connections from one address; close another"
                                        b" one first.\n")
        for kind in ("telnet", "line", "metrics"):
            refused = await raw(server, kind)
            await refused.lost.addTimeout(TIMEOUT, reactor())
            expected = b"At most 4 connections from one address; close another one first."
            assert expected in refused.raw, (kind, refused.raw)
            assert b"Welcome" not in refused.raw
        other = await greeted(server, "telnet", source="127.0.0.2")  # another address is served
        other.send("/nick Other")
        await other.wait_for(lambda line: line.endswith("You are now Other."))
        assert server.service.guard.open_from("127.0.0.1") == 4
        clock.advance(server.config.header_timeout)  # the tricklers' heads are late: cut off
        for trickler in tricklers:
            await trickler.lost.addTimeout(TIMEOUT, reactor())
        assert server.service.guard.open_from("127.0.0.1") == 1
        again = await greeted(server, "line")
        await hang_up(person, other, again)


@pytest_twisted.ensureDeferred
async def test_an_uncapped_address_is_spared_and_a_reload_applies_a_new_cap():
    async with RunningServer(connections_per_address=2, uncapped_addresses="127.0.0.3",
                             read_size=1000) as server:
        bridge = [await greeted(server, "line", source="127.0.0.3") for _ in range(4)]
        people = [await greeted(server, "telnet") for _ in range(2)]
        sockets = [session._connection.socket_transport().transport
                   for session in server.service.lobby.connections]
        assert [socket.bufferSize for socket in sockets] == [1000] * 6  # (set through the guard)
        refused = await raw(server, "line")
        await refused.lost.addTimeout(TIMEOUT, reactor())
        assert refused.lines == ["At most 2 connections from one address; close another one first."]
        server.service.reload(server.config.replace(connections_per_address=3))
        third = await greeted(server, "line")
        await hang_up(*bridge, *people, third)


@pytest_twisted.ensureDeferred
@pytest.mark.parametrize("kind", ["websocket", "metrics"])
async def test_a_request_whose_head_is_late_is_cut_off_also_after_an_answer(kind):
    clock = Clock()
    async with RunningServer(listeners=WEB_LISTENERS) as server:
        server.service.guard.clock = clock
        silent = await raw(server, kind)  # connects and sends nothing
        trickler = await raw(server, kind)
        trickler.transport.write(HEAD)
        kept_alive = await served_page(server, kind)  # answered; its next request is due
        prompt = await raw(server, kind)
        await served_page(server, kind)  # (every connection before it was accepted by now)
        clock.advance(server.config.header_timeout - 0.5)
        prompt.transport.write(HEAD[:-1] + b"\r\n")
        await prompt.wait_for(lambda line: line.startswith("HTTP/1.1 "))
        clock.advance(0.5)
        for late in (silent, trickler, kept_alive):
            await late.lost.addTimeout(TIMEOUT, reactor())
        assert not prompt.lost.called  # it sent its head in time; its next one is due later
        await hang_up(prompt)


@pytest_twisted.ensureDeferred
async def test_the_websocket_once_open_is_not_timed_as_a_request():
    from websocket_clients import open_websocket

    clock = Clock()
    async with RunningServer(listeners=WEB_LISTENERS) as server:
        server.service.guard.clock = clock
        socket = await open_websocket(server.ports["websocket"].getHost().port, ["bswtichu.machine"])
        clock.advance(server.config.header_timeout * 10)
        socket.say("/nick Webby", binary=False)
        await socket.wait_for(lambda frame: frame.startswith("NICK "), where="text")
        socket.sendClose(1000)
        await socket.closed.addTimeout(TIMEOUT, reactor())


@pytest_twisted.ensureDeferred
async def test_a_tls_handshake_that_does_not_come_is_cut_off(tmp_path):
    options, certificate = self_signed(tmp_path)
    clock = Clock()
    listeners = (Listener("telnet", f"ssl:0:{options}:interface=127.0.0.1"),
                 Listener("websocket", f"ssl:0:{options}:interface=127.0.0.1"))
    async with RunningServer(listeners=listeners, connections_per_address=3) as server:
        server.service.guard.clock = clock
        stalled = await raw(server, "telnet")  # TCP only: no ClientHello
        stalled_web = await raw(server, "websocket")
        person = await connect_tls(server, "telnet", certificate)  # handshake done (accepted after)
        refused = await raw(server, "telnet")  # past the cap: closed before any handshake
        await refused.lost.addTimeout(TIMEOUT, reactor())
        assert refused.raw == b""
        clock.advance(server.config.tls_handshake_timeout)
        await stalled.lost.addTimeout(TIMEOUT, reactor())
        await stalled_web.lost.addTimeout(TIMEOUT, reactor())
        person.send("/nick Secure")
        await person.wait_for(lambda line: line.endswith("You are now Secure."))
        await hang_up(person)


def test_the_deadlines_count_from_accept_on_the_clock(tmp_path):
    """The same with a fake transport: nothing is cut off a moment early."""
    clock = Clock()
    config = ServerConfig(header_timeout=3.0, log_folder=str(tmp_path))
    lobby = build_lobby(clock, config, lambda table: None, GameLogStore(config.log_folder))
    from bswtichu.net.websocket import WebSocketListener

    guard = AcceptGuard(LiveConfig(config), clock)
    factory = guard.wrap(WebSocketListener(lobby, config, clock), http=True)
    connection = factory.buildProtocol(IPv4Address("TCP", "192.0.2.1", 40000))
    transport = StringTransport(peerAddress=IPv4Address("TCP", "192.0.2.1", 40000))
    connection.makeConnection(transport)
    connection.dataReceived(HEAD)
    clock.advance(2.9)
    assert not transport.disconnected
    clock.advance(0.1)
    assert transport.disconnected  # (StringTransport: set by abortConnection only)
    connection.connectionLost(None)
    assert guard.open_from("192.0.2.1") == 0


def test_connections_per_address_and_the_uncapped_ones(tmp_path):
    clock = Clock()
    config = ServerConfig(connections_per_address=2, uncapped_addresses="192.0.2.7 ::1",
                          log_folder=str(tmp_path))
    lobby = build_lobby(clock, config, lambda table: None, GameLogStore(config.log_folder))
    guard = AcceptGuard(LiveConfig(config), clock)
    factory = guard.wrap(BotLineFactory(lobby, config, clock))

    def connect(host: str):
        transport = StringTransport(peerAddress=IPv4Address("TCP", host, 40000))
        protocol = factory.buildProtocol(transport.getPeer())
        protocol.makeConnection(transport)
        return protocol

    bridge = [connect("192.0.2.7") for _ in range(5)]
    assert not any(protocol.transport.disconnecting for protocol in bridge)
    first, second, third = (connect("192.0.2.1") for _ in range(3))
    assert not second.transport.disconnecting
    assert third.transport.value() == b"At most 2 connections from one address; close another one first.\r\n"
    assert third.transport.disconnecting
    assert not connect("192.0.2.99").transport.disconnecting
    first.connectionLost(None)
    assert not connect("192.0.2.1").transport.disconnecting


@pytest.mark.parametrize("name", ["header_timeout", "tls_handshake_timeout"])
def test_the_timeouts_must_be_above_zero(name):
    with pytest.raises(ConfigError, match=f"{name} must be above 0"):
        ServerConfig(**{name: 0})
