"""/cancelevent: an admin or the event's creator cancels an event before it ends; its entrants
are told, its current round's games end unfinished (their tables close), it is kept as
cancelled and a restart does not bring it (nor its games) back."""

from __future__ import annotations

from twisted.internet.task import Clock

from bswtichu.storage import ScryptCost, Storage
from bswtichu.storage.accounts import hash_password

from event_scenes import event_lobby, new_event, players, run_until
from lobby_clients import Client

CHEAP = ScryptCost(n=2 ** 8)
PASSWORD = "secret-pw-1"


def admin_lobby(tmp_path, clock: Clock, storage: Storage):
    """A lobby with games on ``clock`` where the operator has claimed ``Root``, Root logged in."""
    storage.admins.claim("Root", hash_password(PASSWORD, CHEAP))
    lobby, wiring = event_lobby(tmp_path, clock, storage, admins="Root")
    return lobby, wiring, Client(lobby, f"Root {PASSWORD}")


def refused(client: Client, line: str) -> dict:
    client.clear()
    client.say(line)
    [(keyword, fields)] = client.received()
    assert keyword == "ERROR", client.connection.lines
    return fields


def test_an_admin_cancels_a_running_event_its_games_end_and_it_stays_cancelled(tmp_path):
    clock, path = Clock(), str(tmp_path / "events.db")
    storage = Storage.open(path, cost=CHEAP)
    lobby, _, root = admin_lobby(tmp_path, clock, storage)
    event = new_event(lobby, rounds=3, deals=4, clock=60)
    field = players(lobby, 8)
    for p in field:
        p.say(f"/enter {event.number}")
    fan = Client(lobby, "Fan")
    clock.advance(60)
    tables = [t["table"] for t in field[0].only("EVENT_ROUND")["tables"]]
    fan.say(f"/watch {tables[0]}")
    clock.advance(5)  # the round plays on a little
    for client in field + [fan, root]:
        client.clear()
    root.say(f"/cancelevent {event.number} the hall closes early")
    for client in field + [root]:
        told = client.only("EVENT_CANCELLED")
        assert told == {"event": event.number, "reason": "the hall closes early", "by": "Root"}
    assert fan.only("TABLE_CLOSED")["table"] == tables[0] and fan.session.table is None
    assert all(p.session.table is None for p in field) and len(lobby.tables) == 0
    assert event.state == "cancelled" and all(not t.done for t in event.played[0].tables)
    clock.advance(3600)  # no round is seated any more
    assert len(event.played) == 1 and len(lobby.tables) == 0
    assert refused(root, f"/cancelevent {event.number}")["code"] == "event_over"
    lobby.shutdown("restart")
    storage.close()
    storage = Storage.open(path, cost=CHEAP)
    again, _ = event_lobby(tmp_path, Clock(), storage)  # a restart
    [kept] = again.events.events.values()
    assert kept.state == "cancelled" and len(again.tables) == 0
    storage.close()


def test_the_creator_cancels_his_open_event_and_others_may_not(tmp_path):
    clock = Clock()
    lobby, _, root = admin_lobby(tmp_path, clock, Storage.open(cost=CHEAP))
    reg = Client(lobby, "Reg")
    reg.say(f"/register {PASSWORD}")
    root.say("/newevent individual 2 1 30 +5 Friday")
    event = lobby.events.get(1)
    event.creator = "Reg"  # as if Reg had opened it (players_create)
    field = players(lobby, 4)
    for p in field:
        p.say("/enter 1")
    guest = Client(lobby, "Ann")
    assert refused(guest, "/cancelevent 1")["code"] == "not_allowed"
    assert refused(field[0], "/cancelevent 1")["code"] == "not_allowed"
    assert refused(reg, "/cancelevent")["code"] == "usage"
    assert refused(reg, "/cancelevent x")["code"] == "usage"
    assert refused(reg, "/cancelevent 9")["code"] == "no_such_event"
    assert event.state == "open"
    for p in field:
        p.clear()
    reg.clear()
    reg.say("/cancelevent 1")
    assert reg.only("EVENT_CANCELLED") == {"event": 1, "reason": "no reason given", "by": "Reg"}
    assert all(p.only("EVENT_CANCELLED")["by"] == "Reg" for p in field)
    clock.advance(600)  # its start passes: nothing is seated
    assert event.state == "cancelled" and not event.played and len(lobby.tables) == 0


def test_a_table_an_admin_closes_counts_the_deals_it_finished_and_the_event_plays_on(tmp_path):
    clock = Clock()
    lobby, _, root = admin_lobby(tmp_path, clock, Storage.open(cost=CHEAP))
    event = new_event(lobby, rounds=2, deals=2, clock=60)
    field = players(lobby, 8)
    for p in field:
        p.say(f"/enter {event.number}")
    clock.advance(60)
    closed = event.played[0].tables[0]
    run_until(clock, lambda: lobby.tables.get(closed.table).game is not None
              and len(lobby.tables.get(closed.table).game.game.rounds) == 2)  # its second deal is dealt
    root.say(f"/close {closed.table} a broken table")
    assert closed.done and len(closed.deals) == 1  # the deal it finished counts
    run_until(clock, lambda: event.state == "finished")
    assert len(event.played) == 2 and [len(t.deals) for t in event.played[1].tables] == [2, 2]
    assert sum(row.games for row in event.standings()) == 8 * 2  # every player played both rounds
