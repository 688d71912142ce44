"""The name directory: who is online under which name, observers apart, and taking a name.

`NameIndex` is the names alone (the tables find their readers in it, so it comes before the
hall); `NameDirectory` adds taking a name, taking one over from a ghost, and leaving, which
need the hall (held seats), the connections and the `NameGuard` (accounts, throttles).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from twisted.logger import Logger

from bswtichu.server.text.i18n import _
from bswtichu.server.text import messages

from bswtichu import names
from bswtichu.server.people.accounts import NameGuard
from bswtichu.server.connections import Connections
from bswtichu.server.session import Session
from bswtichu.server.tables.hall import TableHall

log = Logger()


class NameIndex:
    """Named sessions by name, and which of them only watch."""

    def __init__(self) -> None:
        self._by_nick: dict[str, Session] = {}
        #: the same sessions by their names exactly as taken: the tables name players so,
        #: and several times per game step (no normalising and casefolding each time)
        self._by_exact_nick: dict[str, Session] = {}
        #: connections that only watch (a bridge's watcher, `/observer`): not people online
        self._observers: set[Session] = set()

    def find(self, nick: str) -> Session | None:
        session = self._by_exact_nick.get(nick)
        return session if session is not None else self._by_nick.get(names.key(nick))

    def online(self) -> list[Session]:
        """Named sessions of people (observers left out), by name."""
        return sorted((s for s in self._by_nick.values() if s not in self._observers),
                      key=lambda s: s.nick.casefold())  # type: ignore[union-attr]  # indexed: named

    def observers(self) -> list[Session]:
        """Named sessions that only watch (`/observer`), by name."""
        return sorted((s for s in self._observers if s.nick is not None),
                      key=lambda s: s.nick.casefold())  # type: ignore[union-attr]  # named: as filtered

    def names_but(self, session: Session) -> Iterator[str]:
        """Every name in use by another session."""
        return (other.nick for other in self._by_nick.values() if other is not session)  # type: ignore[misc]  # indexed: named

    def observe(self, session: Session) -> None:
        self._observers.add(session)

    def is_observer(self, session: Session) -> bool:
        return session in self._observers

    def rename(self, session: Session, name: str) -> str | None:
        """``session`` is called ``name`` from now on; returns its previous name."""
        previous = session.nick
        if previous is not None:
            del self._by_nick[names.key(previous)]
            del self._by_exact_nick[previous]
        session.nick = name
        self._by_nick[names.key(name)] = session
        self._by_exact_nick[name] = session
        return previous

    def forget(self, session: Session) -> None:
        self._observers.discard(session)
        if session.nick is not None:
            del self._by_nick[names.key(session.nick)]
            del self._by_exact_nick[session.nick]

    def clear(self) -> None:
        self._by_nick.clear()
        self._by_exact_nick.clear()
        self._observers.clear()


class NameDirectory:
    """The names (a `NameIndex`), and how a session takes one, loses one and leaves."""

    def __init__(self, index: NameIndex, connections: Connections, guard: NameGuard, tables: TableHall,
                 admit: Callable[[Session, str], None] = lambda session, name: None) -> None:
        """``admit(session, name)`` refuses a name its session may not take (a ban)."""
        self.index = index
        self._admit = admit
        #: called with each session that has just taken a name and the name it had before
        #: (None: his first); friends hear of it, his lists are read
        self.arrived: list[Callable[[Session, str | None], None]] = []
        #: called with each named session that is gone (its guest lists go with it)
        self.departed: list[Callable[[Session], None]] = []
        self.guard = guard
        self._connections = connections
        self._tables = tables
        self.find = index.find
        self.online = index.online
        self.observers = index.observers

    def take_over(self, session: Session, name: str) -> None:
        """The owner proved the name is his (password, token): an old connection holding it
        (a ghost, say a half-open one) is told why and closed, its seat held for the owner.
        First the name is admitted: a banned name or address is refused here."""
        self._admit(session, name)
        ghost = self.find(name)
        if ghost is None or ghost is session:
            return
        ghost.send(messages.bye("taken_over", _('%(nick)s logged in from another connection; this one is closed.', nick=ghost.nick)))
        ghost.close()
        self.leave(ghost)

    def take_name(self, session: Session, name: str) -> None:
        """Give ``session`` the name (checked by the caller); a seat held for it is taken back at
        once, as ``/join TABLE SEAT`` would: coming back is one step."""
        held = self._tables.held_seat(name)
        if held is not None:
            table, seat = held
            name = table.nick_at(seat)  # type: ignore[assignment]  # his (held): as first written, whatever the case now
        previous = self.index.rename(session, name)
        log.info("{peer} is {nick}", peer=session.peer, nick=name, previous=previous, event="login")
        session.send(messages.nick(name, previous))
        if held is not None:
            session.send(messages.seat_held(table.number, seat))
            table.sit(name, seat)  # tells the table, and him the game and what it waits for
            session.table = table
        for arrival in self.arrived:
            arrival(session, previous)

    def leave(self, session: Session) -> None:
        """The client is gone: free his name, hold his seat, drop him as spectator."""
        if not self._connections.close(session):
            return
        self.guard.forget(session)
        self.index.forget(session)
        if session.nick is not None:
            for departure in self.departed:
                departure(session)
        if session.nick is not None and session.table is not None:
            table, session.table = session.table, None
            table.disconnect(session.nick)

    def clear(self) -> None:
        """Forget every name at once (the server stops)."""
        self.index.clear()
