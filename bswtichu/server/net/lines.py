"""Bytes to lines, shared by both ports: framing, decoding, flood and idle limits.

Limits (all from ServerConfig, all announced in the greeting):

- A line is at most ``max_line_length`` bytes without its line end. A longer line
  gets one ERROR ``line_too_long`` as soon as it passes the limit; the rest of it
  is dropped up to its line end; the connection stays.
- Flood: a token bucket of ``flood_burst`` lines, refilled at ``flood_rate`` lines
  per second. A line without a token is dropped; the first dropped line of a run
  gets one ERROR ``flood``, the next ones none until a line is accepted again.
- Idle: after ``idle_timeout`` seconds without input the server sends BYE and hangs
  up (0 switches it off).
"""

from __future__ import annotations

import unicodedata

from twisted.internet.interfaces import IReactorTime
from twisted.internet.protocol import ServerFactory
from twisted.protocols.policies import TimeoutMixin

from bswtichu.config import ServerConfig
from bswtichu.server import messages
from bswtichu.server.session import Realm, Session

CR, LF = 0x0D, 0x0A


class TooLong:
    """Marks a line that passed the length limit (its bytes are dropped)."""


TOO_LONG = TooLong()


class LineFramer:
    """Splits a byte stream at CR LF, LF or a bare CR, with a length limit.

    A CR followed by LF is one line end even when the two arrive in different
    chunks; so a bare CR ends its line at once instead of waiting for the next byte.
    """

    def __init__(self, max_length: int) -> None:
        self.max_length = max_length
        self._buffer = bytearray()
        self._after_cr = False
        self._dropping = False

    def feed(self, data: bytes) -> list[bytes | TooLong]:
        """The complete lines in ``data`` (and TOO_LONG where a line passed the limit)."""
        out: list[bytes | TooLong] = []
        for byte in data:
            if self._after_cr:
                self._after_cr = False
                if byte == LF:
                    continue
            if byte in (CR, LF):
                self._after_cr = byte == CR
                if not self._dropping:
                    out.append(bytes(self._buffer))
                self._buffer.clear()
                self._dropping = False
            elif not self._dropping:
                self._buffer.append(byte)
                if len(self._buffer) > self.max_length:
                    self._buffer.clear()
                    self._dropping = True
                    out.append(TOO_LONG)
        return out


def decode_line(raw: bytes) -> str:
    """UTF-8 if it is valid, else Latin-1 (never fails); control characters removed."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    return "".join(
        " " if ch == "\t" else ch
        for ch in text
        if ch == "\t" or unicodedata.category(ch) not in ("Cc", "Zl", "Zp")
    )


class FloodGate:
    """Token bucket: ``burst`` lines at once, refilled at ``rate`` lines per second."""

    def __init__(self, rate: float, burst: int, clock: IReactorTime) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._stamp = clock.seconds()

    def admit(self) -> bool:
        now = self._clock.seconds()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False


class LineConnection(TimeoutMixin):
    """What both ports share: lines in (with limits), text lines out, one session.

    Mixed into a Twisted protocol: it handles the protocol events itself, and the
    subclass only says how lines go on the wire (``write_text``).
    """

    def __init__(self, lobby: Realm, config: ServerConfig, clock: IReactorTime) -> None:
        self.lobby = lobby
        self.config = config
        self.clock = clock
        self.callLater = clock.callLater  # TimeoutMixin's timer, on the injected clock
        self.session: Session | None = None
        self._framer = LineFramer(config.max_line_length)
        self._gate = FloodGate(config.flood_rate, config.flood_burst, clock)
        self._flood_warned = False

    # -- Connection (what Session needs) --------------------------------------

    def send_lines(self, lines: list[str]) -> None:
        if self.transport is not None and not self.transport.disconnecting:
            self.write_text(lines)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.loseConnection()

    def write_text(self, lines: list[str]) -> None:
        raise NotImplementedError

    # -- protocol events ------------------------------------------------------

    def connectionMade(self) -> None:
        self.start()

    def dataReceived(self, data: bytes) -> None:
        self.bytes_received(data)

    def connectionLost(self, reason: object = None) -> None:
        self.stop()

    def start(self) -> None:
        # Lines are small and answers must not wait for the client's delayed ACK (Nagle).
        socket_transport = getattr(self.transport, "transport", None) or self.transport
        if hasattr(socket_transport, "setTcpNoDelay"):
            socket_transport.setTcpNoDelay(True)
        peer = self.transport.getPeer()
        where = f"{getattr(peer, 'host', '?')}:{getattr(peer, 'port', '?')}"
        self.session = self.lobby.connect(self, where, self.config)
        self.setTimeout(self.config.idle_timeout or None)

    def bytes_received(self, data: bytes) -> None:
        if self.session is None or self.session.closed:
            return
        self.resetTimeout()
        for item in self._framer.feed(data):
            if self.session.closed:
                return
            if isinstance(item, TooLong):
                self.session.send(
                    messages.error(
                        "line_too_long",
                        f"line dropped: lines may be at most {self.config.max_line_length} bytes",
                    )
                )
            elif self._gate.admit():
                self._flood_warned = False
                self.lobby.receive(self.session, decode_line(item))
            elif not self._flood_warned:
                self._flood_warned = True
                self.session.send(
                    messages.error(
                        "flood",
                        f"too many lines: at most {self.config.flood_rate:g} per second"
                        f" (bursts of {self.config.flood_burst}); lines dropped",
                    )
                )

    def stop(self) -> None:
        self.setTimeout(None)
        if self.session is not None:
            self.lobby.disconnect(self.session)

    def timeoutConnection(self) -> None:
        if self.session is not None:
            self.session.send(
                messages.bye("idle", f"No input for {self.config.idle_timeout:g} seconds; goodbye.")
            )
            self.session.close()


class LobbyFactory(ServerFactory):
    """What both ports' factories share: the lobby, the settings and the clock."""

    noisy = False  # the service says once where it listens; no "Starting factory" lines

    def __init__(self, lobby: Realm, config: ServerConfig, clock: IReactorTime) -> None:
        self.lobby = lobby
        self.config = config
        self.clock = clock
