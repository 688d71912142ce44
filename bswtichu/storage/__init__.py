"""Storage: one SQLite file (WAL) for accounts, durable games, history and ratings.

No Twisted and no game rules here: the server hands values in and gets values
out.  `open_database` creates or migrates the file; `Storage` bundles the stores.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass, field
from typing import Callable

from .accounts import AccountStore, ScryptCost
from .admins import AdminStore
from .community import CommunityStore
from .database import MEMORY, SCHEMA_VERSION, DatabaseError, FileLock, open_database, transaction
from .events import EventStore
from .games import GameStore, StoredGame


@dataclass
class Storage:
    """The database connection and its stores, and the lock that makes the file this server's."""

    db: sqlite3.Connection
    accounts: AccountStore
    games: GameStore
    lock: FileLock | None = None
    #: moderators, bans and mutes, the audit log, ignore and friend lists (made from ``db``)
    community: CommunityStore = field(init=False)
    #: the admins the operator claimed (made from ``db`` and ``accounts``)
    admins: AdminStore = field(init=False)
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
        commits are cheaper so); the file is readable again once the server stops."""
        lock = None if str(path) == MEMORY else FileLock.take(f"{path}.lock")
        try:
            db = open_database(path, synchronous, exclusive=lock is not None)
        except BaseException:
            if lock is not None:
                lock.release()
            raise
        return cls(db, AccountStore(db, cost, now), GameStore(db, now), lock)

    @property
    def pending(self) -> bool:
        """Whether steps wait for `commit` (a transaction is open)."""
        return not self._closed and self.db.in_transaction

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


__all__ = ["AccountStore", "AdminStore", "CommunityStore", "DatabaseError", "GameStore", "MEMORY", "SCHEMA_VERSION", "ScryptCost", "Storage",
           "StoredGame", "open_database", "transaction"]
