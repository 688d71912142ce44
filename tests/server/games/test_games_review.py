"""/review: a finished game step by step, every hand open, as the engine replays its log."""

from __future__ import annotations

import re

import pytest
from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.engine import DUO, TIENTSIN, TRICHU, Exchange, Play
from bswtichu.server.tables.wiring import GameWiring
from bswtichu.server.games.logs import GameLogStore
from bswtichu.service import build_lobby
from bswtichu.tch.variant_log import DUMMY_NAME, read_variant_log

from lobby_clients import Client
from test_tables_game import seeded_lobby
from test_games_variant_logs import recorded_game


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


def review_to_the_end(client: Client, number: int) -> list[dict]:
    """Every step of game ``number``'s review: /review N, then /review next until the last."""
    client.clear()
    client.say(f"/review {number}")
    steps = [client.only("REVIEW")]
    while True:
        client.clear()
        client.say("/review next")
        if client.keywords() == ["ERROR"]:
            assert client.error_code() == "review_end"
            return steps
        steps.append(client.only("REVIEW"))


@pytest.mark.parametrize("variant", (TIENTSIN, TRICHU, DUO), ids=lambda v: v.name)
def test_a_finished_variant_game_is_reviewed_from_its_variant_log(tmp_path, variant):
    game, number = recorded_game(GameLogStore(tmp_path / "logs"), variant, 6)
    log = read_variant_log(GameLogStore(tmp_path / "logs").read(number))
    lobby = seeded_lobby(tmp_path, 5)
    steps = review_to_the_end(Client(lobby, "Eve"), number)
    assert {s["rounds"] for s in steps} == {len(log.rounds)} == {len(game.rounds)}
    assert [s["round"] for s in steps] == sorted(s["round"] for s in steps)
    for logged in log.rounds:
        rounds = [s for s in steps if s["round"] == logged.number]
        assert [s["step"] for s in rounds] == list(range(1, rounds[0]["steps"] + 1))
        # the seating as the round had it: Trichu's dummy is "dummy", Duo's person at both seats
        names = ["dummy" if name == DUMMY_NAME else name for name in logged.seats]
        assert all(s["names"] == names for s in rounds)
        deal, *tricks = rounds
        assert deal["title"] == "the deal and the exchange"
        # the deal's hands are the logged deal, every seat's cards of its size
        assert [sorted(hand) for hand in deal["hands"]] == [
            sorted(c.text for c in first + last) for first, last in zip(logged.first_cards, logged.last_cards)]
        assert [len(hand) for hand in deal["hands"]] == list(variant.hand_sizes(logged.dealer))
        exchanged = deal["events"][-1]
        assert exchanged["keyword"] == "EXCHANGED"
        assert exchanged["given"] == {
            str(a.action.seat + 1): {str(t + 1): c.text for t, c in
                                     zip(variant.exchange_targets[a.action.seat], a.action.cards)}
            for a in logged.actions if isinstance(a.action, Exchange)}
        # each trick's hands are what is left after the one before; what is played in it comes
        # from them; and the plays, trick after trick, are the log's
        after_exchange = {c for hand in tricks[0]["hands"] for c in hand}
        assert after_exchange == {c for hand in deal["hands"] for c in hand}
        for step, following in zip(tricks, tricks[1:]):
            held = {c for hand in step["hands"] for c in hand}
            played = {c for e in step["events"] if e["keyword"] == "PLAYED" for c in e["combo"]["cards"]}
            assert played <= held and {c for hand in following["hands"] for c in hand} == held - played
            assert step["events"][-1]["keyword"] == "TRICK_TAKEN"
        shown = [(e["seat"], sorted(e["combo"]["cards"])) for s in tricks for e in s["events"]
                 if e["keyword"] == "PLAYED"]
        assert shown == [(a.action.seat + 1, sorted(c.text for c in a.action.cards))
                         for a in logged.actions if isinstance(a.action, Play)]
        last = tricks[-1]
        assert last["title"] == f"trick {len(tricks)} and the score"
        end = last["events"][-1]
        assert end["keyword"] == "ROUND_END"
        assert end["score"] == list(logged.outcome.score)
        assert end["finish_order"] == [s + 1 for s in logged.outcome.finish_order]


def test_a_variant_review_reads_for_people_with_the_dummy_and_duos_seats(tmp_path):
    store = GameLogStore(tmp_path / "logs")
    _, trichu = recorded_game(store, TRICHU, 6)
    _, duo = recorded_game(store, DUO, 6)
    eve = Client(seeded_lobby(tmp_path, 5), "Eve", machine=False)
    eve.say(f"/review {trichu} 2")
    text = "\n".join(eve.connection.lines)
    assert f"Review of game {trichu}, round 2 of 3, the deal and the exchange (step 1 of" in text
    # round 2: P1 deals and plays the dummy opposite him
    assert "Hands: P1 (seat 1): " in text and ", dummy (seat 3): " in text and ", P0 (seat 4): " in text
    assert "dummy (seat 3) passed 2 cards." in text and "; dummy passed " in text
    eve.clear()
    eve.say(f"/review {duo}")
    text = "\n".join(eve.connection.lines)
    assert "Hands: P0 (seat 1): " in text and ", P0 (seat 3): " in text and ", P1 (seat 4): " in text
    assert "P0 (seat 3) passed " in text and " to P1 (seat 4)" in text


def test_bad_round_values_are_refused_clearly(tmp_path):
    store = GameLogStore(tmp_path / "logs")
    _, number = recorded_game(store, TIENTSIN, 6)
    eve = Client(seeded_lobby(tmp_path, 5), "Eve")
    for line, code in ((f"/review {number} 0", "no_such_round"), (f"/review {number} 3", "no_such_round"),
                       (f"/review {number} -1", "usage"), (f"/review {number} two", "usage"),
                       (f"/review {number} 1 2", "usage")):
        eve.clear()
        eve.say(line)
        assert eve.error_code() == code, line
        if code == "no_such_round":
            assert f"game {number} has rounds 1-2" in eve.connection.lines[0]
        assert "REVIEW" not in eve.keywords()
    eve.clear()
    eve.say(f"/review {number} 2")
    assert eve.only("REVIEW")["round"] == 2
    for line in ("/review round 0", "/review round 9", "/review round x"):
        eve.clear()
        eve.say(line)
        assert eve.error_code() in ("no_such_round", "usage"), line
    eve.clear()
    eve.say("/review next")  # the refusals left the review where it was
    assert (eve.only("REVIEW")["round"], eve.only("REVIEW")["step"]) == (2, 2)


def test_a_variant_log_the_engine_refuses_is_not_reviewed_and_says_where(tmp_path):
    store = GameLogStore(tmp_path / "logs")
    _, number = recorded_game(store, TRICHU, 6)
    text = store.read(number)
    eve = Client(seeded_lobby(tmp_path, 5), "Eve")
    # a hand of one card: the engine's replay names the line; a line no log has: the reader does
    for broken, said in ((re.sub(r"^hand 2: .*$", "hand 2: 2j /", text, count=1, flags=re.M), "does not replay: line"),
                         (text.replace("\nround 1\n", "\nround one\n"), "does not read: line")):
        store.path(number).write_text(broken, encoding="utf-8")
        eve.clear()
        eve.say(f"/review {number}")
        assert eve.error_code() == "no_such_log"
        assert said in eve.connection.lines[0]
