"""Every connection counted and timed from the moment it is accepted, whatever it speaks.

The cap per address (``connections_per_address``; ``uncapped_addresses`` are spared) is
counted here, over every listener together, from accept on: a connection past it is
refused at once, before a session, an HTTP parser or a TLS handshake is made for it
(the telnet and line ports send a line saying why, the web ones an HTTP 503; over TLS it
is simply closed, as a line would first cost a handshake). A connection to an ``ssl:``
listener has ``tls_handshake_timeout`` seconds to finish its handshake, and an HTTP one
(the ``websocket`` and ``metrics`` kinds) ``header_timeout`` seconds to send each
request's head; past either it is cut off.

Accept failures (out of file descriptors: ``EMFILE``) are logged when they begin and when
connections are accepted again, not per attempt. Twisted's listening port keeps a spare
descriptor for them: while the process has none left, it accepts each waiting client on
that spare and closes it at once, and keeps listening. Without a spare (it could not be
taken back) the waiting clients stay queued, and the port stops reading for
`ACCEPT_RETRY` seconds instead of trying again in every turn of the reactor.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from twisted.internet.interfaces import (
    IDelayedCall, IHandshakeListener, IProtocolNegotiationFactory, IReactorTime, ISSLTransport,
    ITCPTransport,
)
from twisted.internet.protocol import Factory, Protocol, connectionDone
from twisted.logger import Logger
from twisted.protocols.policies import ProtocolWrapper, WrappingFactory
from twisted.python.failure import Failure
from twisted.web.server import Request
from zope.interface import alsoProvides, directlyProvidedBy, directlyProvides, implementer

from bswtichu.config import LiveConfig
from bswtichu.net import tls

#: seconds a port without a spare descriptor waits before it tries to accept again
ACCEPT_RETRY = 0.5
#: an accept error that says nothing about the server's resources (the client gave up first)
HARMLESS_ACCEPT_ERRORS = frozenset({"ECONNABORTED"})


def too_many(cap: int) -> str:
    """Why a connection past the cap per address is refused."""
    return f"At most {cap} connections from one address; close another one first."


def as_line(text: str) -> bytes:
    """A refusal as the telnet and line ports say it: one text line."""
    return text.encode("utf-8") + b"\r\n"


def as_http(text: str) -> bytes:
    """A refusal as an HTTP port says it: 503 with the reason as plain text, then the close."""
    body = text.encode("utf-8") + b"\n"
    return (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
            b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body)) + body


class AcceptGuard:
    """What all listeners of one server share at accept: the open connections per address,
    the live settings (cap, time-outs), the clock, and the accept failures."""

    log = Logger()

    def __init__(self, config: LiveConfig, clock: IReactorTime) -> None:
        self.config = config
        self.clock = clock
        self._open: Counter[str] = Counter()
        #: the accept error of the failure going on (None: accepting), and the clients closed since
        self.failing: str | None = None
        self.closed_unaccepted = 0

    def wrap(self, factory: Factory, http: bool = False) -> GuardedFactory:
        """``factory``'s listener, guarded; ``http``: it speaks HTTP (its requests are timed)."""
        return GuardedFactory(self, factory, http)

    def open_from(self, address: str) -> int:
        """Connections open now from ``address``."""
        return self._open[address]

    def take(self, address: str) -> int | None:
        """Count a new connection from ``address`` (an IP; "" for a UNIX socket: not counted);
        or, past the cap (and the address not spared), leave it uncounted and return the cap."""
        if not address:
            return None
        settings = self.config.current
        cap = settings.connections_per_address
        if self._open[address] >= cap and address not in settings.uncapped:
            return cap
        self._open[address] += 1
        return None

    def release(self, address: str) -> None:
        """A connection `take` counted has closed."""
        if address:
            self._open[address] -= 1
            if not self._open[address]:
                del self._open[address]

    # -- accept failures ------------------------------------------------------

    def watch(self, port: object) -> None:
        """Hear a listening port's accept failures (Twisted's port logs each attempt)."""
        if hasattr(port, "_logger"):  # twisted.internet.tcp.Port: what its accept loop logs to
            port._logger = Logger(namespace=port._logger.namespace,
                                  observer=lambda event: self._accept_failed(port, event))  # type: ignore[arg-type]  # a callable observes

    def _accept_failed(self, port: Any, event: dict) -> None:
        """One event of a port's accept loop: a client closed on the spare descriptor
        (``address``), an accept error without a spare (``acceptError``), or news of the spare.
        ``port`` is Twisted's TCP port (Any: no interface names its switch for reading)."""
        error = event.get("acceptError")
        if error in HARMLESS_ACCEPT_ERRORS:
            return
        if "address" in event:
            self.closed_unaccepted += 1
        if self.failing is None:
            self.failing = error or "EMFILE"
            self.log.warn(
                "cannot accept new connections ({error}: out of file descriptors or memory); until"
                " some close, new clients are turned away. Raise the limit of open files (ulimit"
                " -n, systemd's LimitNOFILE=) or lower connections_per_address",
                error=self.failing, event="accept_failed")
        if error is not None and getattr(port, "connected", False):
            port.stopReading()  # its clients wait in the queue; try again soon, not at once
            self.clock.callLater(ACCEPT_RETRY, self._retry, port)

    @staticmethod
    def _retry(port: Any) -> None:
        if port.connected:
            port.startReading()

    def accepted(self) -> None:
        """A connection was accepted: any failure is over."""
        if self.failing is not None:
            self.log.info("accepting new connections again ({count} closed unaccepted meanwhile)",
                          count=self.closed_unaccepted, event="accept_recovered")
            self.failing = None
            self.closed_unaccepted = 0


