"""The lease on a PostgreSQL database and its fence (issue 33, item 4), against a real server:
one holder at a time, a takeover once the lease ran out or its holder's connection is gone,
and the database refusing every write of a holder that was fenced, in its own transaction."""

from __future__ import annotations

import time

import pytest

from bswtichu.records import ACT, JournalEntry
from bswtichu.engine import Pass
from bswtichu.storage import Fenced, Holder, Lease, Storage, is_fenced, postgres, take_lease
from bswtichu.storage.database import FENCED_TABLES, SCHEMA_VERSION, transaction



def run_out(url: str) -> None:
    """The lease's time is up (as if its holder had been paused past it)."""
    db = postgres.open_postgres(url, own=False)
    try:
        db.execute("UPDATE owner_lease SET expires = 0")
    finally:
        db.close()


def test_one_holder_at_a_time_and_a_clean_stop_hands_it_on_at_once(postgres_url):
    first = take_lease(postgres_url)
    waiting = postgres.open_postgres(postgres_url, own=False)
    try:
        held = Lease.take(waiting, 5.0, holder="standby")
        assert isinstance(held, Holder) and held.epoch == first.epoch and 0 < held.left <= 5.0
        first.renew()
        first.release()  # a clean stop: no waiting for the lease to run out
        taken = Lease.take(waiting, 5.0, holder="standby")
        assert isinstance(taken, Lease) and taken.epoch == first.epoch + 1
    finally:
        waiting.close()
        first.connection.close()


def test_the_holders_death_frees_the_lease_before_it_runs_out(postgres_url):
    """kill -9 closes the holder's connection: its advisory lock goes, a standby need not wait."""
    first = take_lease(postgres_url)
    first.connection.close()
    second = take_lease(postgres_url)
    try:
        assert second.epoch == first.epoch + 1 and second.locked
    finally:
        second.connection.close()


def test_a_takeover_ends_the_sessions_of_the_holder_it_fences(postgres_url):
    """A holder paused mid-transaction would keep its locks (on the lease row, on journal keys)
    for as long as it is paused: the takeover ends its sessions (named after it)."""
    old = take_lease(postgres_url)
    run_out(postgres_url)
    old.connection.execute("BEGIN")
    old.connection.execute("SELECT epoch FROM owner_lease FOR SHARE")  # paused in a transaction
    new = postgres.open_postgres(postgres_url, own=False)
    try:
        taken = Lease.take(new, 5.0, holder="new-holder")
        assert isinstance(taken, Lease) and taken.epoch == old.epoch + 1
        with pytest.raises(old.connection.OperationalError):
            old.connection.execute("SELECT 1")
    finally:
        new.close()
        old.connection.close()


def test_a_holder_paused_past_its_lease_is_fenced_and_writes_nothing(postgres_url):
    paused = postgres.open_postgres(postgres_url, own=False)  # (another name: its sessions live on)
    old = Storage.open(postgres_url, lease=Lease.take(paused, 5.0, holder="paused-holder"))
    game = old.games.begin(1, 1, 7, {}, ["Ann", "B", "C", "D"], {})
    old.games.append(game, 0, JournalEntry(ACT, player="Ann", action=Pass(0)))
    run_out(postgres_url)
    new = Storage.open(postgres_url)  # the standby takes it: the old one lives on, paused
    try:
        assert new.lock.epoch == old.lock.epoch + 1 and not new.lock.locked
        rows = new.db.execute("SELECT count(*) FROM game_journal").fetchone()[0]
        with pytest.raises(Fenced, match="was fenced"):  # the write guard refuses it first
            old.games.append(game, 1, JournalEntry(ACT, player="Ann", action=Pass(0)))
        with pytest.raises(Fenced), transaction(old.db) as db:
            db.execute("UPDATE games SET state = 'abandoned'")
        assert old.fenced and not old.db.in_transaction
        with pytest.raises(Fenced):
            old.lock.renew()
        old.guard = None  # and behind it the database's own fence, on every table but the lease's
        for table in FENCED_TABLES:
            with pytest.raises(old.db.Error) as refused:
                old.db.execute(f"DELETE FROM {table}")
            assert is_fenced(refused.value) and "was fenced" in str(refused.value), table
            assert not old.db.in_transaction
        assert new.db.execute("SELECT count(*) FROM game_journal").fetchone()[0] == rows == 1
        assert new.db.execute("SELECT state FROM games").fetchone()[0] == "running"
        new.games.append(game, 1, JournalEntry(ACT, player="Ann", action=Pass(0)))  # the new holder writes
        new.lock.renew()
        assert new.lock.locked is False
        old.close()  # gives nothing up: it is not the holder
        # the old one's connection went: once its server process has ended (PostgreSQL frees the
        # advisory lock then, a moment after the client hung up), the new one holds the lock too
        deadline = time.monotonic() + 30
        while not new.lock.locked and time.monotonic() < deadline:
            new.lock.renew()
        assert new.lock.locked
    finally:
        new.close()


def test_tools_without_an_epoch_write_and_the_schema_has_the_lease_row(postgres_url):
    db = postgres.open_postgres(postgres_url, own=False)
    try:
        db.execute("INSERT INTO table_claims (number) VALUES (9)")  # no epoch said: not fenced
        assert db.execute("SELECT id, epoch FROM owner_lease").fetchall() == [(1, 0)]
        assert postgres.schema_version(db) == SCHEMA_VERSION
    finally:
        db.close()
