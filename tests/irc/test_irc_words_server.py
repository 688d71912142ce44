"""The bridge against twisted.words' own IRC server, in process, and the real game service.

Every awaited Deferred has a timeout, so a hang fails one test instead of the run.
"""

from __future__ import annotations

import json

import pytest_twisted

from irc_support import GameClient, GameServer, RunningBridge, WordsServer, card_tokens, irc_user, leave

BRIDGE = "tichubot"


class Setup:
    def __init__(self, tmp_path):
        self.tmp_path = tmp_path
        self.users = []

    async def __aenter__(self):
        self.game = await GameServer(self.tmp_path).start()
        self.irc = await WordsServer().start()
        self.observer = await self.user("Obs")
        self.bridge = await RunningBridge(self.irc.address, self.game.line_address).start(self.observer)
        return self

    async def user(self, nick: str, channel: bool = True):
        user = await irc_user(self.irc.address, nick, "#tichu" if channel else None)
        self.users.append(user)
        return user

    async def __aexit__(self, *exc):
        await self.bridge.stop()
        for user in self.users:
            await leave(user)
        await self.irc.stop()
        await self.game.stop()


def to(nick: str, starting: str):
    """A predicate: a message from the bridge to ``nick`` whose text starts so."""
    return lambda h: h[1] == BRIDGE and h[2] == nick and h[3].startswith(starting)


def in_channel(containing: str):
    return lambda h: h[1] == BRIDGE and h[2] == "#tichu" and containing in h[3]


@pytest_twisted.ensureDeferred
async def test_channel_commands_reply_privately_and_table_events_reach_the_channel(tmp_path):
    async with Setup(tmp_path) as s:
        ann = await s.user("Ann")
        ann.say("#tichu", "!join")
        joined = await ann.wait(to("Ann", "Ann sits down at table 1"))
        assert joined[0] == "PRIVMSG"  # NOTICE, relayed so by the test server
        await s.observer.wait(in_channel("[table 1] seats: 1 Ann, 2 (free)"))
        ann.say("#tichu", "!bot")
        await s.observer.wait(in_channel("Ann seats a basic bot"))
        assert not [h for h in s.observer.heard if h[2] == "Obs"], "the observer was told something privately"


@pytest_twisted.ensureDeferred
async def test_the_bridges_watcher_is_no_person_in_who(tmp_path):
    async with Setup(tmp_path) as s:
        ann = await s.user("Ann")
        ann.say("#tichu", "!join")
        await s.observer.wait(in_channel("[table 1] seats: 1 Ann, 2 (free)"))  # the watcher watches
        eve = await GameClient.connect(s.game, "Eve")
        try:
            eve.sendLine(b"/mode machine")
            eve.sendLine(b"/who")
            who = json.loads((await eve.until("WHO ")).partition(" ")[2])
            assert sorted(u["nick"] for u in who["users"]) == ["Ann", "Eve"] and who["total"] == 2
            assert who["observers"] == [{"nick": "tichubot-w1", "table": 1}]
        finally:
            await eve.close()


@pytest_twisted.ensureDeferred
async def test_private_cards_go_only_to_their_player(tmp_path):
    async with Setup(tmp_path) as s:
        ann = await s.user("Ann")
        ann.msg(BRIDGE, "join")
        await ann.wait(to("Ann", "Ann sits down"))
        for _ in range(3):
            ann.msg(BRIDGE, "/bot")
        ann.msg(BRIDGE, "!start")
        dealt = await ann.wait(to("Ann", "Your first 8 cards: "))
        cards = card_tokens(dealt[3].partition(": ")[2])
        assert len(cards) == 8
        ann.msg(BRIDGE, "nogrand")
        last = await ann.wait(to("Ann", "Your last 6 cards: "))
        cards |= card_tokens(last[3].partition(": ")[2])
        await s.observer.wait(in_channel("declined Grand Tichu"))
        ann.msg("#tichu", "!score")  # SCORE is also a table event: the reply still reaches her
        await ann.wait(to("Ann", "Score after"))
        ann.msg(BRIDGE, "table")  # a reply to Ann alone, after which the channel has caught up
        await ann.wait(to("Ann", "Table 1, round 1"))
        assert not [line for line in s.observer.told(BRIDGE) if line.startswith("Score after")]
        channel = [h[3] for h in s.observer.heard if h[1] == BRIDGE]
        assert any("Table 1 starts" in line for line in channel)
        assert not [line for line in channel if card_tokens(line) & cards], "Ann's cards reached the channel"
        assert not [h for h in s.observer.heard if h[2] == "Obs"]


