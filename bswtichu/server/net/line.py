"""The line port for bots: UTF-8 lines ending in CRLF both ways, no telnet bytes."""

from __future__ import annotations

from twisted.internet.interfaces import IReactorTime
from twisted.internet.protocol import Protocol, ServerFactory

from bswtichu.config import ServerConfig
from bswtichu.server.lobby import Lobby
from bswtichu.server.net.lines import LineConnection


class BotLineProtocol(LineConnection, Protocol):
    """Plain lines in (CRLF, LF or CR), CRLF lines out."""

    def connectionMade(self) -> None:
        self.start()

    def dataReceived(self, data: bytes) -> None:
        self.bytes_received(data)

    def connectionLost(self, reason: object = None) -> None:
        self.stop()

    def write_text(self, lines: list[str]) -> None:
        self.transport.write("".join(line + "\r\n" for line in lines).encode("utf-8"))


class BotLineFactory(ServerFactory):
    def __init__(self, lobby: Lobby, config: ServerConfig, clock: IReactorTime) -> None:
        self.lobby = lobby
        self.config = config
        self.clock = clock

    def buildProtocol(self, addr: object) -> BotLineProtocol:
        protocol = BotLineProtocol(self.lobby, self.config, self.clock)
        protocol.factory = self
        return protocol
