"""The telnet port for people: telnet clients and MUD clients.

``TelnetTransport`` (twisted.conch.telnet) parses IAC; the server implements no
telnet options yet, so every WILL is answered DONT and every DO is answered WONT
(Twisted's default). Options can be added with ``enableLocal``/``enableRemote``
on the protocol and handlers in the transport's ``negotiationMap``.
``TelnetTransport.write`` turns "\\n" into "\\r\\n" and doubles 0xFF itself, so
this protocol writes plain "\\n".
"""

from __future__ import annotations

from twisted.conch.telnet import IAC, TelnetProtocol, TelnetTransport

from bswtichu.server.net.lines import LineConnection, LobbyFactory

# Longest subnegotiation payload kept; longer ones are skipped up to their IAC SE.
# Below Twisted's own cap (which hangs up), so that cap is never reached.
MAX_SUBNEGOTIATION = 1024


class LenientTelnetTransport(TelnetTransport):
    """A TelnetTransport that survives anything a client sends.

    Input is charged to the connection's byte budget before it is parsed. It is
    then fed to Twisted's parser in pieces cut at every IAC, so a piece that makes
    the parser stumble (IAC followed by a byte that is no telnet command) holds
    only that command: it is skipped and not a byte of text is lost. Empty and
    overlong subnegotiations are skipped too. The first trouble is logged (as a
    warning), nothing after it on the same connection. A CR at the end of a chunk is passed on at once (a line end)
    rather than held until the next byte shows whether LF or NUL follows; that
    byte is then swallowed.
    """

    _swallow_after_cr = False

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._oversized = False  # the subnegotiation being read passed MAX_SUBNEGOTIATION
        self._reported = False  # telnet trouble is logged once per connection

    def dataReceived(self, data: bytes) -> None:
        if self.protocol is not None:
            self.protocol.charge_input(len(data))
        if self._swallow_after_cr and data:
            self._swallow_after_cr = False
            if data[:1] in (b"\n", b"\0"):
                data = data[1:]
        start = 0
        while start < len(data):
            if self.state == "escaped":  # the byte after an IAC: a piece of its own
                self._parse(data[start : start + 1])
                start += 1
                continue
            at = data.find(IAC, start)
            if at < 0:
                self._parse(data[start:])
                break
            if at > start:
                self._parse(data[start:at])
            else:
                self._parse(data[at : at + 2])
                start = at + 2
                continue
            start = at
        if self.state == "newline":
            self.state = "data"
            self._swallow_after_cr = True
            self.applicationDataReceived(b"\r")

    def _parse(self, piece: bytes) -> None:
        """Feed one piece (text without IAC, or IAC and the byte after it) to Twisted."""
        if self.state == "subnegotiation" and IAC not in piece:
            room = MAX_SUBNEGOTIATION - len(self.commands)
            if len(piece) > room:
                self._oversized = True
                piece = piece[: max(room, 0)]
        try:
            super().dataReceived(piece)
        except ValueError:
            self._report("unknown telnet command skipped")
            self.state = "data"
        if self.state.startswith("subnegotiation") and len(self.commands) > MAX_SUBNEGOTIATION:
            self._oversized = True
            del self.commands[MAX_SUBNEGOTIATION:]

    def negotiate(self, data: list[bytes]) -> None:
        if self._oversized:
            self._oversized = False
            self._report(f"telnet subnegotiation over {MAX_SUBNEGOTIATION} bytes skipped")
        elif not data:
            self._report("empty telnet subnegotiation skipped")
        else:
            super().negotiate(data)

    def _report(self, text: str) -> None:
        if not self._reported:
            self._reported = True
            self._log.warn("{peer}: {text} (the first of any telnet trouble; not logged again"
                           " for this connection)",
                           peer=self.getPeer() if self.transport else "?", text=text)


class HumanTelnetProtocol(LineConnection, TelnetProtocol):
    """Lines from a telnet client, text back with CRLF (through TelnetTransport).

    TelnetTransport has already made CR LF an LF and CR NUL a CR, so every CR and
    LF that reaches this protocol ends a line of its own.
    """

    merges_crlf = False

    def encode_lines(self, lines: list[str]) -> bytes:
        return "".join(line + "\n" for line in lines).encode("utf-8")


class TelnetFactory(LobbyFactory):
    """Builds a telnet transport with a HumanTelnetProtocol behind it per connection."""

    def buildProtocol(self, addr: object) -> LenientTelnetTransport:
        transport = LenientTelnetTransport(HumanTelnetProtocol, self.lobby, self.config, self.clock)
        transport.factory = self
        return transport
