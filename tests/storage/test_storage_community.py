"""The community tables: a file written before them opens with them, and what they keep."""

from __future__ import annotations

import sqlite3

from bswtichu.storage import SCHEMA_VERSION, Storage, open_database
from bswtichu.storage.accounts import ScryptCost
from bswtichu.storage.community import BAN, FRIEND, IGNORE, MUTE, AuditEntry, CommunityStore
from bswtichu.storage.database import MIGRATIONS, migrate, schema_version

CHEAP = ScryptCost(n=2 ** 8)


def test_a_file_from_before_the_community_tables_opens_and_keeps_its_accounts(tmp_path):
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(str(path), isolation_level=None)
    assert migrate(old, MIGRATIONS[:1]) == 1
    old.execute("INSERT INTO accounts VALUES ('ann', 'Ann', 'scrypt$x', 0)")
    old.close()
    db = open_database(path)
    assert schema_version(db) == SCHEMA_VERSION
    assert db.execute("SELECT name FROM accounts").fetchall() == [("Ann",)]
    store = CommunityStore(db)
    store.appoint("Mod", "Root", 1.0)
    assert store.moderators() == {"mod": "Mod"}


def test_sanctions_replace_expire_and_lift(engine_storage):
    store = engine_storage().community
    store.impose(MUTE, "eve", "Eve", 100.0, "first", "Mod", 0.0)
    second = store.impose(MUTE, "eve", "Eve", None, "second", "Mod", 1.0)
    store.impose(BAN, "192.0.2.0/24", "192.0.2.0/24", 50.0, "net", "Mod", 1.0)
    assert [(s.kind, s.reason) for s in store.sanctions(10.0)] == [(MUTE, "second"), (BAN, "net")]
    assert store.sanctions(10.0)[0] == second
    assert [s.kind for s in store.sanctions(60.0)] == [MUTE]  # the ban's time is over
    assert store.lift(MUTE, "eve") and not store.lift(MUTE, "eve")
    assert store.sanctions(60.0) == []


def test_the_audit_is_newest_first_and_filters_by_name(engine_storage):
    store = engine_storage().community
    store.record(AuditEntry(1.0, "Mod", "mute", "Eve", 5, "loud"))
    store.record(AuditEntry(2.0, "Root", "op", "Mod", None, "no reason given"))
    store.record(AuditEntry(3.0, "Mod", "announce", "", None, "hello"))
    assert [e.action for e in store.audit(10)] == ["announce", "op", "mute"]
    assert [e.action for e in store.audit(10, "eve")] == ["mute"]
    assert [e.action for e in store.audit(10, "MOD")] == ["announce", "op", "mute"]
    assert [e.action for e in store.audit(1)] == ["announce"]


def test_personal_lists_are_per_owner_and_kind(engine_storage):
    store = engine_storage().community
    store.add_to_list("Ann", IGNORE, "Eve")
    store.add_to_list("Ann", FRIEND, "Bob")
    store.add_to_list("Bob", IGNORE, "Ann")
    assert store.personal_list("ann", IGNORE) == {"eve": "Eve"}
    assert store.personal_list("Ann", FRIEND) == {"bob": "Bob"}
    store.remove_from_list("Ann", IGNORE, "EVE")
    assert store.personal_list("Ann", IGNORE) == {}
    assert store.personal_list("Bob", IGNORE) == {"ann": "Ann"}
