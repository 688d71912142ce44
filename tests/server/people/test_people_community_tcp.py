"""Moderation, personal controls and the social commands over real loopback TCP: each command and
each refusal, what a muted or ignored player's text reaches, and roles and bans after a restart.

The real service (`RunningServer` of test_net_network) with a database file and ``Root`` as
admin. Clients that must come from another address bind to 127.0.0.2 or 127.0.0.3 (all of
127.0.0.0/8 is loopback on Linux). Every awaited Deferred has a timeout.
"""

from __future__ import annotations

import signal

import pytest_twisted
from twisted.conch.telnet import DO, IAC
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol

from bswtichu.net.mud import GMCP
from bswtichu.storage.accounts import hash_password
from bswtichu.storage.ratings import Rating

from test_net_network import TIMEOUT, LineClient, RunningServer, machine_client_from, reactor
from test_cli_process import Server, claim_admin

PASSWORD = "secret-pw-1"
GUEST_REFUSED = ["/op Ann", "/deop Ann", "/kick Ann", "/mute Ann", "/unmute Ann", "/ban Ann",
                 "/unban Ann", "/announce hi", "/audit"]


class CommunityServer(RunningServer):
    """The real service on a database file, with ``Root`` as admin once the operator claims it
    (`admin`)."""

    def __init__(self, tmp_path, **settings: object) -> None:
        settings.setdefault("admins", "Root")
        super().__init__(database=str(tmp_path / "bswtichu.sqlite3"), log_folder=str(tmp_path / "logs"),
                         **settings)

    async def connect_from(self, address: str) -> LineClient:
        """A line-port client whose connection comes from ``address`` (a loopback one)."""
        client = await machine_client_from(self.ports["line"].getHost().port, address)
        self.clients.append(client)
        return client

    async def person(self, nick: str, address: str = "127.0.0.1", register: bool = False) -> LineClient:
        client = await self.connect_from(address)
        client.send(f"/nick {nick}")
        await client.message("NICK", nick=nick)
        if register:
            client.send(f"/register {PASSWORD}")
            await client.message("REGISTERED")
        return client

    async def admin(self, nick: str = "Root", address: str = "127.0.0.1") -> LineClient:
        """``nick`` claimed by the operator (as ``bswtichu admin add`` does: the service's
        answer to it), then logged in."""
        self.service.operator({"action": "add", "name": nick, "password": hash_password(PASSWORD)})
        client = await self.connect_from(address)
        client.send(f"/nick {nick} {PASSWORD}")
        await client.message("NICK", nick=nick)
        return client

    async def staff(self) -> tuple[LineClient, LineClient]:
        """Root (the admin) and Mod, a moderator he appointed."""
        root = await self.admin()
        mod = await self.person("Mod", register=True)
        root.send("/op Mod")
        await mod.message("ROLE", nick="Mod", role="moderator", by="Root")
        return root, mod


async def refused(client: LineClient, line: str, code: str) -> dict:
    client.send(line)
    return await client.message("ERROR", code=code)


async def nothing_more(client: LineClient, marker_from: LineClient, forbidden: str) -> None:
    """``marker_from`` says a marker in the room; once ``client`` has it, nothing he got holds
    ``forbidden`` (lines the server wrote him earlier arrived before it)."""
    marker_from.send("marker-line")
    await client.message("CHAT", text="marker-line")
    assert not [line for line in client.lines if forbidden in line], client.lines


@pytest_twisted.ensureDeferred
async def test_a_guest_and_a_player_without_a_role_can_do_none_of_it(tmp_path):
    async with CommunityServer(tmp_path) as server:
        guest = await server.person("Gus")
        player = await server.person("Pat", register=True)
        for line in GUEST_REFUSED:
            assert (await refused(guest, line, "guest"))["message"].startswith("a guest has no moderation")
            await refused(player, line, "not_moderator")
        # an admin's name the operator has not claimed yet is nobody's to take (nor a look-alike's)
        for line in ("/nick Root", "/nick root", "/nick ROOT", "/nick Rооt"):
            assert "bswtichu admin add Root" in (await refused(guest, line, "nick_reserved"))["message"]


