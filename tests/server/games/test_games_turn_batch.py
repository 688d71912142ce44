"""One commit and one write per client per reactor turn, and nothing told before it is durable.

With ``later`` (the service passes the reactor's ``callLater(0, ...)``) the outbox
holds what a turn's lines and bot steps cause and flushes it at the turn's end,
after the storage committed the turn's journal steps in one transaction. Here the
turn's end is a fake clock's ``advance(0)``; the database is a real file, read
by a second connection as another process (a restarted server) would see it. The
server's own `Storage.open` keeps every other connection out while it runs (SQLite's
exclusive locking), so these tests open the same stores on a shared connection.
"""

from __future__ import annotations

import sqlite3
from random import Random

import pytest
from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.play.journal import ACT, JournalEntry
from bswtichu.engine import Pass
from bswtichu.server.tables.wiring import GameWiring
from bswtichu.server.games.logs import GameLogStore
from bswtichu.server.lobby import Lobby
from bswtichu.service import build_lobby
from bswtichu.server.text.messages import Message
from bswtichu.server.session import Outbox
from bswtichu.storage import ScryptCost, Storage, transaction
from bswtichu.storage.accounts import AccountStore
from bswtichu.storage.database import open_database
from bswtichu.storage.games import GameStore

from lobby_clients import Client
from test_server_outbox import machine_session

CHEAP = ScryptCost(n=2 ** 8)


def test_a_deferred_outbox_writes_once_at_the_turns_end_after_settling():
    scheduled, events = [], []
    outbox = Outbox(settle=lambda: events.append("settle"), later=scheduled.append)
    ann, ann_out = machine_session(outbox)
    bob, bob_out = machine_session(outbox)
    with outbox:
        ann.send(Message("A", {"n": 1}))
    with outbox:  # a second line in the same turn
        bob.send(Message("B", {"n": 1}))
        ann.send(Message("A", {"n": 2}))
    ann.send(Message("A", {"n": 3}))  # outside any line but before the flush: still in order
    assert len(scheduled) == 1 and ann_out.writes == [] and bob_out.writes == [] and events == []
    ann_out.send_lines = lambda lines, droppable=False: events.append(("ann", list(lines)))
    scheduled[0]()
    assert events == ["settle", ("ann", ['A {"n":1}', 'A {"n":2}', 'A {"n":3}'])]
    assert bob_out.writes == [(['B {"n":1}'], False)]
    assert not outbox.holding
    ann.send(Message("A", {"n": 4}))  # the turn is over: at once, settled first
    assert events[-2:] == ["settle", ("ann", ['A {"n":4}'])]


def test_a_droppable_line_while_a_flush_is_due_settles_and_sends_what_was_held_first():
    scheduled, settled = [], []
    outbox = Outbox(settle=lambda: settled.append(len(out.writes)), later=scheduled.append)
    ann, out = machine_session(outbox)
    with outbox:
        ann.send(Message("A", {"n": 1}))
    ann.send(Message("CHAT", {"n": 2}), droppable=True)
    assert out.writes == [(['A {"n":1}'], False), (['CHAT {"n":2}'], True)] and settled == [0]
    scheduled[0]()
    assert out.writes[2:] == []


def shared_storage(path) -> Storage:
    """The server's stores on ``path`` without its locks, so a second connection may read."""
    db = open_database(path)
    return Storage(db, AccountStore(db, CHEAP), GameStore(db))


def _journal_rows(path) -> int:
    with sqlite3.connect(path) as reader:
        return reader.execute("SELECT count(*) FROM game_journal").fetchone()[0]


def test_batched_steps_are_invisible_until_committed_and_a_transaction_commits_them_first(tmp_path):
    path = tmp_path / "db.sqlite3"
    storage = shared_storage(path)
    games = storage.games
    games.batched = True
    game = games.begin(1, 1, 5, {"round": 1}, ["a", "b", "c", "d"], {})
    for seq in range(3):
        games.append(game, seq, JournalEntry(ACT, player="a", action=Pass(0)))
    assert _journal_rows(path) == 0
    storage.commit()
    assert _journal_rows(path) == 3
    games.append(game, 3, JournalEntry(ACT, player="a", action=Pass(0)))
    with transaction(storage.db) as db:  # e.g. a finished game's result: the batch goes first
        db.execute("UPDATE games SET table_number = 2 WHERE id = ?", (game,))
    assert _journal_rows(path) == 4
    games.append(game, 4, JournalEntry(ACT, player="a", action=Pass(0)))
    storage.close()  # a clean stop commits what is pending
    assert _journal_rows(path) == 5


