"""One SQLite file in WAL mode, its versioned schema and forward migrations.

``PRAGMA user_version`` says which migrations a file has had; `open_database`
applies the missing ones in order, each in its own transaction, so an old file
is brought forward on start and a new one is created from nothing.

Durability (see docs/storage.md): every change is committed before the server
tells anyone about it.  A process crash (kill -9) loses nothing committed: WAL
commits are in the operating system's hands once ``commit`` returns.  With
``synchronous = normal`` (the default) a power loss may roll back the last
commits since the WAL was last synced; ``full`` syncs every commit.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from pathlib import Path

MEMORY = ":memory:"
SYNCHRONOUS_MODES = ("off", "normal", "full")

#: Forward migrations: entry i brings a file from user_version i to i + 1.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE accounts (
        name_key   TEXT PRIMARY KEY,      -- the name casefolded: names are unique ignoring case
        name       TEXT NOT NULL,         -- as registered
        password   TEXT NOT NULL,         -- scrypt$n$r$p$salt-hex$hash-hex
        created    REAL NOT NULL
    );
    CREATE TABLE guest_tokens (
        name_key   TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL,         -- sha256 of the token; the token itself is never stored
        created    REAL NOT NULL
    );
    CREATE TABLE games (
        id            INTEGER PRIMARY KEY,
        log_number    INTEGER NOT NULL UNIQUE,
        table_number  INTEGER NOT NULL,
        seed          TEXT NOT NULL,      -- JSON: the game's one seed (GameSeeds.from_seed)
        table_options TEXT NOT NULL,      -- JSON: the table's options as set (tichujoin included)
        players       TEXT NOT NULL,      -- JSON: names in seat order at the start
        bots          TEXT NOT NULL,      -- JSON: {"seat": [name, level]} (table seats 1-4)
        state         TEXT NOT NULL CHECK (state IN ('running', 'over', 'abandoned')),
        started       REAL NOT NULL,
        ended         REAL,
        result        TEXT                -- JSON: winners and standings once over
    );
    CREATE INDEX games_state ON games (state);
    CREATE TABLE game_journal (
        game_id  INTEGER NOT NULL REFERENCES games (id),
        seq      INTEGER NOT NULL,
        kind     TEXT NOT NULL,           -- deal, act, bot, substitute, substitute_end
        player   TEXT,
        data     TEXT,                    -- JSON: the deal's cards, or the action
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE game_players (
        game_id  INTEGER NOT NULL REFERENCES games (id),
        name     TEXT NOT NULL,
        name_key TEXT NOT NULL,
        seat     INTEGER NOT NULL,        -- 1-4 at the start
        level    TEXT,                    -- bot level, NULL for a person
        place    INTEGER NOT NULL,
        points   INTEGER NOT NULL,
        won      INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX game_players_name ON game_players (name_key, game_id);
    CREATE TABLE ratings (
        identity TEXT PRIMARY KEY,        -- "player:<name_key>" or "bot:<level>"
        mu       REAL NOT NULL,
        sigma    REAL NOT NULL,
        games    INTEGER NOT NULL
    );
    """,
    """
    CREATE TABLE roles (
        name_key   TEXT PRIMARY KEY,      -- a registered name casefolded
        name       TEXT NOT NULL,
        role       TEXT NOT NULL CHECK (role IN ('moderator')),
        granted_by TEXT NOT NULL,
        granted    REAL NOT NULL
    );
    CREATE TABLE sanctions (
        id         INTEGER PRIMARY KEY,
        kind       TEXT NOT NULL CHECK (kind IN ('ban', 'mute')),
        target     TEXT NOT NULL,         -- a name casefolded, or an address range (ban only)
        shown      TEXT NOT NULL,         -- the target as the moderator wrote it
        until      REAL,                  -- NULL: until lifted
        reason     TEXT NOT NULL,
        by         TEXT NOT NULL,
        created    REAL NOT NULL
    );
    CREATE INDEX sanctions_target ON sanctions (kind, target);
    CREATE TABLE audit (
        id         INTEGER PRIMARY KEY,
        at         REAL NOT NULL,
        actor      TEXT NOT NULL,
        action     TEXT NOT NULL,         -- op, deop, kick, mute, unmute, ban, unban, announce
        target     TEXT NOT NULL,         -- a name, an address range, or '' (announce)
        minutes    INTEGER,
        reason     TEXT NOT NULL
    );
    CREATE TABLE personal_lists (
        owner_key  TEXT NOT NULL,         -- a registered name casefolded
        list       TEXT NOT NULL CHECK (list IN ('ignore', 'friend')),
        name_key   TEXT NOT NULL,
        name       TEXT NOT NULL,
        PRIMARY KEY (owner_key, list, name_key)
    ) WITHOUT ROWID;
    """,
    # The variants (docs/rules.md): each finished game says which it was, and each rating is of one
    # variant; what came before is the 4-player game's.
    """
    ALTER TABLE games ADD COLUMN variant TEXT NOT NULL DEFAULT 'nanjing';
    CREATE TABLE variant_ratings (
        identity TEXT NOT NULL,           -- "player:<name_key>" or "bot:<level>"
        mu       REAL NOT NULL,
        sigma    REAL NOT NULL,
        games    INTEGER NOT NULL,
        variant  TEXT NOT NULL,           -- nanjing (the 4-player game), tientsin, trichu
        PRIMARY KEY (variant, identity)
    );
    INSERT INTO variant_ratings (identity, mu, sigma, games, variant)
        SELECT identity, mu, sigma, games, 'nanjing' FROM ratings;
    DROP TABLE ratings;
    ALTER TABLE variant_ratings RENAME TO ratings;
    """,
    # Private tables' games (docs/moderation.md): a game played while its table was private is
    # read by its players and admins only; every game stored before is public, as it was.
    """
    ALTER TABLE games ADD COLUMN private INTEGER NOT NULL DEFAULT 0;
    """,
    # Admins are claimed by the operator (`bswtichu admin add`), never by whoever registers a
    # listed name first (docs/moderation.md); guest tokens expire by age (`AccountStore.expire_tokens`).
    """
    CREATE TABLE admins (
        name_key   TEXT PRIMARY KEY REFERENCES accounts (name_key),  -- the claimed account's
        name       TEXT NOT NULL,         -- as registered
        claimed    REAL NOT NULL
    );
    CREATE INDEX guest_tokens_created ON guest_tokens (created);
    """,
    # Events across tables (issue 36): each event as one JSON document (its entrants, rounds,
    # tables, results), written whenever it changes; the games stay in games and game_journal.
    """
    CREATE TABLE events (
        number   INTEGER PRIMARY KEY,
        data     TEXT NOT NULL,           -- the event as JSON (server/events/event.py, to_data)
        finished INTEGER NOT NULL DEFAULT 0
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


class DatabaseError(Exception):
    """A database file that cannot be used (newer than this program, unreadable, in use)."""


class FileLock:
    """An exclusive advisory lock on a file beside the database, held while the server runs.

    The operating system drops it when the process ends, even after ``kill -9``.
    """

    def __init__(self, handle):
        self._handle = handle

    @classmethod
    def take(cls, path: str | Path) -> FileLock:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise DatabaseError(f"another bswtichu uses this database (it holds {path});"
                                " stop it first, or give this one its own --database") from None
        handle.truncate(0)
        handle.write(str(os.getpid()))  # who holds it (bswtichu backup signals that process)
        handle.flush()
        return cls(handle)

    def release(self) -> None:
        if not self._handle.closed:
            fcntl.flock(self._handle, fcntl.LOCK_UN)
            self._handle.close()


def open_database(path: str | Path = MEMORY, synchronous: str = "normal",
                  exclusive: bool = False) -> sqlite3.Connection:
    """Open (or create) the database at ``path`` and bring its schema up to date.

    The connection is in autocommit mode: callers group writes with
    ``with transaction(connection):``.  ``exclusive``: the connection keeps the file
    locked from its first read until it closes (SQLite's exclusive locking mode), so no
    other connection reads or writes it meanwhile; in exchange a commit takes no file
    locks and the WAL's index lives in this process's memory (a server commits after
    nearly every turn of its reactor).
    """
    if synchronous not in SYNCHRONOUS_MODES:
        raise DatabaseError(f"synchronous must be one of {', '.join(SYNCHRONOUS_MODES)}")
    if str(path) != MEMORY:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        owner_only(path)
    try:
        connection = sqlite3.connect(str(path), isolation_level=None)
        if exclusive:  # before WAL mode: then its index is never put in shared memory
            connection.execute("PRAGMA locking_mode = EXCLUSIVE")
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute(f"PRAGMA synchronous = {synchronous}")
        connection.execute("PRAGMA foreign_keys = ON")
        migrate(connection)
    except sqlite3.Error as error:
        raise DatabaseError(f"cannot use the database {path}: {error}") from None
    return connection


#: the mode of the database file, its WAL and SHM files and its backups: they hold password
#: and token hashes (SQLite gives a WAL and SHM file the mode of their database file)
OWNER_ONLY = 0o600


def owner_only(path: str | Path) -> None:
    """Create the file ``path`` readable and writable by its owner only, or make an existing
    one (and its WAL and SHM files) so, as the TLS key is (`net.tls.make_self_signed`)."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, OWNER_ONLY))
    for file in (Path(path), Path(f"{path}-wal"), Path(f"{path}-shm")):
        if file.exists():
            os.chmod(file, OWNER_ONLY)  # (a file that existed keeps its mode through O_CREAT)


def schema_version(connection: sqlite3.Connection) -> int:
    return connection.execute("PRAGMA user_version").fetchone()[0]


def migrate(connection: sqlite3.Connection, migrations: tuple[str, ...] = MIGRATIONS) -> int:
    """Apply the migrations the file has not had; returns the new version."""
    version = schema_version(connection)
    if version > len(migrations):
        raise DatabaseError(f"the database has schema version {version}, newer than this"
                            f" program's {len(migrations)}; use a newer bswtichu")
    for number in range(version, len(migrations)):
        connection.execute("BEGIN IMMEDIATE")
        try:
            for statement in _statements(migrations[number]):
                connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {number + 1}")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")
    return len(migrations)


def _statements(script: str) -> list[str]:
    """A migration's statements, one by one (executescript would commit on its own)."""
    out, pending = [], ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if _has_sql(pending):
                out.append(pending.strip())
            pending = ""
    return out


def _has_sql(text: str) -> bool:
    """Whether a piece holds more than comments and blanks."""
    return any(line.split("--", 1)[0].strip(" ;\t") for line in text.splitlines())


class transaction:
    """``with transaction(connection):`` one atomic, committed group of writes.

    A batch of journal steps still open (`GameStore.batched`) is committed first:
    committing early is always safe, and SQLite transactions do not nest.
    """

    def __init__(self, connection: sqlite3.Connection):
        self.connection = connection

    def __enter__(self) -> sqlite3.Connection:
        if self.connection.in_transaction:
            self.connection.execute("COMMIT")
        self.connection.execute("BEGIN IMMEDIATE")
        return self.connection

    def __exit__(self, kind, value, traceback) -> None:
        self.connection.execute("ROLLBACK" if kind is not None else "COMMIT")
