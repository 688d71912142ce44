"""A WebSocket client for server tests, on autobahn's own client over real loopback TCP.

(A module of its own so the TLS tests can use it too.)
"""

from __future__ import annotations

import json

from autobahn.twisted.websocket import WebSocketClientFactory, WebSocketClientProtocol
from twisted.internet.defer import Deferred
from twisted.internet import ssl
from twisted.internet.endpoints import SSL4ClientEndpoint, TCP4ClientEndpoint

from test_net_network import TIMEOUT, reactor


class FrameClient(WebSocketClientProtocol):
    """Keeps every frame (BINARY ones split into lines, TEXT ones whole); lets a test wait."""

    def __init__(self) -> None:
        super().__init__()
        self.binary: list[str] = []  # lines of the BINARY frames' text
        self.text: list[str] = []  # TEXT frames
        self.frames: list[tuple[bool, bytes]] = []  # (binary, payload) as they came
        self._pending = ""
        self._waiters: list[tuple[str, object, Deferred]] = []
        self.opened: Deferred = Deferred()
        self.closed: Deferred = Deferred()
        self.chosen: str | None = None

    def onConnect(self, response) -> None:
        self.chosen = response.protocol

    def onOpen(self) -> None:
        self.opened.callback(self)

    def onMessage(self, payload: bytes, isBinary: bool) -> None:
        self.frames.append((isBinary, payload))
        if isBinary:
            self._pending += payload.decode("utf-8")
            *complete, self._pending = self._pending.split("\r\n")
            self.binary += complete
        else:
            self.text.append(payload.decode("utf-8"))
        self._check()

    def onClose(self, wasClean: bool, code: int | None, reason: str | None) -> None:
        if not self.opened.called:
            self.opened.errback(ConnectionError(reason))
        if not self.closed.called:
            self.closed.callback((code, reason))

    def say(self, line: str, binary: bool = True) -> None:
        self.sendMessage(line.encode("utf-8"), isBinary=binary)

    def wait_for(self, predicate, where: str = "binary") -> Deferred:
        """Fires with the first line of the BINARY frames (or the first TEXT frame, ``where``
        "text"), so far or later, for which ``predicate`` holds; that one is taken away."""
        waiter = Deferred().addTimeout(TIMEOUT, reactor())
        self._waiters.append((where, predicate, waiter))
        self._check()
        return waiter

    async def message(self, keyword: str, **fields: object) -> dict:
        """The first machine line (TEXT frame) with ``keyword`` and these field values."""

        def matches(line: str) -> bool:
            key, _, payload = line.partition(" ")
            if key != keyword:
                return False
            data = json.loads(payload)
            return all(data.get(k) == v for k, v in fields.items())

        line = await self.wait_for(matches, "text")
        return json.loads(line.partition(" ")[2])

    def _check(self) -> None:
        for where, predicate, waiter in list(self._waiters):
            pool = self.binary if where == "binary" else self.text
            for line in pool:
                if predicate(line):
                    self._waiters.remove((where, predicate, waiter))
                    pool.remove(line)
                    if not waiter.called:
                        waiter.callback(line)
                    break


async def open_websocket(port: int, protocols: list[str] | None = None, origin: str | None = None,
                         clients: list | None = None, trusted_pem: bytes | None = None) -> FrameClient:
    """A FrameClient connected to ``ws://127.0.0.1:PORT/ws`` (``wss://localhost:PORT/ws``
    trusting the certificate ``trusted_pem``), its handshake done."""
    if trusted_pem is None:
        url, endpoint = f"ws://127.0.0.1:{port}/ws", TCP4ClientEndpoint(reactor(), "127.0.0.1", port)
    else:
        trust = ssl.optionsForClientTLS("localhost", trustRoot=ssl.Certificate.loadPEM(trusted_pem))
        url, endpoint = f"wss://localhost:{port}/ws", SSL4ClientEndpoint(reactor(), "127.0.0.1", port, trust)
    factory = WebSocketClientFactory(url, origin=origin, protocols=protocols)
    factory.protocol = FrameClient
    client = await endpoint.connect(factory).addTimeout(TIMEOUT, reactor())
    if clients is not None:
        clients.append(client)
    await client.opened.addTimeout(TIMEOUT, reactor())
    return client
