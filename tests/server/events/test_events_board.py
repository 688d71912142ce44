"""An event on the domain's lobby with real games on a Clock: entering, the start with those
present, rounds seated at marked tables, stand-ins marked, standings told, the event's end."""

from __future__ import annotations

from twisted.internet.task import Clock

from bswtichu.storage import Storage

from event_scenes import event_lobby, new_event, players, run_until
from lobby_clients import Client


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


def test_a_restart_in_the_middle_of_a_round_resumes_the_event_and_its_games(tmp_path):
    path = str(tmp_path / "events.sqlite3")
    clock = Clock()
    storage = Storage.open(path)
    lobby, _ = event_lobby(tmp_path, clock, storage)
    event = new_event(lobby, rounds=2, deals=2)
    field = players(lobby, 8)
    for p in field:
        p.say(f"/enter {event.number}")
    clock.advance(60)
    run_until(clock, lambda: any(t.game is not None and len(t.game.game.rounds) == 2 for t in lobby.tables))
    before = {t.number: (t.game.log_number, len(t.game.game.rounds)) for t in lobby.tables}
    token = field[0].token
    lobby.shutdown("restart")
    storage.close()

    clock = Clock()
    storage = Storage.open(path)
    lobby, _ = event_lobby(tmp_path, clock, storage)
    event = lobby.events.get(1)
    assert event.state == "running" and len(event.played) == 1
    tables = {t.number: t for t in lobby.tables}
    assert sorted(tables) == sorted(before)
    for number, (log, dealt) in before.items():
        table = tables[number]
        assert table.event == "event 1 round 1" and table.game.log_number == log
        assert len(table.game.game.rounds) == dealt
    back = Client(lobby)  # a player comes back and takes his seat
    back.say(f"/resume {token}")
    assert back.session.table is not None and back.session.table.number in before
    run_until(clock, lambda: event.state == "finished")
    assert [len(t.deals) for r in event.played for t in r.tables] == [2] * 4
    assert [t.log for t in event.played[0].tables] == [before[n][0] for n in sorted(before)]
    assert all(set(t.seats) - {"P00"} <= t.stood_in for t in event.played[0].tables)  # the others never came back
    stored = dict(storage.events.all())[1]
    assert stored["state"] == "finished" and len(stored["played"]) == 2
    storage.close()


def test_a_player_who_withdraws_during_the_event_keeps_his_results_and_is_not_seated_again(tmp_path):
    clock = Clock()
    lobby, _ = event_lobby(tmp_path, clock)
    event = new_event(lobby, rounds=2, deals=1)
    field = players(lobby, 8)
    for p in field:
        p.say(f"/enter {event.number}")
    clock.advance(60)
    quitter = field[7]
    quitter.clear()
    quitter.say(f"/withdraw {event.number}")
    assert quitter.only("EVENT_WITHDRAWN") == {"event": 1, "name": "P07", "entrants": 7}
    quitter.say(f"/withdraw {event.number}")
    assert quitter.received()[-1] == ("ERROR", {"code": "event_over",
                                                "message": "you withdrew from event 1 already"})
    run_until(clock, lambda: event.state == "finished")
    second = event.played[1].plan
    assert len(second.tables) == 1 and len(second.byes) == 3 and "P07" not in second.byes
    assert all("P07" not in seats for seats in second.tables)
    rows = {r.name: r for r in event.standings()}
    assert rows["P07"].games == 1 and sorted(r.byes for r in rows.values()).count(1) == 3


def test_a_game_the_restart_finds_over_gives_the_round_its_deals(tmp_path):
    """The server stopped between a table's last step and its result: the restore finishes the
    game, and the event reads the table's deals from it."""
    path = str(tmp_path / "events.sqlite3")
    clock = Clock()
    storage = Storage.open(path)
    lobby, _ = event_lobby(tmp_path, clock, storage)
    event = new_event(lobby, rounds=2, deals=1)
    for p in players(lobby, 8):
        p.say(f"/enter {event.number}")
    clock.advance(60)
    first = event.played[0]
    run_until(clock, lambda: any(t.done for t in first.tables))
    over = next(t for t in first.tables if t.done)
    deals = list(over.deals)
    lobby.shutdown("crash")
    storage.db.execute("UPDATE games SET state = 'running', result = NULL WHERE id = ?", (over.game,))
    storage.db.execute("DELETE FROM game_players WHERE game_id = ?", (over.game,))
    data = dict(storage.events.all())[1]
    data["played"][0]["tables"][first.tables.index(over)]["deals"] = None  # as if the crash came first
    storage.events.save(1, data, False)
    storage.close()

    clock = Clock()
    storage = Storage.open(path)
    lobby, _ = event_lobby(tmp_path, clock, storage)
    event = lobby.events.get(1)
    taken = next(t for t in event.played[0].tables if t.table == over.table)
    assert taken.deals == deals
    run_until(clock, lambda: event.state == "finished")
    assert all(len(t.deals) == 1 for r in event.played for t in r.tables)
    storage.close()


def test_a_player_seated_at_another_table_has_his_event_seat_held_until_he_comes(tmp_path):
    clock = Clock()
    lobby, _ = event_lobby(tmp_path, clock)
    event = new_event(lobby, rounds=1, deals=1)
    field = players(lobby, 8)
    for p in field:
        p.say(f"/enter {event.number}")
    busy = field[0]
    busy.say("/join")  # a table of his own, not the event's
    casual = busy.session.table
    busy.clear()
    clock.advance(60)
    seat = busy.only("EVENT_SEAT")
    assert seat["held"] and busy.session.table is casual
    table = lobby.tables.get(seat["table"])
    assert table.is_away(seat["seat"])
    busy.say("/leave")
    busy.clear()
    busy.say(f"/join {seat['table']} {seat['seat']}")
    assert "RETURNED" in busy.keywords() and not table.is_away(seat["seat"])
    record = next(t for t in event.played[0].tables if t.table == seat["table"])
    assert "P00" in record.stood_in  # marked: he was not there when the round began
    run_until(clock, lambda: event.state == "finished")
