"""``bswtichu port-db SQLITE URL``: a SQLite database copied into an empty PostgreSQL one.

The SQLite file is opened as a server opens it (its lock taken, so no server runs on it
meanwhile, and its schema brought up to date); the PostgreSQL database is given the same
schema (`postgres.open_postgres`) and must hold no rows yet: porting into a database
that has some would mix two servers' games and numbers.  Every table is copied in one
transaction (PostgreSQL's COPY), so the target is either the whole copy or still empty;
then the identity columns and the log numbers continue after the highest copied.
"""

from __future__ import annotations

from pathlib import Path

from .database import DatabaseError
from .postgres import PostgresConnection, is_url, open_postgres, redacted

#: every table, each after those its rows refer to
TABLES = ("accounts", "guest_tokens", "games", "game_journal", "game_players", "ratings", "roles",
          "sanctions", "audit", "personal_lists", "admins", "events")
#: the tables whose ``id`` is an identity column, to continue after the copied ids
IDENTITIES = ("games", "sanctions", "audit")


def port(sqlite_path: str | Path, url: str) -> dict[str, int]:
    """Copy the SQLite database at ``sqlite_path`` into the empty PostgreSQL database at
    ``url``; returns the rows copied per table. `DatabaseError` says why it cannot."""
    from . import Storage

    if is_url(str(sqlite_path)) or not Path(sqlite_path).is_file():
        raise DatabaseError(f"there is no SQLite database {sqlite_path}")
    if not is_url(url):
        raise DatabaseError(f"{url} is not a PostgreSQL URL (postgresql://USER@HOST/DATABASE)")
    source = Storage.open(str(sqlite_path))
    try:
        target = open_postgres(url)
        try:
            refuse_rows(target, url)
            return copy_tables(source.db, target)
        finally:
            target.close()
    finally:
        source.close()


def refuse_rows(target: PostgresConnection, url: str) -> None:
    """Refuse a target that holds rows already, naming the tables that do."""
    full = [f"{table} ({count})" for table in TABLES
            if (count := target.execute(f"SELECT count(*) FROM {table}").fetchone()[0])]
    if full:
        raise DatabaseError(f"the database {redacted(url)} is not empty ({', '.join(full)} rows):"
                            " port-db copies into an empty database only; create a new one"
                            " (createdb) or empty this one first")


def copy_tables(source, target: PostgresConnection) -> dict[str, int]:
    """Every table's rows from ``source`` (SQLite) into ``target``, in one transaction."""
    counts = {}
    target.execute("BEGIN")
    try:
        for table in TABLES:
            columns = [row[1] for row in source.execute(f"PRAGMA table_info({table})")]
            names = ", ".join(columns)
            counts[table] = 0
            with target.raw.cursor().copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in source.execute(f"SELECT {names} FROM {table}"):
                    copy.write_row(row)
                    counts[table] += 1
        for table in IDENTITIES:
            target.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                           f" coalesce(max(id), 0) + 1, false) FROM {table}")
        target.execute("SELECT setval('log_numbers', coalesce(max(log_number), 0) + 1, false) FROM games")
    except BaseException:
        target.execute("ROLLBACK")
        raise
    target.execute("COMMIT")
    return counts
