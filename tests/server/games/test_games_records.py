"""History and ratings per variant: whole headless games of each variant stored by a
`DurableGame` in a real SQLite file, an old file brought forward, and the commands
that read the record (/history, /stats, /top)."""

from __future__ import annotations

import json
import sqlite3
from random import Random

import pytest
from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.engine import NANJING, TIENTSIN, TRICHU, GameOptions, Variant
from bswtichu.play import GameDriver, GameSeeds
from bswtichu.play.driver import seated_bots
from bswtichu.server.games.durable import DurableGame
from bswtichu.server.games.logs import GameLogStore
from bswtichu.service import build_lobby
from bswtichu.storage import ScryptCost, Storage
from bswtichu.storage.games import GameStore
from bswtichu.storage.database import MIGRATIONS, SCHEMA_VERSION, migrate, open_database, schema_version
from bswtichu.storage.ratings import bot_identity, ladder, player_identity, rating_of

from lobby_clients import Client
from test_games_durable import DELAY, WIRED, durable_lobby

CHEAP = ScryptCost(n=2 ** 8)
PEOPLE = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


def play_stored_game(storage: Storage, variant: Variant, seed: int, bots: dict[str, str] = {},
                     log_number: int = 1) -> GameDriver:
    """A whole game of ``variant``: every seat played by a basic bot, but stored as if the
    names not in ``bots`` (name -> level) were people (registered ones are rated)."""
    players = PEOPLE[:variant.players]
    seeds = GameSeeds.from_seed(seed, variant.seats)
    options = GameOptions()
    playing = seated_bots(players, options, {p: "basic" for p in players}, seeds, variant=variant)
    clock = Clock()
    driver = GameDriver(players, options, seeds, playing, clock, variant=variant)
    game_id = storage.games.begin(log_number, 1, seed, {"variant": variant.name}, players,
                                  {seat: (name, bots[name]) for seat, name in enumerate(players, 1) if name in bots})
    driver.subscribe(DurableGame(storage, game_id, players, bots, turnier=False))
    driver.start()
    clock.advance(0)
    assert driver.game.over
    return driver


def register(storage: Storage, *names: str) -> None:
    for name in names:
        storage.accounts.register(name, "secret-" + name)


@pytest.fixture
def storage(tmp_path):
    opened = Storage.open(str(tmp_path / "records.sqlite3"), cost=CHEAP)
    yield opened
    opened.close()


def test_a_tientsin_game_is_rated_by_teams_of_three_apart_from_the_4_player_game(storage):
    register(storage, *PEOPLE)
    driver = play_stored_game(storage, TIENTSIN, seed=3)
    game = driver.game
    assert storage.db.execute("SELECT variant FROM games").fetchall() == [("tientsin",)]
    places = {s.player: s.place for s in game.standings()}
    assert len(set(places.values())) == 2  # one team first, the other second: no draw with this seed
    for team in (0, 1):
        members = [game.base_seats[s] for s in TIENTSIN.team_seats(team)]
        news = {rating_of(storage.db, player_identity(p), "tientsin") for p in members}
        assert len(news) == 1  # three partners with the same start get the same update
        [new] = news
        assert new.games == 1
        assert (new.mu > 25) == (places[members[0]] == 1)
        assert all(rating_of(storage.db, player_identity(p)) is None for p in members)  # no 4-player rating
    rows = storage.games.history(None, variant="tientsin")
    assert [r.variant for r in rows] == ["tientsin"] and len(rows[0].players) == 6
    assert storage.games.history(None, variant="nanjing") == []
    assert storage.games.stats("Ann", "tientsin")[0] == 1 and storage.games.stats("Ann") == (0, 0, 0)


def test_a_trichu_game_rates_its_three_people_each_alone_and_not_the_dummy(storage):
    register(storage, "Ann", "Bob")  # Cy is a guest: he plays at the starting rating, keeps nothing
    driver = play_stored_game(storage, TRICHU, seed=4)
    standings = driver.game.standings()
    assert len(standings) == 3  # the dummy is no player
    rows = storage.db.execute("SELECT name, place, points, won FROM game_players ORDER BY seat").fetchall()
    assert [r[0] for r in rows] == ["Ann", "Bob", "Cy"]
    by_name = {s.player: s for s in standings}
    for name, place, points, won in rows:
        assert (place, points, bool(won)) == (by_name[name].place, by_name[name].points,
                                               name in driver.game.winners())
    ratings = {name: rating_of(storage.db, player_identity(name), "trichu") for name in ("Ann", "Bob")}
    assert rating_of(storage.db, player_identity("Cy"), "trichu") is None
    assert {r.games for r in ratings.values()} == {1}
    ann, bob = by_name["Ann"].place, by_name["Bob"].place
    if ann != bob:  # the better place gains more
        better, worse = ("Ann", "Bob") if ann < bob else ("Bob", "Ann")
        assert ratings[better].mu > ratings[worse].mu
    assert storage.db.execute("SELECT count(*) FROM ratings WHERE variant != 'trichu'").fetchone()[0] == 0
    # the dummy's steps are journalled under the dealer who plays them, and read back
    journal = storage.games.journal(1)
    assert any(e.action is not None and e.action.seat == TRICHU.dummy for e in journal)
    assert {e.player for e in journal if e.action is not None} == {"Ann", "Bob", "Cy"}
    result = json.loads(storage.db.execute("SELECT result FROM games").fetchone()[0])
    assert {s["player"] for s in result["standings"]} == {"Ann", "Bob", "Cy"}