@pytest_twisted.ensureDeferred
async def test_a_nick_that_is_no_server_name_is_mapped_and_a_taken_name_varied(tmp_path):
    async with Setup(tmp_path) as s:
        zed = await s.user("[Zed]")
        zed.msg(BRIDGE, "join")
        await zed.wait(to("[Zed]", "You play as Zed on the game server."))
        await zed.wait(to("[Zed]", "Zed sits down at table 1"))
        # someone on the game server already called Ann: the IRC Ann becomes Ann2
        from irc_support import GameClient

        other = await GameClient.connect(s.game, "Ann")
        ann = await s.user("Ann")
        ann.msg("#tichu", "!join 1")
        await ann.wait(to("Ann", "You play as Ann2 on the game server."))
        await s.observer.wait(in_channel("Ann2 sits down at table 1, seat 2"))
        await other.close()


@pytest_twisted.ensureDeferred
async def test_a_registered_name_is_logged_in_to_privately_and_never_in_the_channel(tmp_path):
    from irc_support import GameClient

    async with Setup(tmp_path) as s:
        owner = await GameClient.connect(s.game, "Ann")  # Ann registered her name on the game server
        owner.sendLine(b"/register s3cret-pw")
        await owner.until("Ann is now registered to you")
        await owner.close()
        ann = await s.user("Ann")
        ann.msg(BRIDGE, "who")
        await ann.wait(to("Ann", "You play as Ann2 on the game server."))
        await ann.wait(to("Ann", "Ann is a registered name on the game server. If it is yours"))
        ann.msg("#tichu", "!nick Ann s3cret-pw")
        await ann.wait(to("Ann", "Passwords go to me privately"))
        ann.msg(BRIDGE, "nick Ann s3cret-pw")
        await ann.wait(to("Ann", "You are now Ann (was Ann2)."))
        ann.msg("#tichu", "!join")
        await ann.wait(to("Ann", "Ann sits down at table 1, seat 1"))
        await s.observer.wait(in_channel("[table 1] seats: 1 Ann, 2 (free)"))
        channel = [h[3] for h in s.observer.heard if h[1] == BRIDGE and h[2] == "#tichu"]
        assert not [line for line in channel if "pw" in line], "no password reached the channel"


@pytest_twisted.ensureDeferred
async def test_bad_commands_get_one_private_error(tmp_path):
    async with Setup(tmp_path) as s:
        ann = await s.user("Ann")
        for line in ("!play 7j", "!fly", "!join 99"):
            ann.msg("#tichu", line)
            error = await ann.wait(to("Ann", "error: "))
            assert error[2] == "Ann"
        ann.msg(BRIDGE, "who")
        await ann.wait(to("Ann", "Online"))
        channel = [h for h in s.observer.heard if h[1] == BRIDGE and h[0] != "JOIN"]
        assert channel == [], "errors and replies stay private"


@pytest_twisted.ensureDeferred
async def test_an_unreachable_game_server_is_reported_to_the_user(tmp_path):
    async with Setup(tmp_path) as s:
        await s.game.stop()
        ann = await s.user("Ann")
        ann.msg(BRIDGE, "join")
        await ann.wait(to("Ann", "The game server cannot be reached right now"))
        s.game = _Stopped()


class _Stopped:
    async def stop(self):
        pass


@pytest_twisted.ensureDeferred
async def test_the_bridge_reaches_the_irc_server_and_the_game_server_over_tls(tmp_path):
    """Both over TLS, each trusted by a CA file (the servers' self-signed certificate, as the
    game server makes it); the people stay on the IRC server's plain port."""
    from twisted.internet.endpoints import serverFromString

    from bswtichu.config import Listener
    from bswtichu.net.tls import make_self_signed
    from irc_support import reactor, timed

    certificate, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    make_self_signed(certificate, key)
    tls = f"ssl:0:interface=127.0.0.1:privateKey={key}:certKey={certificate}"
    game = await GameServer(tmp_path, Listener("line", tls)).start()
    irc = await WordsServer().start()
    irc_tls = await timed(serverFromString(reactor(), tls).listen(irc.port.factory))
    users = []
    bridge = None
    try:
        observer = await irc_user(irc.address, "Obs", "#tichu")
        users.append(observer)
        bridge = await RunningBridge(
            f"127.0.0.1:{irc_tls.getHost().port}", f"127.0.0.1:{game.ports['line-2'].getHost().port}",
            server_tls=True, server_ca=str(certificate), game_tls=True, game_ca=str(certificate),
        ).start(observer)
        ann = await irc_user(irc.address, "Ann", "#tichu")
        users.append(ann)
        ann.say("#tichu", "!join")
        await ann.wait(to("Ann", "Ann sits down at table 1"))
        await observer.wait(in_channel("[table 1] seats: 1 Ann, 2 (free)"))
    finally:
        if bridge is not None:
            await bridge.stop()
        for user in users:
            await leave(user)
        await timed(irc_tls.stopListening())
        await irc.stop()
        await game.stop()
