"""The commands' reads of the database (/history, /stats, /top), off the reactor on PostgreSQL.

A read of a finished game's history or a ladder may scan many rows; on PostgreSQL it is a
round trip to another process besides.  So there it runs in a small pool of threads, each
with a connection of its own (`Storage.connect_reader`), and the command answers in a
callback, as the password checks do (`hashing.PasswordHashing`): the other tables' lines
are handled meanwhile.  On SQLite a read is answered at once, in the reactor's thread, as
before: its file is this process's and a read takes microseconds to milliseconds.

What a read is given (`ReadStores`): a connection and the stores made on it; what it gives
back is handed to the command's answer, run within the outbox (one write) unless the
client is gone meanwhile.
"""

from __future__ import annotations

import threading
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from twisted.internet.defer import Deferred
from twisted.internet.threads import deferToThreadPool
from twisted.python.failure import Failure
from twisted.python.threadpool import ThreadPool

from bswtichu.server.people.hashing import ConnectionGone
from bswtichu.server.session import Session
from bswtichu.storage import AccountStore, Connection, GameStore, Storage

T = TypeVar("T")


@dataclass(frozen=True)
class ReadStores:
    """A connection and the stores a read uses on it."""

    db: Connection
    games: GameStore
    accounts: AccountStore


class Reads:
    """Runs the commands' reads: at once (SQLite; no reactor given), or in the read pool."""

    def __init__(self, storage: Storage, outbox: AbstractContextManager = nullcontext(),
                 reactor: Any = None, threads: int = 2) -> None:
        self.storage = storage
        self.outbox = outbox
        self.reactor = reactor if storage.engine == "postgresql" else None
        self.pool = ThreadPool(minthreads=0, maxthreads=threads, name="database-reads")
        self._local = threading.local()
        self._connections: list[Connection] = []
        self._own = ReadStores(storage.db, storage.games, storage.accounts)
        self.in_flight = 0
        self._idle: list[Deferred] = []

    def start(self) -> None:
        if self.reactor is not None:
            self.pool.start()

    def stop(self) -> None:
        """Waits for the reads under way, then closes the pool's connections."""
        if self.reactor is not None:
            self.pool.stop()
        for connection in self._connections:
            connection.close()
        self._connections = []

    def __call__(self, session: Session, read: Callable[[ReadStores], T], answer: Callable[[T], None]
                 ) -> Deferred | None:
        """``answer`` what ``read`` gives: at once on SQLite (None; a refusal is raised as from any
        command); else once read in the pool, within the outbox, unless ``session`` left meanwhile
        (the Deferred the command returns: the lobby tells a refusal or an error when it fires)."""
        if self.reactor is None:
            answer(read(self._own))
            return None
        self.in_flight += 1
        answered: Deferred = Deferred()

        def done(result: object) -> None:
            self.in_flight -= 1
            with self.outbox:
                if session.closed:
                    answered.errback(ConnectionGone())
                elif isinstance(result, Failure):
                    answered.errback(result)
                else:
                    answered.callback(result)
            if not self.in_flight:
                idle, self._idle = self._idle, []
                for waiter in idle:
                    waiter.callback(None)

        answered.addCallback(answer)
        deferToThreadPool(self.reactor, self.pool, self._in_thread, read).addBoth(done)
        return answered

    def _in_thread(self, read: Callable[[ReadStores], T]) -> T:
        stores = getattr(self._local, "stores", None)
        if stores is None or getattr(stores.db, "raw", None) is not None and stores.db.raw.closed:
            db = self.storage.connect_reader()
            self._connections.append(db)
            stores = self._local.stores = ReadStores(db, GameStore(db, self.storage.games.now),
                                                     AccountStore(db, self.storage.accounts.cost,
                                                                  self.storage.accounts.now))
        return read(stores)

    def idle(self) -> Deferred:
        """Fires once no read is under way."""
        waiter: Deferred = Deferred()
        if self.in_flight:
            self._idle.append(waiter)
        else:
            waiter.callback(None)
        return waiter
