"""The telnet port for people: telnet clients and MUD clients.

``TelnetTransport`` handles IAC; the server implements no telnet options, so
every WILL is answered DONT and every DO is answered WONT (Twisted's default,
kept on purpose). ``TelnetTransport.write`` turns "\\n" into "\\r\\n" and doubles
0xFF itself, so this protocol writes plain "\\n".
"""

from __future__ import annotations

from twisted.conch.telnet import TelnetProtocol, TelnetTransport

from bswtichu.server.net.lines import LineConnection, LobbyFactory


class LenientTelnetTransport(TelnetTransport):
    """A TelnetTransport that survives malformed telnet commands and bare CRs.

    Twisted raises on an IAC followed by a byte that is not a telnet command;
    here the rest of that chunk is dropped and the connection lives on. A CR at
    the end of a chunk is passed on at once (a line end) rather than held back
    until the next byte shows whether an LF or NUL follows; that byte is then
    swallowed.
    """

    _swallow_after_cr = False

    def dataReceived(self, data: bytes) -> None:
        if self._swallow_after_cr:
            self._swallow_after_cr = False
            if data[:1] in (b"\n", b"\0"):
                data = data[1:]
        try:
            super().dataReceived(data)
        except ValueError:
            self._log.warn("malformed telnet command; rest of the chunk dropped")
            self.state = "data"
        if self.state == "newline":
            self.state = "data"
            self._swallow_after_cr = True
            self.applicationDataReceived(b"\r")


class HumanTelnetProtocol(LineConnection, TelnetProtocol):
    """Lines from a telnet client, text back with CRLF (through TelnetTransport)."""

    def write_text(self, lines: list[str]) -> None:
        self.transport.write("".join(line + "\n" for line in lines).encode("utf-8"))


class TelnetFactory(LobbyFactory):
    """Builds a telnet transport with a HumanTelnetProtocol behind it per connection."""

    def buildProtocol(self, addr: object) -> LenientTelnetTransport:
        transport = LenientTelnetTransport(HumanTelnetProtocol, self.lobby, self.config, self.clock)
        transport.factory = self
        return transport
