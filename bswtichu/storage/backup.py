"""Backups of the database file with SQLite's online backup API, also while the server runs.

The running server keeps the file locked for itself (SQLite's exclusive locking mode),
so no other process can read it then: ``bswtichu backup FILE`` asks the server instead.
It writes FILE's path into `request_path` beside the database and sends the server
SIGUSR1 (its process id is in the lock file); the server copies its open database
to FILE (`copy`, a consistent snapshot of what is committed) and the command waits
for FILE to appear. With no server running, the command copies the file itself,
holding the server's lock meanwhile so none starts halfway.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from .database import Connection, DatabaseError, FileLock, owner_only


def lock_path(database: str | Path) -> Path:
    return Path(f"{database}.lock")


def request_path(database: str | Path) -> Path:
    """Where ``bswtichu backup`` leaves the backup's path for the running server."""
    return Path(f"{database}.backup-request")


def copy(source: Connection, target: str | Path) -> None:
    """Copy the database open as ``source`` to the file ``target`` (written beside it first,
    then renamed: ``target`` appears complete or not at all), readable by its owner only.
    A PostgreSQL database is backed up with its own tool (``pg_dump``, docs/operating.md)."""
    if not isinstance(source, sqlite3.Connection):
        raise DatabaseError("a PostgreSQL database is backed up with pg_dump (docs/operating.md)")
    target = Path(target)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    owner_only(partial)
    destination = sqlite3.connect(partial)
    try:
        source.backup(destination)
    finally:
        destination.close()
    os.replace(partial, target)


def copy_file(database: str | Path, target: str | Path) -> None:
    """Copy the database file while no server has it (its lock held meanwhile)."""
    if not Path(database).is_file():
        raise DatabaseError(f"there is no database {database}")
    lock = FileLock.take(lock_path(database))
    try:
        source = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
        try:
            copy(source, target)
        finally:
            source.close()
    finally:
        lock.release()


def server_pid(database: str | Path) -> int | None:
    """The process id of the server that holds the database, or None if none does (a running
    server always has its lock file: without one, nothing is made here)."""
    if not lock_path(database).exists():
        return None
    try:
        lock = FileLock.take(lock_path(database))
    except DatabaseError:
        text = lock_path(database).read_text().strip()
        return int(text) if text.isdigit() else None
    lock.release()
    return None
