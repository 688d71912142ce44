"""Game logs: announced at the start and the end, shown by /log once the game is over,
readable as .tch and replayable round by round."""

from __future__ import annotations

import pytest
from twisted.logger import globalLogPublisher

from bswtichu.server.games.logs import GameLogStore
from bswtichu.tch import read_tch
from bswtichu.tch.replay import replay_round

from test_tables_game import seeded_lobby, start_game


def fetch_log(client, number: int) -> dict:
    client.clear()
    client.say(f"/log {number}")
    log = client.only("LOG")
    client.clear()
    return log


def replays(text: str, rounds: int) -> list:
    game = read_tch(text)
    assert len(game.rounds) == rounds
    reports = [replay_round(rlog, number) for number, rlog in enumerate(game.rounds, start=1)]
    for report in reports:
        assert report.ok and report.complete, report.to_dict()
    return game.rounds


def test_log_of_a_finished_game_reads_and_replays(tmp_path):
    driver = start_game(seeded_lobby(tmp_path, 5), ["/round 2"], seed=1)
    ann, bob = driver.players[:2]
    game = [f for k, f in driver.log["Ann"] if k == "GAME"]
    assert game == [{"table": 1, "log": 1, "options": {"round": 2, "tichujoin": False, "turnier": False, "clock": None}}]
    # refused while the game runs, and for numbers without a game
    bob.say("/log 1")
    assert bob.error_code() == "log_running"
    for line, code in [("/log 2", "no_such_log"), ("/log", "usage"), ("/log one", "usage")]:
        bob.clear()
        bob.say(line)
        assert bob.error_code() == code, line
    bob.clear()
    over = driver.play()
    assert over["log"] == 1
    assert all(any(k == "GAME_OVER" and f["log"] == 1 for k, f in driver.log[n]) for n in driver.log)
    log = fetch_log(bob, 1)
    assert log["number"] == 1 and log["text"] == (tmp_path / "logs" / "game-000001.tch").read_text()
    rounds = replays(log["text"], 2)
    assert all(list(r.seat_names) == ["Ann", "Bob", "Cy", "Dan"] for r in rounds)
    # the logged results are the scores the table announced
    results = [[f["score"] for k, f in driver.watched if k == "ROUND_END"]][0]
    assert [[r.result.team_0_2, r.result.team_1_3] for r in rounds] == results
    # spectators and people in the lobby may read finished logs too
    eve = driver.watchers[0]
    assert fetch_log(eve, 1)["text"] == log["text"]


def test_a_second_game_gets_the_next_number(tmp_path):
    lobby = seeded_lobby(tmp_path, 4)
    driver = start_game(lobby, ["/round 1"], seed=4)
    assert driver.play()["log"] == 1
    driver.game_over = None
    driver.players[1].say("/start")
    driver.collect()
    assert [f["log"] for k, f in driver.log["Cy"] if k == "GAME"] == [1, 2]
    cy = driver.players[2]
    cy.say("/log 2")
    assert cy.error_code() == "log_running"
    cy.clear()
    assert driver.play()["log"] == 2
    replays(fetch_log(cy, 2)["text"], 1)
    replays(fetch_log(cy, 1)["text"], 1)
    # a new server on the same folder goes on after the highest number
    again = seeded_lobby(tmp_path, 5)
    later = start_game(again, ["/round 1"], seed=5, watch=False)
    assert [f["log"] for k, f in later.log["Ann"] if k == "GAME"] == [3]


def test_turnier_log_has_nine_rounds_in_each_rounds_seating(tmp_path):
    driver = start_game(seeded_lobby(tmp_path, 0), ["/turnier on"], seed=0)
    over = driver.play()
    rounds = replays(fetch_log(driver.players[3], over["log"])["text"], 9)
    per_round = []
    current = None
    for keyword, fields in driver.watched:
        if keyword in ("STARTED", "SEATING"):  # the first round's seating is STARTED's
            current = fields["seats"]
        elif keyword == "ROUND_END":
            per_round.append(current)
    assert [list(r.seat_names) for r in rounds] == per_round
    assert not any(r.grand_tichu_callers for r in rounds)


def test_a_failing_log_writer_does_not_stop_the_game(tmp_path, monkeypatch, logged_errors):
    import bswtichu.server.games.logs as gamelogs

    def broken(rnd, names):
        raise ValueError("the recorder cannot log this round")

    monkeypatch.setattr(gamelogs, "round_log", broken)
    failures = []

    def observe(event):
        if event.get("log_failure") is not None:
            failures.append(event)

    globalLogPublisher.addObserver(observe)
    try:
        driver = start_game(seeded_lobby(tmp_path, 5), ["/round 2"], seed=1)
        over = driver.play()
    finally:
        globalLogPublisher.removeObserver(observe)
    assert driver.count("ROUND_END") == 2 and over["log"] == 1
    assert [f["log_format"] for f in failures] == ["cannot write game log {number}"] * 2
    bob = driver.players[1]
    bob.clear()
    bob.say("/log 1")
    assert bob.error_code() == "no_such_log"


def test_an_unwritable_log_folder_does_not_stop_the_game(tmp_path, logged_errors):
    (tmp_path / "logs").write_text("a file where the folder should be")
    driver = start_game(seeded_lobby(tmp_path, 4), ["/round 1"], seed=4)
    assert driver.play()["log"] == 1
    assert {e["log_format"] for e in logged_errors} == {"cannot write game log {number}"}
    ann = driver.players[0]
    ann.clear()
    ann.say("/log 1")
    assert ann.error_code() == "no_such_log"


@pytest.mark.parametrize("seed", [2, 3, 11])
def test_the_log_after_each_round_is_the_whole_games_log_made_afresh(tmp_path, seed, monkeypatch):
    """The recorder makes each finished round's text once and joins them; the file must
    not differ from the log made from all finished rounds at once (tch.record.game_log)."""
    from bswtichu.tch import write_tch
    from bswtichu.tch.record import game_log

    lobby = seeded_lobby(tmp_path, 6)
    driver = start_game(lobby, ["/round 3"], seed=seed)
    game = lobby.tables.get(1).game.game
    texts = []
    original = GameLogStore.save_text

    def save_text(store, number, text):
        finished = [(rnd, seats) for rnd, seats in zip(game.rounds, game.seatings) if rnd.phase == "over"]
        texts.append((text, write_tch(game_log(finished))))
        original(store, number, text)
    monkeypatch.setattr(GameLogStore, "save_text", save_text)
    driver.play()
    assert len(texts) == 3 and all(cached == afresh for cached, afresh in texts)
    assert GameLogStore(tmp_path / "logs").read(1) == texts[-1][1]