@pytest_twisted.ensureDeferred
async def test_an_admin_appoints_and_removes_moderators_and_a_moderator_cannot_act_on_them(tmp_path):
    async with CommunityServer(tmp_path) as server:
        root = await server.admin()
        guest = await server.person("Gus")
        await refused(root, "/op Gus", "not_registered")
        await refused(root, "/op Root", "has_role")
        await refused(root, "/op", "usage")
        await refused(root, "/op a b", "usage")
        mod = await server.person("Mod", register=True)
        other = await server.person("Max", register=True)
        root.send("/op Mod")
        assert await root.message("ROLE", nick="Mod") == {"nick": "Mod", "role": "moderator", "by": "Root"}
        await mod.message("ROLE", nick="Mod", role="moderator")
        await refused(root, "/op Mod", "has_role")
        root.send("/op Max")
        await other.message("ROLE", nick="Max", role="moderator")
        await refused(mod, "/op Gus", "not_admin")
        await refused(mod, "/deop Max", "not_admin")
        for line in ("/kick Root", "/mute Root", "/ban Root", "/unmute Root"):
            assert "admin" in (await refused(mod, line, "protected"))["message"]
        for line in ("/kick Max", "/mute Max 5", "/ban Max"):
            await refused(mod, line, "protected")
        for line in ("/kick Mod", "/mute Mod", "/ban Mod"):
            await refused(mod, line, "self")
        await refused(root, "/kick Root", "self")
        await refused(root, "/deop Root", "protected")
        root.send("/mute Max 5 testing")  # an admin acts on a moderator
        await other.message("MODERATED", action="mute", by="Root")
        root.send("/deop Max")
        assert await other.message("ROLE", nick="Max") == {"nick": "Max", "role": None, "by": "Root"}
        await refused(root, "/deop Max", "no_role")
        await refused(other, "/audit", "not_moderator")
        mod.send("/kick Gus enough")
        await guest.message("BYE", reason="kicked")


@pytest_twisted.ensureDeferred
async def test_kick_closes_the_connection_and_holds_the_seat(tmp_path):
    async with CommunityServer(tmp_path) as server:
        root, mod = await server.staff()
        ann, eve = await server.person("Ann"), await server.person("Eve")
        ann.send("/join")
        await ann.message("JOINED", nick="Ann")
        eve.send("/join 1")
        await ann.message("JOINED", nick="Eve")
        await refused(mod, "/kick Nobody", "no_such_user")
        await refused(mod, "/kick", "usage")
        mod.send("/kick Eve spamming the table")
        bye = await eve.wait_for(lambda line: line.startswith("BYE "))
        assert '"reason":"kicked"' in bye and "spamming the table" in bye
        await eve.lost.addTimeout(TIMEOUT, reactor())
        assert (await mod.message("MODERATION", action="kick"))["target"] == "Eve"
        assert (await ann.message("AWAY", nick="Eve"))["seat"] == 2
        mod.send("/audit Eve")
        audit = await mod.message("AUDIT")
        assert [(e["actor"], e["action"], e["target"], e["reason"]) for e in audit["entries"]] == [
            ("Mod", "kick", "Eve", "spamming the table")]


