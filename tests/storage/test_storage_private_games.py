"""Private games in the store: who may read one (`GameStore.readable`), whom /history lists it to,
and a file from before the mark opens with every game public."""

from __future__ import annotations

import sqlite3

from bswtichu.storage import Storage, open_database
from bswtichu.storage.accounts import ScryptCost
from bswtichu.storage.database import MIGRATIONS, migrate
from bswtichu.storage.games import GameStore

CHEAP = ScryptCost(n=2 ** 8)
PLAYERS = ("Ann", "bot-basic-Ada", "Bob", "bot-basic-Bea")


def finished(games: GameStore, log_number: int, private: bool, players=PLAYERS) -> int:
    game_id = games.begin(log_number, 1, 7, {}, PLAYERS, {}, private)
    games.finish(game_id, {}, [(name, seat, None, seat, 0, False) for seat, name in enumerate(players, 1)])
    return game_id


def test_a_private_game_is_read_by_those_seated_at_its_start_or_end_only(engine_storage):
    games = engine_storage().games
    finished(games, 1, private=False)
    finished(games, 2, private=True, players=("Ann", "bot-basic-Ada", "Cy", "bot-basic-Bea"))  # Cy took Bob's seat
    assert all(games.readable(1, name) for name in ("Ann", "Eve"))
    assert [name for name in ("ann", "BOB", "Cy", "Eve") if games.readable(2, name)] == ["ann", "BOB", "Cy"]
    assert games.readable(99, "Eve")  # no game stored with that number: nothing makes it private
    assert [r.log_number for r in games.history(None, reader="Eve")] == [1]
    assert [r.log_number for r in games.history(None, reader="cy")] == [2, 1]
    assert [r.log_number for r in games.history("Ann", reader="Eve")] == [1]
    assert [r.log_number for r in games.history(None)] == [2, 1]  # no reader: every game (an admin's view)


def test_a_running_game_made_private_stays_so_and_comes_back_private(engine_storage):
    games = engine_storage().games
    game_id = games.begin(3, 2, 7, {}, PLAYERS, {})
    assert [g.private for g in games.running()] == [False]
    games.make_private(game_id)
    assert [g.private for g in games.running()] == [True]
    assert not games.readable(3, "Eve") and games.readable(3, "Bob")


def test_a_file_from_before_the_mark_opens_with_its_games_public(tmp_path):
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(str(path), isolation_level=None)
    migrate(old, MIGRATIONS[:3])
    old.execute("INSERT INTO games (log_number, table_number, seed, table_options, players, bots, state,"
                " started) VALUES (5, 1, '7', '{}', '[\"Ann\"]', '{}', 'over', 0)")
    old.close()
    assert GameStore(open_database(path)).readable(5, "Eve")
