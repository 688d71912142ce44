"""Tables that must not be held or taken, over real loopback TCP on a `Clock` (issues 30 and 31).

Table slots are counted per connection and per address, not per name; a bots' game its
person left closes in minutes (also after a restart); a present player's seat is not voted
away; a voted pause has a limit; an admin closes any table; quick play's bots are the
server's. `ClockServer` (clock_sockets.py): the lobby's timers on a Clock, real sockets.
"""

from __future__ import annotations

import pytest_twisted
from twisted.internet.task import Clock

from bswtichu.config import ServerConfig

from clock_sockets import ClockServer, tables
from test_net_network import LineClient

#: the defaults these tests rely on (written out: the tests ran against code without them)
BOT_GAME_AFTER = 600.0  # [tables] bot_game_after: ten minutes
PAUSE_LIMIT = 300.0  # [tables] pause_limit
ABANDON_AFTER = ServerConfig().abandon_after


async def bots_game(client: LineClient, nick: str) -> int:
    """``nick`` opens a table, seats three bots, starts and leaves it: its number."""
    client.lines.clear()
    client.send("/join")
    number = (await client.message("JOINED", nick=nick))["table"]
    for _ in range(3):
        client.send("/bot random")
        await client.message("JOINED", by=nick)
    client.send("/start")
    await client.message("STARTED")
    client.send("/leave")
    await client.message("AWAY", nick=nick)
    return number


@pytest_twisted.ensureDeferred
async def test_a_new_name_on_the_same_connection_or_address_gets_no_more_tables(tmp_path):
    async with ClockServer(tmp_path, Clock()) as server:  # 2 per person, 4 per address
        filler = await server.person("Filler0")
        for n in range(2):
            await bots_game(filler, f"Filler{n}")
            filler.send(f"/nick Filler{n + 1}")
            await filler.message("NICK", nick=f"Filler{n + 1}")
        filler.send("/join")
        refused = await filler.message("ERROR", code="table_limit")
        assert "(1, 2); at most 2" in refused["message"]
        other = await server.person("Other0")  # another connection from the same address
        for n in range(2):
            assert await bots_game(other, f"Other{n}") == 3 + n
            other.send(f"/nick Other{n + 1}")
            await other.message("NICK", nick=f"Other{n + 1}")
        again = await server.person("Again")
        other.send("/join")
        refused = await other.message("ERROR", code="table_limit")
        assert "(3, 4); at most 2" in refused["message"]
        again.send("/join")  # a fresh connection and name: his address has its four
        refused = await again.message("ERROR", code="table_limit")
        assert "from your address are still there (1, 2, 3, 4); at most 4" in refused["message"]
        far = await server.person("Far", "127.0.0.2")
        far.send("/join")
        assert (await far.message("JOINED", nick="Far"))["table"] == 5
        assert len(await tables(far)) == 5


@pytest_twisted.ensureDeferred
async def test_a_bots_game_its_person_left_closes_after_bot_game_after_unless_watched(tmp_path):
    clock = Clock()
    async with ClockServer(tmp_path, clock) as server:
        filler = await server.person("Filler")
        await bots_game(filler, "Filler")
        clock.advance(BOT_GAME_AFTER - 1)
        assert [t["table"] for t in await tables(filler)] == [1]
        clock.advance(1)
        assert await tables(filler) == []  # not a day: minutes
        # a watched bots' game waits the long time; the watcher's going, the short one again
        await bots_game(filler, "Filler")
        eve = await server.person("Eve", "127.0.0.2")
        eve.send("/watch 1")
        await eve.message("SPECTATOR_JOINED", nick="Eve")
        clock.advance(BOT_GAME_AFTER * 2)
        assert [t["table"] for t in await tables(eve)] == [1]
        eve.send("/leave")
        await eve.message("SPECTATOR_LEFT", nick="Eve")
        clock.advance(BOT_GAME_AFTER)
        assert await tables(eve) == []
        # a game of two people waits the day, as before
        ann, bob = await server.person("Ann"), await server.person("Bob", "127.0.0.3")
        ann.send("/join")
        await ann.message("JOINED", nick="Ann")
        bob.send("/join 1")
        await bob.message("JOINED", nick="Bob")
        for _ in range(2):
            ann.send("/bot")
            await ann.message("JOINED", by="Ann")
        ann.send("/start")
        await ann.message("STARTED")
        for person, nick in ((ann, "Ann"), (bob, "Bob")):
            person.send("/leave")
            await person.message("AWAY", nick=nick)
        clock.advance(ABANDON_AFTER - 1)
        assert [t["table"] for t in await tables(ann)] == [1]
        clock.advance(1)
        assert await tables(ann) == []


