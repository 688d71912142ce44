"""PostgreSQL's commits off the reactor, through the lobby, on a real PostgreSQL.

A second connection holds a lock on the journal, so the writer's commit waits at the
database: nobody is told of the step meanwhile (not even of his own action), what
follows queues behind it in order, the turns made meanwhile go in one batch, and once
the lock goes everything arrives.  A batch that fails breaks and abandons its games.  A slow read (/history held by a
lock) leaves the game at another table going.
"""

from __future__ import annotations

from random import Random

import pytest
import pytest_twisted
from twisted.internet import reactor
from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.counters import Counters
from bswtichu.engine import Pass
from bswtichu.records import ACT, JournalEntry
from bswtichu.server.games.logs import GameLogStore
from bswtichu.server.games.writer import BatchWriter
from bswtichu.server.people.reads import Reads
from bswtichu.server.tables.wiring import GameWiring
from bswtichu.service import build_lobby
from bswtichu.storage import ScryptCost, Storage

from lobby_clients import Client

TIMEOUT = 30.0


@pytest.fixture
def postgres_storage(postgres_url):
    storage = Storage.open(postgres_url, cost=ScryptCost(n=2 ** 8))
    yield storage
    storage.close()


@pytest.fixture
def writer(postgres_storage):
    writer = BatchWriter(reactor, postgres_storage, Counters())
    writer.start()
    yield writer
    writer.pool.stop()


@pytest.fixture
def reads(postgres_storage):
    reads = Reads(postgres_storage, reactor=reactor)
    reads.start()
    yield reads
    reads.stop()


def lobby_on(storage: Storage, writer: BatchWriter, tmp_path, reads: Reads | None = None):
    """A lobby whose turns end when the test says (``turn``) and whose commits go to ``writer``."""
    clock, scheduled = Clock(), []
    config = ServerConfig(log_folder=str(tmp_path / "logs"), bot_delay=0.0)
    seeds = Random(11)
    wiring = GameWiring(clock, GameLogStore(config.log_folder), 0.0, config.reconnect_grace,
                        seeds=lambda: seeds.getrandbits(64), storage=storage)
    lobby = build_lobby(clock, config, wiring, wiring.logs, storage=storage, later=scheduled.append, writer=writer,
                        reads=reads)

    def turn() -> None:
        """The end of a reactor turn: bot steps due now, then the flushes."""
        clock.advance(0)
        while scheduled:
            scheduled.pop(0)()

    return lobby, turn


def journal_rows(url: str) -> int:
    import psycopg

    with psycopg.connect(url) as reader:
        return reader.execute("SELECT count(*) FROM game_journal").fetchone()[0]


def legal(client: Client) -> list[str]:
    return [fields["commands"] for keyword, fields in client.received() if keyword == "LEGAL"][-1]


@pytest_twisted.ensureDeferred
async def test_nobody_is_told_before_the_commit_fires_and_lines_keep_their_order(
        postgres_url, postgres_storage, writer, tmp_path):
    import psycopg

    lobby, turn = lobby_on(postgres_storage, writer, tmp_path)
    ann, bob = Client(lobby, "Ann"), Client(lobby, "Bob")
    turn()  # their greetings (rendered before machine mode)
    ann.clear()
    bob.clear()
    for line in ("/join", "/round 1", "/bot random", "/bot random", "/legal push on"):
        ann.say(line)
    bob.say("/join 1")
    bob.say("/legal push on")
    ann.say("/start")
    turn()
    await writer.idle().addTimeout(TIMEOUT, reactor)
    turn()  # the bots' first decisions, and what waited
    await writer.idle().addTimeout(TIMEOUT, reactor)
    committed = journal_rows(postgres_url)
    assert committed > 0 and not postgres_storage.pending
    command, answer = legal(ann)[0], legal(bob)[0]
    ann.clear()
    bob.clear()
    batches = writer.batches
    with psycopg.connect(postgres_url) as locker:  # the journal is locked: the commit waits
        locker.execute("LOCK TABLE game_journal IN EXCLUSIVE MODE")
        ann.say(command)
        turn()
        assert writer.in_flight is not None
        ann.say("/hand")  # answered in a later turn: behind the action's lines
        turn()
        bob.say(answer)  # his step gathers for the next batch
        turn()
        assert postgres_storage.pending
        assert ann.connection.lines == [] and bob.connection.lines == []
        assert journal_rows(postgres_url) == committed  # neither step is in the database yet
        assert locker.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS
    await writer.idle().addTimeout(TIMEOUT, reactor)  # the lock went with the transaction
    told = [keyword for keyword, _ in ann.received()]
    assert told and told.index("HAND") > 0 and "ERROR" not in told  # the action's lines came first
    assert writer.batches - batches == 2  # the held one, then everything gathered meanwhile in one
    told_bob = [keyword for keyword, _ in bob.received()]
    assert told_bob and "ERROR" not in told_bob  # he hears of both steps, now
    assert journal_rows(postgres_url) == sum(
        table.game.record.seq for table in [lobby.tables.get(1)] if table.game is not None)


