"""Bad input during a game: one ERROR line with a useful code, and nothing else changes."""

from __future__ import annotations

import pytest

from test_tables_game import GameDriver, seeded_lobby, start_game


def snapshot(driver: GameDriver) -> list:
    """What /table and /hand show every player, and /table the spectator."""
    seen = []
    for player in driver.players:
        for line in ("/table", "/hand", "/legal"):
            seen.append(driver.send(player, line))
    for watcher in driver.watchers:
        watcher.say("/table")
        seen.append(watcher.received())
        watcher.clear()
    return seen


def refused(driver: GameDriver, player, line: str) -> dict:
    """``line`` gets exactly one ERROR, nobody else hears a thing, and the game is unchanged."""
    before = snapshot(driver)
    heard = {p.session.nick: len(driver.log[p.session.nick]) for p in driver.players}
    watched = len(driver.watched)
    got = driver.send(player, line)
    assert [k for k, _ in got] == ["ERROR"], (line, got)
    heard[player.session.nick] += 1
    assert {p.session.nick: len(driver.log[p.session.nick]) for p in driver.players} == heard, line
    assert len(driver.watched) == watched, line
    assert snapshot(driver) == before, line
    error = got[0][1]
    assert error["code"] and len(error["message"]) > 10, error
    return error


@pytest.fixture
def game(tmp_path) -> GameDriver:
    return start_game(seeded_lobby(tmp_path, 5), ["/round 2"], seed=1)


def turn_player(driver: GameDriver):
    table = driver.send(driver.players[0], "/table")[0][1]
    return driver.players[table["turn"] - 1], table


def to_exchange(driver: GameDriver) -> None:
    for player in driver.players:
        driver.say(player, "/nogrand")


def to_play(driver: GameDriver) -> None:
    to_exchange(driver)
    for player in driver.players:
        hand = driver.send(player, "/hand")[0][1]["cards"]
        driver.say(player, driver.chooser.exchange(hand))


def not_held(driver: GameDriver, player) -> str:
    hand = set(driver.send(player, "/hand")[0][1]["cards"])
    return next(c for c in ("2j", "2s", "2p", "2r", "3j", "3s") if c not in hand)


def test_only_the_sender_hears_a_refusal(game):
    ann, bob, cy, dan = game.players
    game.collect()
    lengths = {p.session.nick: len(game.log[p.session.nick]) for p in game.players}
    watched = len(game.watched)
    got = game.send(ann, "/play 7j")
    assert [k for k, _ in got] == ["ERROR"]
    assert {p.session.nick: len(game.log[p.session.nick]) for p in game.players} == {
        **lengths, "Ann": lengths["Ann"] + 1}
    assert len(game.watched) == watched


@pytest.mark.parametrize("line, code, words", [
    # every command of another phase says the phase first, whatever its arguments
    ("/play 7j", "illegal", "Grand Tichu"),
    ("/pass", "illegal", "Grand Tichu"),
    ("/schupf 2j 3j 4j", "illegal", "Grand Tichu"),
    ("/give 2", "illegal", "Grand Tichu"),
    ("/wish 7", "illegal", "Grand Tichu"),
    ("/bomben 7j", "illegal", "Grand Tichu"),
    ("/play 7j wish 7", "illegal", "Grand Tichu"),
    ("/play", "illegal", "Grand Tichu"),
    ("/play 1j", "illegal", "Grand Tichu"),
    ("/play Xj", "illegal", "Grand Tichu"),
    ("/play 7j wish", "illegal", "Grand Tichu"),
    ("/tichu now", "usage", "no arguments"),
    ("/schupf 2j", "illegal", "Grand Tichu"),
    ("/wish", "illegal", "Grand Tichu"),
    ("/give", "illegal", "Grand Tichu"),
])
def test_grand_phase_refusals(game, line, code, words):
    error = refused(game, game.players[0], line)
    assert error["code"] == code
    assert words in error["message"]


@pytest.mark.parametrize("line, code", [
    ("/play 7j", "illegal"),
    ("/grand", "illegal"),
    ("/nogrand", "illegal"),
    ("/schupf 2j 3j", "usage"),
    ("/schupf Zj 2j 3j", "bad_cards"),
    ("/pass", "illegal"),
])
def test_exchange_phase_refusals(game, line, code):
    to_exchange(game)
    assert refused(game, game.players[0], line)["code"] == code


def test_exchange_of_cards_not_held_or_twice(game):
    to_exchange(game)
    ann = game.players[0]
    hand = game.send(ann, "/hand")[0][1]["cards"]
    missing = not_held(game, ann)
    error = refused(game, ann, f"/schupf {missing} {hand[0]} {hand[1]}")
    assert error["code"] == "illegal"
    assert refused(game, ann, f"/schupf {hand[0]} {hand[0]} {hand[1]}")["code"] == "illegal"
    game.say(ann, f"/schupf {hand[0]} {hand[1]} {hand[2]}")
    assert refused(game, ann, f"/schupf {hand[3]} {hand[4]} {hand[5]}")["code"] == "illegal"


