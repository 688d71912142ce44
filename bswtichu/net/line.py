"""The line port for bots: UTF-8 lines ending in CRLF both ways, no telnet bytes."""

from __future__ import annotations

from twisted.internet.protocol import Protocol

from bswtichu.net.lines import LineConnection, LobbyFactory


class BotLineProtocol(LineConnection, Protocol):
    """Plain lines in (CRLF, LF or CR), CRLF lines out, straight into the socket when it can."""

    writes_directly = True

    def dataReceived(self, data: bytes) -> None:
        self.charge_input(len(data))
        self.bytes_received(data)

    def encode_lines(self, lines: list[str]) -> bytes:
        return ("\r\n".join(lines) + "\r\n").encode("utf-8") if lines else b""


class BotLineFactory(LobbyFactory):
    kind = "line"  # the registry's name for it (`ListenerKind.build` sets the same)

    def buildProtocol(self, addr: object) -> BotLineProtocol:
        protocol = BotLineProtocol(self.lobby, self.config.for_line_port(), self.clock)
        protocol.factory = self
        return protocol