@pytest_twisted.ensureDeferred
async def test_a_failed_batch_breaks_and_abandons_its_games_and_what_waited_goes_out(
        postgres_storage, writer, logged_errors):
    games = postgres_storage.games
    games.batched = True
    good = games.begin(1, 1, 1, {}, ["a", "b", "c", "d"], {})
    bad = games.begin(2, 2, 2, {}, ["a", "b", "c", "d"], {})
    games.append(good, 0, JournalEntry(ACT, player="a", action=Pass(0)))
    done = writer.commit()
    games.append(bad, 0, JournalEntry(ACT, player="a", action=Pass(0)))
    games.append(bad, 0, JournalEntry(ACT, player="a", action=Pass(0)))  # a duplicate step: the batch fails
    later = writer.commit()  # gathered behind the one in flight
    await done.addTimeout(TIMEOUT, reactor)
    await later.addTimeout(TIMEOUT, reactor)
    assert games.broken == {bad} and writer.counters.commit_failed
    assert [game.id for game in games.running()] == [good]  # the broken one set aside
    assert len(games.journal(good)) == 1 and games.journal(bad) == []
    assert len(logged_errors) == 1
    with pytest.raises(postgres_storage.db.OperationalError, match="lost journal steps"):
        games.append(bad, 1, JournalEntry(ACT, player="a", action=Pass(0)))


@pytest_twisted.ensureDeferred
async def test_a_slow_read_does_not_stall_a_game_at_another_table(
        postgres_url, postgres_storage, writer, reads, tmp_path):
    import psycopg

    lobby, turn = lobby_on(postgres_storage, writer, tmp_path, reads)
    ann, bob, cy = Client(lobby, "Ann"), Client(lobby, "Bob"), Client(lobby, "Cy")
    turn()
    for line in ("/join", "/round 1", "/bot random", "/bot random", "/bot random", "/legal push on"):
        ann.say(line)
    ann.say("/start")
    turn()
    await writer.idle().addTimeout(TIMEOUT, reactor)
    turn()
    await writer.idle().addTimeout(TIMEOUT, reactor)
    command = legal(ann)[0]
    for client in (ann, bob, cy):
        client.clear()
    with psycopg.connect(postgres_url) as locker:  # /history reads game_players: held
        locker.execute("LOCK TABLE game_players IN ACCESS EXCLUSIVE MODE")
        cy.say("/history")
        bob.say("/stats")
        turn()
        assert reads.in_flight == 2
        ann.say(command)  # the game at table 1 goes on meanwhile
        turn()
        await writer.idle().addTimeout(TIMEOUT, reactor)
        told = [keyword for keyword, _ in ann.received()]
        assert told and "ERROR" not in told
        assert cy.connection.lines == [] and bob.connection.lines == [] and reads.in_flight == 2
    await reads.idle().addTimeout(TIMEOUT, reactor)
    turn()  # the answers' flush
    assert cy.only("HISTORY")["games"] == []
    assert bob.only("STATS")["games"] == 0
