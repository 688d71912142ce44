"""The connections: every open session and the greeting. (The cap per address is the ports':
they count every connection from the moment it is accepted, ``net/accept.py``.)"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from twisted.logger import Logger

from bswtichu import __version__
from bswtichu.config import LiveConfig, ServerConfig
from bswtichu.server.text import i18n, messages
from bswtichu.server.text.messages import Message
from bswtichu.realm import Connection
from bswtichu.server.session import Outbox, Session

SERVER_NAME = "bswtichu"
log = Logger()


class Connections:
    """Who is connected (named or not)."""

    def __init__(self, config: LiveConfig, outbox: Outbox,
                 barred: Callable[[str], Message | None] = lambda address: None) -> None:
        """``barred(address)`` is the goodbye to a connection from a banned address, or None."""
        self._config = config
        self._barred = barred
        self._outbox = outbox
        self._sessions: set[Session] = set()

    def __contains__(self, session: Session) -> bool:
        return session in self._sessions

    def __iter__(self) -> Iterator[Session]:
        """Every open session, named or not (a copy: closing one while iterating is safe)."""
        return iter(list(self._sessions))

    def open(self, connection: Connection, peer: str = "", limits: ServerConfig | None = None,
             address: str = "") -> Session:
        """A new client, greeted with ``limits`` (its port's settings); ``address`` is the peer's
        IP, if known (a banned one is sent away)."""
        session = Session(connection, peer, self._outbox)
        session.address = address
        config = limits or self._config.current
        if config.language != i18n.SOURCE:
            session.language = i18n.language(config.language)
        hint = getattr(connection, "language", "")  # the WebSocket page's ?lang= (test doubles lack it)
        if hint:
            session.language_hint(hint)
        barred = self._barred(address) if address else None
        if barred is not None:
            session.send(barred)
            session.close()
            return session
        self._sessions.add(session)
        log.info("{peer} connected", peer=peer, event="connect")
        session.send(messages.welcome(SERVER_NAME, __version__, config.max_line_length,
                                      config.flood_rate, config.flood_burst, config.idle_timeout,
                                      getattr(connection, "for_people", False)))  # (test doubles lack it)
        return session

    def close(self, session: Session) -> bool:
        """Forget a session that is gone (marked closed); False if it was not open."""
        if session not in self._sessions:
            return False
        self._sessions.remove(session)
        log.info("{peer} disconnected ({nick})", peer=session.peer, nick=session.nick or "no name",
                 event="disconnect")
        session.closed = True
        return True

    def close_all(self) -> set[Session]:
        """Forget every session at once (the server stops); returns them."""
        sessions, self._sessions = self._sessions, set()
        return sessions
