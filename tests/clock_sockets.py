"""A lobby whose tables and games run on a `Clock`, reached over real loopback TCP.

`TichuService` runs its tables on the reactor; tests of what tables do in minutes or a day
(abandoning, pause limits) need time they can advance. ``ClockServer`` is the service's
lobby built the same way (`build_lobby`, a `GameWiring` with a database file) on a `Clock`,
behind a real line port on loopback. Leaving it stops it as the service stops (everyone
told, the file closed); a second one on the same file is the server after a restart (it
restores the unfinished games). Every awaited Deferred has a timeout.
"""

from __future__ import annotations

from random import Random

from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.net.kinds import kind_named
from bswtichu.server.tables.wiring import GameWiring
from bswtichu.server.games.logs import GameLogStore
from bswtichu.service import build_lobby
from bswtichu.storage import ScryptCost, Storage
from bswtichu.storage.accounts import hash_password

from test_net_network import TIMEOUT, LineClient, machine_client_from, reactor

CHEAP = ScryptCost(n=2 ** 8)  # the same scrypt, cheap enough for tests
DELAY = 1.0  # a bot's delay on the clock


class ClockServer:
    """``async with ClockServer(tmp_path, clock, **settings) as server``: the lobby on ``clock``
    behind a line port of 127.0.0.1; ``settings`` are more `ServerConfig` values."""

    def __init__(self, tmp_path, clock: Clock, seed: int = 7, claimed: dict[str, str] | None = None,
                 **settings: object) -> None:
        """``claimed``: admin names and passwords the operator claimed before the start (as
        ``bswtichu admin add`` does)."""
        self.clock = clock
        self.config = ServerConfig(log_folder=str(tmp_path / "logs"), bot_delay=DELAY,
                                   database=str(tmp_path / "bswtichu.sqlite3"),
                                   line_flood_rate=100000.0, line_flood_burst=100000, **settings)
        self.storage = Storage.open(self.config.database, cost=CHEAP)
        for name, password in (claimed or {}).items():
            self.storage.admins.claim(name, hash_password(password, CHEAP))
        seeds = Random(seed)
        self.wiring = GameWiring(clock, GameLogStore(self.config.log_folder), DELAY,
                                 self.config.reconnect_grace, seeds=lambda: seeds.getrandbits(64),
                                 storage=self.storage)
        self.lobby = build_lobby(clock, self.config, self.wiring, self.wiring.logs, storage=self.storage)
        self.wiring.restore(self.lobby.tables)
        self.lobby.events.restore(self.wiring.over_at_restore)  # as the service does: after the games
        self.clients: list[LineClient] = []

    async def __aenter__(self) -> ClockServer:
        factory = kind_named("line").build(self.lobby, self.config, reactor())
        self.port = reactor().listenTCP(0, factory, interface="127.0.0.1")
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self.lobby.shutdown("the test ends")
        await self.port.stopListening()
        for client in self.clients:
            await client.lost.addTimeout(TIMEOUT, reactor())
        self.storage.close()

    async def connect(self, address: str = "127.0.0.1") -> LineClient:
        """A line-port client in machine mode, connected from ``address`` (any of 127.0.0.0/8:
        all loopback on Linux)."""
        client = await machine_client_from(self.port.getHost().port, address)
        self.clients.append(client)
        return client

    async def person(self, nick: str, address: str = "127.0.0.1") -> LineClient:
        """A guest called ``nick``; ``client.token`` resumes the name (after a restart too)."""
        client = await self.connect(address)
        client.send(f"/nick {nick}")
        await client.message("NICK", nick=nick)
        client.token = (await client.message("RESUME_TOKEN"))["token"]
        return client

    async def resume(self, token: str, address: str = "127.0.0.1") -> LineClient:
        """A guest back under his name by its token."""
        client = await self.connect(address)
        client.send(f"/resume {token}")
        await client.message("NICK")
        return client


async def tables(client: LineClient) -> list[dict]:
    """The tables as ``/tables`` lists them now (a round trip: what came before has arrived)."""
    client.send("/tables")
    return (await client.message("TABLES"))["tables"]
