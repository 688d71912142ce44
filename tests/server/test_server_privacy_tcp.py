"""Mutes and ignores on every path a person's words take, over real loopback TCP: the /away
text (in /who, /friends, /table and AWAY_NOTICE), invitations and friend notices; /away text
capped and cleaned as chat is.

The real service (`CommunityServer` of test_server_community_tcp: a database file, ``Root`` as
admin), clients on the line port in machine mode. Every awaited Deferred has a timeout.
"""

from __future__ import annotations

import pytest_twisted

from test_server_community_tcp import CommunityServer, nothing_more, refused

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
