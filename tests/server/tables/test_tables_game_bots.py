"""Bots at the table, substitutes for players who stay away, and coming back.

All on a fake clock: bots move only when the test advances it.
"""

from __future__ import annotations

import gc
import weakref

from twisted.internet.task import Clock

from bswtichu.config import ServerConfig

from lobby_clients import Client
from test_tables_game import Chooser, GameDriver, is_exchange, seat_four, seeded_lobby

DELAY = 2.0
GRACE = 30.0


def lobby_on(tmp_path, seed: int = 3):
    clock = Clock()
    return clock, seeded_lobby(tmp_path, seed, clock=clock, bot_delay=DELAY, grace=GRACE)


def test_bot_commands_seat_name_and_kick(tmp_path):
    clock, lobby = lobby_on(tmp_path)
    ann = Client(lobby, "Ann")
    ann.say("/join")
    ann.clear()
    ann.say("/bot")
    joined = ann.only("JOINED")
    assert joined["seat"] == 2 and joined["bot"] == "basic" and joined["by"] == "Ann"
    assert joined["nick"] == "bot-basic-Ada"
    ann.clear()
    ann.say("/bot 4 random")
    assert ann.only("JOINED")["seats"] == ["Ann", "bot-basic-Ada", None, "bot-random-Bea"]
    ann.clear()
    for line, code in [("/bot 4", "seat_taken"), ("/bot 7", "usage"), ("/bot genius", "usage"),
                       ("/kick 1", "not_a_bot"), ("/kick 3", "not_a_bot"), ("/kick", "usage")]:
        ann.say(line)
        assert ann.error_code() == code, line
        ann.clear()
    ann.say("/kick 2")
    left = ann.only("LEFT")
    assert left["reason"] == "kicked" and left["seats"] == ["Ann", None, None, "bot-random-Bea"]
    ann.clear()
    ann.say("/tables")
    assert ann.only("TABLES")["tables"][0]["bots"] == {"4": "random"}
    ann.clear()
    for line in ("/bot 3 random", "/bot"):
        ann.say(line)
    ann.say("/start")
    assert "STARTED" in ann.keywords() and "DEALT" in ann.keywords()
    ann.clear()
    for line, code in [("/bot", "table_started"), ("/kick 2", "table_started")]:
        ann.say(line)
        assert ann.error_code() == code, line
        ann.clear()


def test_a_spectator_cannot_seat_bots(tmp_path):
    clock, lobby = lobby_on(tmp_path)
    ann, eve = Client(lobby, "Ann"), Client(lobby, "Eve")
    ann.say("/join")
    eve.say("/watch 1")
    eve.clear()
    eve.say("/bot")
    assert eve.error_code() == "not_seated"


def play_with_bots(lobby, clock, person: Client, chooser: Chooser, max_steps: int = 5000) -> dict:
    """``person`` acts whenever /legal offers something; otherwise the clock moves the bots."""
    for _ in range(max_steps):
        person.say("/legal")
        commands = person.only("LEGAL")["commands"]
        person.clear()
        if commands:
            _, command = chooser.pick([(0, c) for c in commands])
            if is_exchange(command):
                person.say("/hand")
                command = chooser.exchange(person.only("HAND")["cards"])
                person.clear()
            person.say(command)
        else:
            clock.advance(DELAY)
        got = person.received()
        assert all(k != "ERROR" for k, _ in got), got
        person.history += got
        person.clear()
        over = [f for k, f in got if k == "GAME_OVER"]
        if over:
            return over[0]
    raise AssertionError("the game did not end")


def test_one_person_and_three_bots_play_to_the_end(tmp_path):
    clock, lobby = lobby_on(tmp_path)
    ann = Client(lobby, "Ann")
    ann.history = []
    ann.say("/join")
    ann.say("/bot")
    ann.say("/bot 3 random")
    ann.say("/bot")
    ann.say("/round 2")
    ann.say("/start")
    ann.clear()
    over = play_with_bots(lobby, clock, ann, Chooser(3))
    keywords = [k for k, _ in ann.history]
    assert keywords.count("ROUND_END") == 2
    assert over["log"] == 1 and len(over["standings"]) == 4
    bots = {"bot-basic-Ada", "bot-random-Bea", "bot-basic-Cy"}
    actors = {f["player"] for k, f in ann.history if k in ("PLAYED", "PASSED")}
    assert bots <= actors
    assert "TABLE_OPEN" in keywords
    assert clock.getDelayedCalls() == []  # no bot timer outlives the game


