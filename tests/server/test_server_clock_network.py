"""The turn clock over real loopback TCP: a person who never answers does not stop the game.

The games' timers run on a `Clock` the test advances (the sockets on the real reactor), so
``clock 2`` takes no wall time: after each advance, one /legal round trip on a connection
shows that everything the advance caused has been written.
"""

from __future__ import annotations

import pytest_twisted
from twisted.internet.task import Clock

from test_tables_game import Chooser, is_exchange
from test_server_game_network import TIMEOUT, GameServer, watch
from test_net_network import reactor


@pytest_twisted.ensureDeferred
async def test_a_person_who_never_answers_with_clock_2_the_game_still_reaches_game_over(tmp_path):
    game_clock = Clock()
    async with GameServer(tmp_path, seed=5, game_clock=game_clock) as server:
        ann, bob = await server.player("Ann"), await server.player("Bob")
        ann.send("/join")
        await ann.until("JOINED")
        bob.send("/join 1")
        await bob.until("JOINED")
        for line in ("/bot", "/bot", "/round 1", "/clock 2"):
            ann.send(line)
            await ann.until("OPTION" if line.startswith(("/round", "/clock")) else "JOINED")
        eve = await watch(server)
        ann.send("/start")
        await ann.until("GAME")
        chooser = Chooser(3)
        for _ in range(5000):
            commands = await ann.legal(bots_may_have_moved=True)
            if ann.over() is not None:
                break
            mine = [c for c in commands if chooser.kind(c) not in ("bomb", "tichu")]
            if mine:  # Ann answers at once; Bob, connected, never types a line
                _, command = chooser.pick([(0, c) for c in mine])
                if is_exchange(command):
                    ann.send("/hand")
                    command = chooser.exchange((await ann.until("HAND"))[-1][1]["cards"])
                ann.send(command)
                await ann.legal(bots_may_have_moved=True)
            else:
                game_clock.advance(1)
        over = ann.over()
        assert over is not None, "the game did not end"
        told = [k for k, _ in ann.messages]
        outs = [f for k, f in ann.messages if k == "CLOCK_OUT"]
        assert outs and {f["player"] for f in outs} == {"Bob"}  # Ann always answered in time
        assert [f["strikes"] for f in outs[:2]] == [1, 2]
        [standing_in] = [f for k, f in ann.messages if k == "SUBSTITUTE"]
        assert standing_in == {"table": 1, "player": "Bob", "level": "basic", "reason": "clock"}
        assert told.count("GAME_OVER") == 1
        # the people's turns say their time; Bob's stand-in's do not (it is not timed)
        stood_in = told.index("SUBSTITUTE")
        turns = [(i > stood_in, f) for i, (k, f) in enumerate(ann.messages) if k == "TURN"]
        assert all(f["clock"] == 2 for late, f in turns if f["player"] == "Ann" or
                   f["player"] == "Bob" and not late)
        assert all("clock" not in f for late, f in turns
                   if f["player"] not in ("Ann", "Bob") or late and f["player"] == "Bob")
        assert any(late and f["player"] == "Bob" for late, f in turns)
        await eve.wait_for(lambda line: line.startswith("Game over at table 1")).addTimeout(
            TIMEOUT, reactor())
        assert any(line.startswith("Time is up for Bob (seat 2)") for line in eve.lines)
        assert any(line.startswith("A basic bot plays for Bob until Bob types anything") for line in eve.lines)
