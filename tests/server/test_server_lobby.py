"""Lobby behaviour: names, commands, chat, private messages, modes, help."""

from __future__ import annotations

import json

import pytest

from bswtichu.server.commands.registry import Command, wrong_use
from bswtichu.server.text.messages import Refusal


def greeting_lines(lobby):
    lines = []

    class Connection:
        def send_lines(self, sent, droppable=False):
            lines.extend(sent)

        def close(self):
            pass

    lobby.connect(Connection())
    return lines


def test_greeting_says_how_to_start(lobby):
    text = "\n".join(greeting_lines(lobby))
    assert "/nick NAME" in text
    assert "/help" in text
    assert "/mode machine" in text
    assert "512 bytes" in text


def test_commands_before_a_name_are_refused_except_the_basic_ones(connect):
    client = connect()
    client.say("/tables")
    assert client.error_code() == "nick_required"
    client.clear()
    client.say("hello")
    assert client.error_code() == "nick_required"
    client.clear()
    client.say("/help")
    assert client.keywords() == ["HELP"]


def test_unknown_command_gets_one_error_line(connect):
    client = connect("Ann", machine=False)
    client.say("/foo bar")
    assert client.connection.lines == ["error: unknown command /foo; /help lists the commands"]


def test_unknown_command_in_machine_mode(connect):
    client = connect("Ann")
    client.say("/foo")
    assert client.received() == [
        ("ERROR", {"code": "unknown_command", "message": "unknown command /foo; /help lists the commands"})
    ]


@pytest.mark.parametrize("typed, suggested", [("pas", "/pass"), ("strat", "/start"),
                                               ("scupf", "/schupf"), ("JION", "/join")])
def test_a_mistyped_command_suggests_the_nearest(connect, typed, suggested):
    client = connect("Ann", machine=False)
    client.say(f"/{typed} 1")
    [line] = client.connection.lines
    assert line.startswith(f"error: unknown command /{typed}; did you mean ")
    assert suggested in line.split("?")[0]  # /strat is as near to /stats as to /start
    assert line.endswith("(/help lists all)")


def test_lone_slash_is_an_error(connect):
    client = connect("Ann")
    client.say("/")
    assert client.error_code() == "unknown_command"


@pytest.mark.parametrize("name", ["A", "1abc", "a b", "x" * 17, "Ann!", "Zo\u200fe", "Ann\u0007",
                                  "\u0308Ann", "Ann²"])
def test_invalid_nicks_are_refused_with_the_rule(connect, name):
    client = connect()
    client.say(f"/nick {name}")
    received = client.received()
    assert len(received) == 1 and received[0][0] == "ERROR"
    assert received[0][1]["code"] in ("nick_invalid", "usage")
    assert "letter first" in received[0][1]["message"]
    assert client.session.nick is None


def test_nick_is_unique_ignoring_case(connect):
    connect("Ann")
    other = connect()
    other.say("/nick aNN")
    assert other.error_code() == "nick_taken"
    assert other.session.nick is None


def test_nick_can_change_case_and_name(connect, lobby):
    client = connect("Ann")
    client.say("/nick ANN")
    assert client.only("NICK") == {"nick": "ANN", "previous": "Ann"}
    client.say("/nick Berta")
    assert lobby.names.find("ann") is None
    assert lobby.names.find("berta") is client.session


def test_nick_freed_on_disconnect(connect):
    first = connect("Ann")
    first.hang_up()
    second = connect()
    second.say("/nick Ann")
    assert second.only("NICK")["nick"] == "Ann"


def test_lobby_chat_reaches_the_lobby_but_not_tables(connect):
    ann, bob, cy = connect("Ann"), connect("Bob"), connect("Cy")
    cy.say("/join")
    cy.clear()
    ann.say("hello all")
    expected = ("CHAT", {"table": None, "from": "Ann", "text": "hello all"})
    assert ann.received() == [expected]
    assert bob.received() == [expected]
    assert cy.received() == []


def test_chat_human_form(connect):
    ann = connect("Ann", machine=False)
    ann.say("hi there")
    assert ann.connection.lines == ["[lobby] Ann: hi there"]


def test_double_slash_chats_a_line_starting_with_slash(connect):
    ann = connect("Ann")
    ann.say("//shrug")
    assert ann.only("CHAT")["text"] == "/shrug"


