"""What the browser's card table gets from the server over the real WebSocket port (GMCP
subprotocol, autobahn's client on loopback TCP): issue 34's server halves.

- Duo, back during the exchange (bug 3): `/resume` shows both hands, and `/legal push on`
  (which the page sends on its name) pushes the second hand's LEGAL too; SCORE's `rounds` on
  a return counts the round being played (bug 4: the page's reading, see PROTOCOL.md);
- `/layout`, `/check`, `/suggest` as `Tichu.Layout`, `Tichu.Check`, `Tichu.Suggest`;
- a player who left a started game finds his seat in `Tichu.Tables` and takes it back with
  `/join` (bug 2), `/watch` saying so.
"""

from __future__ import annotations

import json

import pytest_twisted

from test_net_network import TIMEOUT, reactor
from test_net_websocket import WebServer
from websocket_clients import FrameClient

GMCP = ["gmcp.mudstandards.org"]


async def package(client: FrameClient, name: str, **fields: object) -> dict:
    """The first GMCP package ``name`` (a TEXT frame) whose fields hold these values."""

    def matches(frame: str) -> bool:
        key, _, payload = frame.partition(" ")
        return key == name and all(json.loads(payload).get(k) == v for k, v in fields.items())

    frame = await client.wait_for(matches, "text")
    return json.loads(frame.partition(" ")[2])


async def named(server: WebServer, nick: str) -> tuple[FrameClient, str]:
    """A GMCP client that took ``nick``, and its resume token."""
    client = await server.open(GMCP)
    client.say(f"/nick {nick}")
    token = (await package(client, "Tichu.ResumeToken"))["token"]
    return client, token


@pytest_twisted.ensureDeferred
async def test_duo_back_in_the_exchange_gets_both_hands_both_legal_lists_and_the_questions():
    async with WebServer(bot_delay=0.0) as server:
        ann, token = await named(server, "Ann")
        for line in ("/join", "/variant duo", "/round 1", "/bot", "/start"):
            ann.say(line)
        await package(ann, "Tichu.Phase", phase="grand")
        ann.say("/nogrand")
        ann.say("/second nogrand")
        await package(ann, "Tichu.Phase", phase="exchange")
        ann.sendClose(1000)
        await ann.closed.addTimeout(TIMEOUT, reactor())

        back = await server.open(GMCP)
        back.say(f"/resume {token}")
        score = await package(back, "Tichu.Score")
        table = await package(back, "Tichu.Table")
        assert (score["rounds"], table["round"], table["phase"]) == (1, 1, "exchange")
        await back.wait_for(lambda line: line.startswith("Score after 0 of 1 rounds"))  # none finished
        hands = [await package(back, "Tichu.Hand", seat=seat) for seat in (1, 3)]
        assert all(len(hand["cards"]) == 14 for hand in hands)
        back.say("/legal push on")
        own = await package(back, "Tichu.Legal", seat=1)
        second = await package(back, "Tichu.Legal", seat=3)
        assert own["exchange"] and second["exchange"]
        assert all(command.startswith("/second ") for command in second["commands"])

        back.say("/layout")
        layout = await package(back, "Tichu.Layout")
        assert (layout["variant"], layout["seat"], layout["second"]) == ("duo", 1, "second")
        assert [(hand["seat"], hand["prefix"]) for hand in layout["plays"]] == [(1, ""), (3, "/second ")]
        assert [target["to"] for target in layout["plays"][1]["exchange"]] == [4, 1, 2]

        back.say(next(c for c in own["commands"] if c.startswith("/schupf ")))
        back.say(next(c for c in second["commands"] if c.startswith("/second schupf ")))
        await package(back, "Tichu.Phase", phase="play")
        hand = (await package(back, "Tichu.Received", seat=1))  # the exchange is done
        assert hand["seat"] == 1
        # the Mahjong's holder leads: one of Ann's hands, or a bot's, whose lead comes first
        turn = await back.wait_for(lambda frame: frame.startswith("Tichu.Turn ")
                                   and json.loads(frame.partition(" ")[2]).get("seat") in (1, 3), "text")
        seat = json.loads(turn.partition(" ")[2])["seat"]
        prefix = "/" if seat == 1 else "/second "
        back.say(f"{prefix}suggest")
        asked = await package(back, "Tichu.Suggest", seat=seat)
        assert asked["need"] in ("lead", "follow")
        assert (asked["pass"] is None) == (asked["need"] == "lead")  # a lead may not pass, a follow may
        if not asked["plays"]:  # a follow with nothing that beats the bot's lead
            return
        first = asked["plays"][0]
        back.say(f"{prefix}check {' '.join(first['combo']['cards'])}")
        check = await package(back, "Tichu.Check", seat=seat)
        assert check["playable"] and check["how"] == "turn" and first["command"] in [p["command"] for p in check["plays"]]
        back.say(first["command"])
        played = await package(back, "Tichu.Played", seat=seat)
        assert sorted(played["combo"]["cards"]) == sorted(first["combo"]["cards"])


@pytest_twisted.ensureDeferred
async def test_a_player_who_left_a_started_game_sees_his_seat_and_takes_it_back():
    async with WebServer(bot_delay=0.0) as server:
        ann, _ = await named(server, "Ann")
        for line in ("/join", "/bot", "/bot", "/bot", "/start"):
            ann.say(line)
        await package(ann, "Tichu.Started")
        ann.say("/leave")
        await package(ann, "Tichu.Away", seat=1)
        ann.say("/tables")
        tables = (await package(ann, "Tichu.Tables"))["tables"]
        assert (tables[0]["seats"][0], tables[0]["away"], tables[0]["state"]) == ("Ann", [1], "started")
        ann.say("/watch 1")
        refused = await package(ann, "Tichu.Error")
        assert refused["code"] == "already_seated"
        assert refused["message"] == ("your seat 1 at table 1 is held for you (players cannot also watch):"
                                      " /join 1 takes it back")
        ann.say("/join 1")
        assert (await package(ann, "Tichu.Returned"))["seat"] == 1
        await package(ann, "Tichu.Table", seat=1)
