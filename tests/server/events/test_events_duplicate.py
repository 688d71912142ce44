"""A duplicate event of 8 pairs over 2 rounds of 4 deals on the domain's lobby, its games
played by the turn clock's bots: every table of a round was dealt the same cards in the same
seats (read from the games' .tch logs), and the match points told equal a count made here
from the logs' results."""

from __future__ import annotations

from collections import defaultdict

from twisted.internet.task import Clock

from bswtichu.tch import read_tch

from event_scenes import event_lobby, new_event, players, run_until
from lobby_clients import Client


def dealt(round_log) -> tuple:
    """The cards of each seat as dealt (the first 8, then all 14 before the exchange)."""
    return tuple(tuple(sorted(map(str, hand))) for hand in round_log.grand_hands + round_log.start_hands)


def test_a_duplicate_event_deals_alike_and_scores_match_points(tmp_path):
    clock = Clock()
    lobby, wiring = event_lobby(tmp_path, clock)
    event = new_event(lobby, fmt="duplicate", rounds=2, deals=4)
    field = players(lobby, 16)
    for first, second in zip(field[0::2], field[1::2]):
        first.say(f"/enter {event.number} with {second.session.nick}")
        assert first.only("EVENT_OFFER")["partner"] == second.session.nick
        second.say(f"/enter {event.number} with {first.session.nick}")
        assert first.received()[-1][0] == second.received()[-1][0] == "EVENT_ENTERED"
    clock.advance(60)
    fan = Client(lobby, "Fan")
    tables = [t.table for t in event.played[0].tables]
    own = field[0].session.table.number
    other = next(t for t in tables if t != own)
    field[0].say("/leave")  # away from his table, he is still a player of the round
    field[0].clear()
    field[0].say(f"/watch {other}")  # the other tables hold his deals
    assert field[0].error_code() == "round_player"
    field[0].say(f"/join {own}")
    assert field[0].received()[-1][0] != "ERROR"
    fan.say(f"/watch {other}")
    assert fan.received()[-1][0] == "SPECTATOR_JOINED"
    games = lobby.events.games
    assert not any(games.readable(t.log, "Fan") for t in event.played[0].tables)
    fan.clear()
    fan.say(f"/event {event.number}")
    assert fan.only("EVENT")["event"]["seed"] is None  # it makes the deals: shown once over
    run_until(clock, lambda: event.state == "finished")
    assert all(games.readable(t.log, "Fan") for r in event.played for t in r.tables)
    fan.clear()
    fan.say(f"/event {event.number}")
    assert fan.only("EVENT")["event"]["seed"] == event.seed
    pair_of = {p: "+".join(unit) for unit in event.entrants for p in unit}
    match_points: dict[str, int] = defaultdict(int)
    for played in event.played:
        logs = [read_tch(wiring.logs.read(t.log)) for t in played.tables]
        assert all(len(log.rounds) == 4 for log in logs)
        for deal in range(4):
            hands = {dealt(log.rounds[deal]) for log in logs}
            assert len(hands) == 1  # the same cards in the same seats at all 4 tables
            margins = [(pair_of[t.seats[0]], pair_of[t.seats[1]],
                        log.rounds[deal].result.team_0_2 - log.rounds[deal].result.team_1_3)
                       for t, log in zip(played.tables, logs)]
            for north, east, margin in margins:
                others = [m for _, _, m in margins]
                others.remove(margin)
                match_points[north] += sum(2 if margin > o else 1 if margin == o else 0 for o in others)
                match_points[east] += sum(2 if -margin > -o else 1 if margin == o else 0 for o in others)
    first_deals = [dealt(read_tch(wiring.logs.read(r.tables[0].log)).rounds[0]) for r in event.played]
    assert first_deals[0] != first_deals[1]  # each round its own deals
    final = [f for k, f in field[0].received() if k == "STANDINGS"][-1]
    assert final["final"] and final["round"] == 2
    assert {row["name"]: row["victory_points"] for row in final["standings"]} == dict(match_points)
    assert sum(match_points.values()) == 2 * 4 * 2 * (4 * 3)  # per deal, each direction: T(T-1)