@pytest_twisted.ensureDeferred
async def test_a_muted_player_reaches_nobody_and_may_still_play(tmp_path):
    async with CommunityServer(tmp_path) as server:
        root, mod = await server.staff()
        eve, ann, bob, cy = [await server.person(name) for name in ("Eve", "Ann", "Bob", "Cy")]
        await refused(mod, "/mute Eve 0", "usage")
        await refused(mod, "/mute Eve 999999999", "usage")
        await refused(mod, "/unmute Eve", "not_muted")
        mod.send("/mute Eve 30 flooding")
        told = await eve.message("MODERATED", action="mute")
        assert told["by"] == "Mod" and told["reason"] == "flooding" and told["minutes"] == 30
        assert told["until"] is not None
        for line in ("muted-lobby", "/me muted-emote", "/msg Ann muted-private"):
            assert "flooding" in (await refused(eve, line, "muted"))["message"]
        await nothing_more(ann, bob, "muted-")
        for client, nick in ((eve, "Eve"), (ann, "Ann"), (bob, "Bob")):
            client.send("/join" if client is eve else "/join 1")
            await client.message("JOINED", nick=nick)
        cy.send("/watch 1")
        await cy.message("SPECTATOR_JOINED", nick="Cy")
        eve.send("/option tichujoin on")  # playing goes on: options, seats
        await ann.message("OPTION", name="tichujoin", by="Eve")
        await refused(eve, "muted-table", "muted")
        await nothing_more(ann, bob, "muted-")
        await nothing_more(cy, bob, "muted-")
        mod.send("/unmute Eve")
        await eve.message("MODERATED", action="unmute")
        eve.send("free-again")
        assert (await ann.message("CHAT", text="free-again"))["from"] == "Eve"


@pytest_twisted.ensureDeferred
async def test_bans_by_name_and_by_address_range(tmp_path):
    async with CommunityServer(tmp_path) as server:
        root, mod = await server.staff()
        eve = await server.person("Eve")
        await refused(mod, "/ban 192.0.2.999", "bad_address")
        await refused(mod, "/ban 127.0.0.0/8", "protected")  # Root and Mod come from there
        await refused(mod, "/unban Eve", "not_banned")
        mod.send("/ban Eve 60 cheating")
        bye = await eve.message("BYE", reason="banned")
        assert bye["by"] == "Mod" and bye["why"] == "cheating" and bye["until"] is not None
        await eve.lost.addTimeout(TIMEOUT, reactor())
        await mod.message("MODERATION", action="ban", target="Eve")
        again = await server.connect_from("127.0.0.1")
        message = (await refused(again, "/nick Eve", "banned"))["message"]
        assert "cheating" in message and "until 20" in message
        mod.send("/unban Eve")
        await mod.message("MODERATION", action="unban", target="Eve")
        again.send("/nick Eve")
        await again.message("NICK", nick="Eve")

        far = await server.person("Far", address="127.0.0.2")
        near = await server.person("Near", address="127.0.0.3")
        mod.send("/ban 127.0.0.2/32 a bad network")
        assert (await far.message("BYE", reason="banned"))["why"] == "a bad network"
        await mod.message("MODERATION", action="ban", target="127.0.0.2/32")
        await far.lost.addTimeout(TIMEOUT, reactor())
        port = server.ports["line"].getHost().port
        barred = LineClient()
        await connectProtocol(TCP4ClientEndpoint(reactor(), "127.0.0.1", port, bindAddress=("127.0.0.2", 0)),
                              barred).addTimeout(TIMEOUT, reactor())
        await barred.wait_for(lambda line: line.startswith("You are banned until lifted by Mod: a bad network."))
        await barred.lost.addTimeout(TIMEOUT, reactor())
        near.send("/who")
        assert "Far" not in [u["nick"] for u in (await near.message("WHO"))["users"]]
        mod.send("/ban 2001:db8::/32 IPv6 too")
        assert (await mod.message("MODERATION", action="ban"))["target"] == "2001:db8::/32"
        mod.send("/unban 2001:db8::1/32")
        await mod.message("MODERATION", action="unban", target="2001:db8::/32")


@pytest_twisted.ensureDeferred
async def test_the_bridges_address_cannot_be_banned(tmp_path):
    async with CommunityServer(tmp_path, uncapped_addresses="127.0.0.9") as server:
        root, mod = await server.staff()
        assert "IRC bridge" in (await refused(mod, "/ban 127.0.0.0/24", "bridge_address"))["message"]
        await refused(mod, "/ban 127.0.0.9", "bridge_address")