class GuardedFactory(WrappingFactory["GuardedConnection"]):
    """A listener's factory behind the guard: refuses past the cap, times what comes."""

    noisy = False

    def __init__(self, guard: AcceptGuard, wrapped: Factory, http: bool) -> None:
        super().__init__(wrapped)
        self.guard = guard
        self.http = http
        if IProtocolNegotiationFactory.providedBy(wrapped):  # (TLS asks the factory it wraps)
            alsoProvides(self, IProtocolNegotiationFactory)

    def acceptableProtocols(self) -> list[bytes]:
        """The protocols TLS may agree on (ALPN): the guarded factory's."""
        return self.wrappedFactory.acceptableProtocols()

    def buildProtocol(self, addr: object) -> Protocol:  # type: ignore[override]  # a refused one is no wrapper: never registered
        self.guard.accepted()
        address = getattr(addr, "host", "")
        cap = self.guard.take(address)
        if cap is not None:
            text = too_many(cap)
            return RefusedConnection(as_http(text) if self.http else as_line(text))
        return GuardedConnection(self, self.wrappedFactory.buildProtocol(addr), address)

    def unregisterProtocol(self, protocol: GuardedConnection) -> None:
        super().unregisterProtocol(protocol)
        self.guard.release(protocol.address)


class RefusedConnection(Protocol):
    """A connection past the cap: says why (not over TLS) and hangs up."""

    #: a server's stream: TCP, a UNIX socket, or TLS over either (set as it connects)
    transport: ITCPTransport

    def __init__(self, answer: bytes) -> None:
        self.answer = answer

    def connectionMade(self) -> None:
        if tls.encrypted(self.transport):
            self.transport.abortConnection()
            return
        self.transport.write(self.answer)
        self.transport.loseConnection()


@implementer(IHandshakeListener)
class GuardedConnection(ProtocolWrapper):
    """One counted connection: the transport its listener's protocol sees. It cuts the
    connection off when what is due (the TLS handshake, an HTTP request's head) is late."""

    log = Logger()
    #: a server's stream: TCP, a UNIX socket, or TLS over either (set as it connects)
    transport: ITCPTransport

    def __init__(self, factory: GuardedFactory, wrapped: Protocol, address: str) -> None:
        super().__init__(factory, wrapped)
        self.address = address
        self._deadline: IDelayedCall | None = None
        self._lost = False

    def makeConnection(self, transport) -> None:
        super().makeConnection(transport)
        # It passes for its transport, but for `ISSLTransport`, which autobahn takes for the TLS
        # protocol itself (its channel binding); `INegotiated` still says it is TLS.
        directlyProvides(self, directlyProvidedBy(self) - ISSLTransport)
        if tls.encrypted(transport):
            self.expect("TLS handshake", self.factory.guard.config.current.tls_handshake_timeout)
        elif self.factory.http:
            self.expect_request()

    def handshakeCompleted(self) -> None:
        self.met()
        if self.factory.http:
            self.expect_request()
        if IHandshakeListener.providedBy(self.wrappedProtocol):
            self.wrappedProtocol.handshakeCompleted()

    def expect_request(self) -> None:
        """An HTTP request's head is due within ``header_timeout``."""
        self.expect("request head", self.factory.guard.config.current.header_timeout)

    def expect(self, what: str, seconds: float) -> None:
        """``what`` is due within ``seconds``: cut the connection off if `met` is not called by then."""
        self.met()
        if not self._lost:
            self._deadline = self.factory.guard.clock.callLater(seconds, self._late, what, seconds)

    def met(self) -> None:
        """What was due came."""
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self, what: str, seconds: float) -> None:
        self._deadline = None
        self.log.debug("{peer}: no {what} within {seconds} s; cut off", peer=str(self.getPeer()),
                       what=what, seconds=seconds, event="connection_late")
        self.transport.abortConnection()

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        self._lost = True
        self.met()
        super().connectionLost(reason)

    # The port's read size is the socket's, not this wrapper's (`LineConnection.start` sets it).
    @property
    def bufferSize(self) -> int:
        return self.transport.bufferSize  # type: ignore[attr-defined]  # the socket's: no interface has it

    @bufferSize.setter
    def bufferSize(self, size: int) -> None:
        self.transport.bufferSize = size  # type: ignore[attr-defined]  # the socket's: no interface has it


def guard_of(transport: object) -> GuardedConnection | None:
    """The guard of a connection whose transport this is (None: it came in unguarded)."""
    return transport if isinstance(transport, GuardedConnection) else None


class TimedRequest(Request):
    """twisted.web's request, telling the connection's guard that its head has come (the
    `header_timeout` is met) and, when its answer is done, that the next one's head is due."""

    def gotLength(self, length: int | None) -> None:
        guard = guard_of(self.channel.transport)
        if guard is not None:
            guard.met()
        super().gotLength(length)

    def finish(self) -> None:
        guard = guard_of(getattr(self.channel, "transport", None))
        if guard is not None:
            guard.expect_request()  # (before the answer ends: a head waiting already meets it)
        super().finish()
