"""The community commands through the IRC bridge (twisted.words' IRC server, the real game service):
a muted player's table chat and spectators' kibitz never reach the channel, and an IRC user's
!ignore keeps a player's private messages from him. Every awaited Deferred has a timeout.
"""

from __future__ import annotations

import pytest_twisted

from bswtichu.service import makeService
from bswtichu.storage.accounts import hash_password

from irc_support import GameClient, GameServer, RunningBridge, WordsServer, reactor
from test_irc_words_server import BRIDGE, Setup, in_channel, to


ROOT_PASSWORD = "secret-pw-1"


class CommunitySetup(Setup):
    """Setup's IRC server, bridge and channel observer, with ``Root`` as the game server's admin
    (claimed as ``bswtichu admin add`` does)."""

    async def __aenter__(self):
        game = GameServer(self.tmp_path)  # its service is not started: it gives up the file at once
        game.service.games.storage.close()
        game.config = game.config.replace(admins="Root")
        game.service = makeService(game.config, reactor())
        game.service.operator({"action": "add", "name": "Root", "password": hash_password(ROOT_PASSWORD)})
        self.game = await game.start()
        self.irc = await WordsServer().start()
        self.observer = await self.user("Obs")
        self.bridge = await RunningBridge(self.irc.address, self.game.line_address).start(self.observer)
        return self


def heard_anywhere(users, text: str) -> list:
    return [h for user in users for h in user.heard if text in h[3]]


@pytest_twisted.ensureDeferred
async def test_muted_and_ignored_texts_reach_no_one_on_irc(tmp_path):
    async with CommunitySetup(tmp_path) as s:
        ann = await s.user("Ann")
        ann.say("#tichu", "!join")
        await s.observer.wait(in_channel("[table 1] seats: 1 Ann"))
        direct = {name: await GameClient.connect(s.game, name) for name in (f"Root {ROOT_PASSWORD}", "Eve", "Bob",
                                                                              "Mal", "Cy")}
        direct["Root"] = direct.pop(f"Root {ROOT_PASSWORD}")
        try:
            root = direct["Root"]
            for name in ("Eve", "Bob"):
                direct[name].sendLine(b"/join 1")
                await s.observer.wait(in_channel(f"{name} sits down at table 1"))
            root.sendLine(b"/mute Eve 10 spam")
            await direct["Eve"].until("You are muted by Root")
            direct["Eve"].sendLine(b"muted-words at the table")
            assert "you are muted" in await direct["Eve"].until("error: ")
            direct["Cy"].sendLine(b"/watch 1")
            await s.observer.wait(in_channel("Cy is watching table 1"))
            direct["Cy"].sendLine(b"/kibitz rail-talk")
            direct["Bob"].sendLine(b"marker-one")
            await s.observer.wait(in_channel("Bob: marker-one"))
            await ann.wait(lambda h: "marker-one" in h[3])
            assert heard_anywhere([s.observer, ann], "muted-words") == []
            assert heard_anywhere([s.observer, ann], "rail-talk") == [], "kibitz reached the players' channel"

            ann.msg(BRIDGE, "ignore Mal")
            await ann.wait(to("Ann", "You ignore Mal now"))
            direct["Mal"].sendLine(b"/msg Ann ignored-private")
            await direct["Mal"].until("-> *Ann* ignored-private")  # his echo, as ever
            direct["Bob"].sendLine(b"/msg Ann marker-private")
            await ann.wait(to("Ann", "*Bob* marker-private"))
            assert heard_anywhere([s.observer, ann], "ignored-private") == []
            direct["Eve"].sendLine(b"/msg Ann muted-private")
            assert "you are muted" in await direct["Eve"].until("error: ")
            ann.say("#tichu", "!me waves")
            await s.observer.wait(in_channel("* Ann waves"))
            assert heard_anywhere([s.observer, ann], "muted-private") == []
        finally:
            for client in direct.values():
                await client.close()


@pytest_twisted.ensureDeferred
async def test_a_bridged_user_is_banned_by_name_and_not_let_in_under_another(tmp_path):
    async with CommunitySetup(tmp_path) as s:
        zed = await s.user("Zed")
        zed.msg(BRIDGE, "who")
        await zed.wait(to("Zed", "Online"))
        root = await GameClient.connect(s.game, f"Root {ROOT_PASSWORD}")
        try:
            root.sendLine(b"/ban Zed spamming")
            await root.until("Zed is banned until lifted: spamming.")
            await zed.wait(to("Zed", "You are banned until lifted by Root: spamming."))
            await zed.wait(to("Zed", "The game server closed your connection"))
            zed.msg(BRIDGE, "who")
            refused = await zed.wait(to("Zed", "The game server took none of the names tried for you"))
            assert "Zed is banned until lifted by Root: spamming" in refused[3]
            root.sendLine(b"/who")
            assert "Zed" not in await root.until("Online")
        finally:
            await root.close()
