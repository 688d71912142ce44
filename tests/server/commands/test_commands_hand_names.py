"""The hand commands' names in one place, the ``hand`` flag: /second takes the commands marked
so, the wiring hands their names to the tables, whose second hands' sentences name them as that
hand's; the game's prompts name no other; the page reads the names of /second (and the secret
commands) from the server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from twisted.internet.task import Clock

from bswtichu.engine import VARIANTS
from bswtichu.net.websocket import PAGE_COMMANDS
from bswtichu.realm import SECOND_HAND_WORDS, SECRET_COMMANDS
from bswtichu.server.commands.game import GameCommands
from bswtichu.server.tables.hall import TableHall
from bswtichu.server.text.game_messages import NEED_TEXT
from bswtichu.server.text.messages import for_second_hand, hand_command_pattern, second_hand_word

SCRIPTS = Path(__file__).resolve().parents[3] / "bswtichu" / "web" / "static" / "js"
COMMAND_WORD = re.compile(r"(?<![\w/])/(\w+)")


@pytest.fixture(scope="module")
def game_commands() -> list:
    return GameCommands(TableHall(lambda nick: None, Clock(), 60.0), logs=None, readers=None).commands()


HAND_NAMES = GameCommands.hand_names()


def test_the_hand_names_are_every_name_of_the_commands_marked_hand(game_commands):
    marked = {name for one in game_commands if one.hand for name in one.names}
    assert marked == HAND_NAMES
    assert {"spielen", "p", "bomben", "passe", "moves"} <= HAND_NAMES  # German names and aliases too
    assert {one.key for one in game_commands if one.hand} == {
        "grand", "nogrand", "tichu", "exchange", "play", "pass", "bomb", "wish", "give", "dog", "hand", "legal",
        "check", "suggest"}


def test_a_second_hands_sentence_names_each_hand_command_as_that_hands_and_no_other():
    for variant in (v for v in VARIANTS.values() if v.seats > v.players):
        word = second_hand_word(variant)
        marked = hand_command_pattern(HAND_NAMES)
        for name in HAND_NAMES:
            assert f"Now: /{word} {name} X." in for_second_hand(variant, "dummy", 3, f"Now: /{name} X.", marked), name
        untouched = "Its log: /log 5; /tables, /review 5 and /second play (already marked)."
        assert for_second_hand(variant, "dummy", 3, untouched, marked).endswith(untouched)
        assert for_second_hand(variant, "dummy", 3, "Now: /play X.", hand_command_pattern(())).endswith("Now: /play X.")


def test_the_prompts_name_only_hand_commands():
    named = {word for text in NEED_TEXT.values() for word in COMMAND_WORD.findall(text)}
    assert named and named <= HAND_NAMES


def test_the_wiring_hands_the_tables_the_names_read_from_the_flags(lobby):
    assert lobby.tables.settings.hand_commands.pattern == hand_command_pattern(HAND_NAMES).pattern


def test_second_goes_by_the_words_the_messages_and_the_page_use(game_commands):
    second, = [one for one in game_commands if one.key == SECOND_HAND_WORDS[0]]
    assert second.names == SECOND_HAND_WORDS
    assert {second_hand_word(v) for v in VARIANTS.values() if v.seats > v.players} == set(SECOND_HAND_WORDS)
    assert not second.hand


def test_the_page_reads_the_words_from_the_server_and_its_view_agrees():
    assert PAGE_COMMANDS == {"secret": sorted(SECRET_COMMANDS), "second_hand": list(SECOND_HAND_WORDS)}
    main = (SCRIPTS / "main.js").read_text("utf-8")
    assert "commands.json" in main
    assert "passwort" not in main and "(dummy|second)" not in main  # no list of its own
    # view.js labels a second hand's buttons and is loaded without a server (tests/web/test_web_scripts.py):
    # its pattern names the same words
    view = (SCRIPTS / "view.js").read_text("utf-8")
    patterns = set(re.findall(r"\\/\(([\w|]+)\)\\s\+", view))
    assert patterns and all(set(p.split("|")) == set(SECOND_HAND_WORDS) for p in patterns)
