"""Durable games in-process: a second service on the same database file restores every game.

The first lobby is simply dropped (as by kill -9: nothing is closed or flushed
by hand); a new lobby on a new clock opens the same file and must show every
seat, people's and bots', the same view as before, then play on to the end.
"""

from __future__ import annotations

import sqlite3
from random import Random

from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.server.tables.wiring import GameWiring
from bswtichu.server.games.logs import GameLogStore
from bswtichu.server.lobby import Lobby
from bswtichu.service import build_lobby
from bswtichu.storage import ScryptCost, Storage

from lobby_clients import Client

CHEAP = ScryptCost(n=2 ** 8)  # the same scrypt, cheap enough for tests
DELAY = 1.0


def durable_lobby(tmp_path, clock: Clock, seed: int = 7, **settings) -> Lobby:
    config = ServerConfig(reconnect_grace=30.0, log_folder=str(tmp_path / "logs"), bot_delay=DELAY,
                          database=str(tmp_path / "bswtichu.sqlite3"), **settings)
    storage = Storage.open(config.database, cost=CHEAP)
    seeds = Random(seed)
    wiring = GameWiring(clock, GameLogStore(config.log_folder), DELAY, config.reconnect_grace,
                        seeds=lambda: seeds.getrandbits(64), storage=storage)
    lobby = build_lobby(clock, config, wiring, wiring.logs, storage=storage)
    wiring.restore(lobby.tables)
    WIRED[lobby] = wiring
    return lobby


#: each lobby's game wiring (its storage and log store), as service.py keeps them
WIRED: dict[Lobby, GameWiring] = {}


def gone(lobby: Lobby) -> None:
    """The server dies: its database lock goes with it, as the OS drops it after kill -9."""
    WIRED.pop(lobby).storage.close()


def legal(client: Client) -> list[str]:
    client.clear()
    client.say("/legal")
    return client.only("LEGAL")["commands"]


def play_moves(people: list[Client], clock: Clock, rng: Random, moves: int) -> bool:
    """People take random legal actions, bots move on the clock; True once the game is over."""
    for _ in range(moves):
        options = [(p, c) for p in people for c in legal(p) if c != "/tichu"]
        if options:
            person, command = rng.choice(options)
            if command.startswith("/schupf"):
                person.clear()
                person.say("/hand")
                command = "/schupf " + " ".join(person.only("HAND")["cards"][:3])
            person.clear()
            person.say(command)
            if any(k == "GAME_OVER" for k in person.keywords()):
                return True
        else:
            clock.advance(DELAY)
        if all(p.session.table is None or p.session.table.game is None for p in people):
            return True
    return False


def views(lobby: Lobby) -> list:
    game = lobby.tables.get(1).game
    return [game.game.round.view(seat) for seat in range(4)] + [game.game.round.view(None)]


def seen(client: Client) -> tuple[dict, dict]:
    client.clear()
    client.say("/table")
    table = client.only("TABLE")
    client.clear()
    client.say("/hand")
    return table, client.only("HAND")


def test_a_new_service_on_the_same_file_restores_every_seat_and_plays_on(tmp_path):
    clock = Clock()
    lobby = durable_lobby(tmp_path, clock)
    ann, bob, eve = Client(lobby, "Ann"), Client(lobby, "Bob"), Client(lobby, "Eve")
    ann.say("/register secret-ann")
    for line in ("/join", "/bot", "/bot random"):
        ann.say(line)
    bob.say("/join 1")
    eve.say("/watch 1")
    ann.say("/start")
    rng = Random(3)
    assert not play_moves([ann, bob], clock, rng, 60)
    before = views(lobby)
    ann_seen, bob_seen = seen(ann), seen(bob)
    eve.clear()
    eve.say("/table")
    eve_seen = eve.only("TABLE")
    number = lobby.tables.get(1).game.log_number

    clock2 = Clock()
    gone(lobby)
    lobby2 = durable_lobby(tmp_path, clock2, seed=99)  # the stored seed counts, not the new one
    table = lobby2.tables.get(1)
    assert table is not None and table.started and table.view()["away"] == [1, 4]
    assert views(lobby2) == before
    assert table.game.driver.paused  # nobody is back yet: the bots wait
    clock2.advance(3600)
    assert views(lobby2) == before

    ann2, bob2, eve2 = Client(lobby2, None), Client(lobby2, None), Client(lobby2, "Eve")
    ann2.say("/nick Ann")
    assert ann2.error_code() == "name_registered"
    ann2.clear()
    ann2.say("/nick Ann secret-ann")
    assert ann2.only("SEAT_HELD") == {"table": 1, "seat": 1}
    assert ann2.only("RETURNED")["seat"] == 1
    bob2.say("/nick Bob")
    assert bob2.error_code() == "name_held"
    bob2.clear()
    bob2.say(f"/resume {bob.token}")
    assert bob2.only("RETURNED")["seat"] == 4
    assert (seen(ann2), seen(bob2)) == (ann_seen, bob_seen)
    eve2.say("/watch 1")
    eve2.clear()
    eve2.say("/table")
    assert eve2.only("TABLE") == eve_seen
    eve2.clear()
    eve2.say(f"/log {number}")
    assert eve2.error_code() == "log_running"

    assert play_moves([ann2, bob2], clock2, rng, 3000)
    ann2.clear()
    ann2.say("/history Ann")
    games = ann2.only("HISTORY")["games"]
    assert [g["log"] for g in games] == [number]
    ann2.say("/mode human")
    ann2.clear()
    ann2.say("/history Ann")
    assert f"game {number} (" in ann2.connection.lines[1] and f"/review {number}" in ann2.connection.lines[1]
    ann2.say("/mode machine")
    ann2.clear()
    ann2.say("/stats")
    stats = ann2.only("STATS")
    assert stats["games"] == 1 and stats["rating"] is not None
    ann2.clear()
    ann2.say("/stats bot-basic")
    assert ann2.only("STATS")["rating"] is not None
    ann2.clear()
    ann2.say("/stats Bob")
    assert ann2.only("STATS")["rating"] is None  # a guest is not rated
    ann2.clear()
    ann2.say(f"/log {number}")
    assert ann2.only("LOG")


