"""Names through the bridge, against ngircd and the real game server: IRC users are held to the
server's reserved names as anyone (issue 30 item 8), no IRC nick passes for the bridge, and the
bridge's own table watchers still take its reserved name.

The game server reserves ``tichubot`` too and spares the bridge's address (as
docs/moderation.md tells an operator to).
"""

from __future__ import annotations

import pytest_twisted
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol

from irc_support import GameClient, reactor, timed
from test_irc_ngircd import BRIDGE, BridgedChannel, from_bridge_to, in_channel

SETTINGS = {"reserved_names": "admin, server, tichubot", "uncapped_addresses": "127.0.0.1"}


async def line_client(game) -> GameClient:
    """Someone on the line port from the bridge's address, without a name yet."""
    port = game.ports["line"].getHost().port
    client = await timed(connectProtocol(TCP4ClientEndpoint(reactor(), "127.0.0.1", port), GameClient()))
    await client.until("Limits:")
    return client


@pytest_twisted.ensureDeferred
async def test_irc_users_get_no_reserved_name_and_none_of_the_bridges(tmp_path):
    async with BridgedChannel(tmp_path, **SETTINGS) as s:
        for nick in ("server", "admin"):
            user = await s.user(nick)
            user.msg("#tichu", "!who")
            await user.wait(from_bridge_to(nick, (f"You play as {nick}2 on the game server.",)))

        ann = await s.user("Ann")
        ann.msg(BRIDGE, "nick admin")
        refusal = await ann.wait(from_bridge_to("Ann", ("error:",)))
        assert refusal[3] == "error: the name admin is reserved for the server; choose another"
        ann.msg(BRIDGE, "nick ａｄｍｉｎ")
        refusal = await ann.wait(from_bridge_to("Ann", ("error:",)))
        assert "looks like admin, which is reserved" in refusal[3]
        ann.msg(BRIDGE, "nick tichubot-w7")
        await ann.wait(from_bridge_to("Ann", ("tichubot-w7 looks like the bridge's own name on the game"
                                              " server; choose another.",)))
        ann.msg("#tichu", "!observer")
        await ann.wait(from_bridge_to("Ann", ("!observer is for the bridge's own table watchers",)))
        ann.msg("#tichu", "!join")
        await s.cy.wait(in_channel("[table 1] seats: 1 Ann"))  # the bridge's watcher got in

        fake = await s.user("tichubot-w1")
        fake.msg("#tichu", "!join")
        await fake.wait(from_bridge_to("tichubot-w1", ("Your nick tichubot-w1 looks like the bridge's own"
                                                       " name on the game server; change your IRC nick",)))
        assert "tichubot-w1" not in s.bridge.bridge.players

        # on the game server: the watchers are observers of the bridge's name; from the bridge's
        # address a connection that is no observer gets none of it
        someone = await line_client(s.game)
        someone.sendLine(b"/nick tichubot-w9")
        assert "reserved for the server" in await someone.until("error:")
        someone.sendLine(b"/nick Dee")
        await timed(someone.named)
        someone.sendLine(b"/who")
        who = await someone.until("Online")
        assert "observers (no people): tichubot-w1 (watching table 1)" in who, who
        assert "server2 (lobby)" in who and "admin2 (lobby)" in who, who
        await someone.close()
