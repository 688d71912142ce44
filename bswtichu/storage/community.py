"""What a community keeps: moderators, bans and mutes, the audit log, ignore and friend lists.

Plain values in and out, no rules: who may do what is the server's (`server/people/moderation.py`,
`server/people/social.py`). Each write is its own committed transaction, so a ban survives a
crash the moment the moderator is told it is in force.
"""

from __future__ import annotations

from dataclasses import dataclass

from .database import Connection, transaction

MODERATOR = "moderator"
BAN, MUTE = "ban", "mute"
IGNORE, FRIEND = "ignore", "friend"


@dataclass(frozen=True)
class Sanction:
    """A ban or mute: ``target`` is a casefolded name or an address range (``network``)."""

    id: int
    kind: str
    target: str
    shown: str
    until: float | None
    reason: str
    by: str
    created: float


@dataclass(frozen=True)
class AuditEntry:
    at: float
    actor: str
    action: str
    target: str
    minutes: int | None
    reason: str


class CommunityStore:
    """The roles, sanctions, audit and personal_lists tables."""

    def __init__(self, connection: Connection):
        self.db = connection

    # -- roles --------------------------------------------------------------

    def moderators(self) -> dict[str, str]:
        """Every moderator: name casefolded -> name."""
        return dict(self.db.execute("SELECT name_key, name FROM roles WHERE role = ?", (MODERATOR,)))

    def appoint(self, name: str, by: str, at: float) -> None:
        with transaction(self.db):
            self.db.execute("INSERT INTO roles (name_key, name, role, granted_by, granted) VALUES (?, ?, ?, ?, ?)"
                            " ON CONFLICT (name_key) DO UPDATE SET name = excluded.name, role = excluded.role,"
                            " granted_by = excluded.granted_by, granted = excluded.granted",
                            (name.casefold(), name, MODERATOR, by, at))

    def dismiss(self, name: str) -> None:
        with transaction(self.db):
            self.db.execute("DELETE FROM roles WHERE name_key = ?", (name.casefold(),))

    # -- sanctions ----------------------------------------------------------

    def sanctions(self, now: float) -> list[Sanction]:
        """The bans and mutes still in force at ``now``."""
        rows = self.db.execute("SELECT id, kind, target, shown, until, reason, by, created FROM sanctions"
                               " WHERE until IS NULL OR until > ? ORDER BY id", (now,))
        return [Sanction(*row) for row in rows]

    def impose(self, kind: str, target: str, shown: str, until: float | None, reason: str, by: str,
               at: float) -> Sanction:
        """A new ban or mute of ``target``, replacing one of the same kind."""
        with transaction(self.db):
            self.db.execute("DELETE FROM sanctions WHERE kind = ? AND target = ?", (kind, target))
            number = self.db.execute(
                "INSERT INTO sanctions (kind, target, shown, until, reason, by, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id", (kind, target, shown, until, reason, by, at)).fetchone()[0]
        return Sanction(number, kind, target, shown, until, reason, by, at)

    def lift(self, kind: str, target: str) -> bool:
        """Lift the ``kind`` of ``target``; whether there was one."""
        with transaction(self.db):
            cursor = self.db.execute("DELETE FROM sanctions WHERE kind = ? AND target = ?", (kind, target))
        return cursor.rowcount > 0

    # -- audit ----------------------------------------------------------------

    def record(self, entry: AuditEntry) -> None:
        with transaction(self.db):
            self.db.execute("INSERT INTO audit (at, actor, action, target, minutes, reason)"
                            " VALUES (?, ?, ?, ?, ?, ?)", (entry.at, entry.actor, entry.action, entry.target,
                                                           entry.minutes, entry.reason))

    def audit(self, limit: int, name: str | None = None) -> list[AuditEntry]:
        """The latest ``limit`` entries, newest first; with ``name``, those by or about him."""
        if name is None:
            rows = self.db.execute("SELECT at, actor, action, target, minutes, reason FROM audit"
                                   " ORDER BY id DESC LIMIT ?", (limit,))
        else:
            key = name.casefold()
            rows = self.db.execute("SELECT at, actor, action, target, minutes, reason FROM audit"
                                   " WHERE lower(actor) = ? OR lower(target) = ? ORDER BY id DESC LIMIT ?",
                                   (key, key, limit))
        return [AuditEntry(*row) for row in rows]

    # -- personal lists (ignore, friend) ------------------------------------

    def personal_list(self, owner: str, kind: str) -> dict[str, str]:
        """``owner``'s ignore or friend list: name casefolded -> name."""
        return dict(self.db.execute("SELECT name_key, name FROM personal_lists WHERE owner_key = ? AND list = ?",
                                    (owner.casefold(), kind)))

    def add_to_list(self, owner: str, kind: str, name: str) -> None:
        with transaction(self.db):
            self.db.execute("INSERT INTO personal_lists (owner_key, list, name_key, name) VALUES (?, ?, ?, ?)"
                            " ON CONFLICT (owner_key, list, name_key) DO UPDATE SET name = excluded.name",
                            (owner.casefold(), kind, name.casefold(), name))

    def remove_from_list(self, owner: str, kind: str, name: str) -> None:
        with transaction(self.db):
            self.db.execute("DELETE FROM personal_lists WHERE owner_key = ? AND list = ? AND name_key = ?",
                            (owner.casefold(), kind, name.casefold()))
