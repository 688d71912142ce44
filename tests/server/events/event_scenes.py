"""A lobby with real games on a `Clock` for the events' tests, and what the tests do with it:
players who enter, an event created as an admin's /newevent would, the clock run until a
round or the event is over."""

from __future__ import annotations

from random import Random

from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.server.events.record import EventRecord
from bswtichu.server.games.logs import GameLogStore
from bswtichu.server.tables.wiring import GameWiring
from bswtichu.service import build_lobby
from bswtichu.storage import Storage

from lobby_clients import Client

GRACE = 30.0  # seconds a missing player's game waits before his stand-in plays


def event_lobby(tmp_path, clock: Clock, storage: Storage | None = None, seed: int = 5):
    """(lobby, wiring) on ``clock``, games journaled in ``storage`` (a new in-memory one)."""
    storage = storage if storage is not None else Storage.open()
    config = ServerConfig(reconnect_grace=GRACE, log_folder=str(tmp_path / "logs"))
    seeds = Random(seed)
    wiring = GameWiring(clock, GameLogStore(config.log_folder), 1.0, GRACE,
                        seeds=lambda: seeds.getrandbits(64), storage=storage)
    lobby = build_lobby(clock, config, wiring, wiring.logs, storage=storage)
    wiring.restore(lobby.tables)
    lobby.events.restore(wiring.over_at_restore)
    return lobby, wiring


def new_event(lobby, fmt: str = "individual", rounds: int = 2, deals: int = 1, clock: int = 5,
              start_in: float = 60.0, entry: str = "everyone") -> EventRecord:
    now = lobby.tables.settings.clock.seconds()
    return lobby.events.create(EventRecord(0, "Friday", fmt, now + start_in, rounds, deals, clock, entry, "Root", 0))


def run_until(clock: Clock, done, limit: int = 20000, step: float = 1.0) -> None:
    """Advance ``clock`` a second at a time until ``done()``; fails after ``limit`` seconds."""
    for _ in range(limit):
        if done():
            return
        clock.advance(step)
    raise AssertionError("not done in time")


def players(lobby, count: int, prefix: str = "P") -> list[Client]:
    return [Client(lobby, f"{prefix}{i:02d}") for i in range(count)]