def test_a_finished_game_and_its_texts_go_without_the_cycle_collector(tmp_path):
    """When the next game starts, the last one (its driver, journal, texts and the messages they
    kept for the round) is freed by reference counting alone: no reference cycle is left."""
    clock, lobby = lobby_on(tmp_path)
    ann = Client(lobby, "Ann")
    ann.history = []
    for line in ("/join", "/bot", "/bot", "/bot", "/round 2", "/start"):
        ann.say(line)
    ann.clear()
    play_with_bots(lobby, clock, ann, Chooser(5))
    table = lobby.tables.get(1)
    finished, texts = weakref.ref(table.last_game), weakref.ref(table.last_game.texts)
    gc.disable()
    try:
        ann.say("/start")
        assert table.game is not None and finished() is None and texts() is None
    finally:
        gc.enable()


def test_bots_wait_for_bot_delay_while_a_person_plays(tmp_path):
    clock, lobby = lobby_on(tmp_path)
    ann = Client(lobby, "Ann")
    ann.say("/join")
    for _ in range(3):
        ann.say("/bot")
    ann.say("/start")
    ann.clear()
    # the grand phase: each bot decides one step of bot_delay after the previous
    decided = 0
    while decided < 3:
        clock.advance(DELAY - 0.01)
        assert [k for k in ann.keywords() if k in ("GRAND_DECIDED", "TICHU")] == []
        clock.advance(0.01)
        step = [k for k in ann.keywords() if k in ("GRAND_DECIDED", "TICHU")]
        assert len(step) == 1, ann.connection.lines
        decided += 1
        ann.clear()
    clock.pump([DELAY] * 10)
    assert ann.keywords() == []  # the bots wait for Ann's decision
    ann.say("/nogrand")
    assert "PHASE" in ann.keywords() or "DEALT" in ann.keywords()
    ann.clear()
    clock.pump([DELAY] * 3)
    assert ann.keywords().count("EXCHANGE_SUBMITTED") == 3
    ann.clear()
    ann.say("/hand")
    hand = ann.only("HAND")["cards"]
    ann.clear()
    ann.say(f"/schupf {hand[0]} {hand[1]} {hand[2]}")
    assert "RECEIVED" in ann.keywords()
    turn = [f for k, f in ann.received() if k == "TURN"][-1]
    ann.clear()
    if turn["seat"] == 1:  # Ann leads: she plays, then a bot is to follow
        ann.say("/legal")
        ann.say([c for c in ann.only("LEGAL")["commands"] if c.startswith("/play")][0])
        assert ann.keywords().count("PLAYED") == 1
        ann.clear()
    clock.advance(DELAY - 0.01)
    assert "PLAYED" not in ann.keywords() and "PASSED" not in ann.keywords()
    clock.advance(0.01)
    assert len([k for k in ann.keywords() if k in ("PLAYED", "PASSED")]) == 1


def four_people(tmp_path, seed: int = 3):
    clock, lobby = lobby_on(tmp_path, seed)
    players = seat_four(lobby, ["/round 1"])
    eve = Client(lobby, "Eve")
    eve.say("/watch 1")
    driver = GameDriver(lobby, players, Chooser(seed), watchers=[eve], clock=clock, bot_delay=DELAY)
    players[0].say("/start")
    driver.collect()
    return clock, lobby, driver


