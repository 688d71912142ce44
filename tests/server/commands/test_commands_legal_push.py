"""/legal push: a client that opts in gets its LEGAL by itself whenever the round waits for it.

In process on a fake clock (whole games played from pushed lists only, each list
checked against a fresh /legal all), and once over real loopback TCP.
"""

from __future__ import annotations

from random import Random

import json

import pytest
import pytest_twisted

from bswtichu.engine import NANJING, parse_cards, suggested_exchange

from lobby_clients import Client
from test_tables_game import seat_four, seeded_lobby
from test_server_game_network import GameServer


def _waited_for(table: dict) -> bool:
    """Whether a TABLE view (the client's own) says the round waits for the client."""
    seat = table["seat"] - 1
    if table["phase"] == "grand":
        return not table["grand_decided"][seat]
    if table["phase"] == "exchange":
        return not table["exchange_submitted"][seat]
    return table["phase"] == "play" and table["turn"] == table["seat"]


def _ask(client: Client, line: str, keyword: str) -> dict:
    """Send ``line`` on a cleared client and return the one ``keyword`` answer's fields."""
    client.clear()
    client.say(line)
    return client.only(keyword)


def _pushed_legal(client: Client) -> list[str] | None:
    """The commands of the last LEGAL among the client's new lines (None: none came)."""
    found = [fields["commands"] for keyword, fields in client.received() if keyword == "LEGAL"]
    return found[-1] if found else None


@pytest.mark.parametrize("seed, options", [(1, ["/round 1"]), (2, ["/round 1"]), (3, ["/round 1"]),
                                           (4, ["/round 2", "/tichujoin on"]), (5, ["/turnier on"])])
def test_a_whole_game_is_played_from_pushed_lists_alone(tmp_path, seed, options):
    lobby = seeded_lobby(tmp_path, seed)
    players = seat_four(lobby, options)
    for player in players:
        assert _ask(player, "/legal push on", "LEGAL_PUSH") == {"push": True}
        player.clear()
    rng = Random(seed)
    pending: dict[Client, list[str] | None] = {player: None for player in players}
    players[0].say("/start")
    steps = pushes = 0
    while True:
        over = any(keyword == "GAME_OVER" for player in players for keyword, _ in player.received())
        for player in players:
            pushed = _pushed_legal(player)
            if pushed is not None:
                pending[player] = pushed
                pushes += 1
            player.clear()
        if over:
            break
        waited = []
        for player in players:
            table = _ask(player, "/table", "TABLE")
            if _waited_for(table):
                fresh = _ask(player, "/legal all", "LEGAL")["commands"]
                assert pending[player] == fresh, (player.session.nick, table["phase"])
                waited.append(player)
            player.clear()
        assert waited, "the round waits for nobody and the game is not over"
        actor = rng.choice(waited)
        command = rng.choice(pending[actor])
        if command.startswith("/schupf "):  # a suggested pass: pass others
            hand = _ask(actor, "/hand", "HAND")["cards"]
            command = "/schupf " + " ".join(rng.sample(hand, 3))
            actor.clear()
        pending[actor] = None
        actor.say(command)
        assert "ERROR" not in [keyword for keyword, _ in actor.received()], (command, actor.connection.lines)
        steps += 1
        assert steps < 5000
    assert pushes >= steps  # every step was answered by at least one pushed list


def test_the_setting_shows_turns_off_and_refuses_nonsense(tmp_path):
    lobby = seeded_lobby(tmp_path, 5)
    ann = Client(lobby, "Ann")
    assert _ask(ann, "/legal push", "LEGAL_PUSH") == {"push": False}
    assert _ask(ann, "/legal push on", "LEGAL_PUSH") == {"push": True}  # in the lobby: no LEGAL
    assert _ask(ann, "/legal push", "LEGAL_PUSH") == {"push": True}
    assert _ask(ann, "/legal PUSH off", "LEGAL_PUSH") == {"push": False}
    assert _ask(ann, "/legal push an", "LEGAL_PUSH") == {"push": True}  # as the table options take
    assert _ask(ann, "/legal push 0", "LEGAL_PUSH") == {"push": False}
    for line in ("/legal push maybe", "/legal push on off", "/legal pushy", "/legal all push"):
        ann.clear()
        ann.say(line)
        assert ann.error_code() == "usage", line
    ann.clear()
    ann.say("/legal push on")
    assert ann.session.legal_push


def test_without_push_nothing_changes_and_turning_it_on_when_asked_sends_the_list(tmp_path):
    lobby = seeded_lobby(tmp_path, 6)
    players = seat_four(lobby, ["/round 1"])
    players[0].say("/start")
    for player in players:
        assert "PHASE" in player.keywords() and "LEGAL" not in player.keywords()
    ann = players[0]
    ann.clear()
    ann.say("/legal push on")
    assert ann.keywords() == ["LEGAL_PUSH", "LEGAL"]
    assert sorted(ann.only("LEGAL")["commands"]) == ["/grand", "/nogrand"]
    ann.clear()
    ann.say("/nogrand")
    assert "LEGAL" not in ann.keywords()  # the round no longer waits for Ann
    bob = players[1]
    bob.clear()
    bob.say("/nogrand")
    assert "LEGAL" not in bob.keywords()  # Bob did not ask for pushes


def test_a_returning_player_gets_his_list_after_what_is_asked(tmp_path):
    lobby = seeded_lobby(tmp_path, 7)
    players = seat_four(lobby, ["/round 1"])
    for player in players:
        player.say("/legal push on")
    players[0].say("/start")
    ann = players[0]
    ann.hang_up()
    back = Client(lobby, None)
    back.say("/nick Ann2")
    back.say("/legal push on")
    back.clear()
    back.say(f"/resume {ann.token}")
    keywords = back.keywords()
    assert keywords[:3] == ["NICK", "SEAT_HELD", "RETURNED"] and keywords[-2:] == ["PHASE", "LEGAL"], keywords
    assert sorted(back.only("LEGAL")["commands"]) == ["/grand", "/nogrand"]