@pytest_twisted.ensureDeferred
async def test_a_restored_bots_game_nobody_comes_back_to_closes_after_bot_game_after(tmp_path):
    async with ClockServer(tmp_path, Clock()) as server:
        await bots_game(await server.person("Filler"), "Filler")
        keeper = await server.person("Keeper", "127.0.0.2")
        await bots_game(keeper, "Keeper")
    clock = Clock()
    async with ClockServer(tmp_path, clock) as server:  # the restart: both games are back
        back = await server.resume(keeper.token, "127.0.0.2")
        await back.message("RETURNED", nick="Keeper")  # his seat was held: he is back at it
        assert [t["table"] for t in await tables(back)] == [1, 2]
        clock.advance(BOT_GAME_AFTER)
        assert [t["table"] for t in await tables(back)] == [2]  # Filler's is abandoned
    async with ClockServer(tmp_path, Clock()) as server:  # and not restored again
        back = await server.resume(keeper.token, "127.0.0.2")
        await back.message("RETURNED", nick="Keeper")
        assert [t["table"] for t in await tables(back)] == [2]


async def four_at_a_game(server: ClockServer) -> list[LineClient]:
    """Ann, Bob, Cy and Dan (seats 1-4; partners 1+3 and 2+4) at table 1's started game."""
    people = [await server.person(nick, f"127.0.0.{n}") for n, nick in enumerate(NAMES, start=1)]
    people[0].send("/join")
    await people[0].message("JOINED", nick="Ann")
    for person, nick in zip(people[1:], NAMES[1:]):
        person.send("/join 1")
        await person.message("JOINED", nick=nick)
    people[0].send("/start")
    for person in people:
        await person.message("STARTED")
    return people


NAMES = ("Ann", "Bob", "Cy", "Dan")


@pytest_twisted.ensureDeferred
async def test_opponents_cannot_vote_a_present_players_seat_and_hand_to_their_friend(tmp_path):
    async with ClockServer(tmp_path, Clock()) as server:
        ann, bob, cy, dan = await four_at_a_game(server)
        eve = await server.person("Eve", "127.0.0.5")
        eve.send("/watch 1")
        await eve.message("SPECTATOR_JOINED", nick="Eve")
        bob.send("/leave")  # away from the table, but online
        await ann.message("AWAY", nick="Bob")
        for line in ("/replace 2 Eve", "/replace 2"):
            ann.send(line)
            refused = await ann.message("ERROR", code="player_online")
            assert "/join 1 2" in refused["message"]
        bob.send("/join 1 2")
        await ann.message("RETURNED", nick="Bob")
        bob.transport.loseConnection()  # now he is gone
        await bob.lost
        await ann.message("AWAY", nick="Bob")
        ann.send("/replace 2 Eve")
        vote = await ann.message("VOTE", vote="replace")
        assert (vote["voters"], vote["needed"], vote["consent"]) == (list(NAMES), 3, ["Dan"])
        cy.send("/accept")  # the two opponents: not a majority of four, nor his partner's yes
        await ann.message("VOTE_ANSWER", nick="Cy")
        dan.send("/refuse")
        ended = await ann.message("VOTE_END")
        assert (ended["passed"], ended["reason"]) == (False, "refused")
        ann.send("/replace 2 Eve")
        await ann.message("VOTE", vote="replace")
        cy.send("/accept")
        dan.send("/accept")  # his partner agrees
        assert (await ann.message("VOTE_END"))["passed"]
        handed = await eve.message("REPLACED", seat=2)
        assert (handed["nick"], handed["to"]) == ("Bob", "Eve")


