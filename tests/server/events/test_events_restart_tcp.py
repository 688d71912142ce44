"""A restart of the server (over real TCP, the database file kept) in the middle of an event's
round: the event and its tables' games come back, the players resume their seats by their
tokens, the event plays to its end and its standings equal the hand count of its logs."""

from __future__ import annotations

import pytest_twisted
from twisted.internet.task import Clock

from clock_sockets import ClockServer
from test_events_tcp import GRACE, hand_standings, player, run_clock


@pytest_twisted.ensureDeferred
async def test_a_restart_in_the_middle_of_a_round_resumes_the_event_and_its_games(tmp_path):
    clock = Clock()
    async with ClockServer(tmp_path, clock, claimed={"Root": "a-pw-for-root"}, reconnect_grace=GRACE) as server:
        root = await server.connect("127.0.0.99")
        root.send("/nick Root a-pw-for-root")
        await root.message("NICK", nick="Root")
        root.send("/newevent individual 2 3 30 +1 Restarted")
        await root.message("EVENT_CREATED")
        field = {}
        for i in range(8):
            nick = f"P{i:02d}"
            field[nick] = await player(server, nick, f"127.0.0.{2 + i}")
            field[nick].send("/enter 1")
            await field[nick].message("EVENT_ENTERED", name=nick)
        clock.advance(60)
        tables = list(server.lobby.tables)
        await run_clock(clock, lambda: any(len(t.game.game.rounds) >= 2 for t in tables if t.game is not None))
        before = {t.number: t.game.log_number for t in tables}
        tokens = {nick: client.token for nick, client in field.items()}
    clock = Clock()
    async with ClockServer(tmp_path, clock, reconnect_grace=GRACE) as server:
        event = server.lobby.events.get(1)
        assert event.state == "running" and len(event.played) == 1
        assert {t.number: t.game.log_number for t in server.lobby.tables} == before
        field = {}
        for i, (nick, token) in enumerate(tokens.items()):
            field[nick] = await player(server, nick, f"127.0.0.{2 + i}", token)
        assert all(any(k == "RETURNED" for k, _ in client.read) for client in field.values())
        await run_clock(clock, lambda: all(any(f["final"] for f in p.all_of("STANDINGS")) for p in field.values()))
        final = next(f for f in field["P00"].all_of("STANDINGS") if f["final"])
        logs = [t.log for r in event.played for t in r.tables]
        assert logs[:2] == [before[n] for n in sorted(before)]
        by_hand = hand_standings(server, logs)
    told = {row["name"]: (row["victory_points"], row["points"], row["games"]) for row in final["standings"]}
    assert told == by_hand and all(games == 2 for _, _, games in told.values())
