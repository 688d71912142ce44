"""What people read during and after a game (issue 13): texts checked as a person sees them."""

from __future__ import annotations

import pytest
from twisted.internet.task import Clock

from bswtichu.engine import GameOptions
from bswtichu.engine import events as ev
from bswtichu.play import GameDriver, GameSeeds, seated_bots
from bswtichu.server.text.game_messages import GameTexts

from lobby_clients import Client
from test_tables_game import GameDriver as TableDriver, seeded_lobby, start_game
from test_commands_game_input import to_play, turn_player


@pytest.fixture
def game(tmp_path) -> TableDriver:
    return start_game(seeded_lobby(tmp_path, 5), ["/round 1"], seed=1)


def human(driver: TableDriver, player, line: str) -> list[str]:
    """The lines ``player`` reads in human mode after ``line``."""
    driver.collect()
    player.say("/mode human")
    player.clear()
    player.say(line)
    lines = list(player.connection.lines)
    player.say("/mode machine")
    player.clear()
    return lines


def test_a_wish_typed_with_the_mahjong_is_not_asked_for(game):
    to_play(game)
    leader, table = turn_player(game)
    assert table["need"] == "lead"
    lines = human(game, leader, "/play MJ wish 7")
    assert lines[0].startswith("You played: single MJ")
    assert not any("make the wish" in line for line in lines), lines
    assert any(line == "You made a wish for 7." for line in lines), lines


def test_the_mahjong_alone_asks_for_the_wish(game):
    to_play(game)
    leader, _ = turn_player(game)
    lines = human(game, leader, "/play MJ")
    assert "Your turn: make the wish: /wish RANK or /wish none." in lines


def test_legal_groups_plays_for_people_and_lists_them_all_on_request(game):
    to_play(game)
    leader, _ = turn_player(game)
    [grouped] = human(game, leader, "/legal")
    assert grouped.startswith("Legal now: singles: ") and "/legal all lists every play" in grouped
    [everything] = human(game, leader, "/legal all")
    assert everything.startswith("Legal now (") and "/play MJ" in everything
    assert game.send(leader, "/legal everything")[0][1]["code"] == "usage"


def test_score_and_table_show_the_final_result_after_the_game(game):
    over = game.play()
    ann = game.players[0]
    score = game.send(ann, "/score")
    assert [k for k, _ in score] == ["SCORE"] and score[0][1]["rounds"] == 1
    assert score[0][1]["standings"] == over["standings"]
    table = game.send(ann, "/table")
    assert [k for k, _ in table] == ["TABLE"] and table[0][1]["phase"] == "over"
    # the round's result as ROUND_END gave it: seats counted from 1, like the rest of TABLE
    round_ends = [{k: v for k, v in f.items() if k != "table"} for k, f in game.watched if k == "ROUND_END"]
    assert round_ends and table[0][1]["result"] == round_ends[-1]
    assert all(1 <= s <= 4 for s in table[0][1]["result"]["finish_order"])
    [text] = human(game, ann, "/score")
    assert text.startswith("Score after 1 of 1 rounds: ")
    assert game.send(ann, "/legal")[0][1]["code"] == "no_game"  # nothing to play until /start
    ann.say("/start")
    assert game.send(ann, "/score")[0][1]["rounds"] == 1  # the new game's first round


def test_round_and_final_scores_name_the_round_once():
    seeds = GameSeeds.from_seed(2)
    names = ("Ann", "Bob", "Cy", "Dan")
    for options, after, final in [
            (GameOptions(round_limit=2), "After round 1 of 2: Ann + Cy ",
             "Final standings after 2 of 2 rounds: Ann + Cy "),
            (GameOptions(turnier=True), "After round 1 of 9: 1. ", "Final standings after 9 of 9 rounds: 1. ")]:
        bots = seated_bots(names, options, dict.fromkeys(names, "basic"), seeds)
        driver = GameDriver(names, options, seeds, bots, Clock())
        texts = GameTexts(1, names)
        scores = []
        driver.subscribe(Scores(texts, scores))
        driver.start()
        while driver.step() is not None:
            pass
        assert scores[0].startswith(after), scores[0]
        assert driver.game.over and texts.score(driver.game, "final").text.startswith(final)
        assert not any("(round" in text for text in scores)