@pytest_twisted.ensureDeferred
async def test_announce_reaches_every_connection(tmp_path):
    async with CommunityServer(tmp_path) as server:
        root, mod = await server.staff()
        ann = await server.person("Ann")
        nameless = await server.connect_from("127.0.0.1")
        await refused(mod, "/announce", "usage")
        mod.send("/announce The server restarts at noon")
        for client in (ann, nameless, root, mod):
            assert await client.message("ANNOUNCE") == {"from": "server", "by": "Mod",
                                                        "text": "The server restarts at noon"}
        root.send("/audit")
        assert [e["action"] for e in (await root.message("AUDIT"))["entries"]] == ["announce", "op"]


@pytest_twisted.ensureDeferred
async def test_an_ignored_player_reaches_nobody_who_ignores_him(tmp_path):
    async with CommunityServer(tmp_path) as server:
        ann, bob, eve, cy = [await server.person(n) for n in ("Ann", "Bob", "Eve", "Cy")]
        await refused(ann, "/ignore Ann", "self")
        await refused(ann, "/unignore Eve", "not_ignore")
        await refused(ann, "/ignore", "usage")
        ann.send("/ignore Eve")
        assert await ann.message("IGNORE") == {"nick": "Eve", "on": True}
        await refused(ann, "/ignore eve", "already_ignore")
        eve.send("ignored-lobby")
        await bob.message("CHAT", text="ignored-lobby")
        eve.send("/me ignored-emote")
        await bob.message("EMOTE", text="ignored-emote")
        eve.send("/msg Ann ignored-private")
        await eve.message("MSG", text="ignored-private")  # his echo comes as ever
        await nothing_more(ann, bob, "ignored-")
        for client, line in ((ann, "/join"), (eve, "/join 1"), (bob, "/join 1")):
            client.send(line)
            await client.message("JOINED")
        cy.send("/watch 1")
        await cy.message("SPECTATOR_JOINED", nick="Cy")
        eve.send("ignored-table")
        await cy.message("CHAT", text="ignored-table")
        await nothing_more(ann, bob, "ignored-")
        ann.send("/unignore Eve")
        await ann.message("IGNORE", nick="Eve", on=False)
        eve.send("heard-again")
        await ann.message("CHAT", text="heard-again")
        for number in range(100):
            ann.send(f"/ignore N{number:03}")
        await ann.message("IGNORE", nick="N099")
        assert "100 names" in (await refused(ann, "/ignore Zed", "list_full"))["message"]


@pytest_twisted.ensureDeferred
async def test_kibitz_reaches_the_spectators_only(tmp_path):
    async with CommunityServer(tmp_path) as server:
        ann, bob, cy, dan, eve, fay = [await server.person(n) for n in ("Ann", "Bob", "Cy", "Dan", "Eve", "Fay")]
        await refused(eve, "/kibitz hello", "not_at_table")
        ann.send("/join")
        await ann.message("JOINED")
        for client in (bob, cy, dan):
            client.send("/join 1")
            await client.message("JOINED", nick={bob: "Bob", cy: "Cy", dan: "Dan"}[client])
        for client in (eve, fay):
            client.send("/watch 1")
            await client.message("SPECTATOR_JOINED")
        await refused(ann, "/kibitz hi", "not_spectator")
        await refused(eve, "/kibitz", "usage")
        eve.send("/kibitz nice hand")
        assert await fay.message("KIBITZ") == {"table": 1, "from": "Eve", "text": "nice hand", "action": False}
        ann.send("/start")
        await eve.message("STARTED")
        eve.send("from the rail")  # a spectator's plain chat at a started table is kibitz
        assert (await fay.message("KIBITZ", text="from the rail"))["from"] == "Eve"
        for player in (ann, bob):
            player.send("/table")
            await player.message("TABLE")
            assert not [line for line in player.lines if "KIBITZ" in line or "rail" in line or "nice" in line]


