"""The admins the operator claimed (``bswtichu admin add``), and how the command reaches a
running server.

A name in ``[admin] admins`` makes nobody an admin by itself: the operator claims each
account (`AdminStore.claim`: registered, or its password replaced, in one transaction),
so a stranger who registers a listed name first gets nothing (docs/moderation.md).

The running server keeps the database locked for itself (docs/storage.md), so the command
asks it as ``bswtichu backup`` does: it writes its request (JSON, owner-only: it holds a
password hash) to `request_path` beside the database and sends the server SIGUSR2 (its
process id is in the lock file); the server applies it and writes its answer to
`reply_path`, which the command waits for. With no server running, the command opens the
database itself (taking the server's lock meanwhile).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable

from .accounts import AccountStore
from .database import OWNER_ONLY, Connection, transaction


class AdminStore:
    """The admins table: one row per account the operator claimed."""

    def __init__(self, connection: Connection, accounts: AccountStore,
                 now: Callable[[], float]):
        self.db = connection
        self.accounts = accounts
        self.now = now

    def names(self) -> list[str]:
        """The claimed accounts' names, as registered, in the order claimed."""
        return [name for (name,) in self.db.execute("SELECT name FROM admins ORDER BY claimed, name")]

    def claim(self, name: str, stored_password: str) -> str:
        """The operator claims ``name`` with a password hashed already: registered with it (or
        the account's password replaced) and marked an admin, at once. Returns the name as
        registered."""
        with transaction(self.db):
            spelled = self.accounts.take_over(name, stored_password)
            self.db.execute("INSERT INTO admins (name_key, name, claimed) VALUES (?, ?, ?) ON CONFLICT (name_key)"
                            " DO UPDATE SET name = excluded.name, claimed = excluded.claimed",
                            (spelled.casefold(), spelled, self.now()))
        return spelled

    def release(self, name: str) -> bool:
        """``name`` (as registered) is an admin no more; its account stays. Whether it was one."""
        with transaction(self.db):
            gone = self.db.execute("DELETE FROM admins WHERE name_key = ?", (name.casefold(),)).rowcount
        return gone > 0


def request_path(database: str | Path) -> Path:
    """Where ``bswtichu admin`` leaves its request for the running server."""
    return Path(f"{database}.admin-request")


def reply_path(database: str | Path) -> Path:
    """Where the running server leaves its answer to ``bswtichu admin``."""
    return Path(f"{database}.admin-reply")


def write_owner_only(path: Path, value: object) -> None:
    """``value`` as JSON in ``path``, readable by its owner only, appearing whole (a rename)."""
    partial = path.with_name(path.name + ".partial")
    partial.unlink(missing_ok=True)
    with os.fdopen(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY), "w",
                   encoding="utf-8") as out:
        json.dump(value, out)
    os.replace(partial, path)