class Scores:
    """Keeps the SCORE text after every round."""

    def __init__(self, texts, into):
        self.texts = texts
        self.into = into

    def round_dealt(self, driver):
        pass

    def happened(self, driver, events):
        self.into += [self.texts.score(driver.game, "round").text
                      for e in events if isinstance(e, ev.RoundScored)]


def test_schupf_takes_ranks_and_the_exchange_says_which_card_went_to_whom(game):
    from test_commands_game_input import to_exchange

    to_exchange(game)
    ann, *others = game.players
    hand = game.send(ann, "/hand")[0][1]["cards"]
    naturals = [c for c in hand if c[0] in "23456789TJQKA"]
    ranks = [c[0] for c in naturals[:3]]
    game.say(ann, "/schupf " + " ".join(ranks))
    for player in others:
        cards = game.send(player, "/hand")[0][1]["cards"]
        game.say(player, f"/schupf {cards[0]} {cards[1]} {cards[2]}")
    received = next(f for k, f in game.log["Ann"] if k == "RECEIVED")
    passed = [received["given"][seat] for seat in ("2", "3", "4")]
    assert [card[0] for card in passed] == ranks and set(passed) <= set(hand)
    assert set(received["cards"]) == {"2", "3", "4"}


def test_the_exchange_text_names_what_went_where():
    from bswtichu.engine import card

    texts = GameTexts(1, ["Ann", "Bob", "Cy", "Dan"])
    event = ev.CardsReceived(3, {0: card("5j"), 1: card("9r"), 2: card("9s")})
    message = texts.received(event, {0: card("2j"), 1: card("Kr"), 2: card("3p")})
    assert message.text == "You received 5j from Ann, 9r from Bob and 9s from Cy."
    assert texts.passed({0: card("2j"), 1: card("Kr"), 2: card("3p")}) == "You passed 2j to Ann, Kr to Bob and 3p to Cy."
    assert message.fields["given"] == {"1": "2j", "2": "Kr", "3": "3p"}


def test_only_the_players_are_asked_for_their_calls_and_cards(tmp_path):
    from lobby_clients import Client
    from test_tables_game import seat_four
    lobby = seeded_lobby(tmp_path, 5)
    players = seat_four(lobby, ["/round 1"])
    eve = Client(lobby, "Eve", machine=False)
    eve.say("/watch 1")
    ann = players[0]
    ann.say("/mode human")
    eve.connection.lines.clear()
    ann.clear()
    ann.say("/start")
    assert "Grand Tichu? Look at your 8 cards: /grand calls it (200), /nogrand declines." in ann.connection.lines
    assert not any("/grand" in line for line in eve.connection.lines), eve.connection.lines
    assert "The players look at their first 8 cards and decide about Grand Tichu." in eve.connection.lines
    ann.clear()
    for player in players:
        player.say("/nogrand")
    assert any(line.startswith("Exchange: /schupf C1 C2 C3") for line in ann.connection.lines)
    assert not any("/schupf" in line for line in eve.connection.lines), eve.connection.lines
    assert "The players pass three cards each." in eve.connection.lines


def test_a_game_command_in_the_wrong_phase_says_the_phase_first(tmp_path):
    from test_tables_game import seat_four
    lobby = seeded_lobby(tmp_path, 5)
    players = seat_four(lobby, ["/round 1"])
    ann = players[0]
    ann.say("/start")
    grand = "first decide about Grand Tichu (grand or nogrand)"
    for line in ("/play 5", "/play 2", "/play", "/bomben 5 5 5 5", "/wish", "/wish K", "/give 2"):
        ann.clear()
        ann.say(line)
        assert ann.error_code() == "illegal" and ann.only("ERROR")["message"] == grand, (line, ann.connection.lines)
    for line in ("/schupf 5", "/schupf 2 3 4"):
        ann.clear()
        ann.say(line)
        assert ann.only("ERROR")["message"] == "first decide about Grand Tichu; the exchange comes next", line
    for player in players:
        player.say("/nogrand")
    ann.clear()
    ann.say("/play 5")
    assert ann.only("ERROR")["message"] == "first pass your 3 cards (exchange)"


def test_log_says_it_takes_one_number(tmp_path):
    from lobby_clients import Client
    ann = Client(seeded_lobby(tmp_path, 5), "Ann")
    ann.say("/log 1 2")
    error = ann.only("ERROR")
    assert "/log takes one game number" in error["message"] and "'2'" in error["message"], error


