"""/help in groups, every name of a command, and hints for unknown commands; /help itself as a
method of `HelpCommands` over a registry of two groups."""

from __future__ import annotations

import pytest

from bswtichu.server.commands.display import DisplayCommands
from bswtichu.server.commands.help import HelpCommands
from bswtichu.server.commands.registry import GROUPS, CommandRegistry
from bswtichu.server.text.messages import Refusal

from command_parts import lone_session, only


@pytest.mark.parametrize("typed", ["undo", "dance", "macro"])
def test_a_command_we_lack_gets_no_far_fetched_suggestion(connect, typed):
    client = connect("Ann", machine=False)
    client.say(f"/{typed}")
    assert client.connection.lines == [f"error: unknown command /{typed}; /help lists the commands"]


@pytest.mark.parametrize("typed, real", [("whisper", "/msg NAME TEXT"), ("w", "/msg NAME TEXT"),
                                         ("look", "/table"), ("sit", "/join"), ("emote", "/me ACTION"),
                                         ("afk", "/away [TEXT]"), ("buddy", "/friend NAME")])
def test_a_name_from_other_servers_names_the_real_command(connect, typed, real):
    client = connect("Ann", machine=False)
    client.say(f"/{typed} Bob hi")
    [line] = client.connection.lines
    assert line.startswith(f"error: unknown command /{typed}; here that is {real}")


def test_tell_is_the_msg_command(connect):
    ann = connect("Ann", machine=False)
    ann.say("/help tell")
    assert "Names: /msg, /tell" in "\n".join(ann.connection.lines)


def test_help_for_a_command_lists_every_name_english_first(connect):
    ann = connect("Ann")
    ann.say("/help schupf")
    entry = ann.only("HELP")
    assert entry["names"] == ["exchange", "schupf", "schupfen"]
    assert entry["aliases"] == ["schupf", "schupfen"]
    assert entry["group"] == "game"


def test_help_for_a_command_in_human_mode_names_it_in_english(connect):
    ann = connect("Ann", machine=False)
    ann.say("/help exchange")
    assert "Names: /exchange, /schupf, /schupfen (group game)" in ann.connection.lines


def test_plain_help_is_the_groups_in_a_few_lines(connect):
    ann = connect("Ann", machine=False)
    ann.say("/help")
    lines = ann.connection.lines
    assert len(lines) == 1 + len(GROUPS)
    assert lines[3].startswith("  game (") and "/play" in lines[3] and "/exchange" in lines[3]


def test_help_group_lists_that_groups_commands(connect):
    ann = connect("Ann")
    ann.say("/help TABLE")
    reply = ann.only("HELP")
    assert reply["group"] == "table"
    names = [c["name"] for c in reply["commands"]]
    assert "join" in names and "start" in names and "play" not in names


def test_machine_help_keeps_its_fields_and_adds_groups(connect):
    ann = connect("Ann")
    ann.say("/help")
    reply = ann.only("HELP")
    assert {"name", "usage", "summary", "aliases", "group"} <= set(reply["commands"][0])
    assert [g["name"] for g in reply["groups"]] == list(GROUPS)
    grouped = [n for g in reply["groups"] for n in g["commands"]]
    assert sorted(grouped) == sorted(c["name"] for c in reply["commands"])


def test_every_command_is_in_a_group(lobby):
    assert all(command.group in GROUPS for command in lobby.commands)


# -- /help as a method of HelpCommands, over a registry of two groups (no lobby) ----------------


@pytest.fixture
def help_group() -> HelpCommands:
    registry = CommandRegistry()
    group = HelpCommands(registry)
    registry.register_all([*group.commands(), *DisplayCommands().commands()])
    return group


def test_help_lists_the_groups_from_the_registry_as_it_is(help_group):
    ann = lone_session()
    help_group.help_(ann, "")
    groups = {group["name"]: group["commands"] for group in only(ann, "HELP")["groups"]}
    assert groups["lobby"] == ["help"] and groups["display"] == ["width", "color"]
    assert groups["game"] == []


def test_help_on_one_command_by_any_of_its_names(help_group):
    ann = lone_session()
    help_group.help_(ann, "/FARBE")
    entry = only(ann, "HELP")
    assert (entry["command"], entry["usage"], entry["aliases"]) == ("color", "/color [on|off|auto]", ["farbe", "colour"])
    with pytest.raises(Refusal) as refused:
        help_group.help_(ann, "nick")  # not in this registry
    assert refused.value.code == "unknown_command"
