"""Every registered command with hostile arguments, in every phase: one ERROR, never ``internal``.

The commands come from the lobby's registry, so a command added later is covered
without touching this file. The codes must be the ones docs/PROTOCOL.md lists.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lobby_clients import Client
from test_tables_game import GameDriver, seeded_lobby, start_game
from test_commands_game_input import to_exchange, to_play, turn_player

PROTOCOL = Path(__file__).resolve().parents[3] / "docs" / "PROTOCOL.md"

HOSTILE = [
    "²",  # a superscript digit: str.isdigit() says yes, int() says no
    "1 ³",
    "٣",  # an Arabic-Indic digit: int() reads it as 3
    "１",  # a full-width digit
    "-1",
    "+2",
    "00",
    "99999999999999999999999999",
    "9" * 5000,  # past int()'s digit limit
    "1e3",
    "x" * 10_000,
    "\x00\x07\x1b[2J",
    "\u202e1",  # right-to-left override
    "1\u200f",  # right-to-left mark
    "\u2066Ann\u2069",  # isolates around a name
    "1 2 3 4 5 6",
    "",
]


#: Commands whose argument is free text, said to others (as chat is): any text is a real
#: request, so they are probed for crashes in test_people_community.py, not for refusals here.
FREE_TEXT = frozenset({"away", "me", "kibitz"})
#: Questions whose answer to cards read from any text is their own one line (/check of cards
#: the hand does not hold says so, as CHECK): else one ERROR, like every other command.
ANSWERS = {"check": "CHECK"}


def documented_codes() -> set[str]:
    section = PROTOCOL.read_text(encoding="utf-8").split("## 8. Error codes", 1)[1]
    return set(re.findall(r"^\| `([a-z_]+)` \|", section, re.MULTILINE))


CODES = documented_codes()


def optional_arguments_only(usage: str) -> bool:
    """Whether the command may be given without arguments ("/join [TABLE] [SEAT]")."""
    rest = (usage.split(None, 1)[1:] or [""])[0]
    while re.search(r"\[[^\[\]]*\]", rest):  # innermost brackets first: [NAME [VALUE]]
        rest = re.sub(r"\[[^\[\]]*\]", "", rest)
    return not re.sub(r"\(.*\)|\s", "", rest)


def probe(lobby, sender: Client, everyone: list[Client], phase: str) -> int:
    """Sends every command with every hostile argument; returns how many were probed."""
    probed = 0
    for command in list(lobby.commands):
        if command.key in FREE_TEXT:
            continue
        for name in command.names:
            for argument in HOSTILE:
                if not argument and (not command.takes_arguments or optional_arguments_only(command.usage)):
                    continue  # the command without arguments is a real request
                if command.key == "quit" and not argument:
                    continue
                for client in everyone:
                    client.clear()
                line = f"/{name} {argument}"
                sender.say(line)
                received = sender.received()
                where = f"{phase}: {line[:60]!r}"
                keywords = [k for k, _ in received]
                if command.key in ANSWERS and keywords == [ANSWERS[command.key]]:
                    probed += 1
                    continue
                assert keywords == ["ERROR"], (where, sender.connection.lines)
                code = received[0][1]["code"]
                assert code != "internal", where
                assert code in CODES, (where, code)
                for other in everyone:
                    if other is not sender:
                        assert other.connection.lines == [], (where, other.connection.lines)
                probed += 1
    for client in everyone:
        client.clear()
    return probed


def test_codes_are_documented():
    assert {"usage", "internal", "bad_cards", "chat_too_long", "too_many_tables"} <= CODES


def test_lobby_and_open_table(lobby, connect):
    ann, bob = connect("Ann"), connect("Bob")
    assert probe(lobby, ann, [ann, bob], "lobby") > 1000
    bob.say("/join")
    probe(lobby, bob, [ann, bob], "open table")


@pytest.fixture
def game(tmp_path) -> GameDriver:
    return start_game(seeded_lobby(tmp_path, 1), ["/round 2"], seed=1)


def everyone(driver: GameDriver) -> list[Client]:
    return [*driver.players, *driver.watchers]


def test_grand_tichu_phase_and_spectator(game):
    game.collect()
    probe(game.lobby, game.players[0], everyone(game), "grand tichu")
    probe(game.lobby, game.watchers[0], everyone(game), "spectator")


def test_exchange_phase(game):
    to_exchange(game)
    game.collect()
    probe(game.lobby, game.players[1], everyone(game), "exchange")


def test_play_phase_for_the_leader_and_another(game):
    to_play(game)
    leader, _ = turn_player(game)
    game.collect()
    probe(game.lobby, leader, everyone(game), "play, in turn")
    other = next(p for p in game.players if p is not leader)
    probe(game.lobby, other, everyone(game), "play, out of turn")


def test_dragon_gift_and_game_over(game):
    options = game.play_until(lambda options: any(c.startswith("/give") for _, c in options))
    giver = game.players[next(i for i, c in options if c.startswith("/give"))]
    game.collect()
    probe(game.lobby, giver, everyone(game), "dragon gift")
    game.play()
    game.collect()
    probe(game.lobby, game.players[0], everyone(game), "game over")


def test_wish_pending(game):
    options = game.play_until(
        lambda options: any(c.split()[:2] == ["/play", "MJ"] for _, c in options))
    index, command = next((i, c) for i, c in options if c.split()[:2] == ["/play", "MJ"])
    player = game.players[index]
    game.say(player, command)
    assert any(c.startswith("/wish") for c in game.legal(player))
    game.collect()
    probe(game.lobby, player, everyone(game), "wish pending")