def test_a_single_is_not_named_twice_and_points_are_not_a_second_parenthesis():
    from bswtichu.engine import classify, parse_cards
    texts = GameTexts(1, ["Ann", "Bob", "Cy", "Dan"])
    mahjong = classify(parse_cards("MJ"))
    played = texts.event(ev.Played(0, mahjong, False, 13), None).text
    assert played == "Ann (seat 1) played: single MJ (13 cards left).", played
    pair = classify(parse_cards("7j 7s"))
    assert "pair of sevens [7j 7s]" in texts.event(ev.Played(1, pair, False, 12), None).text
    taken = texts.event(ev.TrickCollected(0, 1, 25), None).text
    assert taken == "Bob (seat 2) took the trick: 25 points.", taken


def test_table_marks_an_away_player_and_a_finished_table_is_not_full(game):
    bob = game.players[1]
    bob.hang_up()
    eve = game.watchers[0]
    eve.clear()
    eve.say("/table")
    seat = eve.only("TABLE")["names"].index("Bob") + 1
    lines = human(game, eve, "/table")
    assert any(line.strip().startswith(f"seat {seat} Bob (away):") for line in lines), lines
    assert not any("(away)" in line for line in lines if "Bob" not in line)


def test_a_finished_table_shows_as_finished(game):
    game.play()
    ann = game.players[0]
    ann.clear()
    ann.say("/tables")
    [view] = ann.only("TABLES")["tables"]
    assert view["state"] == "finished"
    assert "[finished]" in human(game, ann, "/tables")[0]


def test_a_player_reads_his_exchange_once_in_the_specific_form(game):
    """Issue 19.12: not "You passed three cards." and then "You passed 6r to ..." again."""
    from test_commands_game_input import to_exchange

    to_exchange(game)
    ann, *others = game.players
    hands = [game.send(player, "/hand")[0][1]["cards"] for player in game.players]
    lines = human(game, ann, "/schupf " + " ".join(hands[0][:3]))
    assert lines == ["You passed {} to Bob, {} to Cy and {} to Dan.".format(*hands[0][:3])], lines
    game.collect()
    ann.say("/mode human")
    ann.clear()
    for player, cards in zip(others, hands[1:]):
        player.say("/schupf " + " ".join(cards[:3]))
    lines = list(ann.connection.lines)
    ann.say("/mode machine")
    ann.clear()
    game.collect()
    assert not any(line.startswith("You passed") for line in lines), lines
    assert sum(line.startswith("You received ") for line in lines) == 1, lines


def test_the_seating_at_the_start_is_said_once(tmp_path):
    """Issue 19.12: STARTED says the seating; the first round does not say it again (SEATING)."""
    from test_tables_game import seat_four, seeded_lobby

    ann, *_ = seat_four(seeded_lobby(tmp_path, 5), ["/round 1"])
    ann.say("/mode human")
    ann.clear()
    ann.say("/start")
    lines = list(ann.connection.lines)
    assert sum("seat 1 Ann, seat 2 Bob, seat 3 Cy, seat 4 Dan" in line for line in lines) == 1, lines


def test_a_won_tricks_points_come_before_the_next_lead_is_asked_and_are_not_said_again(game):
    """Issue 19.12: "You took the trick" came after the lead it asked for; TRICK_WON says the points."""
    def asked_to_lead_after_a_won_trick(options) -> bool:
        return [k for k, _ in game.watched[-2:]] == ["TRICK_WON", "TURN"] and game.watched[-1][1]["need"] == "lead"

    game.play_until(asked_to_lead_after_a_won_trick)
    won, turn = game.watched[-2][1], game.watched[-1][1]
    assert isinstance(won["points"], int)
    leader = game.players[turn["seat"] - 1]
    lead = next(c for c in game.legal(leader) if c.startswith("/play") and " wish " not in c)
    wes = Client(game.lobby, "Wes", machine=False)  # a spectator who reads sentences
    wes.say("/watch 1")
    wes.clear()
    game.collect()
    seen = len(game.watched)
    lines = human(game, leader, lead)
    assert lines[0].startswith("You played: ") and not any("took the trick" in line for line in lines), lines
    assert " played: " in wes.connection.lines[0], wes.connection.lines
    assert not any("took the trick" in line for line in wes.connection.lines), wes.connection.lines
    game.collect()
    after = [k for k, _ in game.watched[seen:]]
    assert after[:2] == ["TRICK_TAKEN", "PLAYED"], after  # programs (the machine spectator) still read it
