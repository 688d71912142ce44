"""The events' commands on the domain's lobby: each bad input gets one ERROR line saying what
was wrong, and changes nothing; who may open an event; entering alone and in pairs."""

from __future__ import annotations

import pytest
from twisted.internet.task import Clock

from bswtichu.config import ConfigError, ServerConfig, parse_config
from bswtichu.server.games.logs import GameLogStore
from bswtichu.service import build_lobby
from bswtichu.storage import ScryptCost, Storage

from event_scenes import event_lobby, new_event, players, run_until
from lobby_clients import Client


@pytest.fixture
def open_lobby(tmp_path):
    """A lobby where registered players open events, with Reg registered and Ann a guest."""
    config = ServerConfig(log_folder=str(tmp_path / "logs"), players_create_events=True)
    lobby = build_lobby(Clock(), config, lambda table: None, GameLogStore(config.log_folder),
                        storage=Storage.open(cost=ScryptCost(n=2 ** 8)))
    reg = Client(lobby, "Reg")
    reg.say("/register a-good-pw-1")
    assert reg.received()[-1][0] == "REGISTERED"
    reg.clear()
    return lobby, reg, Client(lobby, "Ann")


def refused(client: Client, line: str) -> dict:
    client.clear()
    client.say(line)
    received = client.received()
    assert [k for k, _ in received] == ["ERROR"], (line, client.connection.lines)
    return received[0][1]


@pytest.mark.parametrize("line, says", [
    ("/newevent", "format, rounds, deals, clock, start and a name"),
    ("/newevent swiss 4 2 60 +10 Friday", "the format is individual or pairs or duplicate"),
    ("/newevent individual 0 2 60 +10 Friday", "rounds must be 1-30"),
    ("/newevent individual 4 99 60 +10 Friday", "deals per round must be 1-20"),
    ("/newevent individual 4 2 off +10 Friday", "the clock must be 5-3600"),
    ("/newevent individual 4 2 60 soon Friday", "the start is +MINUTES or HH:MM"),
    ("/newevent individual 4 2 60 25:00 Friday", "the start is +MINUTES or HH:MM"),
    ("/newevent individual 4 2 60 +10 registered", "the name is 1-60 characters"),
    ("/newevent individual 4 2 60 +10 " + "x" * 61, "the name is 1-60 characters"),
])
def test_bad_words_of_newevent_are_named_one_line_each(open_lobby, line, says):
    lobby, reg, _ = open_lobby
    error = refused(reg, line)
    assert error["code"] == "usage" and says in error["message"] and "usage: /newevent" in error["message"]
    assert lobby.events.events == {}


def test_a_guest_may_not_open_an_event_and_a_registered_player_may(open_lobby):
    lobby, reg, ann = open_lobby
    assert refused(ann, "/newevent individual 4 2 60 +10 Friday")["code"] == "not_allowed"
    reg.say("/newevent individual 4 2 60 +10 registered Friday league")
    created = reg.only("EVENT_CREATED")["event"]
    assert (created["event"], created["name"], created["entry"], created["start"]) == (1, "Friday league", "registered", 600)
    assert refused(ann, "/enter 1")["code"] == "not_registered"


@pytest.mark.parametrize("line, code", [
    ("/enter", "usage"), ("/enter x", "usage"), ("/enter 1 2", "usage"), ("/enter 9", "no_such_event"),
    ("/enter 1 with Bob", "usage"), ("/enter 2", "usage"), ("/enter 2 with Ann", "usage"),
    ("/enter 2 with 1x", "usage"), ("/enter 2 by Bob", "usage"), ("/withdraw", "usage"),
    ("/withdraw 1", "not_entered"), ("/withdraw 1 2", "usage"), ("/event", "usage"), ("/event 7", "no_such_event"),
    ("/event one", "usage"), ("/standings 1 2", "usage"), ("/standings 8", "no_such_event"),
])
def test_bad_entries_and_questions_get_one_error(open_lobby, line, code):
    lobby, reg, ann = open_lobby
    reg.say("/newevent individual 4 2 60 +10 Solo")
    reg.say("/newevent pairs 4 2 60 +10 Pairs")
    error = refused(ann, line)
    assert error["code"] == code, error
    assert all(not e.entrants and not e.offers for e in lobby.events.events.values())


