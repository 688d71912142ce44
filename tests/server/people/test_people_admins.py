"""Admins are claimed by the operator (issue 30 item 1), guests' resume tokens do not pile up
(item 9), over real loopback TCP with the real service (`CommunityServer`); the token
expiry on a fake clock. The running program with ``bswtichu admin``: test_cli_process.py.
"""

from __future__ import annotations

import pytest_twisted
from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.server.games.logs import GameLogStore
from bswtichu.service import build_lobby
from bswtichu.storage import ScryptCost, Storage
from bswtichu.storage.accounts import hash_password

from lobby_clients import Client
from test_people_community_tcp import PASSWORD, CommunityServer, refused
from test_net_network import TIMEOUT, reactor

CHEAP = ScryptCost(n=2 ** 8)


@pytest_twisted.ensureDeferred
async def test_a_stranger_cannot_take_a_listed_admin_name_before_the_operator_claims_it(tmp_path):
    """The attack: with Root listed and no account Root yet, /nick root and /register made the
    first comer admin. Now the name and its look-alikes are refused until the operator claims it."""
    async with CommunityServer(tmp_path) as server:
        stranger = await server.person("Mallory")
        for line in ("/nick root", "/nick Root", "/nick RoOt", "/nick Rооt"):  # the last: Cyrillic o's
            answer = await refused(stranger, line, "nick_reserved")
            assert "kept for an admin until the operator claims it (bswtichu admin add Root)" in answer["message"]
        await refused(stranger, "/nick root hunter22x", "not_registered")
        stranger.send("/register hunter22x")  # Mallory registers only himself
        await stranger.message("REGISTERED", nick="Mallory")
        for line in ("/announce I am root", "/kick Gus", "/audit", "/op Mallory"):
            await refused(stranger, line, "not_moderator")
        await refused(stranger, "/shutdown 5", "not_admin")
        assert server.service.games.storage.accounts.names() == ["Mallory"]


@pytest_twisted.ensureDeferred
async def test_the_claimed_admin_works_and_its_holder_and_look_alikes_get_nothing(tmp_path):
    async with CommunityServer(tmp_path, admins="Root, Ops") as server:
        boss = await server.person("Boss")  # a guest holding a name the operator then claims
        root = await server.admin()  # bswtichu admin add Root, then /nick Root PASSWORD
        root.send("/announce claimed")
        assert (await root.message("ANNOUNCE"))["by"] == "Root"
        await refused(root, "/shutdown cancel", "no_shutdown")  # past the role check
        server.service.operator({"action": "add", "name": "Boss", "password": hash_password(PASSWORD)})
        assert (await boss.message("BYE"))["reason"] == "taken_over"
        await boss.lost.addTimeout(TIMEOUT, reactor())
        await refused(root, "/op Ops", "not_registered")  # listed, not claimed: nobody's, not a moderator's
        assert "Ops: in [admin] admins, not claimed yet" in server.service.operator({"action": "list"})
        # a fullwidth look-alike is refused as a name (`names.look`), or at most a moderator: only
        # the very account the operator claimed is admin, whatever names.key makes of the two
        fake = await server.connect_from("127.0.0.1")
        fake.send("/nick Ｒoot")
        first = await fake.wait_for(lambda line: line.startswith(("NICK ", "ERROR ")))
        if first.startswith("NICK "):
            fake.send(f"/register {PASSWORD}")
            await fake.message("REGISTERED")
            root.send("/op Ｒoot")
            await root.wait_for(lambda line: line.startswith(("ROLE ", "ERROR ")))
            await refused(fake, "/shutdown 1", "not_admin")
            fake.send("/ban Root")
            assert (await fake.message("ERROR"))["code"] in ("protected", "not_moderator")
        assert server.service.operator({"action": "remove", "name": "root"}).startswith("Root is an admin no more")
        await refused(root, "/announce still?", "not_moderator")
        await refused(root, "/deop Ann", "not_moderator")


@pytest_twisted.ensureDeferred
async def test_many_nick_changes_leave_a_bounded_number_of_tokens(tmp_path):
    """10,000 /nick changes left 10,040 rows in guest_tokens; a name change now replaces the old
    name's token, so one connection's renames leave one row."""
    async with CommunityServer(tmp_path, line_flood_rate=100000.0, line_flood_burst=100000) as server:
        others = [await server.person(name) for name in ("Ann", "Bob")]
        renamer = await server.person("G0")
        for number in range(1, 300):
            renamer.send(f"/nick G{number}")
        await renamer.message("NICK", nick="G299")
        db = server.service.games.storage.db
        assert sorted(key for (key,) in db.execute("SELECT name_key FROM guest_tokens")) == ["ann", "bob", "g299"]
        assert len(others) == 2


def test_unused_tokens_expire_and_a_held_seats_or_online_names_stay(tmp_path):
    """On the fake clock: after ``guest_token_lifetime`` a new /nick drops the tokens of names
    nobody holds and no seat waits for; the held seat's token still brings its player back."""
    clock = Clock()
    config = ServerConfig(log_folder=str(tmp_path / "logs"), guest_token_lifetime=3600.0, reconnect_grace=7200.0)
    storage = Storage.open(cost=CHEAP, now=clock.seconds)
    lobby = build_lobby(clock, config, lambda table: None, GameLogStore(config.log_folder), storage=storage)
    online, seated, gone = Client(lobby, "Ann"), Client(lobby, "Bob"), Client(lobby, "Cy")
    seated.say("/join")
    seated.hang_up()  # his seat is held for reconnect_grace
    gone.hang_up()
    clock.advance(3599)
    Client(lobby, "Dan")
    tokens = lambda: sorted(key for (key,) in storage.db.execute("SELECT name_key FROM guest_tokens"))  # noqa: E731
    assert tokens() == ["ann", "bob", "cy", "dan"]
    clock.advance(2)
    Client(lobby, "Eve")
    assert tokens() == ["ann", "bob", "dan", "eve"]
    back = Client(lobby)
    back.say(f"/resume {seated.token}")
    assert back.session.nick == "Bob"
