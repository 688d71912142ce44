"""Registered names and guests' resume tokens.

Passwords are hashed with ``hashlib.scrypt`` and a random salt per account and
compared in constant time (``hmac.compare_digest``); neither a password nor a
token is ever stored in clear or logged.  A guest's resume token is stored as
its SHA-256 only: it is long and random, so a slow hash adds nothing.
`hash_password` and `check_password` are pure functions of their arguments, so the
server runs them in threads, away from its reactor (bswtichu/server/people/hashing.py).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from typing import Callable

from .database import Connection

#: scrypt's cost: about 16 MiB and some tens of milliseconds per hash.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 14, 8, 1
MIN_PASSWORD = 6
MAX_PASSWORD = 128


@dataclass(frozen=True)
class ScryptCost:
    n: int = SCRYPT_N
    r: int = SCRYPT_R
    p: int = SCRYPT_P


def hash_password(password: str, cost: ScryptCost = ScryptCost(), salt: bytes | None = None) -> str:
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=cost.n, r=cost.r, p=cost.p,
                            maxmem=128 * cost.n * cost.r * 2, dklen=32)
    return f"scrypt${cost.n}${cost.r}${cost.p}${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str) -> bool:
    """Whether ``password`` matches the stored hash (its own cost and salt), in constant time."""
    scheme, n, r, p, salt, digest = stored.split("$")
    if scheme != "scrypt":
        return False
    again = hash_password(password, ScryptCost(int(n), int(r), int(p)), bytes.fromhex(salt))
    return hmac.compare_digest(again.encode(), stored.encode())


def password_problem(password: str) -> str | None:
    """Why a new password is not acceptable, or None."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        return f"a password is {MIN_PASSWORD}-{MAX_PASSWORD} characters"
    if not password.isprintable() or any(ch.isspace() for ch in password):
        return "a password has no spaces and no control characters"
    if password.startswith("/"):
        return "a password does not start with /, which begins a command"
    if password.isdigit():
        return "a password of digits only is too easy to guess; add letters or signs"
    return None


class AccountStore:
    """The accounts and guest tokens tables."""

    def __init__(self, connection: Connection, cost: ScryptCost = ScryptCost(),
                 now: Callable[[], float] = time.time):
        self.db = connection
        self.cost = cost
        self.now = now
        #: counts the writes that may add a name, so a reader can keep what it derived from
        #: `names` until the next one (`NameGuard`'s looks)
        self.names_written = 0

    def is_registered(self, name: str) -> bool:
        return self.db.execute("SELECT 1 FROM accounts WHERE name_key = ?", (name.casefold(),)).fetchone() is not None

    def spelling(self, name: str) -> str | None:
        """The name as registered (one account per name, whatever its case), or None."""
        row = self.db.execute("SELECT name FROM accounts WHERE name_key = ?", (name.casefold(),)).fetchone()
        return row[0] if row else None

    def names(self) -> list[str]:
        """Every registered name, as registered."""
        return [row[0] for row in self.db.execute("SELECT name FROM accounts")]

    def register(self, name: str, password: str) -> None:
        """Register ``name`` with ``password``, hashed here (tools; the server hashes off its
        reactor and calls `add`)."""
        self.add(name, hash_password(password, self.cost))

    def add(self, name: str, password_hash: str) -> None:
        """Register ``name`` with the stored form of its password (`hash_password`'s)."""
        self.db.execute("INSERT INTO accounts (name_key, name, password, created) VALUES (?, ?, ?, ?)",
                        (name.casefold(), name, password_hash, self.now()))
        self.names_written += 1
        self.drop_token(name)

    def login_record(self, name: str) -> tuple[str, str] | None:
        """(the registered spelling, the stored password hash) of ``name``, or None."""
        row = self.db.execute("SELECT name, password FROM accounts WHERE name_key = ?",
                              (name.casefold(),)).fetchone()
        return None if row is None else (row[0], row[1])

    def language(self, name: str) -> str | None:
        """The language ``name``'s account reads (`set_language`), or None (none chosen, or not registered)."""
        row = self.db.execute("SELECT language FROM accounts WHERE name_key = ?", (name.casefold(),)).fetchone()
        return None if row is None else row[0]

    def set_language(self, name: str, code: str) -> bool:
        """Keep ``code`` as ``name``'s language; False if ``name`` is not registered."""
        return self.db.execute("UPDATE accounts SET language = ? WHERE name_key = ?",
                               (code, name.casefold())).rowcount == 1

    def replace_password(self, name: str, password_hash: str, was: str) -> bool:
        """Store a new password hash for ``name`` if its hash is still ``was``; whether it was."""
        return self.db.execute("UPDATE accounts SET password = ? WHERE name_key = ? AND password = ?",
                               (password_hash, name.casefold(), was)).rowcount == 1

    def take_over(self, name: str, stored_password: str) -> str:
        """Register ``name`` with a password hashed already (`hash_password`), or give the
        account of that name this one: the operator claims it (`AdminStore.claim`). Returns
        the name as registered. Part of the caller's transaction."""
        self.db.execute("INSERT INTO accounts (name_key, name, password, created) VALUES (?, ?, ?, ?)"
                        " ON CONFLICT (name_key) DO UPDATE SET password = excluded.password",
                        (name.casefold(), name, stored_password, self.now()))
        self.names_written += 1
        self.drop_token(name)
        return self.spelling(name)  # type: ignore[return-value]  # just written: the account is there

    # -- guests -----------------------------------------------------------------

    def issue_token(self, name: str) -> str:
        """A new resume token for the guest name (replacing any earlier one)."""
        token = secrets.token_urlsafe(12)
        self.db.execute("INSERT INTO guest_tokens (name_key, token_hash, created) VALUES (?, ?, ?)"
                        " ON CONFLICT (name_key) DO UPDATE SET token_hash = excluded.token_hash,"
                        " created = excluded.created", (name.casefold(), _token_hash(token), self.now()))
        return token

    def drop_token(self, name: str) -> None:
        """A guest left the name (for another, or it is registered now): its token goes."""
        self.db.execute("DELETE FROM guest_tokens WHERE name_key = ?", (name.casefold(),))

    def expire_tokens(self, before: float, kept: Callable[[str], bool]) -> int:
        """Drop the tokens issued before ``before`` whose name is not ``kept(name_key)`` (a
        seat held for it, or someone holding it now); how many went."""
        expired = [key for (key,) in self.db.execute(
            "SELECT name_key FROM guest_tokens WHERE created < ?", (before,)) if not kept(key)]
        self.db.executemany("DELETE FROM guest_tokens WHERE name_key = ?", [(key,) for key in expired])
        return len(expired)

    def token_owner(self, token: str) -> str | None:
        """The name_key whose token this is, or None."""
        row = self.db.execute("SELECT name_key FROM guest_tokens WHERE token_hash = ?",
                              (_token_hash(token),)).fetchone()
        return row[0] if row else None


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