def test_away_player_is_replaced_after_the_grace_and_comes_back(tmp_path):
    clock, lobby, driver = four_people(tmp_path)
    ann, bob, cy, dan = driver.players
    for player in (ann, cy, dan):
        driver.say(player, "/nogrand")
    bob.hang_up()
    driver.collect()
    assert [f["seat"] for k, f in driver.log["Ann"] if k == "AWAY"] == [2]
    clock.advance(GRACE - 1)
    driver.collect()
    assert not any(k == "SUBSTITUTE" for k, _ in driver.watched)
    assert all(driver.legal(p) in ([], ["/tichu"]) for p in (ann, cy, dan))  # the game waits for Bob
    clock.advance(1)
    driver.collect()
    substitute = [f for k, f in driver.watched if k == "SUBSTITUTE"]
    assert substitute == [{"table": 1, "player": "Bob", "level": "basic", "reason": "away"}]
    assert all(any(k == "SUBSTITUTE" for k, _ in driver.log[n]) for n in ("Ann", "Cy", "Dan"))
    clock.advance(DELAY)
    driver.collect()
    assert any(k == "GRAND_DECIDED" and f["player"] == "Bob" or k == "TICHU" and f["player"] == "Bob"
               for k, f in driver.watched)
    # the others play on with Bob's bot; Bob comes back in the middle of the round
    driver.players = [ann, cy, dan]
    for _ in range(40):
        if not driver.step():
            clock.advance(DELAY)
            driver.collect()
    assert any(k == "PLAYED" and f["player"] == "Bob" for k, f in driver.watched)
    again = Client(lobby, None)
    again.say(f"/resume {bob.token}")  # coming back is one step: he sits in his seat at once
    assert again.only("SEAT_HELD") == {"table": 1, "seat": 2}
    keywords = again.keywords()
    assert keywords[:4] == ["NICK", "SEAT_HELD", "RETURNED", "SUBSTITUTE_END"]
    assert {"SCORE", "TABLE", "HAND"} <= set(keywords[4:])
    table = again.only("TABLE")
    hand = again.only("HAND")
    seat = lobby.tables.get(1).game
    engine_hand = {c.text for c in seat.game.round.hands[1]}
    assert set(hand["cards"]) == engine_hand == set(table["hand"])
    assert table["seat"] == 2 and table["names"][1] == "Bob"
    assert table["hand_counts"][1] == len(engine_hand)
    driver.collect()
    assert any(k == "SUBSTITUTE_END" and f["player"] == "Bob" for k, f in driver.watched)
    # Bob plays again himself: the bot stands aside, the game ends with the people
    driver.players = [ann, cy, dan]
    driver.join(again)
    driver.players = [ann, again, cy, dan]
    since = len(driver.watched)
    over = driver.play()
    assert over["log"] == 1
    later = driver.watched[since:]
    assert any(k in ("PLAYED", "PASSED") and f["player"] == "Bob" for k, f in later)
    assert not any(k == "SUBSTITUTE" for k, _ in later)


def test_a_player_who_hangs_up_keeps_his_seat_and_the_game_waits(tmp_path):
    clock, lobby, driver = four_people(tmp_path, seed=5)
    ann, bob, cy, dan = driver.players
    for player in driver.players:
        driver.say(player, "/nogrand")
    for player in driver.players:
        hand = driver.send(player, "/hand")[0][1]["cards"]
        driver.say(player, driver.chooser.exchange(hand))
    table = driver.send(ann, "/table")[0][1]
    leader = driver.players[table["turn"] - 1]
    name = leader.session.nick
    seat = table["turn"]
    hand_before = set(driver.send(leader, "/hand")[0][1]["cards"])
    leader.hang_up()
    driver.collect()
    assert any(k == "AWAY" and f["nick"] == name for k, f in driver.watched)
    clock.advance(GRACE / 2)
    driver.collect()
    others = [p for p in driver.players if p is not leader]
    for player in others:
        assert all(c == "/tichu" for c in driver.legal(player))
        table_now = driver.send(player, "/table")[0][1]
        assert table_now["turn"] == seat and table_now["need"] == "lead"
    assert lobby.tables.get(1).view()["seats"][seat - 1] == name
    back = Client(lobby, None)
    back.say(f"/resume {leader.token}")
    assert back.session.nick == name
    keywords = back.keywords()
    assert keywords[:3] == ["NICK", "SEAT_HELD", "RETURNED"] and "SUBSTITUTE_END" not in keywords
    assert set(back.only("HAND")["cards"]) == hand_before
    view = back.only("TABLE")
    assert view["turn"] == seat and view["need"] == "lead" and view["seat"] == seat
    assert back.only("SCORE")["rounds"] == 1
    assert back.only("TURN") == {"table": 1, "seat": seat, "player": name, "need": "lead"}
    assert keywords[-1] == "TURN"  # what is asked of him comes last
    back.clear()
    back.say("/legal")
    assert back.only("LEGAL")["commands"]
    clock.advance(GRACE)  # the substitute timer was cancelled
    assert not any(k == "SUBSTITUTE" for k, _ in back.received())


def test_reconnect_before_start_of_play_gets_grand_phase_state(tmp_path):
    clock, lobby, driver = four_people(tmp_path, seed=6)
    ann = driver.players[0]
    ann.hang_up()
    driver.collect()
    back = Client(lobby, None)
    back.say(f"/resume {ann.token}")
    hand = back.only("HAND")["cards"]
    assert len(hand) == 8  # the last 6 stay hidden until the Grand Tichu decision
    assert back.only("TABLE")["phase"] == "grand"
    assert back.only("PHASE")["phase"] == "grand"  # he is asked again: /grand or /nogrand