def test_private_message_and_echo(connect):
    ann, bob, cy = connect("Ann"), connect("Bob"), connect("Cy")
    ann.say("/msg bob  psst, over here")
    assert bob.received() == [("MSG", {"from": "Ann", "to": "Bob", "text": "psst, over here"})]
    assert ann.received() == [("MSG", {"from": "Ann", "to": "Bob", "text": "psst, over here"})]
    assert cy.received() == []


def test_private_message_errors(connect):
    ann = connect("Ann")
    ann.say("/msg Nobody hi")
    assert ann.error_code() == "no_such_user"
    ann.clear()
    ann.say("/msg Ann")
    assert ann.error_code() == "usage"


def test_who_lists_names_and_places(connect):
    ann, bob = connect("Ann"), connect("Bob")
    connect()  # no name: not listed
    bob.say("/join")
    ann.say("/who")
    assert ann.only("WHO")["users"] == [
        {"nick": "Ann", "table": None, "seat": None, "watching": False, "away": None},
        {"nick": "Bob", "table": 1, "seat": 1, "watching": False, "away": None},
    ]


def test_an_observer_is_listed_apart_and_not_counted_as_a_person(lobby, connect):
    ann, watcher = connect("Ann"), connect("tichubot-w1")
    ann.say("/join")
    watcher.say("/observer")
    assert watcher.only("OBSERVER") == {"nick": "tichubot-w1"}
    watcher.say("/watch 1")
    ann.clear()
    ann.say("/who")
    who = ann.only("WHO")
    assert who["users"] == [{"nick": "Ann", "table": 1, "seat": 1, "watching": False, "away": None}]
    assert who["total"] == 1 and who["observers"] == [{"nick": "tichubot-w1", "table": 1}]
    assert [s.nick for s in lobby.online()] == ["Ann"]  # the MSSP player count too


def test_an_observer_cannot_take_part(connect):
    ann, eve = connect("Ann"), connect("Eve")
    ann.say("/join")
    ann.clear()
    eve.say("/observer")
    for line in ("/join 1", "/join", "hello", "//hello", "/msg Ann hi", "/bot", "/nick Mallory"):
        eve.clear()
        eve.say(line)
        assert eve.error_code() == "observer", line
    assert ann.received() == []
    eve.clear()
    eve.say("/nosuchcommand")
    assert eve.error_code() == "unknown_command"
    eve.clear()
    eve.say("/watch 1")
    assert eve.only("SPECTATOR_JOINED")["nick"] == "Eve"


def test_a_seated_player_cannot_become_an_observer(connect):
    ann = connect("Ann")
    ann.say("/join")
    ann.clear()
    ann.say("/observer")
    assert ann.error_code() == "at_table"
    ann.clear()
    ann.say("/who")
    assert ann.only("WHO")["users"][0]["nick"] == "Ann"


def test_machine_mode_is_one_json_line_per_message(connect):
    ann = connect("Ann", machine=False)
    ann.say("/mode machine")
    ann.say("/help")
    assert len(ann.connection.lines) == 2
    for line in ann.connection.lines:
        keyword, payload = line.split(" ", 1)
        assert keyword.isupper()
        json.loads(payload)
    assert ann.keywords() == ["MODE", "HELP"]


def test_mode_back_to_human_and_bad_mode(connect):
    ann = connect("Ann")
    ann.say("/mode robot")
    assert ann.error_code() == "usage"
    ann.clear()
    ann.say("/mode human")
    assert ann.connection.lines == ["Mode: human. Messages are now plain sentences."]


def test_help_for_one_command_by_alias(connect):
    ann = connect("Ann")
    ann.say("/help /zuschauen")
    help_entry = ann.only("HELP")
    assert help_entry["command"] == "watch"
    assert help_entry["usage"] == "/watch TABLE"


def test_help_unknown_command(connect):
    ann = connect("Ann")
    ann.say("/help frobnicate")
    assert ann.error_code() == "unknown_command"


def test_german_and_english_names_reach_the_same_command(connect):
    ann = connect("Ann")
    ann.say("/tische")
    ann.say("/TABLES")
    assert ann.keywords() == ["TABLES", "TABLES"]


def test_quit_says_bye_and_hangs_up(connect):
    ann = connect("Ann")
    ann.say("/quit")
    assert ann.keywords() == ["BYE"]
    assert ann.connection.closed


def test_registered_command_is_dispatched_with_its_arguments(lobby, connect):
    calls = []
    lobby.commands.register(
        Command(key="ping", group="lobby", usage="/ping X", summary="test", help="test",
                handler=lambda session, args: calls.append((session.nick, args)))
    )
    ann = connect("Ann")
    ann.say("/PING  a b ")
    assert calls == [("Ann", "a b")]


