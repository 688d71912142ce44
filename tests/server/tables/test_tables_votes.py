"""Votes at a started table (/replace, /pause, /continue; /accept, /refuse) on a fake clock."""

from __future__ import annotations

from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.server.tables.wiring import GameWiring
from bswtichu.server.games.logs import GameLogStore
from bswtichu.service import build_lobby

from lobby_clients import Client

GRACE = 30.0
VOTE = 60.0
NAMES = ("Ann", "Bob", "Cy", "Dan")


def lobby_of_four(tmp_path, options=("/clock 20",)):
    clock = Clock()
    config = ServerConfig(reconnect_grace=GRACE, log_folder=str(tmp_path / "logs"), bot_delay=1.0,
                          vote_timeout=VOTE)
    wiring = GameWiring(clock, GameLogStore(config.log_folder), 1.0, GRACE, seeds=lambda: 11)
    lobby = build_lobby(clock, config, wiring, wiring.logs)
    players = [Client(lobby, name) for name in NAMES]
    players[0].say("/join")
    for player in players[1:]:
        player.say("/join 1")
    for line in options:
        players[0].say(line)
    players[0].say("/start")
    for player in players:
        player.clear()
    return clock, lobby, players


def fields(client, keyword):
    return [f for k, f in client.received() if k == keyword]


def test_a_pause_passes_by_majority_and_stops_the_clocks_until_a_continue_passes(tmp_path):
    clock, lobby, (ann, bob, cy, dan) = lobby_of_four(tmp_path)
    driver = lobby.tables.get(1).game.driver
    clock.advance(5)
    ann.say("/pause")
    [opened] = fields(bob, "VOTE")
    assert (opened["vote"], opened["by"], opened["yes"], opened["needed"], opened["seconds"]) == (
        "pause", "Ann", ["Ann"], 3, VOTE)
    bob.say("/accept")
    assert not driver.paused
    cy.clear()
    cy.say("/annehmen")
    assert driver.paused
    assert fields(cy, "VOTE_END")[0]["passed"]
    assert fields(cy, "PAUSED") == [{"table": 1, "paused": True, "seconds": 300.0}]
    clock.advance(200)
    assert driver.time_left("Ann") == 15 and not fields(ann, "CLOCK_OUT")  # no clock ran
    ann.clear()
    ann.say("/table")
    view = ann.only("TABLE")
    assert view["clock"] == 20 and view["clock_left"] == [15, 15, 15, 15]  # all four decide on Grand Tichu
    ann.say("/mode human")
    ann.clear()
    ann.say("/table")
    assert "Turn clock: 20 seconds per decision." in ann.connection.lines[0]
    assert ann.connection.lines[1].endswith("(you): 8 cards (15 seconds left)")
    ann.say("/mode machine")
    dan.clear()
    dan.say("/pause")
    assert dan.error_code() == "paused"
    ann.clear()
    ann.say("/nogrand")  # no moves while paused
    assert ann.error_code() == "paused"
    ann.clear()
    ann.say("/resume")  # alone at a game, by one who paused it: the vote to go on
    for player in (bob, cy):
        player.say("/accept")
    assert not driver.paused and driver.time_left("Ann") == 15


def test_a_refused_or_unanswered_vote_changes_nothing(tmp_path):
    clock, lobby, (ann, bob, cy, dan) = lobby_of_four(tmp_path)
    driver = lobby.tables.get(1).game.driver
    ann.say("/pause")
    bob.say("/refuse")
    cy.clear()
    cy.say("/ablehnen")  # 2 of 4 can no longer make 3
    assert fields(cy, "VOTE_END")[0]["reason"] == "refused" and not driver.paused
    ann.say("/pause")
    bob.say("/accept")
    dan.clear()
    clock.advance(VOTE)
    [ended] = fields(dan, "VOTE_END")
    assert (ended["passed"], ended["reason"]) == (False, "timeout") and not driver.paused
    dan.clear()
    dan.say("/accept")
    assert dan.error_code() == "no_vote"


def test_only_present_seated_people_vote_once_and_one_vote_at_a_time(tmp_path, ):
    clock, lobby, (ann, bob, cy, dan) = lobby_of_four(tmp_path)
    eve = Client(lobby, "Eve")
    eve.say("/watch 1")
    eve.clear()
    eve.say("/pause")
    assert eve.error_code() == "not_seated"
    ann.say("/pause")
    ann.clear()
    ann.say("/accept")
    assert ann.error_code() == "voted"
    bob.clear()
    bob.say("/replace 3")
    assert bob.error_code() == "vote_open"
    bob.clear()
    bob.say("/continue")
    assert bob.error_code() == "vote_open"
    eve.clear()
    eve.say("/accept")
    assert eve.error_code() == "not_seated"


