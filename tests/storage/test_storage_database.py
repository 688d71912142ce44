"""The SQLite file: WAL, the versioned schema and its migrations, the action codec, passwords, ratings."""

from __future__ import annotations

import json
import sqlite3
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bswtichu.engine import VARIANTS, DogLead, Round
from bswtichu.records import JournalEntry
from bswtichu.storage import SCHEMA_VERSION, DatabaseError, Storage, open_database
from bswtichu.storage.accounts import ScryptCost, check_password, hash_password
from bswtichu.storage.database import MIGRATIONS, migrate, schema_version
from bswtichu.storage.games import decode_action, decode_entry, encode_action, encode_entry
from bswtichu.storage.ratings import RatedSeat, bot_identity, player_identity, rating_of, update_ratings

CHEAP = ScryptCost(n=2 ** 8)


def test_a_new_file_is_created_in_wal_mode_with_the_current_schema(tmp_path):
    path = tmp_path / "data" / "new.sqlite3"
    db = open_database(path)
    assert path.is_file()
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert schema_version(db) == SCHEMA_VERSION
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"accounts", "guest_tokens", "games", "game_journal", "game_players", "ratings"} <= tables
    db.close()
    assert schema_version(open_database(path)) == SCHEMA_VERSION  # opening again changes nothing


def test_migrations_go_forward_and_keep_the_data(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = open_database(path)
    db.execute("INSERT INTO ratings VALUES ('bot:basic', 25.0, 8.0, 3, 'nanjing')")
    later = MIGRATIONS + ("ALTER TABLE ratings ADD COLUMN note TEXT DEFAULT 'x';",)
    assert migrate(db, later) == SCHEMA_VERSION + 1
    assert db.execute("SELECT identity, games, note FROM ratings").fetchall() == [("bot:basic", 3, "x")]
    db.close()
    with pytest.raises(DatabaseError, match="newer"):
        open_database(path)  # this program knows one migration less


def test_a_failing_migration_changes_nothing(tmp_path):
    db = open_database(tmp_path / "f.sqlite3")
    broken = MIGRATIONS + ("CREATE TABLE extra (x); INSERT INTO nowhere VALUES (1);",)
    with pytest.raises(sqlite3.OperationalError):
        migrate(db, broken)
    assert schema_version(db) == SCHEMA_VERSION
    assert db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'extra'").fetchone()[0] == 0


def test_an_unreadable_file_is_a_clear_error(tmp_path):
    path = tmp_path / "junk.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(DatabaseError, match="cannot use the database"):
        open_database(path)


@settings(max_examples=25)
@given(seed=st.integers(0, 2 ** 32), tournament=st.booleans(), variant=st.sampled_from(list(VARIANTS.values())))
def test_every_legal_action_survives_the_codec(seed, tournament, variant):
    """Every variant's actions (Tientsin's Dog lead and seats 5 and 6 too) come back from the journal."""
    rng = Random(seed)
    rnd = Round.deal_random(rng, grand_tichu=not tournament, variant=variant)
    while rnd.phase != "over":
        legal = [a for seat in range(variant.seats) for a in rnd.legal_actions(seat)]
        for action in legal:
            assert decode_action(encode_action(action)) == action
            # the journal's row text: the simple actions' cached texts are json.dumps's
            assert encode_entry(JournalEntry("act", "p", action)) == json.dumps(encode_action(action))
        rnd.apply(rng.choice(legal))


def test_a_dog_lead_choice_survives_the_codec():
    """Tientsin's Dog lead (the partner chosen) is a journal row like any other action."""
    for seat, to in ((0, 2), (3, 5), (5, 1)):
        action = DogLead(seat, to)
        text = encode_entry(JournalEntry("act", "p", action))
        assert decode_entry("act", "p", text).action == action


def test_passwords_are_salted_scrypt_hashes():
    first, second = hash_password("secret1", CHEAP), hash_password("secret1", CHEAP)
    assert first != second and "secret1" not in first
    assert first.startswith("scrypt$256$8$1$")
    assert check_password("secret1", first) and not check_password("secret2", first)


def test_ratings_move_winners_up_and_keep_no_guest(engine_storage):
    storage = engine_storage()
    seats = [RatedSeat(player_identity("Ann"), 0, 1), RatedSeat(bot_identity("basic"), 1, 2),
             RatedSeat(None, 0, 1), RatedSeat(bot_identity("basic"), 1, 2)]
    update_ratings(storage.db, seats)
    ann, basic = rating_of(storage.db, "player:ann"), rating_of(storage.db, "bot:basic")
    assert ann.mu > 25 > basic.mu and ann.games == basic.games == 1
    assert storage.db.execute("SELECT count(*) FROM ratings").fetchone()[0] == 2


def test_a_game_of_guests_rates_nobody(engine_storage):
    storage = engine_storage()
    seats = [RatedSeat(None, seat % 2, 1 + seat % 2) for seat in range(4)]
    assert update_ratings(storage.db, seats) == {}
    assert storage.db.execute("SELECT count(*) FROM ratings").fetchone()[0] == 0


def test_while_a_server_has_its_file_no_other_connection_reads_it(tmp_path):
    path = str(tmp_path / "b.sqlite3")
    storage = Storage.open(path, cost=CHEAP)
    storage.db.execute("INSERT INTO ratings VALUES ('bot:basic', 25, 8, 1, 'nanjing')")
    other = sqlite3.connect(path, timeout=0)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        other.execute("SELECT count(*) FROM ratings").fetchone()
    storage.close()
    assert other.execute("SELECT count(*) FROM ratings").fetchone()[0] == 1


def test_a_database_file_serves_one_server_at_a_time(tmp_path):
    path = str(tmp_path / "data" / "b.sqlite3")
    first = Storage.open(path, cost=CHEAP)
    with pytest.raises(DatabaseError, match="another bswtichu uses this database"):
        Storage.open(path, cost=CHEAP)
    first.close()
    again = Storage.open(path, cost=CHEAP)  # the lock went with the first server
    again.close()


def test_an_account_keeps_its_language_from_the_migration_on(tmp_path):
    """Issue 35's migration: a file from before it gets the column, empty for every account;
    `set_language` keeps a registered name's choice, a guest's name has none to keep."""
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(str(path), isolation_level=None)
    migrate(old, MIGRATIONS[:-1])
    old.execute("INSERT INTO accounts (name_key, name, password, created) VALUES ('ann', 'Ann', 'x', 0)")
    old.close()
    storage = Storage.open(str(path))
    assert storage.accounts.language("Ann") is None
    assert storage.accounts.set_language("ANN", "ro") is True
    assert storage.accounts.language("ann") == "ro"
    assert storage.accounts.set_language("Bob", "de") is False
    assert storage.accounts.language("Bob") is None