@pytest_twisted.ensureDeferred
async def test_away_is_shown_and_ends_on_the_next_line(tmp_path):
    async with CommunityServer(tmp_path) as server:
        ann, bob = await server.person("Ann"), await server.person("Bob")
        ann.send("/away at lunch")
        assert await ann.message("AWAY_SET") == {"nick": "Ann", "text": "at lunch"}
        bob.send("/who")
        users = (await bob.message("WHO"))["users"]
        assert [u["away"] for u in users] == ["at lunch", None]
        bob.send("/msg Ann are you there?")
        assert await bob.message("AWAY_NOTICE") == {"nick": "Ann", "text": "at lunch"}
        await ann.message("MSG", text="are you there?")
        ann.send("/who")
        ann_lines = await ann.wait_for(lambda line: line.startswith(("BACK", "WHO")))
        assert ann_lines.startswith("BACK ")
        assert [u["away"] for u in (await ann.message("WHO"))["users"]] == [None, None]
        for line in ("/join", "/bot", "/bot", "/bot", "/start"):
            ann.send(line)
        await ann.message("STARTED")
        ann.send("/away phone")
        await ann.message("AWAY_SET", text="phone")
        bob.send("/watch 1")
        await bob.message("SPECTATOR_JOINED", nick="Bob")
        bob.send("/table")
        assert (await bob.message("TABLE"))["afk"] == {"1": "phone"}


@pytest_twisted.ensureDeferred
async def test_friends_hear_when_a_friend_comes_and_see_where_he_is(tmp_path):
    async with CommunityServer(tmp_path) as server:
        ann = await server.person("Ann", register=True)
        await refused(ann, "/friend Ann", "self")
        await refused(ann, "/unfriend Bob", "not_friend")
        ann.send("/friends")
        assert (await ann.message("FRIENDS"))["friends"] == []
        ann.send("/friend Bob")
        assert await ann.message("FRIEND") == {"nick": "Bob", "on": True}
        await refused(ann, "/friend bob", "already_friend")
        bob = await server.person("Bob")
        assert await ann.message("FRIEND_ONLINE") == {"nick": "Bob"}
        bob.send("/join")
        await bob.message("JOINED")
        ann.send("/friends")
        assert (await ann.message("FRIENDS"))["friends"] == [
            {"nick": "Bob", "online": True, "table": 1, "seat": 1, "away": None}]
        bob.transport.loseConnection()
        await bob.lost.addTimeout(TIMEOUT, reactor())
        ann.send("/friends")
        assert (await ann.message("FRIENDS"))["friends"] == [
            {"nick": "Bob", "online": False, "table": None, "seat": None, "away": None}]
        ann.send("/unfriend Bob")
        await ann.message("FRIEND", nick="Bob", on=False)


@pytest_twisted.ensureDeferred
async def test_private_tables_take_only_the_invited(tmp_path):
    async with CommunityServer(tmp_path) as server:
        ann, bob, cy = [await server.person(n) for n in ("Ann", "Bob", "Cy")]
        await refused(ann, "/private on", "not_at_table")
        ann.send("/join")
        await ann.message("JOINED")
        ann.send("/private on")
        assert await ann.message("PRIVATE") == {"table": 1, "private": True, "by": "Ann"}
        await refused(bob, "/join 1", "private_table")
        await refused(bob, "/watch 1", "private_table")
        await refused(ann, "/invite Nobody", "no_such_user")
        ann.send("/invite Bob")
        assert await bob.message("INVITATION") == {"table": 1, "by": "Ann"}
        await ann.message("INVITED", nick="Bob")
        await refused(ann, "/invite Bob", "already_invited")
        bob.send("/join 1")
        await ann.message("JOINED", nick="Bob")
        await refused(cy, "/join 1", "private_table")
        cy.send("/tables")
        assert (await cy.message("TABLES"))["tables"][0]["private"] is True
        ann.send("/private off")
        await ann.message("PRIVATE", private=False)
        cy.send("/watch 1")
        await cy.message("SPECTATOR_JOINED", nick="Cy")


