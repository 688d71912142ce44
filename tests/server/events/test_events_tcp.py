"""A whole individual event over real loopback TCP: 16 scripted clients (programs that play
the first entry of every LEGAL pushed to them; one of them never answers, so his turn clock
runs out and a bot plays for him), one who drops in round 2 and comes back to his seat while
his stand-in plays, 4 rounds of 2 deals. The final STANDINGS equal a hand computation from the
games' .tch logs (R13.3.3's victory points per deal, counted here from the cards played)."""

from __future__ import annotations

import json
from collections import Counter

import pytest_twisted
from twisted.internet.defer import Deferred
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.task import Clock, deferLater

from bswtichu.tch import read_tch
from bswtichu.tch.model import Play, TichuCall

from clock_sockets import ClockServer
from test_net_network import TIMEOUT, LineClient, reactor

GRACE = 30.0
PLAYERS = 16
SLEEPY, LEAVER = "P15", "P07"


class EventPlayer(LineClient):
    """A program at the event: it answers each pushed LEGAL with its first command (unless
    ``sleepy``) and keeps every message it read."""

    def __init__(self, sleepy: bool = False) -> None:
        super().__init__()
        self.sleepy = sleepy
        self.read: list[tuple[str, dict]] = []
        self._buffer = b""
        self.gone: Deferred = Deferred()

    def dataReceived(self, data: bytes) -> None:
        super().dataReceived(data)
        self._buffer += data
        *complete, self._buffer = self._buffer.split(b"\r\n")
        for raw in complete:
            keyword, _, payload = raw.decode("utf-8").partition(" ")
            fields = json.loads(payload) if payload.startswith("{") else {}
            self.read.append((keyword, fields))
            if keyword == "LEGAL" and fields.get("commands") and not self.sleepy:
                self.send(fields["commands"][0])

    def connectionLost(self, reason: object = None) -> None:
        super().connectionLost(reason)
        self.gone.callback(None)

    def all_of(self, keyword: str) -> list[dict]:
        return [fields for k, fields in self.read if k == keyword]


async def player(server: ClockServer, nick: str, address: str, token: str | None = None) -> EventPlayer:
    """A program connected from ``address``, named ``nick`` (or back by its ``token``), pushed its LEGAL."""
    endpoint = TCP4ClientEndpoint(reactor(), "127.0.0.1", server.port.getHost().port, bindAddress=(address, 0))
    client = await connectProtocol(endpoint, EventPlayer(nick == SLEEPY)).addTimeout(TIMEOUT, reactor())
    server.clients.append(client)
    await client.wait_for(lambda line: line.startswith("Limits:"))
    client.send("/mode machine")
    await client.message("MODE")
    client.send(f"/resume {token}" if token else f"/nick {nick}")
    await client.message("NICK", nick=nick)
    if token is None:
        client.token = (await client.message("RESUME_TOKEN"))["token"]
    client.send("/legal push on")
    await client.message("LEGAL_PUSH")
    return client


async def run_clock(clock: Clock, done, limit: int = 400000) -> None:
    """Advance ``clock`` a quarter second per turn of the reactor (so the clients' lines are
    read between) until ``done()``."""
    for _ in range(limit):
        if done():
            return
        await deferLater(reactor(), 0, lambda: None)
        clock.advance(0.25)
    raise AssertionError("the event did not end")


def out_order(round_log) -> list[int]:
    """The seats in the order they went out: each holds 14 cards after the exchange."""
    played, order = Counter(), []
    for entry in round_log.entries:
        if isinstance(entry, Play):
            played[entry.seat] += len(entry.cards)
            if played[entry.seat] == 14:
                order.append(entry.seat)
    return order