@pytest_twisted.ensureDeferred
async def test_a_voted_pause_ends_at_its_limit_or_by_a_player_who_did_not_vote_for_it(tmp_path):
    clock = Clock()
    async with ClockServer(tmp_path, clock) as server:
        ann, bob, cy, dan = await four_at_a_game(server)

        async def paused_by_three() -> dict:
            ann.send("/pause")
            await ann.message("VOTE", vote="pause")
            for person in (bob, cy):
                person.send("/accept")
            return await dan.message("PAUSED", paused=True)

        await paused_by_three()
        cy.send("/continue")  # one who paused it asks: a vote, which the others refuse
        await dan.message("VOTE", vote="continue")
        for person in (ann, bob):
            person.send("/refuse")
        assert (await dan.message("VOTE_END", vote="continue"))["reason"] == "refused"
        dan.send("/continue")  # he did not vote for the pause and everyone is here
        ended = await ann.message("PAUSED", paused=False)
        assert (ended["reason"], ended["by"]) == ("ended", "Dan")

        paused = await paused_by_three()
        assert paused["seconds"] == PAUSE_LIMIT  # said when it begins
        bob.send("/leave")
        await dan.message("AWAY", nick="Bob")
        dan.send("/continue")  # someone is away: only a vote
        await dan.message("VOTE", vote="continue")
        clock.advance(PAUSE_LIMIT)
        await dan.message("PAUSED", paused=False, reason="limit")
        dan.send("/nogrand")  # moves are taken again
        await dan.message("GRAND_DECIDED", player="Dan")


@pytest_twisted.ensureDeferred
async def test_an_admin_closes_a_table_whose_only_person_never_comes_back(tmp_path):
    async with ClockServer(tmp_path, Clock(), claimed={"Root": "a-pw-for-root"}) as server:
        filler = await server.person("Filler")
        await bots_game(filler, "Filler")
        filler.transport.loseConnection()
        await filler.lost
        eve = await server.person("Eve", "127.0.0.2")
        eve.send("/watch 1")
        await eve.message("SPECTATOR_JOINED", nick="Eve")
        eve.send("/replace 1")
        await eve.message("ERROR", code="not_seated")  # a spectator has no vote
        eve.send("/close 1")
        await eve.message("ERROR", code="guest")
        root = await server.connect("127.0.0.3")
        root.send("/nick Root a-pw-for-root")
        await root.message("NICK", nick="Root")
        root.send("/close 1 nobody plays it")
        closed = await eve.message("TABLE_CLOSED", table=1)
        assert (closed["by"], closed["reason"]) == ("Root", "nobody plays it")
        done = await root.message("MODERATION", action="close")
        assert done["target"] == "table 1"
        assert await tables(root) == []
        eve.send("/join")  # she is back in the lobby
        assert (await eve.message("JOINED", nick="Eve"))["table"] == 1
        root.send("/close 7")
        await root.message("ERROR", code="no_such_table")
        root.send("/audit")
        [act] = [e for e in (await root.message("AUDIT"))["entries"] if e["action"] == "close"]
        assert (act["actor"], act["target"], act["reason"]) == ("Root", "table 1", "nobody plays it")
    async with ClockServer(tmp_path, Clock()) as server:  # the closed game is not restored
        assert await tables(await server.person("Ann")) == []


@pytest_twisted.ensureDeferred
async def test_quick_plays_bots_are_seated_by_the_server_not_by_the_person(tmp_path):
    clock = Clock()
    async with ClockServer(tmp_path, clock) as server:
        bob = await server.person("Bob")
        bob.send("/quick")
        wait = (await bob.message("QUICK"))["wait"]
        bob.send("/mode human")
        await bob.wait_for(lambda line: "human" in line)
        clock.advance(wait)
        said = await bob.wait_for(lambda line: "seats a basic bot" in line)
        assert said.startswith("The server seats a basic bot, bot-basic-") and said.endswith("(quick play).")
