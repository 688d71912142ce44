"""Storage: one SQLite file (WAL) for accounts, durable games, history and ratings.

No Twisted and no game rules here: the server hands values in and gets values
out.  `open_database` creates or migrates the file; `Storage` bundles the stores.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from typing import Callable

from .accounts import AccountStore, ScryptCost
from .database import MEMORY, SCHEMA_VERSION, DatabaseError, open_database, transaction
from .games import GameStore, StoredGame


@dataclass
class Storage:
    """The database connection and its stores."""

    db: sqlite3.Connection
    accounts: AccountStore
    games: GameStore

    @classmethod
    def open(cls, path: str = MEMORY, synchronous: str = "normal", cost: ScryptCost = ScryptCost(),
             now: Callable[[], float] = time.time) -> Storage:
        db = open_database(path, synchronous)
        return cls(db, AccountStore(db, cost, now), GameStore(db, now))

    def close(self) -> None:
        self.db.close()


__all__ = ["AccountStore", "DatabaseError", "GameStore", "MEMORY", "SCHEMA_VERSION", "ScryptCost", "Storage",
           "StoredGame", "open_database", "transaction"]
