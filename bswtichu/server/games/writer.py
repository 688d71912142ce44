"""PostgreSQL's journal commits off the reactor: one writer thread, one connection, batches in order.

On SQLite a turn's commit is a WAL write of microseconds and stays where it is, in the
reactor's thread (`Storage.commit`).  On PostgreSQL it is a round trip to another
process, so `BatchWriter.commit` sends the turn's journal rows (`GameStore.take_batch`)
from a thread of its own, over a connection of its own (`Storage.connect_writer`: the
write guard runs in it too), and returns a Deferred that fires once they are committed.
The lobby's `Outbox` holds the turn's output until then.

One thread and one connection, so batches commit in the order they were taken.  While a
batch is in flight, the next turns' rows gather in the store and go together as the next
batch when it fires: under load consecutive turns are committed as a group, and a commit
never waits behind more than one other.  A batch that fails breaks and abandons its
games, as a failed commit in the reactor did (`GameStore.lost`); what waited for it is
written all the same (those games play on without durability) and the failure is logged.

Why a thread of our own and not `twisted.enterprise.adbapi`: adbapi is this too (a thread
pool, a connection per thread), but it wraps the driver's raw connection and adds its
own commit or rollback around each call, where ours is a `PostgresConnection` in
autocommit mode that says BEGIN and COMMIT itself and runs the write guard; a pool of one
thread with that connection is the part of adbapi we need.
"""

from __future__ import annotations

from time import perf_counter
from typing import Any, Callable

from twisted.internet.defer import Deferred
from twisted.internet.threads import deferToThreadPool
from twisted.logger import Logger
from twisted.python.threadpool import ThreadPool

from bswtichu.counters import Counters
from bswtichu.storage import Storage
from bswtichu.storage.database import Connection
from bswtichu.storage.games import JournalBatch, insert_rows


class BatchWriter:
    """Commits the games' journal batches in a thread of their own, in order, one at a time."""

    log = Logger()

    def __init__(self, reactor: Any, storage: Storage, counters: Counters,
                 connect: Callable[[], Connection] | None = None) -> None:
        """``connect`` makes the writer's connection (by default `Storage.connect_writer`); it is
        made in the writer's thread at its first batch, so opening it never blocks the reactor."""
        self.reactor = reactor
        self.storage = storage
        self.counters = counters
        self._connect = connect if connect is not None else storage.connect_writer
        self._connection: Connection | None = None
        self.pool = ThreadPool(minthreads=1, maxthreads=1, name="journal-writer")
        #: the batch being committed (None: none)
        self.in_flight: JournalBatch | None = None
        self._waiting: list[Deferred] = []  # callers whose rows go in the next batch
        self._idle: list[Deferred] = []  # `idle`'s callers
        self.batches = 0  # batches committed (or failed)

    def start(self) -> None:
        self.pool.start()

    def commit(self) -> Deferred | None:
        """Commit the rows that wait: a Deferred that fires (never fails) once they are
        committed, or their commit failed; None if no rows wait."""
        if not self.storage.games.sends_batches or not self.storage.games.pending:
            return None
        waiter: Deferred = Deferred()
        self._waiting.append(waiter)
        if self.in_flight is None:
            self._send()
        return waiter

    def _send(self) -> None:
        batch = self.storage.games.take_batch()
        waiters, self._waiting = self._waiting, []
        if batch is None:
            self._fire(waiters)
            return
        self.in_flight = batch
        began = perf_counter()
        sent = deferToThreadPool(self.reactor, self.pool, self._insert, batch.rows)
        sent.addCallbacks(self._committed, self._failed, callbackArgs=(began,), errbackArgs=(batch,))
        sent.addBoth(self._done, waiters)

    def _insert(self, rows: list[tuple]) -> None:
        """In the writer's thread: the rows, on the writer's connection (made, or made again
        after it was lost, here)."""
        connection = self._connection
        if connection is None or getattr(getattr(connection, "raw", None), "closed", False):
            connection = self._connection = self._connect()
        insert_rows(connection, rows)

    def _committed(self, result: object, began: float) -> None:
        self.counters.commit_failed = False
        self.counters.commits.observe(perf_counter() - began)

    def _failed(self, failure: Any, batch: JournalBatch) -> None:
        self.counters.commit_failed = True
        if self.storage.fenced:  # another process owns the database: the service says so and stops
            self.storage.games.lost(batch.games)
            return
        self.log.failure("cannot commit the games' latest steps; those games play on but will not"
                         " survive a restart", failure)
        self.storage.games.lost(batch.games)

    def _done(self, result: object, waiters: list[Deferred]) -> None:
        self.in_flight = None
        self.batches += 1
        if self.storage.games.pending:  # rows gathered meanwhile: the next batch goes at once
            self._send()
        self._fire(waiters)
        if self.in_flight is None:
            idle, self._idle = self._idle, []
            self._fire(idle)

    @staticmethod
    def _fire(waiters: list[Deferred]) -> None:
        for waiter in waiters:
            waiter.callback(None)

    def idle(self) -> Deferred:
        """Fires once no batch is in flight."""
        waiter: Deferred = Deferred()
        if self.in_flight is None:
            waiter.callback(None)
        else:
            self._idle.append(waiter)
        return waiter

    def stop(self) -> Deferred:
        """Commit what waits, let the batch in flight finish, then stop the thread and close the
        connection; fires when done."""
        self.commit()

        def stopped(result: object) -> None:
            self.pool.stop()
            if self._connection is not None:
                self._connection.close()
                self._connection = None

        return self.idle().addCallback(stopped)
