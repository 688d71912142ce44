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
from .postgres import is_url, open_postgres


@dataclass
class Storage:
    """The database connection and its stores, and the lock that makes the file this server's
    (a PostgreSQL database's is an advisory lock its connection holds, `postgres.OWNER_LOCK`)."""

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
    _closed: bool = field(default=False, init=False, repr=False)

    def __post_init__(self) -> None:
        self.community = CommunityStore(self.db)
        self.admins = AdminStore(self.db, self.accounts, self.accounts.now)
        self.events = EventStore(self.db)

    @classmethod
    def open(cls, path: str = MEMORY, synchronous: str = "normal", cost: ScryptCost = ScryptCost(),
             now: Callable[[], float] = time.time) -> Storage:
        """Open the file for this process alone: a second server on it would restore the
        same games and write conflicting journals, so it is refused (`DatabaseError`).
        While open, SQLite's exclusive lock keeps every other reader out too (the server's
        commits are cheaper so); the file is readable again once the server stops.

        ``path`` may be a ``postgresql://`` URL: that database, owned by this process the same
        way (``synchronous`` is SQLite's: PostgreSQL's durability is its server's settings)."""
        if is_url(path):
            pg = open_postgres(path)
            claims = TableClaims(pg)
            claims.clear()  # this process owns the database now: the claims of one before it are void
            return cls(pg, AccountStore(pg, cost, now), GameStore(pg, now, remote=True), pg.owner, claims)
        lock = None if str(path) == MEMORY else FileLock.take(f"{path}.lock")
        try:
            db = open_database(path, synchronous, exclusive=lock is not None)
        except BaseException:
            if lock is not None:
                lock.release()
            raise
        return cls(db, AccountStore(db, cost, now), GameStore(db, now), lock)

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
        if not self.closed:
            self.games.commit()

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Commit what is pending, close the file and give up its lock (again: nothing)."""
        if self._closed:
            return
        try:
            self.games.commit()
        finally:
            self._closed = True
            self.db.close()
            if self.lock is not None:
                self.lock.release()


__all__ = ["AccountStore", "AdminStore", "CommunityStore", "Connection", "DatabaseError", "GameStore", "MEMORY", "Migration",
           "SCHEMA_VERSION", "ScryptCost", "Storage", "StoredGame", "TableClaims", "is_url", "open_database", "transaction"]