def hand_victory_points(round_log) -> tuple[int, int]:
    """R13.3.3 for one deal, from its log: a double victory 3 (2 with a failed call of the
    winners), else 2 for more points, 1 each for equal."""
    result = round_log.result
    order = out_order(round_log)
    callers = {e.seat for e in round_log.entries if isinstance(e, TichuCall)} | set(round_log.grand_tichu_callers)
    failed_teams = {seat % 2 for seat in callers if not order or seat != order[0]}
    if len(order) >= 2 and order[0] % 2 == order[1] % 2:
        team = order[0] % 2
        vp = 2 if team in failed_teams else 3
        return (vp, 0) if team == 0 else (0, vp)
    a, b = result.team_0_2, result.team_1_3
    return (1, 1) if a == b else (2, 0) if a > b else (0, 2)


def hand_standings(server: ClockServer, logs: list[int]) -> dict[str, tuple[int, int, int]]:
    """name -> (victory points, points, games) summed over the logged games."""
    totals: dict[str, list[int]] = {}
    for number in logs:
        game = read_tch(server.wiring.logs.read(number))
        names = game.rounds[0].seat_names
        for name in names:
            totals.setdefault(name, [0, 0, 0])[2] += 1
        for round_log in game.rounds:
            vp = hand_victory_points(round_log)
            points = (round_log.result.team_0_2, round_log.result.team_1_3)
            for seat, name in enumerate(names):
                totals[name][0] += vp[seat % 2]
                totals[name][1] += points[seat % 2]
    return {name: tuple(t) for name, t in totals.items()}


@pytest_twisted.ensureDeferred
async def test_sixteen_players_play_a_whole_individual_event_over_tcp(tmp_path):
    clock = Clock()
    async with ClockServer(tmp_path, clock, claimed={"Root": "a-pw-for-root"}, reconnect_grace=GRACE) as server:
        root = await server.connect("127.0.0.99")
        root.send("/nick Root a-pw-for-root")
        await root.message("NICK", nick="Root")
        root.send("/newevent individual 4 2 30 +1 Evening league")
        number = (await root.message("EVENT_CREATED"))["event"]["event"]
        field = {}
        for i in range(PLAYERS):
            nick = f"P{i:02d}"
            field[nick] = await player(server, nick, f"127.0.0.{2 + i}")
            field[nick].send(f"/enter {number}")
            await field[nick].message("EVENT_ENTERED", name=nick)
        clock.advance(60)
        leaver = field[LEAVER]
        await run_clock(clock, lambda: any(f["round"] == 2 for f in leaver.all_of("EVENT_SEAT")))
        seat = next(f for f in leaver.all_of("EVENT_SEAT") if f["round"] == 2)
        leaver.transport.loseConnection()
        await leaver.gone.addTimeout(TIMEOUT, reactor())
        clock.advance(GRACE)  # his game waited for him; now a bot plays his seat
        mates = [field[n] for n in field if n != LEAVER]
        await run_clock(clock, lambda: any(f.get("player") == LEAVER for m in mates for f in m.all_of("SUBSTITUTE")))
        back = await player(server, LEAVER, "127.0.0.40", leaver.token)
        back.send(f"/join {seat['table']} {seat['seat']}")
        assert (await back.message("RETURNED"))["nick"] == LEAVER
        field[LEAVER] = back
        await run_clock(clock, lambda: all(any(f["final"] for f in p.all_of("STANDINGS")) for p in field.values()))
        final = next(f for f in field["P00"].all_of("STANDINGS") if f["final"])
        root.send(f"/event {number}")
        record = (await root.message("EVENT"))["event"]
    assert final["round"] == 4
    logs = [t["log"] for r in record["played"] for t in r["tables"]]
    assert len(logs) == 16  # 4 rounds of 4 tables
    by_hand = hand_standings(server, logs)
    told = {row["name"]: (row["victory_points"], row["points"], row["games"]) for row in final["standings"]}
    assert told == by_hand
    places = [row["place"] for row in final["standings"]]
    assert places == sorted(places) and places[0] == 1
    marked = {row["name"]: row["stood_in"] for row in final["standings"]}
    assert marked[SLEEPY] == 4 and marked[LEAVER] >= 1
    partners = Counter(frozenset((t["seats"][i], t["seats"][i + 2])) for r in record["played"]
                       for t in r["tables"] for i in (0, 1))
    assert max(partners.values()) == 1  # nobody partnered anyone twice
