"""The bridge against twisted.words' own IRC server, in process, and the real game service.

Every awaited Deferred has a timeout, so a hang fails one test instead of the run.
"""

from __future__ import annotations

import pytest_twisted

from conftest import GameServer, RunningBridge, WordsServer, card_tokens, irc_user, leave

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