def test_a_dropped_players_seat_goes_to_a_bot_by_vote_and_he_may_watch(tmp_path):
    clock, lobby, (ann, bob, cy, dan) = lobby_of_four(tmp_path)
    table = lobby.tables.get(1)
    driver = table.game.driver
    ann.say("/replace 2")
    assert ann.error_code() == "player_here"
    bob.hang_up()
    assert driver.holding == {"Bob"}  # the game waits the grace time for him
    ann.clear()
    ann.say("/ersetzen 2")
    [opened] = fields(ann, "VOTE")
    assert opened["voters"] == ["Ann", "Bob", "Cy", "Dan"] and opened["needed"] == 3  # Bob's own too
    cy.say("/accept")
    assert "Bob" not in driver.replaced
    cy.clear()
    dan.say("/accept")
    [replaced] = fields(cy, "REPLACED")
    assert (replaced["seat"], replaced["nick"], replaced["level"]) == (2, "Bob", "basic")
    assert "Bob" in driver.replaced and not driver.holding
    assert table.view()["bots"] == {"2": "basic"} and table.view()["away"] == []
    again = Client(lobby, None)
    again.say("/nick Bob")  # no seat is held for the name now
    assert again.keywords() == ["NICK", "RESUME_TOKEN"]
    again.clear()
    again.say("/watch 1")
    assert again.only("SPECTATOR_JOINED")["nick"] == "Bob"
    for _ in range(400):  # the bot plays Bob's seat; he reads what a spectator reads
        clock.advance(1)
    assert not any(k in ("DEALT", "HAND", "RECEIVED") for k in again.keywords())


def test_a_present_player_whose_clock_ran_out_twice_keeps_his_seat_from_a_vote(tmp_path):
    clock, lobby, (ann, bob, cy, dan) = lobby_of_four(tmp_path, ("/clock 5",))
    table = lobby.tables.get(1)
    for player in (ann, cy, dan):
        player.say("/nogrand")
    clock.advance(5)  # Bob's Grand Tichu decision runs out
    for player in (ann, cy, dan):
        player.clear()
        player.say("/hand")
        player.say("/schupf " + " ".join(player.only("HAND")["cards"][:3]))
    clock.advance(5)  # and his exchange: his stand-in stays
    assert "Bob" in table.game.driver.substitutes
    dan.say("/mode human")
    dan.clear()
    dan.say("/table")
    assert any(line.startswith("  seat 2 Bob (away):") for line in dan.connection.lines)  # marked away
    dan.say("/mode machine")
    dan.clear()
    dan.say("/replace 2")  # he is here: his seat is never voted away
    assert dan.error_code() == "player_here"
    assert table.seat_of("Bob") == 2 and table.votes.open is None


def test_typing_brings_back_a_player_whose_stand_in_the_clock_left_and_asks_him_again(tmp_path):
    clock, lobby, (ann, bob, cy, dan) = lobby_of_four(tmp_path, ("/clock 5",))
    table = lobby.tables.get(1)
    for player in (ann, cy, dan):
        player.say("/nogrand")
    clock.advance(5)
    for player in (ann, cy, dan):
        player.clear()
        player.say("/hand")
        player.say("/schupf " + " ".join(player.only("HAND")["cards"][:3]))
    clock.advance(5)
    assert "Bob" in table.game.driver.substitutes
    for _ in range(2000):  # the others pass or play; Bob's stand-in plays for him
        if table.game.waits_for("Bob"):
            break
        for player in (ann, cy, dan):
            if table.game.waits_for(player.session.nick):
                player.clear()
                player.say("/legal")
                player.say(player.only("LEGAL")["commands"][0])
        clock.advance(0.5)
    assert table.game.waits_for("Bob") and "Bob" in table.game.driver.substitutes
    bob.clear()
    bob.say("sorry, back")
    assert "SUBSTITUTE_END" in bob.keywords()
    [turn] = [f for k, f in bob.received() if k == "TURN"]
    assert turn["player"] == "Bob" and turn["clock"] == 5


def test_a_dropped_players_seat_goes_to_a_waiting_person_by_vote(tmp_path):
    clock, lobby, (ann, bob, cy, dan) = lobby_of_four(tmp_path)
    table = lobby.tables.get(1)
    eve = Client(lobby, "Eve")
    eve.say("/watch 1")
    bob.hang_up()  # before his Grand Tichu decision: the game holds for him
    ann.clear()
    ann.say("/replace 2 Zed")
    assert ann.error_code() == "not_watching"
    ann.clear()
    ann.say("/replace 2 eve")
    [opened] = fields(ann, "VOTE")
    assert (opened["to"], opened["consent"]) == ("Eve", ["Dan"])  # Bob's partner must agree
    eve.clear()
    cy.say("/accept")
    assert table.seat_of("Eve") is None
    dan.say("/accept")
    keywords = eve.keywords()
    [handed] = fields(eve, "REPLACED")
    assert (handed["seat"], handed["nick"], handed["to"], handed["seats"][1]) == (2, "Bob", "Eve", "Eve")
    assert {"SCORE", "TABLE", "HAND"} <= set(keywords[keywords.index("REPLACED"):])
    assert table.seat_of("Eve") == 2 and not table.is_watching("Eve")
    driver = table.game.driver
    assert driver.game.seating[1] == "Eve" and not driver.holding and "Eve" not in driver.bots
    assert driver.time_left("Eve") == 20  # her decision is timed now
    eve.clear()
    eve.say("/nogrand")
    assert [f["player"] for k, f in eve.received() if k == "GRAND_DECIDED"] == ["Eve"]
    again = Client(lobby, None)
    again.say("/nick Bob")  # his seat is not held any more
    assert again.keywords() == ["NICK", "RESUME_TOKEN"]
