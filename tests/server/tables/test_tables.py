"""Tables: joining, seats, leaving, watching, options, start, reconnecting."""

from __future__ import annotations

import pytest

from bswtichu.config import ServerConfig
from bswtichu.engine import GameOptions
from bswtichu.server.games.logs import GameLogStore
from bswtichu.service import build_lobby

from lobby_clients import Client



def test_join_alone_opens_a_table_at_seat_one(connect):
    ann = connect("Ann")
    ann.say("/join")
    assert ann.only("JOINED") == {"table": 1, "seat": 1, "nick": "Ann", "seats": ["Ann", None, None, None]}


def test_seats_fill_in_join_order_and_everyone_at_the_table_hears(four, connect):
    ann, bob, cy, dan = four
    ann.say("/tables")
    view = ann.only("TABLES")["tables"][0]
    assert view["seats"] == ["Ann", "Bob", "Cy", "Dan"]
    assert view["state"] == "full"


def test_join_announcement_reaches_table_but_not_lobby(connect):
    ann, bob, eve = connect("Ann"), connect("Bob"), connect("Eve")
    ann.say("/join")
    ann.clear()
    bob.say("/join 1")
    assert ann.only("JOINED")["nick"] == "Bob"
    assert bob.only("JOINED")["seat"] == 2
    assert eve.received() == []


def test_join_a_chosen_seat(connect):
    ann, bob, cy = connect("Ann"), connect("Bob"), connect("Cy")
    ann.say("/join")
    bob.say("/join 1 4")
    assert bob.only("JOINED")["seats"] == ["Ann", None, None, "Bob"]
    cy.say("/join 1")
    assert cy.only("JOINED")["seat"] == 2


def test_seat_taken_says_which_are_free(connect):
    ann, bob = connect("Ann"), connect("Bob")
    ann.say("/join")
    bob.say("/join 1 1")
    assert bob.error_code() == "seat_taken"
    assert "free seats: 2, 3, 4" in bob.received()[0][1]["message"]
    assert bob.session.table is None


def test_the_turn_clock_is_an_option_like_the_others(four, connect):
    ann, bob = four[0], four[1]
    eve = connect("Eve")
    eve.say("/watch 1")
    eve.clear()
    ann.say("/clock 30")
    assert bob.only("OPTION") == {"table": 1, "name": "clock", "value": 30, "by": "Ann", "options": {
        "round": None, "tichujoin": False, "turnier": False, "clock": 30}}
    assert eve.only("OPTION")["value"] == 30
    bob.clear()
    bob.say("/zeit 45")
    bob.say("/option zeit 20")
    bob.clear()
    bob.say("/clock")
    assert bob.only("OPTIONS")["options"]["clock"] == 20
    bob.clear()
    bob.say("/tables")
    assert bob.only("TABLES")["tables"][0]["options"]["clock"] == 20
    bob.clear()
    bob.say("/mode human")
    bob.say("/tables")
    assert "| options: round off, tichujoin off, turnier off, clock 20 |" in bob.connection.lines[-1]
    ann.say("/option clock off")
    assert ann.session.table.options.clock is None


def test_a_new_table_takes_the_servers_turn_clock(clock, tmp_path):
    config = ServerConfig(log_folder=str(tmp_path / "logs"), turn_clock=25)
    lobby = build_lobby(clock, config, lambda table: None, GameLogStore(config.log_folder))
    ann = Client(lobby, "Ann")
    ann.say("/join")
    ann.clear()
    ann.say("/clock")
    assert ann.only("OPTIONS")["options"]["clock"] == 25


def test_a_private_table_leaves_the_servers_turn_clock_off_unless_a_player_sets_one(clock, tmp_path):
    """The server's default clock is for public tables (issue 24: off by default for private games)."""
    config = ServerConfig(log_folder=str(tmp_path / "logs"), turn_clock=25)
    lobby = build_lobby(clock, config, lambda table: None, GameLogStore(config.log_folder))
    ann = Client(lobby, "Ann")
    ann.say("/join")
    ann.clear()
    ann.say("/private on")
    option = [f for k, f in ann.received() if k == "OPTION"]
    assert option == [{"table": 1, "name": "clock", "value": None, "by": "Ann", "options": option[0]["options"]}]
    ann.clear()
    ann.say("/private off")  # public again: the server's default comes back
    assert [f["value"] for k, f in ann.received() if k == "OPTION"] == [25]
    ann.clear()
    ann.say("/clock 40")
    ann.say("/private on")  # a clock a player chose stays
    assert [k for k, _ in ann.received() if k == "OPTION"] == ["OPTION"]
    ann.clear()
    ann.say("/clock")
    assert ann.only("OPTIONS")["options"]["clock"] == 40


