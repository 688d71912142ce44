"""Bytes to lines, shared by every line-based listener kind: budgets, framing, decoding, idle limit.

Limits (all from ServerConfig; the greeting announces the line limits):

- Bytes: a token bucket of ``byte_burst`` bytes refilled at ``byte_rate`` per
  second, charged for every chunk read *before* it is parsed. A client in debt is
  not read from (its transport is paused on the injected clock) until the debt is
  paid. At most ``read_size`` bytes are read at a time.
- Lines: a token bucket of ``flood_burst`` lines refilled at ``flood_rate`` per
  second. A line without a token waits (reading pauses) instead of being
  dropped; the first wait of a run gets one ERROR ``flood``.
- A line is at most ``max_line_length`` bytes without its line end. A longer line
  gets one ERROR ``line_too_long``; the rest of it is dropped up to its line
  end; the connection stays.
- Output: see ``budget.OutputQueue`` (``output_soft_limit``, ``output_hard_limit``).
- Idle: after ``idle_timeout`` seconds without input the server sends BYE and hangs
  up (0 switches it off).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from typing import Any

from twisted.internet.interfaces import IDelayedCall, IReactorTime, ITransport
from twisted.internet.protocol import ServerFactory
from twisted.logger import Logger
from twisted.protocols.policies import TimeoutMixin

from bswtichu.config import ServerConfig
from bswtichu.net import tls
from bswtichu.net.budget import OutputQueue, ReadThrottle, TokenBucket, socket_sender
from bswtichu.realm import Client, Realm

CR, LF = 0x0D, 0x0A
LINE_END = re.compile(rb"[\r\n]")
# A client that stops reading after /quit or BYE is cut off after this many seconds.
CLOSE_TIMEOUT = 10.0


class TooLong:
    """Marks a line that passed the length limit (its bytes are dropped)."""


TOO_LONG = TooLong()


class LineFramer:
    """Splits a byte stream at CR LF, LF or a bare CR, with a length limit.

    Bytes are ``push``ed in and lines taken out one at a time with ``next_line``,
    so unread lines can wait here while the client is over his line budget. A CR
    followed by LF is one line end even when the two arrive in different chunks,
    unless ``merge_crlf`` is off (behind telnet, which has already turned CR LF
    into LF and CR NUL into CR). The search for line ends runs in C (``re``).
    """

    def __init__(self, max_length: int, merge_crlf: bool = True) -> None:
        self.max_length = max_length
        self.merge_crlf = merge_crlf
        self._buffer = bytearray()
        self._after_cr = False  # the last line ended in CR: an LF next is part of it
        self._dropping = False  # inside an overlong line: drop up to its line end

    def push(self, data: bytes) -> None:
        self._buffer += data
        self._skip_lf_after_cr()

    def has_line(self) -> bool:
        """Whether ``next_line`` would return a line or TOO_LONG now."""
        if LINE_END.search(self._buffer) is not None:
            return True
        return not self._dropping and len(self._buffer) > self.max_length

    def next_line(self) -> bytes | TooLong | None:
        """The next complete line, TOO_LONG for an overlong one, or None."""
        buffer = self._buffer
        while True:
            found = LINE_END.search(buffer)
            if found is None:
                if self._dropping:
                    buffer.clear()
                elif len(buffer) > self.max_length:
                    buffer.clear()
                    self._dropping = True
                    return TOO_LONG
                return None
            end = found.start()
            line = bytes(buffer[:end])
            self._after_cr = self.merge_crlf and buffer[end] == CR
            del buffer[: end + 1]
            self._skip_lf_after_cr()
            if self._dropping:
                self._dropping = False
                continue
            return TOO_LONG if len(line) > self.max_length else line

    def _skip_lf_after_cr(self) -> None:
        if self._after_cr and self._buffer:
            self._after_cr = False
            if self._buffer[0] == LF:
                del self._buffer[0]


def decode_line(raw: bytes) -> str:
    """UTF-8 if it is valid, else Latin-1 (never fails); control characters removed."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    if text.isascii() and text.isprintable():  # the common line: nothing to remove
        return text
    return "".join(
        " " if ch == "\t" else ch
        for ch in text
        if ch == "\t" or unicodedata.category(ch) not in ("Cc", "Zl", "Zp")
    )


