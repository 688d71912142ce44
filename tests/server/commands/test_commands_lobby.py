"""The lobby's commands as methods of `LobbyCommands`, over the people's parts alone (no lobby,
no registry): what the session is told, what is refused, what changes."""

from __future__ import annotations

import pytest

from bswtichu import names
from bswtichu.config import ServerConfig
from bswtichu.server.commands.lobby import LobbyCommands
from bswtichu.server.commands.registry import UsageRefusal
from bswtichu.server.text.messages import Refusal
from bswtichu.server.text.render import HUMAN

from command_parts import PeopleParts, lines, only, told


@pytest.fixture
def parts() -> PeopleParts:
    return PeopleParts(config=ServerConfig(who_page_size=2))


@pytest.fixture
def lobby(parts) -> LobbyCommands:
    return LobbyCommands(parts.directory, parts.chat, parts.live)


def test_nick_gives_a_guest_his_name_and_a_resume_token(parts, lobby):
    session = parts.session()
    assert lobby.nick(session, "Ann") is None
    assert session.nick == "Ann"
    received = told(session)
    assert [k for k, _ in received] == ["NICK", "RESUME_TOKEN"]
    assert received[0][1] == {"nick": "Ann", "previous": None}
    assert parts.directory.find("ANN") is session


@pytest.mark.parametrize("args, code", [("bot-basic", "nick_invalid"), ("a!b", "nick_invalid"),
                                        ("Bob", "nick_taken"), ("Bob secret99", "nick_taken")])
def test_nick_refuses_a_name_that_is_no_name_a_bots_or_taken(parts, lobby, args, code):
    parts.session("Bob")
    session = parts.session()
    with pytest.raises(Refusal) as refused:
        lobby.nick(session, args)
    assert refused.value.code == code
    assert session.nick is None


def test_nick_asks_a_person_at_a_terminal_for_a_registered_names_password(parts, lobby):
    parts.registered("Ann")
    session = parts.session()
    session.mode = HUMAN
    session.hide_input = lambda hidden: None
    assert lobby.nick(session, "Ann") is None
    assert lines(session) == ["Ann is registered. Password (not shown; an empty line gives up):"]
    with pytest.raises(Refusal) as refused:  # the answer runs /nick again, with its usage on wrong use
        session.secret_answer("two words")
    assert refused.value.message == f"a name is {names.NAME_RULE}; usage: /nick NAME [PASSWORD]"


def test_nick_logs_in_with_the_right_password_only(parts, lobby):
    parts.registered("Ann")
    session = parts.session()
    with pytest.raises(Refusal) as refused:
        lobby.nick(session, "Ann")  # a machine gives the password as an argument
    assert refused.value.code == "name_registered"
    failed = []
    lobby.nick(session, "Ann wrong-one").addErrback(failed.append)  # hashed inline: answered at once
    assert failed[0].value.code == "bad_password"
    assert session.nick is None
    with pytest.raises(Refusal) as throttled:
        lobby.nick(session, "ann hunter22x")
    assert throttled.value.code == "login_throttled"
    parts.clock.advance(1)  # the wait after one failure
    lobby.nick(session, "ann hunter22x")
    assert session.nick == "Ann"  # as registered
    assert only(session, "NICK")["nick"] == "Ann"  # no resume token for a registered name


def test_an_observer_keeps_its_name(parts, lobby):
    session = parts.session("Watcher")
    lobby.observer(session, "")
    assert only(session, "OBSERVER") == {"nick": "Watcher"}
    assert parts.index.is_observer(session)
    with pytest.raises(Refusal) as refused:
        lobby.nick(session, "Other")
    assert refused.value.code == "observer"


def test_who_pages_the_people_online_and_lists_observers_apart(parts, lobby):
    ann, bob, cy = parts.session("Ann"), parts.session("Bob"), parts.session("Cy")
    bob.away = "lunch"
    watcher = parts.session("Watcher")
    lobby.observer(watcher, "")
    lobby.who(ann, "")
    first = only(ann, "WHO")
    assert [u["nick"] for u in first["users"]] == ["Ann", "Bob"]
    assert first["users"][1]["away"] == "lunch"
    assert (first["page"], first["pages"], first["total"]) == (1, 2, 3)
    assert first["observers"] == [{"nick": "Watcher", "table": None}]
    lobby.who(ann, "2")
    assert [u["nick"] for u in only(ann, "WHO")["users"]] == ["Cy"]
    with pytest.raises(UsageRefusal) as refused:
        lobby.who(cy, "3")
    assert refused.value.detail == "there are 2 page(s)"


def test_msg_reaches_the_one_named_and_echoes(parts, lobby):
    ann, bob = parts.session("Ann"), parts.session("Bob")
    lobby.msg(ann, "bob  hello there")
    assert only(bob, "MSG") == {"from": "Ann", "to": "Bob", "text": "hello there"}
    assert only(ann, "MSG") == {"from": "Ann", "to": "Bob", "text": "hello there"}
    with pytest.raises(UsageRefusal):
        lobby.msg(ann, "Bob")
    assert told(bob) == []


def test_mode_switches_and_refuses_an_unknown_one(parts, lobby):
    session = parts.session()
    lobby.mode(session, "RELAY")
    assert session.mode == "relay"
    with pytest.raises(UsageRefusal) as refused:
        lobby.mode(session, "fancy")
    assert refused.value.detail == "no mode 'fancy'"
    assert session.mode == "relay"


def test_quit_says_goodbye_and_hangs_up(parts, lobby):
    session = parts.session("Ann")
    lobby.quit_(session, "")
    assert only(session, "BYE") == {"reason": "quit"}
    assert session._connection.closed


def test_the_group_registers_in_the_order_help_lists(lobby):
    assert [c.key for c in lobby.commands()] == ["nick", "who", "msg", "observer", "mode", "quit"]
