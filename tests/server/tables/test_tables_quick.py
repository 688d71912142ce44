"""Quick play: /quick seats you at the table waiting longest, or opens one that bots fill."""

from __future__ import annotations

import pytest_twisted
from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.server.tables.wiring import GameWiring
from bswtichu.server.games.logs import GameLogStore
from bswtichu.service import build_lobby

from lobby_clients import Client
from test_server_game_network import GameServer

WAIT = 20.0


def quick_lobby(tmp_path):
    clock = Clock()
    config = ServerConfig(log_folder=str(tmp_path / "logs"), bot_delay=1.0, quick_wait=WAIT)
    wiring = GameWiring(clock, GameLogStore(config.log_folder), 1.0, 60.0, seeds=lambda: 5)
    return clock, build_lobby(clock, config, wiring, wiring.logs)


def test_with_no_table_waiting_quick_opens_one_that_bots_fill_after_the_wait(tmp_path):
    clock, lobby = quick_lobby(tmp_path)
    ann = Client(lobby, "Ann")
    ann.say("/quick random")
    assert ann.only("QUICK") == {"table": 1, "seat": 1, "level": "random", "wait": WAIT}
    ann.clear()
    clock.advance(WAIT - 1)
    assert ann.keywords() == []
    bob = Client(lobby, "Bob")
    bob.say("/quick expert")  # the table waiting: the level is the opener's
    assert bob.only("QUICK") == {"table": 1, "seat": 2, "level": None, "wait": None}
    ann.clear()
    clock.advance(1)
    joined = [f for k, f in ann.received() if k == "JOINED"]
    assert [(f["seat"], f["bot"]) for f in joined] == [(3, "random"), (4, "random")]
    assert "STARTED" in ann.keywords() and "GAME" in ann.keywords()
    assert lobby.tables.get(1).started


def test_quick_picks_the_open_table_that_waited_longest(tmp_path):
    clock, lobby = quick_lobby(tmp_path)
    ann, bob, cy = Client(lobby, "Ann"), Client(lobby, "Bob"), Client(lobby, "Cy")
    ann.say("/join")
    clock.advance(5)
    bob.say("/join")
    cy.say("/schnell")
    assert cy.only("QUICK")["table"] == 1
    dan = Client(lobby, "Dan")
    ann.say("/leave")  # table 1 closes: nobody is left there but Cy
    dan.say("/quick")
    assert dan.only("QUICK")["table"] == 1


def test_people_who_fill_a_quick_table_start_it_at_once(tmp_path):
    clock, lobby = quick_lobby(tmp_path)
    people = [Client(lobby, name) for name in ("Ann", "Bob", "Cy", "Dan")]
    for person in people:
        person.say("/quick")
    assert lobby.tables.get(1).started and not lobby.tables.get(1).bots
    assert "STARTED" in people[0].keywords()
    clock.advance(WAIT)  # the fill timer was dropped with the start
    assert len(lobby.tables) == 1


def test_quick_refusals_change_nothing(tmp_path):
    clock, lobby = quick_lobby(tmp_path)
    ann = Client(lobby, "Ann")
    ann.say("/quick champion")
    assert ann.error_code() == "usage"
    ann.clear()
    ann.say("/join")
    ann.clear()
    ann.say("/quick")
    assert ann.error_code() == "at_table"
    assert len(lobby.tables) == 1


def test_a_quick_table_everyone_left_does_not_start(tmp_path):
    clock, lobby = quick_lobby(tmp_path)
    ann = Client(lobby, "Ann")
    ann.say("/quick")
    ann.say("/leave")
    clock.advance(WAIT)
    assert len(lobby.tables) == 0


@pytest_twisted.ensureDeferred
async def test_a_bot_on_the_line_port_asks_for_quick_play_and_its_game_starts(tmp_path):
    async with GameServer(tmp_path, seed=2, quick_wait=0.0) as server:
        ann = await server.player("Ann")
        ann.send("/quick random")
        quick = (await ann.until("QUICK"))[-1][1]
        assert quick == {"table": 1, "seat": 1, "level": "random", "wait": 0.0}
        got = await ann.until("GAME")  # at once (no wait): the bots sit down and it starts
        keywords = [k for k, _ in got]
        assert keywords.count("JOINED") == 3 and "STARTED" in keywords
        assert (await ann.until("DEALT"))[-1][1]["seat"] == 1