class LineConnection(TimeoutMixin):
    """What every line-based kind shares: budgeted lines in, queued text lines out, one session
    (the realm's `Client`; this is its `Connection`).

    Mixed into a Twisted protocol: it handles the protocol events itself. The port
    says how lines go on the wire (``encode_lines``) and calls ``charge_input``
    with every chunk's size before it parses the chunk. What ``encode_lines``
    gives is written to the socket as it is (behind any telnet layer).
    """

    #: greeted as bots may connect (the WebSocket port's people-only subprotocols say True)
    for_people = False

    log = Logger()
    # what the Twisted protocol it is mixed into has (FrameLines sets its transport itself)
    transport: ITransport | None
    factory: LobbyFactory
    merges_crlf = True  # whether CR LF in the application bytes is one line end
    #: whether output may go straight into the socket while the transport holds nothing
    #: (`OutputQueue`'s ``send_now``): only where nothing else writes to the transport
    #: (not behind telnet, whose negotiation writes to it itself)
    writes_directly = False

    def __init__(self, lobby: Realm, config: ServerConfig, clock: IReactorTime) -> None:
        self.lobby = lobby
        self.config = config
        self.clock = clock
        self.session: Client | None = None
        self._framer = LineFramer(config.max_line_length, self.merges_crlf)
        self._line_budget = TokenBucket(config.flood_rate, config.flood_burst, clock)
        self._byte_budget = TokenBucket(config.byte_rate, config.byte_burst, clock)
        self._throttle: ReadThrottle | None = None
        self._output: OutputQueue | None = None
        self._tcp: Any = None  # the socket transport (`socket_transport`), from start
        self._producing = False  # whether the output queue is the transport's producer
        self._flood_warned = False
        self._abort_call: IDelayedCall | None = None

    def encode_lines(self, lines: list[str]) -> bytes:
        raise NotImplementedError

    def callLater(self, period: float, func: Callable[[], object]) -> IDelayedCall:
        """TimeoutMixin's timer, on the injected clock."""
        return self.clock.callLater(period, func)

    def socket_transport(self) -> Any:
        """The connection's transport, under any layer of the port's own (telnet overrides
        this): TCP or a UNIX socket, or TLS over one; it pauses, resumes and aborts. (Any: what
        is used of it, the producer's switches, its buffer size and whether it disconnects, no
        Twisted interface names together.)"""
        return self.transport

    # -- Connection (what the client needs) --------------------------------------

    def send_lines(self, lines: list[str], droppable: bool = False) -> None:
        output = self._output
        if output is not None and not self._tcp.disconnecting:
            self._counted(output.send(data := self.encode_lines(lines), droppable), len(data), len(lines))

    def send_bytes(self, data: bytes, droppable: bool = False) -> None:
        """Bytes as they go on the wire, through the output queue (in order with the lines)."""
        if self._output is not None and not self._tcp.disconnecting:
            self._counted(self._output.send(data, droppable), len(data), 1)

    def _counted(self, kept: bool, size: int, lines: int) -> None:
        """Tell the realm's counters what went out, or how many lines were skipped."""
        if kept:
            self.lobby.counters.sent(self.kind, size)
        else:
            self.lobby.counters.skipped(lines)

    @property
    def kind(self) -> str:
        """The listener kind this connection came in on (its factory's, from the registry): its
        connections are counted by it, and its TLS port is named to a plain client from afar."""
        return self.factory.kind

    def close(self) -> None:
        """Hang up once what is queued has been sent (or after CLOSE_TIMEOUT)."""
        if self.transport is None or self._abort_call is not None:
            return
        socket = self.socket_transport()
        if self._output is not None:
            self._output.flush()
            if self._producing:  # (a TLS transport shuts down only once no producer is left)
                self._producing = False
                socket.unregisterProducer()
        self.transport.loseConnection()
        self._abort_call = self.clock.callLater(CLOSE_TIMEOUT, self._abort)

    def _abort(self) -> None:
        self._abort_call = None
        socket = self.socket_transport()
        if hasattr(socket, "abortConnection"):
            socket.abortConnection()

    # -- protocol events ------------------------------------------------------

    def connectionMade(self) -> None:
        self.start()

    def dataReceived(self, data: bytes) -> None:
        self.bytes_received(data)

    def connectionLost(self, reason: object = None) -> None:
        self.stop()

    def start(self) -> None:
        socket = self._tcp = self.socket_transport()
        # Lines are small and answers must not wait for the client's delayed ACK (Nagle).
        if hasattr(socket, "setTcpNoDelay"):
            socket.setTcpNoDelay(True)
        if hasattr(socket, "bufferSize"):
            socket.bufferSize = self.config.read_size  # read (and buffer) this much at a time
        self._throttle = ReadThrottle(socket, self.clock, self._take_lines)
        self._output = OutputQueue(
            socket.write,
            self.config.output_soft_limit,
            self.config.output_hard_limit,
            self._skip_notice,
            self._output_overflow,
            socket_sender(socket) if self.writes_directly else None,
        )
        if hasattr(socket, "registerProducer"):
            socket.registerProducer(self._output, self._output.streaming)
            self._producing = True
        peer = self.transport.getPeer()  # type: ignore[union-attr]  # it starts once connected
        host = getattr(peer, "host", "")
        self.session = self.lobby.connect(self, f"{host}:{getattr(peer, 'port', '?')}",
                                          self.config, host)
        if not tls.encrypted(socket) and not tls.local(host):
            self.session.unencrypted = tls.tls_port(self.config.endpoints_of(self.kind)) or 0
        self.lobby.counters.connection_opened(self.kind)
        self.setTimeout(self.config.idle_timeout or None)

    def charge_input(self, size: int) -> None:
        """Count ``size`` raw bytes against the byte budget, before they are parsed."""
        if self._throttle is not None:
            wait = self._byte_budget.charge(size)
            if wait > 0:  # (the common case is 0: no hold to ask for)
                self._throttle.hold(wait)

    def bytes_received(self, data: bytes) -> None:
        """Application bytes (after any telnet layer): frame them, then take lines."""
        if self.session is None or self.session.closed:
            return
        self.resetTimeout()
        self._framer.push(data)
        self._take_lines()

    def _take_lines(self) -> None:
        """Hand complete lines to the lobby while the line budget allows; else wait.

        While the budget has a line to spare, the framer is asked for the next line
        straight away (one search for a line end per line)."""
        session = self.session
        framer = self._framer
        budget = self._line_budget
        while session is not None and not session.closed:
            wait = budget.wait()
            if wait > 0:
                if not framer.has_line():
                    self._flood_warned = False
                    return
                self._throttle.hold(wait)  # type: ignore[union-attr]  # made in start, with the session
                if not self._flood_warned:
                    self._flood_warned = True
                    session.too_many_lines(self.config.flood_rate, self.config.flood_burst)
                return
            item = framer.next_line()
            if item is None:
                self._flood_warned = False
                return
            if isinstance(item, TooLong):
                session.line_too_long(self.config.max_line_length)
            else:
                budget.charge(1)
                self.lobby.receive(session, decode_line(item))

    def _skip_notice(self) -> bytes:
        return self.encode_lines(self.session.skipped_lines()) if self.session is not None else b""

    def _output_overflow(self) -> None:
        self.log.info("{session!r} reads too slowly: over {limit} bytes queued; disconnected",
                      session=self.session, limit=self.config.output_hard_limit)
        if self.session is not None:
            self.socket_transport().write(self.encode_lines(self.session.not_reading()))
        # The queue is dropped already: the BYE waits only behind what the transport
        # holds, and reaches a client that reads again within CLOSE_TIMEOUT.
        self.close()

    def stop(self) -> None:
        self.setTimeout(None)
        if self._throttle is not None:
            self._throttle.stop()
        if self._abort_call is not None:
            self._abort_call.cancel()
            self._abort_call = None
        if self.session is not None:
            self.lobby.counters.connection_closed(self.kind)
            self.lobby.disconnect(self.session)

    def timeoutConnection(self) -> None:
        if self.session is not None:
            self.session.idle(self.config.idle_timeout)


class LobbyFactory(ServerFactory[Any]):
    """What the line-based kinds' factories share: the lobby, the settings and the clock."""

    noisy = False  # the service says once where it listens; no "Starting factory" lines
    #: the listener kind it serves (`ListenerKind.build` sets it from the registry)
    kind = ""

    def __init__(self, lobby: Realm, config: ServerConfig, clock: IReactorTime) -> None:
        self.lobby = lobby
        self.config = config
        self.clock = clock