def test_numbering_goes_on_after_a_restart_even_before_a_log_file_exists(tmp_path):
    clock = Clock()
    lobby = durable_lobby(tmp_path, clock)
    ann = Client(lobby, "Ann")
    for line in ("/join", "/bot", "/bot", "/bot", "/start"):
        ann.say(line)
    first = lobby.tables.get(1).game.log_number
    gone(lobby)
    lobby2 = durable_lobby(tmp_path, Clock())
    cy = Client(lobby2, "Cy")
    for line in ("/join", "/bot", "/bot", "/bot", "/start"):
        cy.say(line)
    table = lobby2.tables.get(2)
    assert table.game.log_number == first + 1


def test_a_paused_game_is_abandoned_after_abandon_after_and_not_restored(tmp_path):
    clock = Clock()
    lobby = durable_lobby(tmp_path, clock, abandon_after=600.0)
    ann = Client(lobby, "Ann")
    for line in ("/join", "/bot", "/bot", "/bot", "/start"):
        ann.say(line)
    ann.hang_up()
    clock.advance(599)
    assert lobby.tables.get(1) is not None
    clock.advance(1)
    assert lobby.tables.get(1) is None and clock.getDelayedCalls() == []
    gone(lobby)
    lobby2 = durable_lobby(tmp_path, Clock())
    assert lobby2.tables.get(1) is None


def test_a_game_whose_last_step_was_stored_but_not_its_result_is_finished_on_start(tmp_path):
    clock = Clock()
    lobby = durable_lobby(tmp_path, clock)
    ann = Client(lobby, "Ann")
    ann.say("/register secret-ann")
    for line in ("/join", "/round 1", "/bot", "/bot", "/bot", "/start"):
        ann.say(line)
    number = lobby.tables.get(1).game.log_number
    assert play_moves([ann], clock, Random(5), 3000)
    db = WIRED[lobby].storage.db
    stored = db.execute("SELECT result FROM games").fetchone()[0]
    ratings = db.execute("SELECT * FROM ratings ORDER BY identity").fetchall()
    # as if the process died after the last step's commit, before the result's
    db.execute("UPDATE games SET state = 'running', result = NULL, ended = NULL")
    db.execute("DELETE FROM game_players")
    db.execute("DELETE FROM ratings")
    WIRED[lobby].logs.path(number).unlink()
    gone(lobby)
    lobby2 = durable_lobby(tmp_path, Clock())
    assert lobby2.tables.get(1) is None
    db2 = WIRED[lobby2].storage.db
    assert db2.execute("SELECT state, result FROM games").fetchone() == ("over", stored)
    assert db2.execute("SELECT * FROM ratings ORDER BY identity").fetchall() == ratings
    assert WIRED[lobby2].logs.read(number) is not None


def test_a_failing_store_does_not_stop_the_game(tmp_path, monkeypatch, logged_errors):
    clock = Clock()
    lobby = durable_lobby(tmp_path, clock)
    ann = Client(lobby, "Ann")
    for line in ("/join", "/round 1", "/bot", "/bot", "/bot", "/start"):
        ann.say(line)

    def full_disk(*args):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(WIRED[lobby].storage.games, "append", full_disk)
    assert play_moves([ann], clock, Random(2), 3000)
    assert [e["log_format"] for e in logged_errors] == [
        "cannot store a step of game {id}; it plays on but will not survive a restart"]
    assert WIRED[lobby].storage.db.execute("SELECT state FROM games").fetchone() == ("abandoned",)
    gone(lobby)
    assert durable_lobby(tmp_path, Clock()).tables.get(1) is None  # no half game comes back