def test_entering_twice_withdrawing_and_listing(open_lobby):
    lobby, reg, ann = open_lobby
    reg.say("/newevent individual 4 2 60 +10 Solo")
    ann.say("/enter 1")
    assert ann.only("EVENT_ENTERED") == {"event": 1, "name": "Ann", "entrants": 1}
    assert refused(ann, "/enter 1")["code"] == "already_entered"
    ann.clear()
    ann.say("/events")
    assert [e["entrants"] for e in ann.only("EVENTS")["events"]] == [1]
    ann.clear()
    ann.say("/withdraw 1")
    assert ann.only("EVENT_WITHDRAWN")["entrants"] == 0
    ann.clear()
    ann.say("/standings")
    assert ann.only("STANDINGS")["standings"] == []


def test_too_few_at_the_start_cancel_the_event(tmp_path):
    clock = Clock()
    lobby, _ = event_lobby(tmp_path, clock)
    event = new_event(lobby)
    field = players(lobby, 4)
    for p in field:
        p.say(f"/enter {event.number}")
    field[3].hang_up()
    clock.advance(60)
    assert event.state == "cancelled" and field[0].received()[-1][0] == "EVENT_CANCELLED"
    assert len(lobby.tables) == 0


def test_a_pairs_event_with_a_bye_and_a_spectator(tmp_path):
    clock = Clock()
    lobby, _ = event_lobby(tmp_path, clock)
    event = new_event(lobby, fmt="pairs", rounds=3, deals=1)
    field = players(lobby, 6)
    for one, two in ((0, 1), (2, 3), (4, 5)):
        field[one].say(f"/enter {event.number} with P{two:02d}")
        field[two].say(f"/enter {event.number} with P{one:02d}")
    assert [u for u in event.entrants] == [("P00", "P01"), ("P02", "P03"), ("P04", "P05")]
    fan = Client(lobby, "Fan")
    clock.advance(60)
    seated = field[0].only("EVENT_ROUND")
    fan.say(f"/watch {seated['tables'][0]['table']}")
    assert fan.received()[-1][0] == "SPECTATOR_JOINED"
    run_until(clock, lambda: event.state == "finished")
    assert any(k == "TURN" for k, _ in fan.received())  # he followed the game
    assert fan.session.table is None  # and is back in the lobby since its table went
    rows = {r.name: r for r in event.standings()}
    assert sorted(r.byes for r in rows.values()) == [1, 1, 1]  # three rounds, each pair sits out once
    assert sum(r.victory_points for r in rows.values()) == 3 * (2 + 1)  # a match gives 2, a bye 1
    for played in event.played:
        for table in played.tables:
            assert {frozenset(table.seats[0::2]), frozenset(table.seats[1::2])} <= {frozenset(u) for u in event.entrants}


def test_a_pair_enters_as_its_players_spell_their_names(open_lobby):
    lobby, reg, ann = open_lobby
    reg.say("/newevent pairs 4 2 60 +10 Pairs")
    bob = Client(lobby, "Bob")
    ann.say("/enter 1 with eve")
    ann.say("/enter 1 with bob")  # a new offer replaces the first
    assert lobby.events.get(1).offers == {"Ann": "bob"}
    bob.clear()
    bob.say("/enter 1 with ann")
    assert bob.only("EVENT_ENTERED")["name"] == "Ann+Bob"
    assert ann.received()[-1] == ("EVENT_ENTERED", {"event": 1, "name": "Ann+Bob", "entrants": 1})
    assert lobby.events.get(1).entrants == [("Ann", "Bob")] and lobby.events.get(1).offers == {}
    assert refused(bob, "/enter 1 with Ann")["code"] == "already_entered"
    bob.clear()
    bob.say("/withdraw 1")
    assert bob.only("EVENT_WITHDRAWN")["name"] == "Ann+Bob" and lobby.events.get(1).entrants == []


def test_the_setting_that_lets_registered_players_open_events_reads_yes_and_no():
    assert parse_config("[events]\nplayers_create = yes\n").players_create_events is True
    assert parse_config("[events]\nplayers_create = off\n").players_create_events is False
    with pytest.raises(ConfigError, match=r"\[events\] players_create = 'maybe' is not yes or no"):
        parse_config("[events]\nplayers_create = maybe\n")