def test_each_variant_keeps_its_own_ladder_and_the_4_player_one_is_as_before(storage):
    register(storage, *PEOPLE)
    play_stored_game(storage, NANJING, seed=5, bots={"Dee": "basic"}, log_number=1)
    play_stored_game(storage, TIENTSIN, seed=5, bots={"Fay": "basic"}, log_number=2)
    play_stored_game(storage, TRICHU, seed=5, log_number=3)
    counts = dict(storage.db.execute("SELECT variant, count(*) FROM ratings GROUP BY variant"))
    assert counts == {"nanjing": 4, "tientsin": 6, "trichu": 3}
    assert [row.name for row in ladder(storage.db, bots=True)] == ["basic"]
    assert [row.name for row in ladder(storage.db, bots=True, variant="trichu")] == []
    assert {row.name for row in ladder(storage.db, variant="tientsin")} == set(PEOPLE[:5])
    assert rating_of(storage.db, bot_identity("basic"), "tientsin").games == 1
    assert [r.variant for r in storage.games.history(None)] == ["trichu", "tientsin", "nanjing"]


def old_file(path) -> None:
    """A database as the server wrote it before the variants: schema version 2, one game, one rating."""
    db = sqlite3.connect(str(path), isolation_level=None)
    migrate(db, MIGRATIONS[:2])
    db.execute("INSERT INTO games (id, log_number, table_number, seed, table_options, players, bots, state,"
               " started, ended, result) VALUES (1, 7, 1, '1', '{}', '[\"Ann\"]', '{}', 'over', 1.0, 2.0, '{}')")
    db.execute("INSERT INTO game_players VALUES (1, 'Ann', 'ann', 1, NULL, 1, 1000, 1)")
    db.execute("INSERT INTO ratings VALUES ('player:ann', 27.5, 7.0, 1)")
    db.close()


def test_an_old_file_opens_and_its_games_and_ratings_are_the_4_player_games(tmp_path):
    path = tmp_path / "old.sqlite3"
    old_file(path)
    db = open_database(path)
    assert schema_version(db) == SCHEMA_VERSION
    assert db.execute("SELECT variant FROM games").fetchall() == [("nanjing",)]
    assert rating_of(db, "player:ann") is not None and rating_of(db, "player:ann").mu == 27.5
    assert rating_of(db, "player:ann", "tientsin") is None
    games = GameStore(db)
    [row] = games.history("Ann")
    assert (row.log_number, row.variant) == (7, "nanjing")
    assert games.stats("Ann") == (1, 1, 1000) and games.stats("Ann", "trichu") == (0, 0, 0)
    db.close()


# -- the commands ------------------------------------------------------------------


@pytest.fixture
def lobby(clock: Clock, config: ServerConfig, storage: Storage):
    register(storage, *PEOPLE)
    play_stored_game(storage, NANJING, seed=5, log_number=1)
    play_stored_game(storage, TIENTSIN, seed=5, log_number=2)
    return build_lobby(clock, config, lambda table: None, GameLogStore(config.log_folder), storage=storage)


def ask(client: Client, line: str, keyword: str) -> dict:
    client.clear()
    client.say(line)
    return client.only(keyword)


def test_history_shows_and_filters_the_variant(lobby):
    eve = Client(lobby, "Zed")
    games = ask(eve, "/history", "HISTORY")
    assert [(g["log"], g.get("variant")) for g in games["games"]] == [(2, "tientsin"), (1, None)]
    assert "variant" not in games  # no filter asked
    only = ask(eve, "/history tientsin", "HISTORY")
    assert [g["log"] for g in only["games"]] == [2] and only["variant"] == "tientsin" and only["nick"] is None
    assert [g["log"] for g in ask(eve, "/history Eve Tientsin", "HISTORY")["games"]] == [2]
    assert ask(eve, "/history Eve nanjing", "HISTORY") == {"nick": "Eve", "games": [], "variant": "nanjing"}
    assert [len(g["players"]) for g in ask(eve, "/history Ann", "HISTORY")["games"]] == [6, 4]
    human = Client(lobby, "Yul", machine=False)
    human.clear()
    human.say("/history")
    lines = human.connection.lines
    assert "UTC, Tientsin): " in lines[1] and "UTC): " in lines[2]
    human.clear()
    human.say("/history trichu")
    assert human.connection.lines == ["No finished games of Trichu yet."]
    human.clear()
    human.say("/history Ann tientsin")
    assert human.connection.lines[0] == "The last 1 finished games of Tientsin with Ann:"