def test_a_seat_whose_grace_ran_out_is_freed_when_the_game_ends(tmp_path):
    clock, lobby, driver = four_people(tmp_path, seed=3)
    ann, bob, cy, dan = driver.players
    bob.hang_up()
    clock.advance(GRACE)
    driver.collect()
    assert any(k == "SUBSTITUTE" for k, _ in driver.watched)
    driver.players = [ann, cy, dan]
    driver.play()
    tail = [(k, f) for k, f in driver.log["Ann"] if k in ("TABLE_OPEN", "LEFT")]
    assert [k for k, _ in tail] == ["TABLE_OPEN", "LEFT"]
    assert tail[1][1]["nick"] == "Bob" and tail[1][1]["reason"] == "timeout"
    table = lobby.tables.get(1)
    assert table.view()["away"] == [] and table.seats == ["Ann", None, "Cy", "Dan"]
    assert clock.getDelayedCalls() == []
    back = Client(lobby, "Bob")
    assert "SEAT_HELD" not in back.keywords()
    back.say("/join 1")
    assert back.only("JOINED")["seat"] == 2
    ann.say("/start")
    assert "GAME" in ann.keywords()


def test_the_last_person_leaving_a_bot_table_pauses_it_until_bot_game_after(tmp_path):
    clock, lobby = lobby_on(tmp_path)
    ann = Client(lobby, "Ann")
    ann.say("/join")
    for _ in range(3):
        ann.say("/bot")
    ann.say("/start")
    ann.say("/nogrand")
    clock.pump([DELAY] * 3)
    table = lobby.tables.get(1)
    history = [list(r.history) for r in table.game.game.rounds]
    ann.say("/leave")
    assert lobby.tables.get(1) is table  # paused, not closed: the bots wait
    clock.advance(ServerConfig().bot_game_after - 1)
    assert [list(r.history) for r in table.game.game.rounds] == history
    ann.clear()
    ann.say("/log 1")
    assert ann.error_code() == "log_running"
    ann.clear()
    ann.say("/join 1 1")
    assert "RETURNED" in ann.keywords()
    assert clock.getDelayedCalls()  # the bots go on
    ann.say("/leave")
    clock.advance(ServerConfig().bot_game_after)
    assert lobby.tables.get(1) is None
    assert clock.getDelayedCalls() == []


def test_bot_names_are_unique_on_the_whole_server(tmp_path):
    clock, lobby = lobby_on(tmp_path)
    names = []
    for person in ("Ann", "Bob", "Cy"):
        client = Client(lobby, person)
        client.say("/join")
        for _ in range(3):
            client.clear()
            client.say("/bot")
            names.append(client.only("JOINED")["nick"])
    assert len(set(names)) == 9
    assert names[:8] == [f"bot-basic-{n}" for n in ("Ada", "Bea", "Cy", "Dot", "Eli", "Fay", "Gus", "Hal")]
    assert names[8] == "bot-basic-Ada2"


def test_the_dragon_goes_to_a_bot_by_its_short_name(tmp_path):
    clock, lobby = lobby_on(tmp_path)
    ann = Client(lobby, "Ann")
    ann.say("/join")
    for _ in range(3):
        ann.say("/bot")
    ann.say("/start")
    game = lobby.tables.get(1).game
    assert game.seat_named("Ann", "ada") == 1 and game.seat_named("Ann", "BOT-BASIC-ADA") == 1
    assert game.seat_named("Ann", "Cy") == 3 and game.seat_named("Ann", "4") == 3


def test_an_expert_bot_is_announced_with_an(tmp_path):
    clock, lobby = lobby_on(tmp_path)
    ann = Client(lobby, "Ann", machine=False)
    ann.say("/join")
    ann.clear()
    ann.say("/bot expert")
    assert ann.connection.lines == ["Ann seats an expert bot, bot-expert-Ada, at table 1, seat 2."]


def test_a_returning_person_reads_the_score_once(tmp_path):
    """Issue 19.12: SCORE, then TABLE without the score's sentence again, then the hand."""
    clock, lobby, driver = four_people(tmp_path, seed=6)
    ann = driver.players[0]
    ann.hang_up()
    driver.collect()
    back = Client(lobby, None, machine=False)
    back.say(f"/resume {ann.token}")  # seats him at once (issue 19.5)
    lines = list(back.connection.lines)
    assert sum("Score after 0 of 1 rounds" in line for line in lines) == 1, lines
    assert any(line.startswith("Table 1, round 1") for line in lines), lines