@pytest.mark.parametrize(
    "line, code",
    [("/join 9", "no_such_table"), ("/join 1 5", "usage"), ("/join x", "usage"), ("/join 1 2 3", "usage")],
)
def test_join_bad_arguments(connect, line, code):
    ann, bob = connect("Ann"), connect("Bob")
    ann.say("/join")
    bob.say(line)
    assert bob.error_code() == code
    assert bob.session.table is None


def test_full_table_points_to_watch(four, connect):
    eve = connect("Eve")
    eve.say("/join 1")
    assert eve.error_code() == "table_full"
    assert "/watch 1" in eve.received()[0][1]["message"]


def test_cannot_join_a_second_table(connect):
    ann = connect("Ann")
    ann.say("/join")
    ann.clear()
    ann.say("/join")
    assert ann.error_code() == "at_table"


def test_table_chat_stays_at_the_table(four, connect):
    eve = connect("Eve")
    eve.say("/watch 1")
    for person in [*four, eve]:
        person.clear()
    lobby_person = connect("Lou")
    four[1].say("good luck")
    expected = ("CHAT", {"table": 1, "from": "Bob", "text": "good luck"})
    for person in [*four, eve]:
        assert person.received() == [expected]
    assert lobby_person.received() == []


def test_leave_frees_the_seat_before_the_start(four):
    ann, bob, cy, dan = four
    bob.say("/leave")
    assert bob.only("LEFT") == {
        "table": 1, "seat": 2, "nick": "Bob", "reason": "left", "seats": ["Ann", None, "Cy", "Dan"]
    }
    assert ann.only("LEFT")["nick"] == "Bob"
    assert bob.session.table is None


def test_leave_when_not_at_a_table(connect):
    ann = connect("Ann")
    ann.say("/leave")
    assert ann.error_code() == "not_at_table"


def test_empty_table_closes_and_its_number_is_reused(connect, lobby):
    ann, bob = connect("Ann"), connect("Bob")
    ann.say("/join")
    bob.say("/join")
    ann.say("/leave")
    assert [t.number for t in lobby.tables] == [2]
    ann.clear()
    ann.say("/join")
    assert ann.only("JOINED")["table"] == 1


def test_watch_and_stop_watching(four, connect):
    ann = four[0]
    eve = connect("Eve")
    eve.say("/watch 1")
    assert eve.only("SPECTATOR_JOINED")["seats"] == ["Ann", "Bob", "Cy", "Dan"]
    assert ann.only("SPECTATOR_JOINED")["nick"] == "Eve"
    eve.clear()
    ann.clear()
    eve.say("/leave")
    assert eve.only("SPECTATOR_LEFT") == {"table": 1, "nick": "Eve"}
    assert ann.only("SPECTATOR_LEFT")["nick"] == "Eve"
    assert eve.session.table is None


def test_watch_errors(connect):
    ann = connect("Ann")
    ann.say("/watch")
    assert ann.error_code() == "usage"
    ann.clear()
    ann.say("/watch 3")
    assert ann.error_code() == "no_such_table"


def test_spectator_may_take_a_free_seat(connect):
    ann, eve = connect("Ann"), connect("Eve")
    ann.say("/join")
    eve.say("/watch 1")
    eve.clear()
    eve.say("/join 1")
    assert eve.only("JOINED")["seat"] == 2
    assert eve.session.table.spectators == []


def test_options_are_set_announced_and_shown(four, connect):
    ann, bob, cy, dan = four
    eve = connect("Eve")
    eve.say("/watch 1")
    eve.clear()
    ann.say("/round 5")
    announced = bob.only("OPTION")
    assert announced["name"] == "round" and announced["value"] == 5 and announced["by"] == "Ann"
    assert eve.only("OPTION")["value"] == 5
    bob.say("/tichujoin")
    cy.say("/option turnier on")
    dan.say("/tournament off")
    dan.say("/option round off")
    dan.clear()
    dan.say("/option")
    assert dan.only("OPTIONS") == {
        "table": 1, "options": {"round": None, "tichujoin": True, "turnier": False, "clock": None}
    }


@pytest.mark.parametrize(
    "line, code",
    [("/round 0x", "usage"), ("/round 101", "usage"), ("/round", "usage"),
     ("/tichujoin maybe", "usage"), ("/option colour red", "usage"), ("/option round", "usage"),
     ("/clock 3601", "usage"), ("/clock 30 40", "usage"), ("/zeit soon", "usage"),
     ("/option clock", "usage"), ("/option clock -5", "usage")],
)
def test_bad_options_change_nothing(four, line, code):
    ann = four[0]
    ann.say(line)
    assert ann.error_code() == code
    table = ann.session.table
    assert table.options.as_data() == {"round": None, "tichujoin": False, "turnier": False, "clock": None}
    assert table.options == GameOptions()


