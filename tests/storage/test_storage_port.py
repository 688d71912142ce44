"""``bswtichu port-db``: a SQLite database copied whole into an empty PostgreSQL one, never into a full one."""

from __future__ import annotations

import pytest

from bswtichu.cli import main
from bswtichu.engine import Pass
from bswtichu.records import ACT, JournalEntry
from bswtichu.storage import DatabaseError, Storage, port
from bswtichu.storage.community import BAN, FRIEND, AuditEntry
from bswtichu.storage.ratings import RatedSeat, update_ratings

CHEAP_ROWS = {"accounts": 2, "guest_tokens": 1, "games": 2, "game_journal": 2, "game_players": 2, "ratings": 2,
              "roles": 1, "sanctions": 1, "audit": 1, "personal_lists": 1, "admins": 1,
              "events": 1}


def filled_sqlite(path) -> None:
    """A SQLite database with a row or more in every table: a finished game, a running one."""
    storage = Storage.open(str(path), now=lambda: 1234.5)
    storage.accounts.add("Ann", "scrypt$a")
    storage.accounts.issue_token("Guest")
    storage.admins.claim("Root", "scrypt$r")
    over = storage.games.begin(41, 1, "seed-a", {}, ["Ann", "b1", "b2", "b3"], {2: ("b1", "basic")})
    storage.games.append(over, 0, JournalEntry(ACT, player="Ann", action=Pass(0)))
    storage.games.finish(over, {"winners": [1]}, [("Ann", 1, None, 1, 200, True), ("b1", 2, "basic", 2, 0, False)],
                         also=lambda db: update_ratings(db, [RatedSeat("player:ann", 0, 1), RatedSeat("bot:basic", 1, 2)]))
    running = storage.games.begin(42, 2, "seed-b", {}, ["Ann", "b1", "b2", "b3"], {})
    storage.games.append(running, 0, JournalEntry(ACT, player="b1", action=Pass(1)))
    storage.community.appoint("Mod", "Root", 2.0)
    storage.community.impose(BAN, "eve", "Eve", None, "spam", "Mod", 3.0)
    storage.community.record(AuditEntry(3.0, "Mod", "ban", "Eve", None, "spam"))
    storage.community.add_to_list("Ann", FRIEND, "Bob")
    storage.events.save(1, {"name": "Friday league"}, finished=False)
    storage.db.commit()
    storage.close()


def rows(db, table: str) -> list[tuple]:
    return sorted(tuple(row) for row in db.execute(f"SELECT * FROM {table}"))


def test_every_row_comes_across_and_numbers_go_on_after_them(tmp_path, postgres_url):
    path = tmp_path / "old.sqlite3"
    filled_sqlite(path)
    assert port.port(path, postgres_url) == CHEAP_ROWS
    before = Storage.open(str(path))
    after = Storage.open(postgres_url)
    try:
        for table in port.TABLES:
            assert rows(after.db, table) == rows(before.db, table), table
        [running] = after.games.running()
        assert (running.log_number, [e.player for e in running.entries]) == (42, ["b1"])
        assert after.games.next_log_number() == 43  # the sequence goes on after the copied games
        assert after.games.begin(43, 3, "seed-c", {}, ["a", "b", "c", "d"], {}) == 3
        assert after.community.impose(BAN, "mallory", "Mallory", None, "x", "Mod", 4.0).id == 2
    finally:
        before.close()
        after.close()


def test_a_database_with_rows_is_refused_and_left_as_it_was(tmp_path, postgres_url):
    path = tmp_path / "old.sqlite3"
    filled_sqlite(path)
    other = Storage.open(postgres_url)
    other.accounts.add("Zed", "scrypt$z")
    other.close()
    with pytest.raises(DatabaseError, match=r"is not empty \(accounts \(1\) rows\): port-db copies into an empty"):
        port.port(path, postgres_url)
    again = Storage.open(postgres_url)
    assert again.accounts.names() == ["Zed"] and again.games.running() == []
    again.close()


def test_the_command_ports_and_says_what_it_copied(tmp_path, postgres_url, capsys):
    path = tmp_path / "old.sqlite3"
    filled_sqlite(path)
    assert main(["port-db", str(path), postgres_url]) == 0
    out = capsys.readouterr().out
    assert "copied to" in out and "game_journal 2" in out
    assert main(["port-db", str(path), postgres_url]) == 1  # a second time: not empty any more
    assert "is not empty" in capsys.readouterr().err


def test_the_command_says_what_is_wrong_with_its_arguments(tmp_path, capsys):
    assert main(["port-db", str(tmp_path / "none.sqlite3"), "postgresql://x@127.0.0.1/y"]) == 1
    assert "there is no SQLite database" in capsys.readouterr().err
    filled_sqlite(tmp_path / "a.sqlite3")
    assert main(["port-db", str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3")]) == 1
    assert "is not a PostgreSQL URL" in capsys.readouterr().err