@pytest_twisted.ensureDeferred
async def test_pushed_lists_over_loopback_tcp(tmp_path):
    async with GameServer(tmp_path, seed=8) as server:
        players = [await server.player(nick) for nick in ("Ann", "Bob", "Cy", "Dan")]
        for player in players:
            player.client.send("/legal push on")
            pushed = await player.client.message("LEGAL_PUSH")
            assert pushed == {"push": True}
        players[0].client.send("/join")
        await players[0].client.message("JOINED")
        players[0].client.send("/round 1")
        await players[0].client.message("OPTION")
        for player in players[1:]:
            player.client.send("/join 1")
            await player.client.message("JOINED", nick=player.nick)
        players[0].client.send("/start")
        for player in players:
            legal = await player.client.message("LEGAL")
            assert sorted(legal["commands"]) == ["/grand", "/nogrand"]
        for player in players:
            player.client.send("/nogrand")
        for player in players:
            legal = await player.client.message("LEGAL", exchange=True)
            exchange, call = legal["commands"]  # a pass of three of the player's cards, then /tichu
            dealt = [card for line in player.client.lines if line.startswith("DEALT ")
                     for card in json.loads(line.partition(" ")[2])["cards"]]
            assert exchange.startswith("/schupf ") and call == "/tichu" and legal["seat"] in (1, 2, 3, 4)
            assert len(set(exchange.split()[1:]) & set(dealt)) == 3


def test_people_get_the_pushed_list_grouped_and_programs_in_full(tmp_path):
    lobby = seeded_lobby(tmp_path, 3)
    players = seat_four(lobby, ["/round 1"])
    person, program = players[0], players[1]
    person.say("/mode human")
    for player in players:
        player.say("/legal push on")
    players[0].say("/start")
    for player in players:  # everyone declines Grand Tichu: the exchange is asked next
        player.clear()
        player.say("/nogrand")
    pushed = [line for line in person.connection.lines if line.startswith("Legal now")]
    listed = _pushed_legal(program)
    suggested = listed[0]
    program.clear()
    program.say("/hand")
    held = parse_cards(" ".join(program.only("HAND")["cards"]))
    assert suggested == "/schupf " + " ".join(card.text for card in suggested_exchange(1, held, NANJING).cards)
    person.say("/mode machine")
    person.clear()
    person.say("/legal all")
    mine = person.only("LEGAL")["commands"][0]
    person.say("/mode human")
    person.clear()
    person.say("/legal")
    assert pushed == person.connection.lines == [f"Legal now: /schupf C1 C2 C3 (e.g. {mine}) | /tichu"]
    person.clear()
    person.say("/legal all")
    assert person.connection.lines == [f"Legal now (2): {mine} | /tichu"]
    assert listed == [suggested, "/tichu"]


def _to_the_first_lead(lobby) -> tuple[list[Client], Client]:
    """Four players past the Grand Tichu calls and the exchange; also the one who leads (holds MJ)."""
    players = seat_four(lobby, ["/round 1"])
    players[0].say("/start")
    for player in players:
        player.say("/nogrand")
    for player in players:
        player.clear()
        player.say("/hand")
        player.say("/schupf " + " ".join(player.only("HAND")["cards"][:3]))
    for player in players:
        player.clear()
        player.say("/hand")
    leader = next(player for player in players if "MJ" in player.only("HAND")["cards"])
    return players, leader


def test_the_mahjong_with_its_wish_pushes_no_list_for_the_wish_already_made(tmp_path):
    lobby = seeded_lobby(tmp_path, 9)
    players, leader = _to_the_first_lead(lobby)
    for player in players:
        player.say("/legal push on")
        player.clear()
    leader.say("/play MJ wish K")
    assert "LEGAL" not in leader.keywords(), leader.keywords()  # the wish is made: nothing is asked
    following = players[(players.index(leader) + 1) % 4]
    keywords = following.keywords()
    assert keywords.index("WISH") < keywords.index("LEGAL"), keywords
    assert "/wish RANK|none" not in str(following.only("LEGAL"))


@pytest.mark.parametrize("variant, people", [("duo", 2), ("trichu", 3)])
def test_turning_push_on_sends_every_waiting_hands_list(tmp_path, variant, people):
    """Issue 34, bug 3: a person who plays two hands and turns push on while the round waits
    for both (the exchange; the page turns it on as it comes back) gets both lists, his own
    first, the second spelled for it."""
    lobby = seeded_lobby(tmp_path, 6)
    players = [Client(lobby, name) for name in ("Ann", "Bob", "Cy")[:people]]
    players[0].say("/join")
    players[0].say(f"/variant {variant}")
    for player in players[1:]:
        player.say("/join 1")
    players[0].say("/start")
    for player in players:
        for line in ("/nogrand", "/second nogrand"):
            player.say(line)
    two = [p for p in players if _ask(p, "/layout", "LAYOUT")["plays"][1:]]
    assert len(two) == (2 if variant == "duo" else 1)
    for player in two:
        player.clear()
        player.say("/legal push on")
        lists = [fields for keyword, fields in player.received() if keyword == "LEGAL"]
        layout = _ask(player, "/layout", "LAYOUT")
        assert [fields["seat"] for fields in lists] == [hand["seat"] for hand in layout["plays"]]
        assert all(fields["exchange"] for fields in lists)
        word = "/dummy " if variant == "trichu" else "/second "
        assert all(command.startswith(word) for command in lists[1]["commands"])