def test_spectators_and_lobby_cannot_set_options(four, connect):
    eve, lou = connect("Eve"), connect("Lou")
    eve.say("/watch 1")
    eve.clear()
    eve.say("/round 3")
    assert eve.error_code() == "not_seated"
    lou.say("/tichujoin")
    assert lou.error_code() == "not_at_table"


def test_start_needs_four(connect):
    ann, bob = connect("Ann"), connect("Bob")
    ann.say("/join")
    bob.say("/join 1")
    ann.clear()
    ann.say("/start")
    assert ann.error_code() == "not_enough_players"


def test_start_announces_partners(four, connect):
    ann, bob, cy, dan = four
    eve = connect("Eve")
    eve.say("/watch 1")
    for person in [*four, eve]:
        person.clear()
    cy.say("/start")
    started = eve.only("STARTED")
    assert started["seats"] == ["Ann", "Bob", "Cy", "Dan"]
    assert started["teams"] == [[1, 3], [2, 4]]
    assert started["swapped"] is False and started["seat"] is None
    assert all(p.keywords() == ["STARTED"] for p in four)
    assert [p.only("STARTED")["seat"] for p in four] == [1, 2, 3, 4]


def test_start_human_text_names_partners(four):
    ann = four[0]
    ann.say("/mode human")
    ann.clear()
    ann.say("/start")
    assert ann.connection.lines == [
        "Table 1 starts: seat 1 Ann, seat 2 Bob, seat 3 Cy, seat 4 Dan."
        " Partners: Ann + Cy (seats 1+3) against Bob + Dan (seats 2+4)."
        " You sit in seat 1; your partner is Cy."
    ]


def test_tichujoin_makes_the_first_two_joiners_partners(connect):
    players = [connect(n) for n in ("Ann", "Bob", "Cy", "Dan")]
    players[0].say("/join")
    players[0].say("/tichujoin on")
    for p in players[1:]:
        p.say("/join 1")
    players[0].clear()
    players[0].say("/start")
    started = players[0].only("STARTED")
    assert started["seats"] == ["Ann", "Cy", "Bob", "Dan"]
    assert started["swapped"] is True
    assert players[1].only("STARTED")["seat"] == 3  # Bob, the second to join, sits opposite Ann


def test_after_start_options_and_joining_are_refused(four, connect):
    ann = four[0]
    ann.say("/start")
    ann.clear()
    ann.say("/round 3")
    assert ann.error_code() == "table_started"
    ann.clear()
    ann.say("/start")
    assert ann.error_code() == "table_started"
    eve = connect("Eve")
    eve.say("/join 1")
    assert eve.error_code() == "table_started"


BUILT_GAMES: list[list[str]] = []


class StartCounter:
    """A stand-in game that counts how often the table starts it."""

    def __init__(self):
        self.starts = 0

    def start(self):
        self.starts += 1

    def player_active(self, nick):
        """Every line a seated player types is passed on (the turn clock's stand-in)."""


def build_game(table):
    BUILT_GAMES.append(list(table.seats))
    return StartCounter()


@pytest.mark.parametrize("game_factory", [build_game])
def test_start_calls_the_game_factory_once_and_starts_the_game(four):
    BUILT_GAMES.clear()
    four[3].say("/start")
    assert BUILT_GAMES == [["Ann", "Bob", "Cy", "Dan"]]
    assert four[3].session.table.game.starts == 1


def test_table_tells_one_seat_and_spectators_apart(four, connect):
    from bswtichu.server.text.messages import Message

    ann, bob, cy, dan = four
    eve = connect("Eve")
    eve.say("/watch 1")
    for person in [*four, eve]:
        person.clear()
    table = ann.session.table
    table.tell_seat(2, Message("HAND", {"cards": ["7j"]}, "your hand"))
    table.tell_spectators(Message("VIEW", {}, "public view"))
    assert bob.keywords() == ["HAND"]
    assert eve.keywords() == ["VIEW"]
    assert ann.received() == [] and cy.received() == [] and dan.received() == []


# -- disconnecting and coming back ------------------------------------------


def test_disconnected_player_keeps_seat_and_returns_with_same_name(four, connect):
    ann, bob, cy, dan = four
    bob.hang_up()
    away = ann.only("AWAY")
    assert away["seat"] == 2 and away["nick"] == "Bob" and away["grace"] == 60.0
    back = connect()
    back.say("/nick Bob")
    assert back.error_code() == "name_held"  # a guest's held seat goes back only to the same guest
    back.clear()
    back.say(f"/resume {bob.token}")
    assert back.only("SEAT_HELD") == {"table": 1, "seat": 2}  # and he sits in it again at once
    assert back.only("RETURNED") == {"table": 1, "seat": 2, "nick": "Bob", "seats": ["Ann", "Bob", "Cy", "Dan"]}
    assert back.keywords() == ["NICK", "SEAT_HELD", "RETURNED"]
    assert ann.only("RETURNED")["nick"] == "Bob"
    assert back.session.table is ann.session.table