def test_a_name_cannot_be_registered_twice(lobby):
    with pytest.raises(ValueError, match="join"):
        lobby.commands.register(
            Command(key="join", group="lobby", usage="/join", summary="", help="", handler=lambda s, a: None)
        )


def test_refusal_from_a_handler_is_one_error_line(lobby, connect):
    def refuse(session, args):
        raise Refusal("no_cards", "you have no cards yet")

    lobby.commands.register(Command(key="refuser", group="lobby", usage="/refuser", summary="", help="", handler=refuse))
    ann = connect("Ann")
    ann.say("/refuser")
    assert ann.received() == [("ERROR", {"code": "no_cards", "message": "you have no cards yet"})]


def test_a_handlers_wrong_use_gets_its_commands_usage(lobby, connect):
    def count(session, args):
        raise wrong_use(f"N must be a number, not {args!r}")

    lobby.commands.register(Command(key="count", group="lobby", usage="/count N", summary="", help="", handler=count))
    ann = connect("Ann")
    ann.say("/count x")
    assert ann.received() == [("ERROR", {"code": "usage", "message": "N must be a number, not 'x'; usage: /count N"})]


@pytest.mark.parametrize("line, usage", [
    ("/register a b", "/register [PASSWORD]"), ("/password a", "/password [OLD NEW]"),
    ("/option round", "/option [NAME [VALUE]]"), ("/join x", "/join [TABLE] [SEAT]"),
    ("/who x", "/who [PAGE]"), ("/nick", "/nick NAME [PASSWORD]"), ("/msg Ann", "/msg NAME TEXT"),
    ("/bot 9", "/bot [SEAT] [LEVEL]"), ("/bot clever", "/bot [SEAT] [LEVEL]"), ("/kick", "/kick SEAT|NAME [REASON]"),
    ("/log x", "/log N"), ("/width x", "/width [N|off|auto]"),
])
def test_every_usage_in_an_error_is_the_commands_own(lobby, connect, line, usage):
    ann = connect("Ann")
    ann.say("/join")
    ann.clear()
    ann.say(line)
    message = ann.received()[-1][1]["message"]
    assert message.endswith(f"usage: {usage}")
    assert lobby.commands.lookup(line[1:].split()[0]).usage == usage


def test_unexpected_exception_is_logged_and_reported_in_one_line(lobby, connect, logged_errors):
    def explode(session, args):
        raise RuntimeError("boom")

    lobby.commands.register(Command(key="boom", group="lobby", usage="/boom", summary="", help="", handler=explode))
    ann, bob = connect("Ann"), connect("Bob")
    ann.say("/boom")
    assert ann.error_code() == "internal"
    assert [e["log_failure"].type for e in logged_errors] == [RuntimeError]
    bob.say("still here")
    assert bob.only("CHAT")["text"] == "still here"


def test_shutdown_says_bye_and_leaves_no_timers(four, lobby, clock):
    lobby.shutdown("maintenance")
    for player in four:
        assert player.keywords() == ["BYE"]
        assert player.connection.closed
        player.hang_up()  # the connection loss arrives afterwards
    assert clock.getDelayedCalls() == []
    assert len(lobby.tables) == 0


@pytest.mark.parametrize("name", ["Jürgen", "Bär", "Łukasz", "Zoë", "Ана", "李明"])
def test_names_may_use_letters_beyond_ascii(connect, name):
    client = connect()
    client.say(f"/nick {name}")
    assert client.only("NICK")["nick"] == name


def test_names_are_normalised_and_unique_without_regard_to_case(connect):
    first = connect("Bär")
    decomposed = connect()
    decomposed.say("/nick Ba\u0308r")  # the same name typed with a combining diaeresis
    assert decomposed.error_code() == "nick_taken"
    decomposed.clear()
    decomposed.say("/nick BÄR")
    assert decomposed.error_code() == "nick_taken"
    first.say("/msg bär hello")
    assert first.received()[-1][1]["to"] == "Bär"


def test_a_held_seat_keeps_its_name_as_first_written(connect):
    ann = connect("Ann")
    ann.say("/join")
    for name in ("Bob", "Cy", "Dan"):
        connect(name).say("/join 1")
    ann.say("/start")
    ann.hang_up()
    back = connect()
    back.say(f"/resume {ann.token}")
    assert back.received()[0] == ("NICK", {"nick": "Ann", "previous": None})
    assert back.only("RETURNED")["nick"] == "Ann"
