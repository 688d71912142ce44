"""Whole games in every language over real loopback TCP (issue 35).

Four people play a game each in German, French, Spanish and Romanian (and three play
Trichu): each chose his language with /lang and reads every message in relay mode (the
machine line and, as ``human``, the sentence he would read), while a telnet spectator whose
client said its ``LANG`` through NEW-ENVIRON watches. No sentence anybody reads may be an
English one of the catalog (every English source, placeholders as wildcards, is searched in
every line); errors and /help come in the language too; the machine fields are the same
in every language.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

import pytest
import pytest_twisted

from bswtichu.net import mud
from bswtichu.server.text import i18n

from test_server_game_network import GameServer, Player, drive, seat
from test_tables_game import Chooser
from test_net_network import reactor

babel = pytest.importorskip("babel", reason="Babel reads the catalogs (pip install babel)")
from babel.messages.pofile import read_po  # noqa: E402

TIMEOUT = 10
TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.SOURCE]
IAC, SB, SE, WILL = b"\xff", b"\xfa", b"\xf0", b"\xfb"
PLACEHOLDER = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[sdrgf]|%%")


@lru_cache(maxsize=None)
def english_sentences(code: str) -> list[tuple[str, re.Pattern]]:
    """Each English source the catalog of ``code`` words otherwise, as a pattern that finds it
    in a line (its values any text); sources of fewer than two words are left out (a name,
    'Tichu', a rank word), and so are those the language keeps as they are."""
    with (i18n.LOCALE_FOLDER / "bswtichu.pot").open("rb") as file:
        template = read_po(file)
    translations = i18n.language(code).translations
    patterns = []
    for message in template:
        if not message.id:
            continue
        for source in (message.id if isinstance(message.id, tuple) else (message.id,)):
            parts = PLACEHOLDER.split(source)
            if len(re.findall(r"[A-Za-z]{2,}", " ".join(parts))) < 2:
                continue
            worded = (translations.ngettext(message.id[0], message.id[1], 2) if isinstance(message.id, tuple)
                      else translations.gettext(source))
            if worded == source:
                continue
            patterns.append((source, re.compile(".+?".join(re.escape(part) for part in parts if part)
                                                if parts else re.escape(source))))
    return patterns


def english_left(code: str, lines: list[str]) -> list[tuple[str, str]]:
    return [(source, line) for line in lines for source, pattern in english_sentences(code)
            if pattern.search(line)]


def human(player: Player) -> list[str]:
    return [line for _k, fields in player.messages for line in fields["human"].splitlines()]


def machine_fields(player: Player) -> list[tuple[str, dict]]:
    return [(keyword, {k: v for k, v in fields.items() if k != "human"}) for keyword, fields in player.messages]


async def relay_players(server: GameServer, names: list[str], code: str) -> list[Player]:
    """People at the line port reading relay lines (the sentence as ``human``) in ``code``."""
    players = [await server.player(name) for name in names]
    for player in players:
        player.send("/mode relay")
        await player.until("MODE")
        player.send(f"/lang {code}")
        language = (await player.until("LANGUAGE"))[-1][1]
        assert language["language"] == code and language["choices"] == list(i18n.LANGUAGES)
        player.messages.clear()
    return players


async def telnet_watcher(server: GameServer, code: str):
    """A telnet spectator whose client says its ``LANG`` (IAC WILL NEW-ENVIRON, then its answer
    to the server's SEND)."""
    eve = await server.connect("telnet")
    eve.transport.write(IAC + WILL + mud.NEW_ENVIRON)
    asked = mud.environ_request()
    while asked not in eve.raw:
        await eve.news()
    eve.transport.write(IAC + SB + mud.NEW_ENVIRON + mud.ENV_IS + bytes([mud.ENV_USERVAR]) + b"LANG"
                        + bytes([mud.ENV_VALUE]) + f"{code}_XX.UTF-8".encode() + IAC + SE)
    eve.lines.clear()
    eve.send("/nick Eve")
    eve.send("/watch 1")
    eve.send("/lang")
    await eve.wait_for(lambda line: i18n.LANGUAGES[code] in line).addTimeout(TIMEOUT, reactor())
    return eve


@pytest.mark.parametrize("code", TRANSLATED)
@pytest_twisted.ensureDeferred
async def test_a_whole_game_in_each_language(tmp_path, code):
    async with GameServer(tmp_path, seed=21) as server:
        players = await relay_players(server, ["Ann", "Bob", "Cy", "Dan"], code)
        ann = players[0]
        ann.send("/nosuchcommand")
        error = (await ann.until("ERROR"))[-1][1]
        assert error["code"] == "unknown_command" and error["message"].startswith("unknown command /nosuchcommand")
        assert not error["human"].startswith("error: unknown command"), error  # the sentence is his language's
        ann.send("/help game")
        help_lines = (await ann.until("HELP"))[-1][1]["human"].splitlines()
        assert len(help_lines) > 10
        assert not english_left(code, help_lines)
        ann.messages.clear()
        for player in players:
            player.send("/join" if player is ann else "/join 1")
            await player.until("JOINED")
        ann.send("/round 1")
        await ann.until("OPTION")
        eve = await telnet_watcher(server, code)
        ann.send("/start")
        await ann.until("GAME")
        result = await drive(players, Chooser(1))
        assert result["over"]
        for player in players:
            lines = human(player)
            assert any(" PH" in line or "MJ" in line or "[" in line for line in lines)
            assert english_left(code, lines) == [], player.nick
        await eve.wait_for(lambda line: line.startswith(("Spielende", "Fin de la partie", "¡Fin de la partida",
                                                         "Sfârșitul jocului"))).addTimeout(TIMEOUT, reactor())
        watched = [line.decode("utf-8", "replace") for line in
                   re.sub(rb"\xff[\xfa-\xfe].|\xff\xfa.*?\xff\xf0", b"", eve.raw, flags=re.S).split(b"\r\n")]
        game_lines = watched[next(i for i, line in enumerate(watched) if "/log" in line):]
        assert len(game_lines) > 20
        assert english_left(code, game_lines) == []


@pytest_twisted.ensureDeferred
async def test_machine_lines_are_the_same_in_every_language(tmp_path):
    """The same seeded game played in English and in German: every machine field alike."""
    fields = {}
    for code in ("en", "de"):
        async with GameServer(tmp_path / code, seed=5) as server:
            players = await relay_players(server, ["Ann", "Bob", "Cy", "Dan"], code)
            for player in players:
                player.send("/join" if player is players[0] else "/join 1")
                await player.until("JOINED")
            players[0].send("/round 1")
            await players[0].until("OPTION")
            players[0].send("/start")
            await players[0].until("GAME")
            await drive(players, Chooser(3))
            fields[code] = [machine_fields(player) for player in players]
    assert fields["en"] == fields["de"]