def test_a_failed_commit_breaks_and_abandons_the_games_of_the_batch(tmp_path):
    storage = Storage.open(str(tmp_path / "db.sqlite3"), cost=CHEAP)
    games = storage.games
    games.batched = True
    game = games.begin(1, 1, 5, {"round": 1}, ["a", "b", "c", "d"], {})
    storage.db.execute("PRAGMA defer_foreign_keys = ON")
    games.append(game, 0, JournalEntry(ACT, player="a", action=Pass(0)))
    games.append(game + 1, 0, JournalEntry(ACT, player="a", action=Pass(0)))  # no such game: COMMIT fails
    with pytest.raises(sqlite3.IntegrityError):
        storage.commit()
    assert games.broken == {game, game + 1}
    assert [g.id for g in games.running()] == []  # abandoned: a journal with a gap is never restored
    with pytest.raises(sqlite3.Error):
        games.append(game, 1, JournalEntry(ACT, player="a", action=Pass(0)))
    storage.close()


def batched_lobby(tmp_path, clock: Clock) -> tuple[Lobby, str, Storage]:
    path = str(tmp_path / "bswtichu.sqlite3")
    config = ServerConfig(log_folder=str(tmp_path / "logs"), bot_delay=0.0, database=path)
    storage = shared_storage(path)
    seeds = Random(11)
    wiring = GameWiring(clock, GameLogStore(config.log_folder), 0.0, config.reconnect_grace,
                        seeds=lambda: seeds.getrandbits(64), storage=storage)
    lobby = build_lobby(clock, config, wiring, wiring.logs, storage=storage,
                  later=lambda flush: clock.callLater(0, flush))
    return lobby, path, storage


def test_through_the_lobby_every_write_comes_after_the_commit_of_what_it_tells(tmp_path):
    clock = Clock()
    lobby, path, storage = batched_lobby(tmp_path, clock)
    people = [Client(lobby, name) for name in ("Ann", "Bob")]
    clock.advance(0)
    ann, bob = people
    for line in ("/join", "/round 1", "/bot random", "/bot random", "/legal push on"):
        ann.say(line)
    bob.say("/legal push on")
    clock.advance(0)
    bob.say("/join 1")
    clock.advance(0)
    reader = sqlite3.connect(path)
    checked = []

    def committed_first(client: Client):
        original = client.connection.send_lines

        def send_lines(lines, droppable=False):
            game = lobby.tables.get(1).game
            if game is not None and game.record is not None:  # everything journaled is committed
                rows = reader.execute("SELECT count(*) FROM game_journal WHERE game_id = ?",
                                      (game.record.game_id,)).fetchone()[0]
                assert rows == game.record.seq
                checked.append(rows)
            original(lines, droppable)
        client.connection.send_lines = send_lines

    for person in people:
        committed_first(person)
        person.clear()
    ann.say("/start")
    assert ann.connection.lines == []  # held until the turn ends
    rng = Random(4)
    held_steps = 0
    pending: dict[Client, list[str]] = {}
    for _ in range(1000):
        clock.advance(0)
        clock.advance(0)  # a bot step is a turn of its own; its flush the next
        for person in people:
            legal = [fields["commands"] for keyword, fields in person.received() if keyword == "LEGAL"]
            if legal:
                pending[person] = legal[-1]
            person.clear()
        if lobby.tables.get(1).game is None:
            break
        options = [(person, commands) for person, commands in pending.items() if commands]
        if not options:
            continue
        person, commands = rng.choice(options)
        del pending[person]
        command = rng.choice(commands)
        if command.startswith("/schupf "):
            person.say("/hand")
            clock.advance(0)
            hand = next(f["cards"] for k, f in person.received() if k == "HAND")
            person.clear()
            command = "/schupf " + " ".join(hand[:3])
        seq = lobby.tables.get(1).game.record.seq
        person.say(command)
        game = lobby.tables.get(1).game
        if game is not None and game.record.seq > seq:  # a step, written but not yet committed
            assert reader.execute("SELECT count(*) FROM game_journal WHERE game_id = ?",
                                  (game.record.game_id,)).fetchone()[0] < game.record.seq
            assert person.connection.lines == []
            held_steps += 1
    assert lobby.tables.get(1).game is None  # the game was played to its end
    assert held_steps > 10 and len(checked) > 20
    reader.close()
    storage.close()
