"""What a newcomer reads (issue 31), over real loopback TCP: the greeting and /help on the telnet
port, and whole games of every variant in relay mode, whose ``human`` is the sentence a person
reads, played by the protocol document's first-entry bot.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import pytest_twisted

from test_server_doc_bot import FirstEntryBot, first_entry_game
from test_server_game_network import GameServer
from telnet_bytes import text_of

README = Path(__file__).resolve().parents[3] / "README.md"


async def telnet_person(server: GameServer, nick: str):
    """A person on the telnet port with a name; the client and the greeting it read."""
    client = await server.connect("telnet")
    greeting = text_of(client.raw).decode("utf-8")
    client.send(f"/nick {nick}")
    await client.wait_for(lambda line: nick in line)
    client.lines.clear()
    return client, greeting


async def answer(client, line: str, last: str) -> list[str]:
    """The lines after ``line`` up to the one containing ``last``."""
    client.lines.clear()
    client.send(line)
    await client.wait_for(lambda text: last in text)
    return list(client.lines)


def said(bot: FirstEntryBot, keyword: str) -> list[str]:
    """The sentences of every ``keyword`` message the bot read."""
    return [fields["human"] for k, fields in bot.read if k == keyword]


@pytest_twisted.ensureDeferred
async def test_the_greeting_and_help_speak_of_every_variant(tmp_path):
    async with GameServer(tmp_path, seed=1) as server:
        client, greeting = await telnet_person(server, "Ann")
        assert "/start begins once every seat of the table is taken" in greeting
        assert "four are seated" not in greeting
        help_lines = await answer(client, "/help variant", "Names: /variant")
        text = " ".join(help_lines)
        for name in ("nanjing:", "tientsin:", "trichu:", "duo:"):
            assert name in text, name
        start = " ".join(await answer(client, "/help start", "Names: /start"))
        assert "every seat of the table is taken" in start and "all four seats" not in start
    readme = README.read_text(encoding="utf-8")
    assert "`nanjing`" in readme and "once four are seated" not in readme


@pytest.mark.parametrize("variant, rounds, bots, last", [
    ("nanjing", 1, 3, {6}), ("tientsin", 2, 5, {3, 4}), ("trichu", 3, 2, {6}), ("duo", 1, 1, {6}),
])
@pytest_twisted.ensureDeferred
async def test_the_second_batch_of_cards_says_last_in_every_variant(tmp_path, variant, rounds, bots, last):
    async with GameServer(tmp_path, seed=5) as server:
        bot = await first_entry_game(server, variant, rounds, bots, mode="relay")
    dealt = [(len(fields["cards"]), fields["human"]) for keyword, fields in bot.read if keyword == "DEALT"]
    second = [text for count, text in dealt if count in last]
    assert second and all("Your last " in text for text in second), dealt
    assert all("Your last" not in text for count, text in dealt if count not in last)


@pytest_twisted.ensureDeferred
async def test_tientsins_later_places_are_ordinals(tmp_path):
    async with GameServer(tmp_path, seed=5) as server:
        bot = await first_entry_game(server, "tientsin", 2, 5, mode="relay")
    outs = {fields["place"]: fields["human"] for keyword, fields in bot.read if keyword == "OUT"}
    assert {4, 5} <= set(outs), outs  # the seeded game has a fourth and a fifth place
    assert outs[4].endswith("went out fourth.") and outs[5].endswith("went out fifth.")


async def relay_dealer_at_trichu(server: GameServer, start: bool = True) -> FirstEntryBot:
    """Ann in relay mode at a Trichu table with two bots (started: she deals round 1)."""
    ann = FirstEntryBot(await server.connect("line"), "Ann", push=False, mode="relay")
    await ann.sit_down(["/join", "/variant trichu", "/round 3", "/bot", "/bot", *["/start"] * start])
    return ann


async def until_play(player: FirstEntryBot, first: str, second: str, count: int) -> list[tuple[str, dict]]:
    """Pass the first ``count`` cards of both hands (``first``, ``second``: their exchange
    commands) and read on until play begins; the messages read."""
    read = []
    while True:
        line = await player.client.wait_for(lambda text: text.startswith(("PHASE ", "HAND ", "ERROR ")))
        keyword, _, payload = line.partition(" ")
        fields = json.loads(payload)
        read.append((keyword, fields))
        assert keyword != "ERROR", fields
        if keyword == "PHASE" and fields["phase"] == "exchange":
            player.send("/hand")
        elif keyword == "HAND":
            command = first if fields["seat"] in (1, 2) else second
            player.send(f"{command} {' '.join(fields['cards'][:count])}")
        elif keyword == "PHASE" and fields["phase"] == "play":
            return read


@pytest_twisted.ensureDeferred
async def test_trichus_dealer_and_table_are_told_why_he_is_not_asked_about_grand_tichu(tmp_path):
    async with GameServer(tmp_path, seed=7) as server:
        ann = await relay_dealer_at_trichu(server, start=False)
        await ann.client.wait_for(lambda t: t.startswith("JOINED ") and "bot-" in t)
        await ann.client.wait_for(lambda t: t.startswith("JOINED ") and "bot-" in t)
        eve, _ = await telnet_person(server, "Eve")
        await answer(eve, "/watch 1", "table 1")
        ann.send("/start")
        started = json.loads((await ann.client.wait_for(lambda t: t.startswith("STARTED ")))
                             .partition(" ")[2])
        seating = json.loads((await ann.client.wait_for(lambda t: t.startswith("SEATING ")))
                             .partition(" ")[2])
        grand = json.loads((await ann.client.wait_for(lambda t: t.startswith("PHASE ")))
                           .partition(" ")[2])
        watched = await eve.wait_for(lambda text: "decide about Grand Tichu" in text)
    assert started["human"].startswith("Table 1 starts a game of Trichu: Ann (table seat 1), bot-")
    assert seating["seats"][2] == "dummy" and seating["human"].startswith(
        "Seating for this round: Ann (seat 1), bot-") and "dummy (seat 3)" in seating["human"]
    assert grand["phase"] == "grand" and grand["human"].startswith(
        "You deal this round: you and the dummy got all 14 cards at once: in Trichu the dealer and"
        " the dummy call no Grand Tichu")
    assert "look at their first 8 cards and decide about Grand Tichu; the dealer, Ann (seat 1), and the" \
           " dummy got all 14 cards at once" in watched
    assert "The players look at their first 8 cards" not in watched


@pytest_twisted.ensureDeferred
async def test_a_card_of_the_other_hand_is_named_with_that_hands_command(tmp_path):
    async with GameServer(tmp_path, seed=7) as server:
        ann = await relay_dealer_at_trichu(server)
        read = await until_play(ann, "/schupf", "/dummy schupf", 2)
        ann.send("/hand")
        hands = {}
        for _ in range(2):
            fields = json.loads((await ann.client.wait_for(lambda t: t.startswith("HAND "))).partition(" ")[2])
            hands[fields["seat"]] = fields["cards"]
        theirs = next(card for card in hands[3] if card not in hands[1])
        mine = next(card for card in hands[1] if card not in hands[3])
        ann.send(f"/play {theirs}")
        refused = json.loads((await ann.client.wait_for(lambda t: t.startswith("ERROR "))).partition(" ")[2])
        ann.send(f"/dummy play {mine}")
        again = json.loads((await ann.client.wait_for(lambda t: t.startswith("ERROR "))).partition(" ")[2])
    assert any(k == "PHASE" and f["phase"] == "play" for k, f in read)
    assert refused["message"] == f"you do not hold {theirs}; the dummy does: /dummy play {theirs}"
    assert again["message"] == f"you do not hold {mine}; your own hand does: /play {mine}"


@pytest_twisted.ensureDeferred
async def test_a_duo_players_second_hand_card_names_second(tmp_path):
    async with GameServer(tmp_path, seed=7) as server:
        ann = FirstEntryBot(await server.connect("line"), "Ann", push=False, mode="relay")
        await ann.sit_down(["/join", "/variant duo", "/round 1", "/bot", "/start"])
        ann.send("/nogrand")
        ann.send("/second nogrand")
        await until_play(ann, "/schupf", "/second schupf", 3)
        ann.send("/second hand")
        fields = json.loads((await ann.client.wait_for(lambda t: t.startswith("HAND "))).partition(" ")[2])
        card = fields["cards"][0]
        ann.send(f"/play {card}")
        refused = json.loads((await ann.client.wait_for(lambda t: t.startswith("ERROR "))).partition(" ")[2])
    assert refused["message"] == f"you do not hold {card}; your second hand does: /second play {card}"
