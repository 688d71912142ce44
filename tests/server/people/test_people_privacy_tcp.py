"""Mutes and ignores on every path a person's words take, over real loopback TCP: the /away
text (in /who, /friends, /table and AWAY_NOTICE), invitations and friend notices; /away text
capped and cleaned as chat is.

The real service (`CommunityServer` of test_people_community_tcp: a database file, ``Root`` as
admin), clients on the line port in machine mode. Every awaited Deferred has a timeout.
"""

from __future__ import annotations

import json

import pytest_twisted
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol

from bswtichu.engine import parse_card, sort_cards

from test_people_community_tcp import PASSWORD, CommunityServer, nothing_more, refused
from test_server_game_network import GameLineClient
from test_net_network import TIMEOUT, reactor

RLO, PDF, LRI, PDI = "\u202e", "\u202c", "\u2066", "\u2069"


async def who_away(client, nick: str) -> str | None:
    client.send("/who")
    users = (await client.message("WHO"))["users"]
    return next(u["away"] for u in users if u["nick"] == nick)


async def friend_away(client, nick: str) -> str | None:
    client.send("/friends")
    friends = (await client.message("FRIENDS"))["friends"]
    return next(f["away"] for f in friends if f["nick"] == nick)


async def table_afk(client) -> dict:
    client.send("/table")
    return (await client.message("TABLE"))["afk"]


async def away_notice(client, nick: str) -> str:
    client.send(f"/msg {nick} are you there?")
    return (await client.message("AWAY_NOTICE", nick=nick))["text"]


@pytest_twisted.ensureDeferred
async def test_away_text_is_capped_and_cleaned_as_chat_is(tmp_path):
    async with CommunityServer(tmp_path, max_chat_length=40) as server:
        eve, ann = await server.person("Eve"), await server.person("Ann")
        assert "at most 40" in (await refused(eve, "/away " + "x" * 41, "chat_too_long"))["message"]
        eve.send(f"/away {RLO}gone{PDF} for {LRI}lunch{PDI}")
        assert (await eve.message("AWAY_SET"))["text"] == "gone for lunch"
        assert await who_away(ann, "Eve") == "gone for lunch"
        await refused(eve, f"/away {RLO}{PDI}", "empty_text")
        eve.send(f"{RLO}chat too")  # the same cleaning: one copy
        assert (await ann.message("CHAT", **{"from": "Eve"}))["text"] == "chat too"


@pytest_twisted.ensureDeferred
async def test_a_muted_players_away_text_and_invitations_reach_nobody(tmp_path):
    async with CommunityServer(tmp_path) as server:
        root, mod = await server.staff()
        eve, ann, bob = [await server.person(name) for name in ("Eve", "Ann", "Bob")]
        ann.send("/friend Eve")
        await ann.message("FRIEND", nick="Eve")
        for line in ("/join", "/bot", "/bot", "/bot", "/start"):
            eve.send(line)
        await eve.message("STARTED")
        ann.send("/watch 1")
        await ann.message("SPECTATOR_JOINED", nick="Ann")
        eve.send("/away muted-words")
        await eve.message("AWAY_SET", text="muted-words")
        assert await table_afk(ann) == {"1": "muted-words"}  # before the mute, as ever
        mod.send("/mute Eve 30 flooding")
        await eve.message("MODERATED", action="mute")
        # what he said before the mute is no longer shown: only that he is away
        assert await who_away(ann, "Eve") == "away"
        assert await friend_away(ann, "Eve") == "away"
        assert await table_afk(ann) == {"1": "away"}
        assert await away_notice(bob, "Eve") == "away"
        assert "flooding" in (await refused(eve, "/away muted-again", "muted"))["message"]
        eve.send("/away")  # away without words is no speech
        await eve.message("AWAY_SET", text="away")
        assert "flooding" in (await refused(eve, "/invite Bob", "muted"))["message"]
        await nothing_more(bob, root, "muted-")
        assert not [line for line in bob.lines if line.startswith("INVITATION ")]
        mod.send("/unmute Eve")
        await eve.message("MODERATED", action="unmute")
        eve.send("/invite Bob")
        assert await bob.message("INVITATION") == {"table": 1, "by": "Eve"}


