"""An event on the domain's lobby with real games on a Clock: entering, the start with those
present, rounds seated at marked tables, stand-ins marked, standings told, the event's end."""

from __future__ import annotations

from twisted.internet.task import Clock

from event_scenes import event_lobby, new_event, players, run_until


def test_an_individual_event_runs_its_rounds_and_tells_the_standings(tmp_path):
    clock = Clock()
    lobby, _ = event_lobby(tmp_path, clock)
    event = new_event(lobby, rounds=2, deals=1)
    field = players(lobby, 9)
    for p in field[:8]:
        p.say(f"/enter {event.number}")
        assert p.received()[-1][0] == "EVENT_ENTERED"
    late = field[8]
    clock.advance(60)
    assert event.state == "running"
    seated = field[0].only("EVENT_ROUND")
    assert len(seated["tables"]) == 2 and seated["byes"] == []
    tables = [lobby.tables.get(t["table"]) for t in seated["tables"]]
    assert all(t.started and t.event == "event 1 round 1" for t in tables)
    assert all(t.option_data()["exact_rounds"] and t.options.clock == 5 for t in tables)
    mine = field[0].only("EVENT_SEAT")
    assert field[0].session.table.number == mine["table"]
    late.say(f"/enter {event.number}")
    assert late.error_code() == "event_started"
    run_until(clock, lambda: event.state == "finished")
    final = [f for k, f in field[0].received() if k == "STANDINGS"]
    assert [f["round"] for f in final] == [1, 2] and final[-1]["final"]
    rows = final[-1]["standings"]
    assert sorted(r["name"] for r in rows) == sorted(f"P{i:02d}" for i in range(8))
    assert all(r["games"] == 2 for r in rows)
    deals = [d for r in event.played for t in r.tables for d in t.deals]
    assert len(deals) == 4  # 2 rounds x 2 tables x 1 deal
    assert sum(r["victory_points"] for r in rows) == 2 * sum(sum(d.victory_points) for d in deals)
    assert len(lobby.tables) == 0  # the event's tables went with their games
