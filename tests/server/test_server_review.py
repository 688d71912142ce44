"""/review: a finished game step by step, every hand open, as the engine replays its log."""

from __future__ import annotations

import re

from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.server.game_table import GameWiring
from bswtichu.server.gamelogs import GameLogStore
from bswtichu.service import build_lobby

from lobby_clients import Client


def finished_game(tmp_path, rounds: int = 2):
    """Ann and three bots play ``rounds`` rounds to the end; Ann's moves are the first legal."""
    clock = Clock()
    config = ServerConfig(log_folder=str(tmp_path / "logs"), bot_delay=1.0)
    wiring = GameWiring(clock, GameLogStore(config.log_folder), 1.0, 60.0, seeds=lambda: 8)
    lobby = build_lobby(clock, config, wiring, wiring.logs)
    ann = Client(lobby, "Ann")
    for line in ("/join", "/bot", "/bot", "/bot", f"/round {rounds}", "/legal push on", "/start"):
        ann.say(line)
    for _ in range(5000):
        over = [f for k, f in ann.received() if k == "GAME_OVER"]
        if over:
            return clock, lobby, ann, over[0]["log"]
        pushed = [f for k, f in ann.received() if k == "LEGAL"]
        ann.clear()
        if pushed and pushed[-1]["commands"]:
            command = pushed[-1]["commands"][0]
            if command.startswith("/schupf"):
                ann.say("/hand")
                command = "/schupf " + " ".join(ann.only("HAND")["cards"][:3])
                ann.clear()
            ann.say(command)
        else:
            clock.advance(1)
    raise AssertionError("the game did not end")


def test_a_finished_game_is_reviewed_trick_by_trick_with_every_hand_open(tmp_path):
    clock, lobby, ann, number = finished_game(tmp_path)
    eve = Client(lobby, "Eve")  # anyone may review a finished game
    eve.say(f"/review {number}")
    first = eve.only("REVIEW")
    assert (first["log"], first["round"], first["rounds"], first["step"]) == (number, 1, 2, 1)
    assert first["title"] == "the deal and the exchange"
    assert [len(hand) for hand in first["hands"]] == [14, 14, 14, 14]
    assert len({card for hand in first["hands"] for card in hand}) == 56
    assert [e["keyword"] for e in first["events"]][-1] == "EXCHANGED"
    steps = [first]
    for _ in range(first["steps"] - 1):
        eve.clear()
        eve.say("/review next")
        steps.append(eve.only("REVIEW"))
    assert all(s["round"] == 1 for s in steps) and [s["step"] for s in steps] == list(range(1, len(steps) + 1))
    assert steps[-1]["title"].endswith("and the score")
    assert steps[-1]["events"][-1]["keyword"] == "ROUND_END"
    tricks = steps[1:]
    # each trick's step starts with a lead and ends with the trick taken; the cards shown as
    # held at its start are the ones still held, and all that is played in it comes from them
    for step in tricks[:-1]:
        keywords = [e["keyword"] for e in step["events"]]
        assert keywords.index("PLAYED") < keywords.index("TRICK_TAKEN") and keywords[-1] == "TRICK_TAKEN"
    for step, following in zip(tricks, tricks[1:]):
        held = {card for hand in step["hands"] for card in hand}
        played = {card for e in step["events"] if e["keyword"] == "PLAYED" for card in e["combo"]["cards"]}
        assert played <= held and {c for hand in following["hands"] for c in hand} == held - played
    eve.clear()
    eve.say("/review next")  # on to the next round
    assert (eve.only("REVIEW")["round"], eve.only("REVIEW")["step"]) == (2, 1)
    eve.clear()
    eve.say("/review prev")
    assert eve.only("REVIEW") == steps[-1]
    eve.clear()
    eve.say("/review round 2")
    assert eve.only("REVIEW")["round"] == 2
    eve.clear()
    eve.say(f"/nachspielen {number} 2")
    assert eve.only("REVIEW")["round"] == 2
    eve.clear()
    eve.say("/review end")
    assert eve.only("REVIEW_END") == {"log": number}
    eve.clear()
    eve.say("/review next")
    assert eve.error_code() == "no_review"


def test_the_review_reads_as_live_play_for_people(tmp_path):
    clock, lobby, ann, number = finished_game(tmp_path, rounds=1)
    ann.say("/mode human")
    ann.clear()
    ann.say(f"/review {number}")
    ann.say("/review next")
    text = "\n".join(ann.connection.lines)
    assert f"Review of game {number}, round 1 of 1, the deal and the exchange (step 1 of" in text
    assert "Hands: Ann (seat 1): " in text and " passed " in text
    assert "trick 1" in text and " played" in text
    # the same colours as live play: the cards in a step's sentences are coloured for a colour client
    ann.say("/color on")
    ann.clear()
    ann.say("/review next")
    assert re.search(r"Hands: Ann \(seat 1\): \x1b\[(32|90|34|31|33|36|35|1;31)m", ann.connection.lines[1])
    assert any(re.search(r"played: .*\x1b\[", line) for line in ann.connection.lines)


def test_a_running_game_or_a_missing_one_is_not_reviewed(tmp_path):
    clock = Clock()
    config = ServerConfig(log_folder=str(tmp_path / "logs"), bot_delay=1.0)
    wiring = GameWiring(clock, GameLogStore(config.log_folder), 1.0, 60.0, seeds=lambda: 8)
    lobby = build_lobby(clock, config, wiring, wiring.logs)
    ann = Client(lobby, "Ann")
    for line in ("/join", "/bot", "/bot", "/bot", "/start"):
        ann.say(line)
    number = lobby.tables.get(1).game.log_number
    ann.clear()
    ann.say(f"/review {number}")
    assert ann.error_code() == "log_running"
    ann.clear()
    ann.say("/review 99")
    assert ann.error_code() == "no_such_log"
    ann.clear()
    ann.say("/review next")
    assert ann.error_code() == "no_review"
    ann.clear()
    ann.say("/review 1 x")
    assert ann.error_code() == "usage"
