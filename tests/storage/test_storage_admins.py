"""The admins the operator claimed (migration 5), guest tokens' expiry, and the database's files
being the owner's alone (issue 30 items 1, 9, 12)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat

from bswtichu.storage import Storage, backup, open_database
from bswtichu.storage.accounts import ScryptCost, check_password, hash_password
from bswtichu.storage.database import MIGRATIONS, migrate, schema_version

CHEAP = ScryptCost(n=2 ** 8)


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_file_of_version_3_gets_the_admins_table_and_keeps_its_accounts(tmp_path):
    path = tmp_path / "old.sqlite3"
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        migrate(db, MIGRATIONS[:3])
        db.execute("INSERT INTO accounts VALUES ('root', 'Root', 'x', 1.0)")
    storage = Storage.open(str(path), cost=CHEAP)
    assert schema_version(storage.db) == len(MIGRATIONS) >= 5  # (5: the admins table)
    assert storage.admins.names() == []  # a registered listed name is nobody's admin until claimed
    assert storage.admins.claim("ROOT", hash_password("new-pw-1", CHEAP)) == "Root"
    spelling, stored = storage.accounts.login_record("root")
    assert spelling == "Root" and check_password("new-pw-1", stored)  # the operator's password now
    assert storage.admins.names() == ["Root"]
    assert storage.admins.release("Root") and not storage.admins.release("Root")
    assert storage.accounts.names() == ["Root"]
    storage.close()


def test_a_claim_registers_a_new_name_and_ends_its_guest_token(engine_storage):
    storage = engine_storage()
    storage.accounts.issue_token("Boss")
    assert storage.admins.claim("Boss", hash_password("boss-pw-1", CHEAP)) == "Boss"
    assert storage.accounts.is_registered("boss") and storage.accounts.spelling("BOSS") == "Boss"
    assert storage.db.execute("SELECT count(*) FROM guest_tokens").fetchone() == (0,)


def test_expired_tokens_go_unless_kept(engine_storage):
    now = [100.0]
    storage = engine_storage(now=lambda: now[0])
    for name in ("Ann", "Bob", "Cy"):
        storage.accounts.issue_token(name)
    now[0] = 200.0
    storage.accounts.issue_token("Dan")
    assert storage.accounts.expire_tokens(150.0, kept=lambda key: key == "bob") == 2
    assert [k for (k,) in storage.db.execute("SELECT name_key FROM guest_tokens ORDER BY 1")] == ["bob", "dan"]


def test_the_database_its_wal_and_shm_and_backups_are_the_owners_alone(tmp_path):
    """They hold password and token hashes: created 0600 whatever the umask, as the TLS key is."""
    old_umask = os.umask(0o022)
    try:
        path = tmp_path / "data" / "bswtichu.sqlite3"
        db = open_database(path)  # shared: -shm is a file (the server's exclusive mode keeps none)
        db.execute("INSERT INTO accounts (name_key, name, password, created) VALUES ('ann', 'Ann', 'x', 1.0)")
        assert {p.name for p in path.parent.iterdir()} >= {"bswtichu.sqlite3", "bswtichu.sqlite3-wal",
                                                          "bswtichu.sqlite3-shm"}
        for file in path.parent.iterdir():
            assert mode(file) == 0o600, file
        backup.copy(db, tmp_path / "copy.sqlite3")
        assert mode(tmp_path / "copy.sqlite3") == 0o600
        db.close()
        backup.copy_file(path, tmp_path / "stopped.sqlite3")
        assert mode(tmp_path / "stopped.sqlite3") == 0o600
    finally:
        os.umask(old_umask)


def test_an_older_world_readable_database_is_made_the_owners_at_open(tmp_path):
    path = tmp_path / "old.sqlite3"
    open_database(path).close()
    os.chmod(path, 0o644)
    Storage.open(str(path), cost=CHEAP).close()
    assert mode(path) == 0o600