def test_play_phase_refusals(game):
    to_play(game)
    leader, table = turn_player(game)
    assert table["need"] == "lead"
    others = [p for p in game.players if p is not leader]
    hand = game.send(leader, "/hand")[0][1]["cards"]
    assert "MJ" in hand  # the Mahjong leads the first trick
    single = next(c for c in hand if c not in ("MJ", "DG", "DR", "PH"))
    # not your turn
    error = refused(game, others[0], f"/play {game.send(others[0], '/hand')[0][1]['cards'][0]}")
    assert error["code"] == "illegal" and "seat" in error["message"]
    # a card the leader does not hold, nonsense cards, a pass when leading
    assert refused(game, leader, f"/play {not_held(game, leader)}")["code"] == "illegal"
    assert refused(game, leader, "/play 7j 7j")["code"] in ("illegal", "bad_cards")
    assert refused(game, leader, "/play 11r")["code"] == "bad_cards"
    assert refused(game, leader, "/pass")["code"] == "illegal"
    # the wish needs the Mahjong: not played yet, or a play without it
    assert refused(game, leader, "/wish 7")["code"] == "illegal"
    assert refused(game, leader, f"/play {single} wish 7")["code"] == "no_mahjong"
    assert refused(game, leader, "/play MJ wish 1")["code"] == "bad_cards"
    assert refused(game, leader, "/play MJ wish 7 8")["code"] == "usage"
    assert refused(game, leader, f"/bomben {single}")["code"] == "not_a_bomb"
    assert refused(game, leader, "/give 2")["code"] == "illegal"
    # in its phase a command's arguments are read
    for line, code in (("/play", "usage"), ("/play 1j", "bad_cards"), ("/play Xj", "bad_cards"),
                       ("/play 7j wish", "usage"), ("/wish", "usage"), ("/give", "usage")):
        assert refused(game, leader, line)["code"] == code, line
    # the leader plays a single; the next player may not play lower, nor a pair on it
    game.say(leader, f"/play {single}")
    follower, table = turn_player(game)
    assert table["need"] == "follow"
    low = next((c for c in game.send(follower, "/hand")[0][1]["cards"]
                if c[0] in "23" and c[0] <= single[0]), None)
    assert low is not None, "this seed gives the follower a lower card"
    assert refused(game, follower, f"/play {low}")["code"] == "illegal"
    assert refused(game, follower, "/play MJ wish 7")["code"] in ("illegal",)


def test_give_the_dragon_to_the_partner_is_refused(game):
    options = game.play_until(lambda options: any(c.startswith("/give") for _, c in options))
    index, command = next((i, c) for i, c in options if c.startswith("/give"))
    giver = game.players[index]
    partner_seat = (index + 2) % 4 + 1
    error = refused(game, giver, f"/give {partner_seat}")
    assert error["code"] == "illegal"
    partner = game.players[partner_seat - 1].session.nick
    assert refused(game, giver, f"/give {partner}")["code"] == "illegal"
    assert refused(game, giver, f"/give {index + 1}")["code"] == "illegal"
    assert refused(game, giver, "/give Zed")["code"] == "no_such_player"
    assert refused(game, giver, "/give 5")["code"] == "usage"
    # an opponent by name works
    opponent = game.players[(index + 1) % 4].session.nick
    got = game.say(giver, f"/give {opponent.lower()}")
    given = [f for k, f in got if k == "DRAGON_GIVEN"]
    assert given and given[0]["to"] == (index + 1) % 4 + 1


def test_wish_then_second_wish_refused(game):
    options = game.play_until(
        lambda options: any(c.split()[:2] == ["/play", "MJ"] for _, c in options))
    index, command = next((i, c) for i, c in options if c.split()[:2] == ["/play", "MJ"])
    player = game.players[index]
    assert refused(game, player, command + " wish X")["code"] == "bad_cards"
    game.say(player, command)
    assert [c for c in game.legal(player) if c.startswith("/wish")][0] == "/wish none"
    assert refused(game, player, "/wish 1")["code"] == "bad_cards"
    assert refused(game, player, "/wish 7 8")["code"] == "usage"
    other = game.players[(index + 1) % 4]
    assert refused(game, other, "/wish 7")["code"] == "illegal"
    got = game.say(player, "/wish 8")
    assert [f["rank"] for k, f in got if k == "WISH"] == ["8"]
    assert refused(game, player, "/wish 9")["code"] == "illegal"


def test_spectator_and_lobby_commands_refused(game):
    eve = game.watchers[0]
    for line, code in [("/hand", "not_seated"), ("/legal", "not_seated"), ("/play 7j", "not_seated"),
                       ("/tichu", "not_seated"), ("/give 2", "not_seated")]:
        eve.say(line)
        assert eve.error_code() == code, line
        eve.clear()
    from lobby_clients import Client
    zed = Client(game.lobby, "Zed")
    for line, code in [("/hand", "not_at_table"), ("/table", "not_at_table"), ("/score", "not_at_table")]:
        zed.say(line)
        assert zed.error_code() == code, line
        zed.clear()