@pytest_twisted.ensureDeferred
async def test_an_ignored_players_away_text_invitations_and_arrival_do_not_reach_the_ignorer(tmp_path):
    async with CommunityServer(tmp_path) as server:
        ann, bob = await server.person("Ann"), await server.person("Bob")
        for client in (ann, bob):
            client.send("/friend Eve")
            await client.message("FRIEND", nick="Eve")
        ann.send("/ignore Eve")
        await ann.message("IGNORE", nick="Eve", on=True)
        eve = await server.person("Eve")
        await bob.message("FRIEND_ONLINE", nick="Eve")
        eve.send("/join")
        await eve.message("JOINED", nick="Eve")
        eve.send("/private on")
        await eve.message("PRIVATE", private=True)
        eve.send("/invite Ann")
        await eve.message("INVITED", nick="Ann")  # the invitation holds; he is not told it went nowhere
        eve.send("/invite Bob")
        assert await bob.message("INVITATION") == {"table": 1, "by": "Eve"}
        await nothing_more(ann, bob, "Eve")  # no FRIEND_ONLINE, no INVITATION
        for client, nick in ((ann, "Ann"), (bob, "Bob")):
            client.send("/watch 1")
            await client.message("SPECTATOR_JOINED", nick=nick)
        for line in ("/bot", "/bot", "/bot", "/start"):
            eve.send(line)
        await eve.message("STARTED")
        eve.send("/away ignored-words")
        await eve.message("AWAY_SET", text="ignored-words")
        assert await who_away(ann, "Eve") == "away"
        assert await who_away(bob, "Eve") == "ignored-words"
        assert await friend_away(ann, "Eve") == "away"
        assert await friend_away(bob, "Eve") == "ignored-words"
        assert await table_afk(ann) == {"1": "away"}
        assert await table_afk(bob) == {"1": "ignored-words"}
        assert await away_notice(ann, "Eve") == "away"
        assert await away_notice(bob, "Eve") == "ignored-words"
        assert not [line for line in ann.lines if "ignored-" in line], ann.lines


# -- a private table's games: read by their players and admins only, after a restart too ----------

#: bots move at once and a player's /legal lines are not throttled: a whole game in a second or two
FAST = {"bot_delay": 0.0, "line_flood_rate": 100000.0, "line_flood_burst": 100000}


async def game_player(server: CommunityServer, nick: str, password: str | None = None) -> GameLineClient:
    """A line-port client in machine mode under ``nick`` (registered now, or logged in with
    ``password``)."""
    port = server.ports["line"].getHost().port
    client = await connectProtocol(TCP4ClientEndpoint(reactor(), "127.0.0.1", port),
                                   GameLineClient()).addTimeout(TIMEOUT, reactor())
    server.clients.append(client)
    await client.wait_for(lambda line: line.startswith("Limits:"))
    client.lines.clear()
    client.send("/mode machine")
    client.send(f"/nick {nick} {password}" if password else f"/nick {nick}")
    await client.message("NICK", nick=nick)
    if password is None:
        client.send(f"/register {PASSWORD}")
        await client.message("REGISTERED")
    client.lines.clear()
    return client


def fields_of(line: str) -> dict:
    return json.loads(line.partition(" ")[2])


async def play_to_the_end(client: GameLineClient) -> dict:
    """The only person at a table of bots plays the first of his legal commands (no calls, no
    bombs) until GAME_OVER, whose fields it returns. A bot may move between his /legal and his
    command (bots move at once): that command's refusal is passed over and /legal asked again."""
    client.send("/legal")
    while True:
        chunk = await client.until("LEGAL", "GAME_OVER")
        if chunk[-1].startswith("GAME_OVER "):
            return fields_of(chunk[-1])
        wanted = [c for c in fields_of(chunk[-1])["commands"]
                  if c.split()[0] not in ("/tichu", "/grand", "/bomben")]
        if not wanted:
            if not client.lines:
                await client.news()  # a bot is to move
        elif wanted[0].startswith("/schupf"):
            client.send("/hand")
            client.send("/schupf " + " ".join(fields_of((await client.until("HAND"))[-1])["cards"][:3]))
        else:
            client.send(wanted[0])
        client.send("/legal")


