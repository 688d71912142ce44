"""One connected client as the domain sees it: a name, a render mode, a place."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from bswtichu.server.messages import Message
from bswtichu.server.render import HUMAN, render

if TYPE_CHECKING:
    from bswtichu.config import ServerConfig
    from bswtichu.server.table import Table


class Connection(Protocol):
    """What a session needs from the net layer: send text lines, hang up."""

    def send_lines(self, lines: list[str], droppable: bool = False) -> None: ...

    def close(self) -> None: ...


class Realm(Protocol):
    """What the net layer needs from the domain (the `Lobby`): a client comes, talks, goes."""

    def connect(self, connection: Connection, peer: str = "", limits: ServerConfig | None = None,
                address: str = "") -> Session:
        """A new client on a port whose settings are ``limits``, from IP ``address``; greets him."""

    def receive(self, session: Session, line: str) -> None:
        """One decoded input line from the client; never raises."""

    def disconnect(self, session: Session) -> None:
        """The client's connection is gone."""


class Session:
    """A client between connect and disconnect.

    ``nick`` is None until the client has chosen a name; ``table`` is the table
    the client sits at or watches (None in the lobby).
    """

    def __init__(self, connection: Connection, peer: str = "") -> None:
        self._connection = connection
        self.peer = peer
        self.nick: str | None = None
        self.mode = HUMAN
        self.table: Table | None = None
        self.closed = False

    def __repr__(self) -> str:
        return f"<Session {self.nick or '(no name)'} {self.peer}>"

    def send(self, message: Message, droppable: bool = False) -> None:
        """``droppable``: may be skipped for a client that does not read (lobby chat)."""
        if not self.closed:
            self._connection.send_lines(render(message, self.mode), droppable)

    def close(self) -> None:
        """Hang up; the lobby hears of it through the connection's loss."""
        if not self.closed:
            self.closed = True
            self._connection.close()
