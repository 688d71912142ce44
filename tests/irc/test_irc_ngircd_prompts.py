"""What an IRC player is asked, and coming back after the game server restarts, against ngircd
and the real game server (issue 31 item 12): the private Grand Tichu and exchange prompts reach
him, every command suggested to him is one he can type there (``!play``, never ``/play``), and
``!join TABLE`` after a restart gives his seat back without an error.
"""

from __future__ import annotations

import pytest_twisted

from irc_support import GameServer, Ngircd, RunningBridge, free_port, irc_user, leave
from test_irc_ngircd import BRIDGE, from_bridge_to, in_channel


def told_to(user, nick: str) -> list[str]:
    return [h[3] for h in user.heard if h[1] == BRIDGE and h[2] == nick]


@pytest_twisted.ensureDeferred
async def test_prompts_say_bang_commands_and_a_rejoin_after_a_restart_is_quiet(tmp_path):
    ircd = Ngircd(tmp_path)  # skips here without ngircd
    line = f"tcp:{free_port()}:interface=127.0.0.1"  # the same port after the restart
    game = await GameServer(tmp_path, line=line).start()
    users, bridge = [], None
    try:
        await ircd.start()
        cy = await irc_user(ircd.address, "Cy", "#tichu")
        users.append(cy)
        bridge = await RunningBridge(ircd.address, game.line_address).start(cy)
        ann = await irc_user(ircd.address, "Ann", "#tichu")
        users.append(ann)
        ann.msg("#tichu", "!join")
        await cy.wait(in_channel("[table 1] seats: 1 Ann"))
        for _ in range(3):
            ann.msg("#tichu", "!bot")
        await cy.wait(in_channel("seat 4"))
        ann.msg("#tichu", "!start")
        grand = await ann.wait(from_bridge_to("Ann", ("Grand Tichu?",)))
        assert "!grand calls it" in grand[3] and "!nogrand declines" in grand[3]
        ann.msg("#tichu", "!nogrand")
        exchange = await ann.wait(from_bridge_to("Ann", ("Exchange: !schupf ",)))
        assert "/" not in exchange[3]
        ann.msg(BRIDGE, "legal")
        legal = await ann.wait(from_bridge_to("Ann", ("Legal now:",)))
        assert "!schupf" in legal[3] and "/" not in legal[3], legal

        await game.stop()  # the server restarts; the game comes back from its journal
        await ann.wait(from_bridge_to("Ann", ("The game server closed your connection",)))
        game = await GameServer(tmp_path, line=line).start()
        before = len(told_to(ann, "Ann"))
        ann.msg("#tichu", "!join 1")
        await ann.wait(from_bridge_to("Ann", ("Your seat 1 at table 1 was held for you; you sit in it again.",)))
        await cy.wait(in_channel("[table 1] seats: 1 Ann"))  # the channel sees the table again
        ann.msg(BRIDGE, "hand")  # what the /join would have answered comes before this reply
        await ann.wait(from_bridge_to("Ann", ("Your hand",)))
        after = told_to(ann, "Ann")[before:]
        assert not [text for text in after if text.startswith("error:")], after
    finally:
        if bridge is not None:
            await bridge.stop()
        for user in users:
            await leave(user)
        await ircd.stop()
        await game.stop()
