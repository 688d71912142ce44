"""The active process's lease on a PostgreSQL database, with its epoch: the fence of a standby.

Several processes may point at one database; one holds the lease (the row of
``owner_lease``) and serves, the others wait.  Time is PostgreSQL's alone (``now()``):
the hosts' clocks never count.  The holder renews the lease well before it runs out
(`renew`); once it has run out, or at once when the holder's connection is gone (its
session advisory lock, `postgres.OWNER_LOCK`, is free: a ``kill -9``), a waiting process
takes it (`take`) with the next epoch.  Each session that holds a lease says its epoch
to the database (``bswtichu.epoch``), and the database's fence (`database.FENCED_TABLES`'
trigger) checks it in the transaction of every write: a process that lost the lease
(paused past it, partitioned) writes nothing after the takeover, its statements fail
with `FENCED_STATE`.  No Twisted here: the service runs the timers (its clock).
"""

from __future__ import annotations

from dataclasses import dataclass

from .database import DatabaseError
from .postgres import APPLICATION, OWNER_LOCK, PostgresConnection, this_process

#: the SQLSTATE of a write refused by the fence (`database._FENCE`)
FENCED_STATE = "BSW01"


class Fenced(DatabaseError):
    """This process lost the database to another: it must stop serving."""


def is_fenced(error: BaseException) -> bool:
    """Whether a database error is the fence refusing a write of a process that lost the lease."""
    return isinstance(error, Fenced) or getattr(error, "sqlstate", None) == FENCED_STATE


@dataclass(frozen=True)
class Holder:
    """The lease as another process holds it: its epoch, its holder, seconds left."""

    epoch: int
    holder: str
    left: float


class Lease:
    """This process holds the database (`take`); `renew` keeps it, `release` gives it up."""

    def __init__(self, connection: PostgresConnection, epoch: int, length: float, locked: bool):
        self.connection = connection
        self.epoch = epoch
        self.length = length
        #: whether this session holds `OWNER_LOCK` (which tells standbys it lives); one that took
        #: the lease from a holder still alive (paused) gets it once that one is gone (`renew`)
        self.locked = locked

    @classmethod
    def take(cls, connection: PostgresConnection, length: float, holder: str | None = None) -> Lease | Holder:
        """Take the lease if it ran out or its holder's connection is gone (with the next epoch,
        fencing the old one; what is left of the old holder's sessions is ended, so no
        transaction it began keeps locks), and say the epoch to the database; else who holds it."""
        epoch, held_by, left = connection.execute(
            "SELECT epoch, holder, expires - extract(epoch FROM now()) FROM owner_lease WHERE id = 1").fetchone()
        gone = connection.execute("SELECT pg_try_advisory_lock(?)", (OWNER_LOCK,)).fetchone()[0]
        if not gone and left >= 0:
            return Holder(epoch, held_by, float(left))
        if held_by:  # its sessions end (a transaction it began while paused would hold locks for good)
            connection.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                               " WHERE application_name = ? AND pid <> pg_backend_pid()", (APPLICATION + held_by,))
        row = connection.execute(
            "UPDATE owner_lease SET epoch = epoch + 1, holder = ?, expires = extract(epoch FROM now()) + ?"
            " WHERE id = 1 AND epoch = ? AND (? OR expires < extract(epoch FROM now())) RETURNING epoch",
            (holder or this_process(), length, epoch, gone)).fetchone()
        if row is None:
            if gone:  # not ours after all (another took it first): a standby holds no lock
                connection.execute("SELECT pg_advisory_unlock(?)", (OWNER_LOCK,))
            return Holder(epoch, held_by, max(0.0, float(left)))
        connection.execute("SELECT set_config('bswtichu.epoch', ?, false)", (str(row[0]),))
        return cls(connection, row[0], length, locked=gone)  # (not gone: its holder lives, paused)

    def renew(self) -> None:
        """Push the end of the lease a length further on; `Fenced` if another took it."""
        if self.connection.execute(
                "UPDATE owner_lease SET expires = extract(epoch FROM now()) + ? WHERE id = 1 AND epoch = ?"
                " RETURNING epoch", (self.length, self.epoch)).fetchone() is None:
            raise Fenced(f"epoch {self.epoch} was fenced: another process owns the database")
        if not self.locked:
            self.locked = self.connection.execute("SELECT pg_try_advisory_lock(?)", (OWNER_LOCK,)).fetchone()[0]

    def check(self, connection: PostgresConnection) -> None:
        """The fence at the write guard (`Storage.guard`), first inside a write transaction of any
        connection of this process: the lease must still be this epoch's (held FOR SHARE until
        the transaction ends, so a takeover waits for it), and the transaction says the epoch
        to the database's own fence (the trigger); else `Fenced`, and nothing of it is written."""
        if connection.execute(
                "SELECT set_config('bswtichu.epoch', ?, true) FROM owner_lease WHERE id = 1 AND epoch = ? FOR SHARE",
                (str(self.epoch), self.epoch)).fetchone() is None:
            raise Fenced(f"epoch {self.epoch} was fenced: another process owns the database")

    def release(self) -> None:
        """Give the database up at once (a clean stop: a standby need not wait for the lease
        to run out); nothing to do once fenced or disconnected."""
        if self.connection.raw.closed:
            return
        self.connection.execute("UPDATE owner_lease SET expires = 0 WHERE id = 1 AND epoch = ?", (self.epoch,))
        self.connection.execute("SELECT pg_advisory_unlock_all()")
