"""Events on PostgreSQL: every write of an event's record is committed as it is made (another
connection reads it while the server runs: nothing is left in an open transaction), and an
event created, entered, started and its first round played survives a restart, plays its
second round on the games that came back, and ends."""

from __future__ import annotations

import json

from twisted.internet.task import Clock

from bswtichu.storage import Storage

from event_scenes import event_lobby, new_event, players, run_until
from postgres_fixtures import CHEAP


def committed(url: str) -> dict[int, dict]:
    """The events as another connection reads them: only what is committed."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as other:
        rows = other.execute("SELECT number, data, finished FROM events ORDER BY number").fetchall()
    return {number: {**json.loads(data), "finished": bool(finished)} for number, data, finished in rows}


def test_an_event_on_postgresql_is_committed_as_it_goes_and_survives_a_restart(tmp_path, postgres_url):
    clock = Clock()
    storage = Storage.open(postgres_url, cost=CHEAP)
    lobby, _ = event_lobby(tmp_path, clock, storage)
    event = new_event(lobby, rounds=2, deals=2)
    assert committed(postgres_url)[1]["state"] == "open"
    field = players(lobby, 8)
    for p in field:
        p.say(f"/enter {event.number}")
    assert len(committed(postgres_url)[1]["entrants"]) == 8
    clock.advance(60)
    assert committed(postgres_url)[1]["state"] == "running"
    run_until(clock, lambda: len(event.played) == 2)  # round 1 played, round 2 seated
    seen = committed(postgres_url)[1]
    assert [len(t["deals"]) for t in seen["played"][0]["tables"]] == [2, 2] and len(seen["played"]) == 2
    run_until(clock, lambda: any(t.game is not None and len(t.game.game.rounds) == 2 for t in lobby.tables))
    before = {t.number: t.game.log_number for t in lobby.tables}
    first_round = [[d.to_data() for d in t.deals] for t in event.played[0].tables]
    lobby.shutdown("restart")
    storage.close()

    clock = Clock()
    storage = Storage.open(postgres_url, cost=CHEAP)
    lobby, _ = event_lobby(tmp_path, clock, storage)
    event = lobby.events.get(1)
    assert event.state == "running" and len(event.played) == 2
    assert [[d.to_data() for d in t.deals]
            for t in event.played[0].tables] == first_round
    assert {t.number: t.game.log_number for t in lobby.tables} == before  # round 2's games came back
    run_until(clock, lambda: event.state == "finished")
    assert [len(t.deals) for r in event.played for t in r.tables] == [2] * 4
    stored = committed(postgres_url)[1]
    assert stored["state"] == "finished" and stored["finished"] and len(stored["played"]) == 2
    storage.close()
