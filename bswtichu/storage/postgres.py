"""The PostgreSQL engine: a psycopg 3 connection that the stores use as they use SQLite's.

The stores speak SQLite's DB-API dialect (``?`` placeholders, ``BEGIN`` and ``COMMIT``
as statements, ``connection.in_transaction``, ``connection.Error``); `PostgresConnection`
gives a psycopg connection in autocommit mode the same face, turning each statement's
placeholders into psycopg's once (a cache), so the SQL of the stores is written once for
both engines.  The schema comes from the one list of migrations (`database.MIGRATIONS`,
`database.postgresql_text`), its version kept in the ``schema_version`` table.

psycopg is imported here only, and only when a ``postgresql://`` URL is opened: a server
on SQLite needs nothing of it (it is the ``postgresql`` extra of setup.cfg).

The calls block, as SQLite's do, for a round trip each (about a millisecond on one host):
this step keeps the server's single-threaded model; the Deferred commits that keep the
reactor free are the next one (docs/architecture.md, "Storage").

One server owns a database: it holds a session advisory lock (`AdvisoryLock`) for as
long as its connection lives, so a second server on the same database is refused, and
PostgreSQL drops the lock when the first one's connection ends, even after ``kill -9``.
It is the PostgreSQL side of the ownership seam (`database.Ownership`; SQLite's is the
`database.FileLock`), where the lease with its epoch will go (issue 33, item 4).
"""

from __future__ import annotations

import functools
from typing import Any, Sequence

from .database import MIGRATIONS, DatabaseError, Migration, postgresql_text, statements

#: the schemes of a database URL that names a PostgreSQL database
SCHEMES = ("postgresql://", "postgres://")
#: advisory lock keys: the owning server's (session) and a migration's (transaction)
OWNER_LOCK, MIGRATION_LOCK = 0x7B5E7C01, 0x7B5E7C02


def is_url(database: str) -> bool:
    """Whether ``database`` names a PostgreSQL database rather than a SQLite file."""
    return str(database).startswith(SCHEMES)


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise DatabaseError("a postgresql:// database needs psycopg:"
                            " pip install 'bswtichu[postgresql]' (or pip install 'psycopg[binary]')") from None
    return psycopg


@functools.lru_cache(maxsize=512)
def dialect(sql: str) -> str:
    """A statement of the stores in psycopg's words: ``?`` is ``%s`` (a literal ``%`` is
    doubled) and SQLite's ``BEGIN IMMEDIATE`` a plain ``BEGIN`` (PostgreSQL locks rows, not
    the file).  No statement of the stores has a ``?`` inside a string literal."""
    if sql == "BEGIN IMMEDIATE":
        return "BEGIN"
    return sql.replace("%", "%%").replace("?", "%s")


class PostgresConnection:
    """A psycopg connection in autocommit mode with `sqlite3.Connection`'s face (`database.Connection`)."""

    def __init__(self, connection: Any):
        psycopg = _psycopg()
        self.Error = psycopg.Error
        self.OperationalError = psycopg.OperationalError
        status = psycopg.pq.TransactionStatus
        self._open = (status.INTRANS, status.INERROR)  # (a lost connection's is UNKNOWN: none open)
        self.raw = connection
        #: this process's hold on the database, if it took one (`open_postgres`)
        self.owner: AdvisoryLock | None = None

    @property
    def in_transaction(self) -> bool:
        return self.raw.info.transaction_status in self._open

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Any:
        """Run one statement; the cursor is returned to read rows from (it iterates, has
        ``fetchone``, ``fetchall`` and ``rowcount``)."""
        return self.raw.execute(dialect(sql), tuple(parameters))

    def executemany(self, sql: str, parameters: Any, /) -> Any:
        cursor = self.raw.cursor()
        cursor.executemany(dialect(sql), [tuple(row) for row in parameters])
        return cursor

    def close(self) -> None:
        self.raw.close()


class AdvisoryLock:
    """This process owns the database: a session advisory lock on its connection."""

    def __init__(self, connection: PostgresConnection):
        self.connection = connection

    @classmethod
    def take(cls, connection: PostgresConnection, url: str) -> AdvisoryLock:
        """Own the database through ``connection``, or refuse (`DatabaseError`): another has it."""
        if not connection.execute("SELECT pg_try_advisory_lock(?)", (OWNER_LOCK,)).fetchone()[0]:
            raise DatabaseError(f"another bswtichu uses the database {redacted(url)};"
                                " stop it first, or give this one its own --database")
        return cls(connection)

    def release(self) -> None:
        """Give the database up (nothing to do once the connection is closed: that gave it up)."""
        if not self.connection.raw.closed:
            self.connection.execute("SELECT pg_advisory_unlock(?)", (OWNER_LOCK,))


def connect(url: str) -> PostgresConnection:
    """A connection to the database at ``url`` (autocommit: the stores say BEGIN and COMMIT)."""
    psycopg = _psycopg()
    try:
        return PostgresConnection(psycopg.connect(url, autocommit=True))
    except psycopg.Error as error:
        raise DatabaseError(f"cannot use the database {redacted(url)}: {error}".strip()) from None


def redacted(url: str) -> str:
    """``url`` without its password, to be shown or logged."""
    scheme, _, rest = url.partition("://")
    credentials, at, place = rest.rpartition("@")
    if not at or ":" not in credentials:
        return url
    return f"{scheme}://{credentials.split(':', 1)[0]}:***@{place}"


def open_postgres(url: str, own: bool = True) -> PostgresConnection:
    """Connect to ``url`` and bring its schema up to date; with ``own``, take the database for
    this process (`AdvisoryLock`, kept as the connection's ``owner``) or refuse
    (`DatabaseError`), as SQLite's file lock does."""
    connection = connect(url)
    try:
        if own:
            connection.owner = AdvisoryLock.take(connection, url)
        migrate(connection)
    except connection.Error as error:
        connection.close()
        raise DatabaseError(f"cannot use the database {redacted(url)}: {error}") from None
    except BaseException:
        connection.close()
        raise
    return connection


def schema_version(connection: PostgresConnection) -> int:
    """The migrations the database has had (0: a new, empty one)."""
    row = connection.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
    if not row[0]:
        return 0
    return connection.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()[0]


def migrate(connection: PostgresConnection, migrations: tuple[str | Migration, ...] = MIGRATIONS) -> int:
    """Apply the migrations the database has not had, each in its own transaction (PostgreSQL's
    DDL is transactional), one process at a time; returns the new version."""
    for number in range(len(migrations) + 1):
        connection.execute("BEGIN")
        try:
            connection.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            connection.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            version = schema_version(connection)
            if version > len(migrations):
                raise DatabaseError(f"the database has schema version {version}, newer than this"
                                    f" program's {len(migrations)}; use a newer bswtichu")
            if version == len(migrations):
                connection.execute("COMMIT")
                break
            for statement in statements(postgresql_text(migrations[version])):
                connection.execute(statement)
            connection.execute("DELETE FROM schema_version")
            connection.execute("INSERT INTO schema_version (version) VALUES (?)", (version + 1,))
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")
    return len(migrations)
