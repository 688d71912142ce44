"""The parts of the domain the people's command groups work on, built without a lobby, and
sessions on recording connections: a handler is called directly, as a method of its group.

(A module of its own, as lobby_clients.py is: the unit tests of several groups use it.)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from twisted.internet.task import Clock

from bswtichu.config import LiveConfig, ServerConfig
from bswtichu.server.connections import Connections
from bswtichu.server.people.accounts import NameGuard
from bswtichu.server.people.chat import Chat
from bswtichu.server.people.directory import NameDirectory, NameIndex
from bswtichu.server.people.hashing import PasswordHashing, hash_inline
from bswtichu.server.people.moderation import Moderation
from bswtichu.server.people.social import PersonalLists
from bswtichu.server.session import Outbox, Session
from bswtichu.server.tables.hall import TableHall
from bswtichu.server.text.render import MACHINE
from bswtichu.storage import ScryptCost, Storage
from bswtichu.storage.accounts import hash_password

from lobby_clients import RecordingConnection

#: a cheap hash: these tests are about the commands, not the cost of a password
CHEAP = ScryptCost(n=2 ** 8)


@dataclass
class PeopleParts:
    """Names, accounts, chat, lists, roles and tables as `build_lobby` joins them, but no
    commands registered and no lobby: the arguments of the groups under test."""

    clock: Clock = field(default_factory=Clock)
    config: ServerConfig = field(default_factory=ServerConfig)

    def __post_init__(self) -> None:
        self.storage = Storage.open(cost=CHEAP)
        self.live = LiveConfig(self.config)
        self.outbox = Outbox()
        self.moderation = Moderation(self.storage.community, self.storage.accounts, self.storage.admins,
                                     self.clock, admins=(), bridge_addresses=frozenset())
        self.connections = Connections(self.live, self.outbox, self.moderation.barred)
        self.index = NameIndex()
        self.lists = PersonalLists(self.storage.community, self.storage.accounts.is_registered)
        self.chat = Chat(self.index, self.live, self.moderation.check_may_speak, self.lists.ignorers)
        self.tables = TableHall(self.index.find, self.clock, 60.0, lambda table: None,
                                away_of=self.chat.away_of)
        config = self.config
        hashing = PasswordHashing(hash_inline, self.clock, config.password_queue, config.password_checks_per_name,
                                  config.password_checks_per_address, config.uncapped, self.outbox)
        guard = NameGuard(self.storage.accounts, self.tables, self.clock, hashing,
                          config.guest_token_lifetime, lambda name: self.index.find(name) is not None)
        self.directory = NameDirectory(self.index, self.connections, guard, self.tables,
                                       lambda session, name: self.moderation.admit(session, name))
        self.directory.arrived.append(self.lists.arrive)

    def session(self, nick: str | None = None) -> Session:
        """A connected session in machine mode (named ``nick`` if given), its lines so far cleared."""
        session = self.connections.open(RecordingConnection())
        lines(session).clear()  # the greeting, in human text
        session.mode = MACHINE
        if nick is not None:
            self.directory.take_name(session, nick)
        told(session)
        return session

    def registered(self, nick: str, password: str = "hunter22x") -> None:
        """``nick`` is a registered account (with ``password``)."""
        self.storage.accounts.add(nick, hash_password(password, CHEAP))


def lone_session() -> Session:
    """A session in machine mode on a recording connection, connected to nothing else (for
    the commands that work on the asking session alone)."""
    session = Session(RecordingConnection())
    session.mode = MACHINE
    return session


def lines(session: Session) -> list[str]:
    """The lines ``session`` was sent (kept by its `RecordingConnection`), as written."""
    return session._connection.lines


def told(session: Session) -> list[tuple[str, dict]]:
    """(KEYWORD, fields) of every machine line ``session`` was sent since the last call."""
    sent = lines(session)
    out = [(keyword, json.loads(payload)) for keyword, _, payload in (line.partition(" ") for line in sent)]
    sent.clear()
    return out


def only(session: Session, keyword: str) -> dict:
    """The fields of the one message ``session`` was told since the last `told`, which must be ``keyword``."""
    received = told(session)
    assert [k for k, _ in received] == [keyword], received
    return received[0][1]