def test_a_game_that_cannot_be_restored_is_set_aside_once(tmp_path, logged_errors):
    clock = Clock()
    lobby = durable_lobby(tmp_path, clock)
    ann = Client(lobby, "Ann")
    for line in ("/join", "/bot", "/bot", "/bot", "/start"):
        ann.say(line)
    assert not play_moves([ann], clock, Random(4), 20)
    db = WIRED[lobby].storage.db
    seq = db.execute("SELECT max(seq) FROM game_journal").fetchone()[0]
    db.execute("UPDATE game_journal SET data = ? WHERE seq = ?", ('{"no": "action"}', seq))
    gone(lobby)
    again = durable_lobby(tmp_path, Clock())
    assert again.tables.get(1) is None
    assert [e["log_format"].split(" cannot be restored")[0] for e in logged_errors] == [
        "stored game {number} (table {table})"]
    assert WIRED[again].storage.db.execute("SELECT state FROM games").fetchone() == ("abandoned",)
    gone(again)
    durable_lobby(tmp_path, Clock())
    assert len(logged_errors) == 1  # set aside: not tried, nor reported, again


def test_a_restart_in_the_middle_of_a_timed_decision_gives_it_its_full_time_again(tmp_path):
    clock = Clock()
    lobby = durable_lobby(tmp_path, clock)
    ann, bob = Client(lobby, "Ann"), Client(lobby, "Bob")
    for line in ("/join", "/bot", "/clock 30"):
        ann.say(line)
    bob.say("/join 1")
    ann.say("/bot")
    ann.say("/start")
    bob.say("/nogrand")
    clock.advance(30)  # Ann's Grand Tichu decision runs out: the stand-in decides once
    game = lobby.tables.get(1).game
    assert game.driver.strikes == {"Ann": 1}
    for _ in range(3):
        clock.advance(DELAY)  # the bots exchange
    bob.clear()
    bob.say("/hand")
    bob.say("/schupf " + " ".join(bob.only("HAND")["cards"][:3]))
    clock.advance(12)
    assert game.game.round.phase == "exchange" and 0 < game.driver.time_left("Ann") <= 30 - 12
    history = list(game.game.round.history)

    clock2 = Clock()
    gone(lobby)
    lobby2 = durable_lobby(tmp_path, clock2)
    table = lobby2.tables.get(1)
    driver = table.game.driver
    assert list(driver.round.history) == history and driver.strikes == {"Ann": 1}
    clock2.advance(3600)  # paused: nobody is back, no clock runs
    assert list(driver.round.history) == history
    ann2 = Client(lobby2, None)
    ann2.say(f"/resume {ann.token}")
    assert driver.time_left("Ann") == 30  # the downtime was not hers: the full time again
    prompt = [f for k, f in ann2.received() if k == "PHASE"]
    assert prompt == [{"table": 1, "phase": "exchange", "clock": 30}]
    ann2.clear()
    for _ in range(30):  # the game holds for Bob, who never came back, until his stand-in comes
        clock2.advance(1)
    assert driver.time_left("Ann") == 30 and driver.holding == set()
    for _ in range(30):
        clock2.advance(1)
    assert [f["strikes"] for k, f in ann2.received() if k == "CLOCK_OUT"] == [2]
    assert [(f["player"], f["reason"]) for k, f in ann2.received() if k == "SUBSTITUTE"] == [
        ("Bob", "away"), ("Ann", "clock")]
    assert not any(k == "PLAYED" for k, _ in ann2.received())  # the bots wait bot_delay: she watches
    ann2.clear()
    ann2.say("hello")  # typing anything brings her back
    assert ann2.only("SUBSTITUTE_END") == {"table": 1, "player": "Ann"}


def test_a_seat_handed_over_by_vote_stays_handed_over_after_a_restart(tmp_path):
    clock = Clock()
    lobby = durable_lobby(tmp_path, clock)
    ann, bob, cy, eve = (Client(lobby, name) for name in ("Ann", "Bob", "Cy", "Eve"))
    ann.say("/join")
    cy.say("/join 1")
    bob.say("/join 1")
    ann.say("/bot")
    ann.say("/start")
    eve.say("/watch 1")
    bob.hang_up()
    ann.say("/replace 3 Eve")  # Ann, his partner, agrees
    cy.say("/accept")  # 2 of the 3 (Bob counts)
    table = lobby.tables.get(1)
    assert table.seats[2] == "Eve"
    for person in (eve, ann, cy):
        person.say("/nogrand")
    history = list(table.game.game.round.history)

    gone(lobby)
    lobby2 = durable_lobby(tmp_path, Clock())
    table2 = lobby2.tables.get(1)
    assert table2.seats == ["Ann", "Cy", "Eve", "bot-basic-Ada"]
    assert table2.view()["away"] == [1, 2, 3]
    driver = table2.game.driver
    assert driver.game.base_seats == ("Ann", "Cy", "Eve", "bot-basic-Ada")
    assert list(driver.round.history) == history
    eve2 = Client(lobby2, None)
    eve2.say(f"/resume {eve.token}")
    assert eve2.only("SEAT_HELD") == {"table": 1, "seat": 3}