@pytest_twisted.ensureDeferred
async def test_top_ranks_established_ratings_and_keeps_provisional_ones_apart(tmp_path):
    async with CommunityServer(tmp_path) as server:
        storage = server.service.games.storage
        for name, (mu, sigma, games) in {"Ann": (30.0, 2.0, 12), "Bob": (28.0, 1.0, 9),
                                         "Cy": (40.0, 6.0, 2)}.items():
            storage.accounts.register(name, PASSWORD)
            rating = Rating(mu, sigma, games)
            storage.db.execute("INSERT INTO ratings VALUES (?, ?, ?, ?, 'nanjing')",
                               (f"player:{name.casefold()}", rating.mu, rating.sigma, rating.games))
        storage.db.execute("INSERT INTO ratings VALUES ('bot:basic', 25.0, 1.0, 40, 'nanjing')")
        eve = await server.person("Eve")
        eve.send("/top")
        top = await eve.message("TOP")
        assert [(e["place"], e["nick"], e["rating"]) for e in top["ladder"]] == [(1, "Bob", 25.0), (2, "Ann", 24.0)]
        assert [(e["nick"], e["provisional"]) for e in top["provisional"]] == [("Cy", True)]
        eve.send("/top 1")
        assert [e["nick"] for e in (await eve.message("TOP"))["ladder"]] == ["Bob"]
        eve.send("/top bots")
        assert [(e["nick"], e["rating"]) for e in (await eve.message("TOP", bots=True))["ladder"]] == [("basic", 22.0)]
        await refused(eve, "/top 0", "usage")
        await refused(eve, "/top many", "usage")


@pytest_twisted.ensureDeferred
async def test_reserved_names_and_the_registration_limit(tmp_path):
    async with CommunityServer(tmp_path, registrations_per_hour=1) as server:
        someone = await server.connect_from("127.0.0.1")
        for name in ("admin", "Server", "Аdmin", "server-bot"):  # the third with a Cyrillic А
            await refused(someone, f"/nick {name}", "nick_reserved")
        await server.person("Ann", register=True)
        bob = await server.person("Bob")
        await refused(bob, f"/register {PASSWORD}", "registration_limit")
        await server.person("Cy", address="127.0.0.2", register=True)


@pytest_twisted.ensureDeferred
async def test_roles_bans_mutes_and_lists_survive_a_restart(tmp_path):
    async with CommunityServer(tmp_path) as server:
        root, mod = await server.staff()
        ann = await server.person("Ann", register=True)
        eve = await server.person("Eve")
        pat = await server.person("Pat")
        ann.send("/ignore Pat")
        await ann.message("IGNORE")
        ann.send("/friend Bob")
        await ann.message("FRIEND")
        mod.send("/mute Pat 600 rude")
        await pat.message("MODERATED")
        mod.send("/ban Eve cheating")
        await eve.lost.addTimeout(TIMEOUT, reactor())
        mod.send("/ban 127.0.0.2 a bad address")
        await mod.message("MODERATION", target="127.0.0.2/32")
    async with CommunityServer(tmp_path) as again:
        mod = await again.connect_from("127.0.0.1")
        mod.send(f"/nick Mod {PASSWORD}")
        await mod.message("NICK", nick="Mod")
        mod.send("/audit")
        assert [e["action"] for e in (await mod.message("AUDIT"))["entries"]] == [
            "ban", "ban", "mute", "op"]
        eve = await again.connect_from("127.0.0.1")
        assert "cheating" in (await refused(eve, "/nick Eve", "banned"))["message"]
        far = LineClient()
        port = again.ports["line"].getHost().port
        await connectProtocol(TCP4ClientEndpoint(reactor(), "127.0.0.1", port, bindAddress=("127.0.0.2", 0)),
                              far).addTimeout(TIMEOUT, reactor())
        await far.wait_for(lambda line: "a bad address" in line)
        await far.lost.addTimeout(TIMEOUT, reactor())
        pat = await again.person("Pat")
        await refused(pat, "hello", "muted")
        ann = await again.connect_from("127.0.0.1")
        ann.send(f"/nick Ann {PASSWORD}")
        await ann.message("NICK", nick="Ann")
        ann.send("/friends")
        assert [f["nick"] for f in (await ann.message("FRIENDS"))["friends"]] == ["Bob"]
        await refused(ann, "/ignore Pat", "already_ignore")


