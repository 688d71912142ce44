"""Storage: accounts, durable games, history and ratings, in SQLite or PostgreSQL.

No Twisted and no game rules here: the server hands values in and gets values out.
`Storage.open` opens either engine behind one interface (the stores: `AccountStore`,
`GameStore`, `CommunityStore`, `AdminStore`, and `ratings`' functions): a file path is
a SQLite file (`database`, the default, nothing to install), a ``postgresql://`` URL a
PostgreSQL database (`postgres`, psycopg 3).  The stores write their SQL once, in the
dialect both engines take (``?`` placeholders, ``INSERT ... ON CONFLICT``, ``RETURNING``).

A new migration (a new table, say) is one more entry at the end of
`database.MIGRATIONS`: a str when one text serves both engines (written in SQLite's
words; `database.postgresql_text` maps REAL, ``INTEGER PRIMARY KEY`` and ``WITHOUT
ROWID``), a `Migration(sqlite=..., postgresql=...)` pair when they differ more.
tests/storage/test_storage_schemas.py then checks that both engines end with the same
tables, columns, keys and indexes.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass, field
from typing import Callable

from .accounts import AccountStore, ScryptCost
from .admins import AdminStore
from .community import CommunityStore
from .database import (
    MEMORY, SCHEMA_VERSION, Connection, DatabaseError, FileLock, Migration, Ownership, open_database, transaction,
)
from .events import EventStore
from .games import GameStore, StoredGame, TableClaims
from .lease import Fenced, Holder, Lease, is_fenced
from .postgres import connect, is_url, open_postgres, redacted

#: seconds a lease lasts unless renewed, taken by a process that does not renew it (a tool)
#: or before the service's own (`ServerConfig.lease_seconds`) applies
DEFAULT_LEASE = 5.0


def take_lease(url: str, length: float = DEFAULT_LEASE) -> Lease:
    """Connect to ``url``, bring its schema up to date and take its lease, or refuse
    (`DatabaseError`) while another process holds it."""
    pg = open_postgres(url, own=False)
    try:
        taken = Lease.take(pg, length)
    except BaseException:
        pg.close()
        raise
    if isinstance(taken, Holder):
        pg.close()
        raise DatabaseError(f"another bswtichu uses the database {redacted(url)} ({taken.holder}, epoch"
                            f" {taken.epoch}); stop it first, or give this one its own --database")
    return taken


@dataclass
class Storage:
    """The database connection and its stores, and the lock that makes the file this server's
    (a PostgreSQL database's is its lease, `lease.Lease`)."""

    db: Connection
    accounts: AccountStore
    games: GameStore
    lock: Ownership | None = None
    #: moderators, bans and mutes, the audit log, ignore and friend lists (made from ``db``)
    community: CommunityStore = field(init=False)
    #: the admins the operator claimed (made from ``db`` and ``accounts``)
    admins: AdminStore = field(init=False)
    #: the table numbers claimed across processes (PostgreSQL; None: SQLite's one process counts)
    table_numbers: TableClaims | None = None
    #: events across tables (made from ``db``)
    events: EventStore = field(init=False)
    #: the PostgreSQL database's URL (None: a SQLite file), for the connections beside ``db``
    url: str | None = None
    _closed: bool = field(default=False, init=False, repr=False)
    #: another process took the database (PostgreSQL's fence refused a commit): nothing more is
    #: committed, and nothing pending is told (docs/operating.md, "A standby")
    fenced: bool = field(default=False, init=False)
    _guard: Callable[[Connection], None] | None = field(default=None, init=False, repr=False)
    _writers: list[Connection] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:
        self.community = CommunityStore(self.db)
        self.admins = AdminStore(self.db, self.accounts, self.accounts.now)
        self.events = EventStore(self.db)

    @classmethod
    def open(cls, path: str = MEMORY, synchronous: str = "normal", cost: ScryptCost = ScryptCost(),
             now: Callable[[], float] = time.time, lease: Lease | None = None) -> Storage:
        """Open the file for this process alone: a second server on it would restore the
        same games and write conflicting journals, so it is refused (`DatabaseError`).
        While open, SQLite's exclusive lock keeps every other reader out too (the server's
        commits are cheaper so); the file is readable again once the server stops.

        ``path`` may be a ``postgresql://`` URL: that database, owned by this process the same
        way: this process takes its lease (`lease.Lease`; one already taken, by a standby that
        waited for it, is given as ``lease``), or it is refused while another holds it
        (``synchronous`` is SQLite's: PostgreSQL's durability is its server's settings)."""
        if is_url(path):
            if lease is None:
                lease = take_lease(path)
            pg = lease.connection
            claims = TableClaims(pg)
            claims.clear()  # this process owns the database now: the claims of one before it are void
            storage = cls(pg, AccountStore(pg, cost, now), GameStore(pg, now, remote=True), lease, claims, path)
            storage.guard = storage.fence  # every write transaction, on every writer, checks the epoch
            return storage
        lock = None if str(path) == MEMORY else FileLock.take(f"{path}.lock")
        try:
            db = open_database(path, synchronous, exclusive=lock is not None)
        except BaseException:
            if lock is not None:
                lock.release()
            raise
        return cls(db, AccountStore(db, cost, now), GameStore(db, now), lock)

    def fence(self, connection: Connection) -> None:
        """The write guard on PostgreSQL: the lease's epoch checked first in every write
        transaction (`Lease.check`); once refused, this storage is `fenced`."""
        assert isinstance(self.lock, Lease)  # (a PostgreSQL database's lock is its lease)
        try:
            self.lock.check(connection)  # type: ignore[arg-type]  # a PostgresConnection
        except Fenced:
            self.fenced = True
            raise

    @property
    def writers(self) -> list[Connection]:
        """The connections that write (the reactor's, and the batch writer's once it has one)."""
        return [self.db, *self._writers]

    def connect_writer(self) -> Connection:
        """Another connection to the PostgreSQL database that writes for this storage (the batch
        writer's, used in its own thread): the guard runs in its transactions too."""
        if self.url is None:
            raise ValueError("a SQLite file has one connection")
        connection = connect(self.url)
        self._writers.append(connection)
        connection.guard = self._guard
        return connection

    def connect_reader(self) -> Connection:
        """Another connection to the PostgreSQL database, for reads (the read pool's, one per thread)."""
        if self.url is None:
            raise ValueError("a SQLite file has one connection")
        return connect(self.url)

    @property
    def guard(self) -> Callable[[Connection], None] | None:
        """The write guard (PostgreSQL): run first inside every write transaction of every writer,
        with its connection; raising refuses the transaction (`PostgresConnection.guard`, the one
        place it runs).  Item 4's fence checks the lease's epoch here.  SQLite has no guard: one
        process owns its file (`FileLock`)."""
        return self._guard

    @guard.setter
    def guard(self, check: Callable[[Connection], None] | None) -> None:
        if self.engine != "postgresql":
            raise ValueError("a write guard is PostgreSQL's: one process owns a SQLite file")
        self._guard = check
        for connection in self.writers:
            connection.guard = check  # type: ignore[attr-defined]  # a PostgresConnection

    @property
    def engine(self) -> str:
        """Which engine keeps the data: ``sqlite`` or ``postgresql``."""
        return "sqlite" if isinstance(self.db, sqlite3.Connection) else "postgresql"

    @property
    def pending(self) -> bool:
        """Whether steps wait for `commit` (a transaction is open)."""
        return not self._closed and self.games.pending

    def commit(self) -> None:
        """Make durable what is pending (a batch of journal steps): called before anything is told."""
        if self.closed or self.fenced:
            return
        try:
            self.games.commit()
        except Exception as error:
            self.fenced = is_fenced(error)
            raise

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Commit what is pending, close the file and give up its lock (again: nothing)."""
        if self._closed:
            return
        try:
            if not self.fenced:
                self.games.commit()
        finally:
            self._closed = True
            try:
                if self.lock is not None and not self.fenced:
                    self.lock.release()  # (a lease: a standby takes over at once)
            finally:
                self.db.close()


__all__ = ["AccountStore", "AdminStore", "CommunityStore", "Connection", "DatabaseError", "Fenced", "Holder", "Lease",
           "is_fenced", "take_lease", "GameStore", "MEMORY", "Migration",
           "SCHEMA_VERSION", "ScryptCost", "Storage", "StoredGame", "TableClaims", "is_url", "open_database", "transaction"]