def test_stats_and_top_show_a_variant_only_when_asked(lobby):
    eve = Client(lobby, "Zed")
    four = ask(eve, "/stats Ann", "STATS")
    assert "variant" not in four and four["games"] == 1
    assert ask(eve, "/stats Ann nanjing", "STATS") == four
    six = ask(eve, "/stats Ann tientsin", "STATS")
    assert six["variant"] == "tientsin" and six["games"] == 1 and six["rating"] != four["rating"]
    assert ask(eve, "/stats Fay", "STATS")["rating"] is None and ask(eve, "/stats Fay tientsin", "STATS")["games"] == 1
    top = ask(eve, "/top", "TOP")
    assert "variant" not in top
    assert {e["nick"] for e in top["provisional"]} == set(PEOPLE[:4])
    six_top = ask(eve, "/top tientsin 3", "TOP")
    assert six_top["variant"] == "tientsin" and len(six_top["provisional"]) == 3
    assert ask(eve, "/top bots trichu", "TOP") == {"bots": True, "ladder": [], "provisional": [],
                                                   "variant": "trichu"}
    human = Client(lobby, "Yul", machine=False)
    human.clear()
    human.say("/stats Ann tientsin")
    assert human.connection.lines[0].startswith("Ann in Tientsin: 1 game, ")
    for wrong in ("/top tientsin trichu", "/top 3 tientsin"):
        eve.clear()
        eve.say(wrong)
        assert eve.error_code() == "usage"


# -- a whole game at a server table, stored in its database --------------------------------


def legal_commands(person: Client, line: str) -> list[str]:
    person.clear()
    person.say(line)
    found = [fields for keyword, fields in person.received() if keyword == "LEGAL"]
    return found[0]["commands"] if found else []


def exchange_line(person: Client, command: str) -> str:
    """Another legal exchange than LEGAL's (``/schupf 2j 3s`` or ``/dummy schupf 2j 3s``): the lowest cards."""
    person.clear()
    person.say("/hand")
    hands = [fields["cards"] for keyword, fields in person.received() if keyword == "HAND"]
    word = command.split()[0]
    count = len(command.split()) - (2 if word in ("/dummy", "/second") else 1)
    if word in ("/dummy", "/second"):  # a second hand's exchange (Trichu's dummy, Duo's partner seat)
        return f"{word} schupf " + " ".join(hands[1][:count])
    return "/schupf " + " ".join(hands[0][:count])


@pytest.mark.parametrize("variant, rounds, bots", [("tientsin", 1, 5), ("trichu", 3, 2), ("duo", 1, 1)])
def test_a_variant_game_at_a_server_table_goes_into_the_record(tmp_path, variant, rounds, bots):
    clock = Clock()
    lobby = durable_lobby(tmp_path, clock)
    ann = Client(lobby, "Ann")
    for line in ("/register secret-ann", "/join", f"/variant {variant}", f"/round {rounds}", *["/bot"] * bots,
                 "/start"):
        ann.say(line)
    rng = Random(3)
    for _ in range(5000):
        table = ann.session.table
        if table is None or table.game is None or table.game.driver.finished:
            break
        commands = [c for c in legal_commands(ann, "/legal") + legal_commands(ann, "/dummy legal")
                    if not c.endswith("tichu")]
        if not commands:
            clock.advance(DELAY)
            continue
        command = rng.choice(commands)
        ann.clear()
        ann.say(exchange_line(ann, command) if "schupf" in command else command)
    storage = WIRED[lobby].storage
    assert storage.db.execute("SELECT variant, state FROM games").fetchall() == [(variant, "over")]
    people = storage.db.execute("SELECT name FROM game_players").fetchall()
    assert len(people) == bots + 1  # Trichu's dummy has no row, a Duo person one
    ann.clear()
    ann.say(f"/stats Ann {variant}")
    stats = ann.only("STATS")
    assert (stats["variant"], stats["games"]) == (variant, 1) and stats["rating"] is not None
    ann.clear()
    ann.say("/stats")
    assert ann.only("STATS")["games"] == 0 and ann.only("STATS")["rating"] is None  # no 4-player record
    ann.clear()
    ann.say(f"/top bots {variant}")
    assert [e["nick"] for e in ann.only("TOP")["ladder"]] == ["basic"]