def test_roles_and_bans_survive_kill_9(tmp_path):
    """The real program, killed with SIGKILL after a moderator's acts: a new process on the
    same file still knows the moderator, the ban and the mute (test_cli_process's `Server`)."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "bswtichu.ini").write_text("[admin]\nadmins = Root\n", encoding="utf-8")
    claim_admin(tmp_path, "Root", PASSWORD)
    first = Server(tmp_path)
    try:
        root, mod = first.connect(), first.connect("Mod")
        root.ask(f"/nick Root {PASSWORD}", "NICK")
        mod.ask(f"/register {PASSWORD}", "REGISTERED")
        assert root.ask("/op Mod", "ROLE") == {"nick": "Mod", "role": "moderator", "by": "Root"}
        assert mod.ask("/ban Eve 600 cheating", "MODERATION")["target"] == "Eve"
        assert mod.ask("/mute Pat rude", "MODERATION")["target"] == "Pat"
    finally:
        first.stop(signal.SIGKILL)
    second = Server(tmp_path)
    try:
        assert second.connect().refused("/nick Eve") == "banned"
        pat = second.connect("Pat")
        assert pat.refused("hello") == "muted"
        mod = second.connect()
        mod.say(f"/nick Mod {PASSWORD}")
        mod.expect("NICK")
        entries = mod.ask("/audit", "AUDIT")["entries"]
        assert [(e["actor"], e["action"], e["target"]) for e in entries] == [
            ("Mod", "mute", "Pat"), ("Mod", "ban", "Eve"), ("Root", "op", "Mod")]
    finally:
        assert second.stop(signal.SIGTERM) == 0
    assert "Traceback" not in second.log_text(), second.log_text()


@pytest_twisted.ensureDeferred
async def test_on_telnet_people_read_sentences_and_gmcp_gets_the_packages(tmp_path):
    async with CommunityServer(tmp_path) as server:
        root, mod = await server.staff()
        ann = await server.connect("telnet")
        ann.transport.write(IAC + DO + GMCP)
        ann.send("/nick Ann")
        await ann.wait_for(lambda line: line.endswith("You are now Ann."))
        mod.send("/mute Ann 5 too loud")
        await ann.wait_for(lambda line: line.startswith("You are muted by Mod until ") and "too loud" in line)
        ann.send("hello")
        refusal = await ann.wait_for(lambda line: line.startswith("error: "))
        assert refusal.startswith("error: you are muted until ") and refusal.endswith("(too loud); you may still play")
        mod.send("/unmute Ann")
        await ann.wait_for(lambda line: line == "Mod lifted your mute: you may chat again.")
        ann.send("/me waves")
        assert (await mod.message("EMOTE")) == {"table": None, "from": "Ann", "text": "waves"}
        await ann.wait_for(lambda line: line == "[lobby] * Ann waves")
        mod.send("/announce Maintenance at noon")
        await ann.wait_for(lambda line: line == "*** [server] Maintenance at noon")
        ann.send("/mode")  # its reply comes after the package written with the announcement
        await ann.wait_for(lambda line: line.startswith("Mode: human"))
        assert b'Tichu.Announce {"by":"Mod","from":"server","text":"Maintenance at noon"}' in ann.raw