def test_a_returned_player_joining_again_is_told_he_sits_already(four, connect):
    four[1].hang_up()
    back = connect()
    back.say(f"/resume {four[1].token}")
    assert back.only("RETURNED")["seat"] == 2
    for line in ("/join 1 2", "/join 1", "/join 1 3"):
        back.clear()
        back.say(line)
        assert back.error_code() == "already_seated", line
    back.clear()
    back.say("/join")
    assert back.error_code() == "at_table"
    assert back.session.table is four[0].session.table and four[0].session.table.seat_of("Bob") == 2


def test_a_player_who_left_a_started_table_comes_back_to_his_seat_only(four):
    four[0].say("/start")
    bob = four[1]
    bob.say("/leave")  # after the start his seat is held
    bob.clear()
    bob.say("/join 1 3")
    assert bob.error_code() == "seat_mismatch"
    bob.clear()
    bob.say("/join")
    assert bob.error_code() == "seat_held"
    bob.clear()
    bob.say("/join 1")
    assert bob.only("RETURNED")["seat"] == 2


def test_held_seat_is_not_given_away(four, connect):
    four[1].hang_up()
    four[0].say("/leave")
    eve = connect("Eve")
    eve.say("/join 1 2")
    assert eve.error_code() == "seat_taken"
    eve.clear()
    eve.say("/join 1")
    assert eve.only("JOINED")["seat"] == 1


def test_cannot_start_while_someone_is_away(four):
    four[3].hang_up()
    four[0].clear()
    four[0].say("/start")
    assert four[0].error_code() == "player_away"


def test_seat_is_freed_after_the_grace_before_the_start(four, clock):
    ann = four[0]
    four[1].hang_up()
    ann.clear()
    clock.advance(59)
    assert ann.received() == []
    clock.advance(1)
    assert ann.only("LEFT") == {
        "table": 1, "seat": 2, "nick": "Bob", "reason": "timeout", "seats": ["Ann", None, "Cy", "Dan"]
    }


def test_seat_at_a_started_table_is_held_past_the_grace(four, clock, connect):
    four[0].say("/start")
    four[1].hang_up()
    assert four[0].only("AWAY")["grace"] is None
    clock.advance(3600)
    back = connect()
    back.say(f"/resume {four[1].token}")
    back.say("/join 1 2")
    assert back.only("RETURNED")["seat"] == 2


def test_leaving_a_started_table_holds_the_seat(four):
    ann, bob = four[0], four[1]
    ann.say("/start")
    bob.clear()
    bob.say("/leave")
    assert bob.only("AWAY")["seat"] == 2
    assert bob.session.table is None
    bob.clear()
    bob.say("/join 1 2")
    assert bob.only("RETURNED")["seat"] == 2


def test_away_players_are_not_told_and_name_thieves_learn_nothing(four, connect):
    ann, bob = four[0], four[1]
    ann.say("/start")
    bob.hang_up()
    thief = connect("Bob")  # same name in the lobby, not at the table
    ann.say("table talk")
    assert thief.received() == []


def test_started_table_closes_when_everyone_is_gone(four, clock, lobby):
    four[0].say("/start")
    for player in four:
        player.hang_up()
    assert len(lobby.tables) == 1
    clock.advance(60)
    assert len(lobby.tables) == 0


def test_disconnected_spectator_just_goes(four, connect):
    eve = connect("Eve")
    eve.say("/watch 1")
    four[0].clear()
    eve.hang_up()
    assert four[0].only("SPECTATOR_LEFT")["nick"] == "Eve"
    assert four[0].session.table.spectators == []


def test_no_rename_at_a_table(four):
    four[0].say("/nick Anna")
    assert four[0].error_code() == "at_table"


def test_tables_listing_human(connect):
    ann = connect("Ann", machine=False)
    ann.say("/tables")
    assert ann.connection.lines == ["No tables yet. /join opens one."]
    ann.say("/join")
    ann.say("/round 3")
    ann.connection.lines.clear()
    ann.say("/tables")
    assert ann.connection.lines == [
        "Table 1 [open] seats: 1 Ann, 2 -, 3 -, 4 - | options: round 3, tichujoin off, turnier off"
    ]


def test_option_announcement_human(four):
    ann = four[0]
    ann.say("/mode human")
    ann.say("/turnier")
    ann.clear()
    ann.say("/round 1")
    assert ann.connection.lines == [
        "Ann sets round 1 at table 1 (ignored while turnier is on: a tournament is 9 hands)."
        " Options: round 1, tichujoin off, turnier on."
    ]