async def private_game_played(server: CommunityServer) -> int:
    """Ann plays a one-round game with three bots at her private table 1; its log number."""
    ann = await game_player(server, "Ann")
    for line in ("/join", "/private on", "/round 1", "/bot", "/bot", "/bot", "/start"):
        ann.send(line)
    await ann.until("GAME")
    over = await play_to_the_end(ann)
    ann.transport.loseConnection()
    await ann.lost.addTimeout(TIMEOUT, reactor())
    return over["log"]


async def reads(client, number: int) -> dict[str, str]:
    """What ``client`` gets for /log N, /review N and whether /history lists game N."""
    got = {}
    for command, keyword in (("/log", "LOG"), ("/review", "REVIEW")):
        client.send(f"{command} {number}")
        line = await client.wait_for(lambda line: line.startswith((keyword + " ", "ERROR ")))
        got[command] = keyword if line.startswith(keyword) else json.loads(line.partition(" ")[2])["code"]
    client.send("/history")
    got["/history"] = [game["log"] for game in (await client.message("HISTORY"))["games"]]
    return got


@pytest_twisted.ensureDeferred
async def test_a_private_tables_game_is_read_by_its_players_and_admins_only_also_after_a_restart(tmp_path):
    async with CommunityServer(tmp_path, **FAST) as server:
        root = await server.admin()
        number = await private_game_played(server)
        eve = await server.person("Eve")
        hidden = {"/log": "private_game", "/review": "private_game", "/history": []}
        shown = {"/log": "LOG", "/review": "REVIEW", "/history": [number]}
        assert await reads(eve, number) == hidden
        assert await reads(root, number) == shown
        eve.send(f"/log {number}")
        assert "only its players and admins" in (await eve.message("ERROR", code="private_game"))["message"]
        eve.send("/stats Ann")  # the record's totals count it; no game of it is shown
        assert (await eve.message("STATS", nick="Ann"))["games"] == 1
    async with CommunityServer(tmp_path, **FAST) as server:
        eve = await server.person("Eve")
        assert await reads(eve, number) == hidden
        ann = await game_player(server, "Ann", PASSWORD)
        assert await reads(ann, number) == shown


@pytest_twisted.ensureDeferred
async def test_a_table_made_private_during_its_game_keeps_it_private_after_a_restart(tmp_path):
    async with CommunityServer(tmp_path, **FAST) as server:
        ann = await game_player(server, "Ann")
        for line in ("/join", "/bot", "/bot", "/bot", "/start"):
            ann.send(line)
        await ann.until("GAME")
        ann.send("/private on")
        await ann.message("PRIVATE", private=True)
        log = server.service.lobby.tables.get(1).game.log_number
    async with CommunityServer(tmp_path, **FAST) as server:
        eve = await server.person("Eve")
        eve.send("/tables")
        assert (await eve.message("TABLES"))["tables"][0]["private"] is True
        await refused(eve, "/watch 1", "private_table")
        assert server.service.games.storage.games.readable(log, "Ann")
        assert not server.service.games.storage.games.readable(log, "Eve")


@pytest_twisted.ensureDeferred
async def test_review_shows_each_hand_sorted_as_hand_does(tmp_path):
    async with CommunityServer(tmp_path, **FAST) as server:
        number = await private_game_played(server)
        ann = await game_player(server, "Ann", PASSWORD)
        ann.send(f"/review {number}")
        review = await ann.message("REVIEW")
        for hand in review["hands"]:
            assert hand == [card.text for card in sort_cards(parse_card(text) for text in hand)]
        ann.send("/mode human")
        ann.send(f"/review {number}")
        line = await ann.wait_for(lambda line: line.startswith("Hands: "))
        first = line.removeprefix("Hands: Ann (seat 1): ").partition(",")[0].split()
        assert first == review["hands"][0]


@pytest_twisted.ensureDeferred
async def test_audit_shows_an_announce_without_a_stray_space_and_colon(tmp_path):
    async with CommunityServer(tmp_path) as server:
        root, mod = await server.staff()
        mod.send("/announce The server restarts at noon")
        await root.message("ANNOUNCE")
        root.send("/mode human")
        root.send("/audit")
        line = await root.wait_for(lambda line: " announce" in line)
        assert line.endswith(" UTC Mod announce: The server restarts at noon"), line
        assert (await root.wait_for(lambda line: " op " in line)).endswith(" UTC Root op Mod: no reason given")
