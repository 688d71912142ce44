"""A new listener kind is one module and one registry entry: config, command line and
service take it as they are."""

from __future__ import annotations

import pytest_twisted
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.protocol import Protocol, ServerFactory

from bswtichu import cli
from bswtichu.config import Listener, parse_config
from bswtichu.net.kinds import KINDS, ListenerKind
from test_net_network import LOOPBACK, TIMEOUT, LineClient, RunningServer, reactor


class Echo(Protocol):
    def dataReceived(self, data: bytes) -> None:
        self.transport.write(data)


class EchoFactory(ServerFactory):
    """A kind's factory as the registry calls it: (lobby, config, clock)."""

    protocol = Echo

    def __init__(self, lobby, config, clock) -> None:
        self.config = config


@pytest_twisted.ensureDeferred
async def test_a_kind_added_to_the_registry_is_configured_and_listened_on(monkeypatch):
    monkeypatch.setitem(KINDS, "echo", ListenerKind("echo", EchoFactory, "echoes", "echo"))
    assert parse_config("[listen]\necho = tcp:0\n").endpoints_of("echo") == ("tcp:0",)
    args = cli.build_parser().parse_args(["--listen", f"echo={LOOPBACK}"])
    assert cli.config_from(args).listeners[-1] == Listener("echo", LOOPBACK)
    async with RunningServer(listeners=(Listener("line", LOOPBACK), Listener("echo", LOOPBACK))) as server:
        port = server.ports["echo"].getHost().port
        endpoint = TCP4ClientEndpoint(reactor(), "127.0.0.1", port)
        client = await connectProtocol(endpoint, LineClient()).addTimeout(TIMEOUT, reactor())
        client.send("hello")
        await client.wait_for(lambda line: line == "hello")
        client.transport.loseConnection()
        await client.lost.addTimeout(TIMEOUT, reactor())
        assert f"; echoes: echo 127.0.0.1:{port}; logs in" in server.service.describe()
