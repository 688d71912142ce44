"""The write guard (`Storage.guard`): run first inside every write transaction on PostgreSQL,
the stores' own transactions and their lone writes alike; a guard that refuses writes nothing."""

from __future__ import annotations

import pytest

from bswtichu.engine import Pass
from bswtichu.records import ACT, JournalEntry
from bswtichu.storage import Storage


class Refused(Exception):
    """The guard's refusal (the fence's, in item 4)."""


def test_the_guard_runs_inside_every_write_transaction_and_a_refusal_writes_nothing(postgres_url):
    storage = Storage.open(postgres_url)
    seen: list[bool] = []
    refuse = False

    def guard(connection) -> None:
        seen.append(connection.in_transaction)
        if refuse:
            raise Refused()

    try:
        storage.guard = guard
        game = storage.games.begin(1, 1, 1, {}, ["a", "b", "c", "d"], {})  # a lone INSERT
        storage.accounts.add("Ann", "x")  # lone writes (the token's DELETE too)
        storage.community.add_to_list("ann", "friend", "Bob")  # the store's own transaction
        storage.games.batched = True
        storage.games.append(game, 0, JournalEntry(ACT, player="a", action=Pass(0)))
        storage.commit()  # a batch
        assert len(seen) >= 5 and all(seen)
        refuse = True
        with pytest.raises(Refused):
            storage.accounts.add("Cid", "x")
        with pytest.raises(Refused):
            storage.community.add_to_list("ann", "friend", "Dan")
        assert not storage.db.in_transaction
        refuse = False
        assert not storage.accounts.is_registered("Cid")
        assert "dan" not in storage.community.personal_list("ann", "friend")
        assert len(storage.games.journal(game)) == 1
    finally:
        storage.guard = None
        storage.close()


def test_sqlite_has_no_guard():
    storage = Storage.open()
    try:
        with pytest.raises(ValueError, match="PostgreSQL"):
            storage.guard = lambda connection: None
    finally:
        storage.close()
