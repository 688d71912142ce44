"""The game wiring: the tables' game factory, which builds a game when a table starts.

It holds what every game of the server shares (the clock, the game logs, the bots'
settings, workers and reactor turns, the seeds, the storage) and puts a `TableGame`
together from them: the driver with its bots, the journal and the log as its
subscribers. With storage it also brings unfinished games back after a restart
(`GameWiring.restore`). Apart from `TableGame`, which is the game at one table once
built, because building and restoring need the storage and the logs, playing does not.
"""

from __future__ import annotations

from dataclasses import replace
from random import SystemRandom
from typing import Callable, Sequence

from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from bswtichu.bots import BotSettings
from bswtichu.counters import Counters
from bswtichu.engine import NANJING, Card, Game, GameOptions, Variant, card, variant_named
from bswtichu.play import SUBSTITUTE_LEVEL, BotTurns, GameDriver, GameSeeds, seated_bots
from bswtichu.play.journal import replay_journal
from bswtichu.play.workers import BotWorkers
from bswtichu.records import Seed
from bswtichu.server.games.durable import DurableGame
from bswtichu.server.games.logs import GameLogRecorder, GameLogStore
from bswtichu.server.tables.hall import TableHall
from bswtichu.server.tables.table import Table
from bswtichu.server.tables.table_game import TableGame
from bswtichu.storage import Storage, StoredGame


#: the key under which a game's preset deals are stored with its table options
DEALS_KEY = "deals"


def deal_text(deal: Sequence[Card]) -> str:
    """A deal as stored: its 56 cards' notation in deal order, separated by spaces."""
    return " ".join(each.text for each in deal)


def parse_deal(text: str) -> tuple[Card, ...]:
    """A stored deal (`deal_text`) read back."""
    return tuple(card(token) for token in text.split())


class GameWiring:
    """The tables' game factory: builds a `TableGame` (driver, bots, log) when a table starts.

    ``seeds()`` gives each game its seed; everything random in the game is drawn from it.
    With ``storage`` every game is journaled (subscribed first, so each step is
    committed before anyone is told) and `restore` brings unfinished games back.
    """

    log = Logger()

    def __init__(self, clock: IReactorTime, logs: GameLogStore, bot_delay: float,
                 substitute_after: float,
                 seeds: Callable[[], Seed] = lambda: SystemRandom().getrandbits(64),
                 storage: Storage | None = None,
                 bot_settings: BotSettings = BotSettings(), counters: Counters | None = None,
                 workers: BotWorkers | None = None):
        """``counters``: what the games count for the operator (service.build_lobby's, shared);
        ``workers``: the processes that make the costly bots' decisions (None: here)."""
        self.workers = workers
        self.clock = clock
        self.counters = counters
        self.turns = BotTurns(clock)  # all tables' bot steps, one per reactor turn
        self.bot_settings = bot_settings
        self.logs = logs
        self.bot_delay = bot_delay
        self.substitute_after = substitute_after
        self.seeds = seeds
        self.storage = storage
        #: the stored games `restore` found over (their last step stored, their result not yet),
        #: by log number: an event's round reads its deals from them (server/events)
        self.over_at_restore: dict[int, Game] = {}
        if storage is not None:
            logs.continue_after(storage.games.highest_log_number())

    def __call__(self, table: Table) -> TableGame:
        # already seated by the table's options (tichujoin); a table starts with every seat taken
        players: tuple[str, ...] = tuple(table.seats)  # type: ignore[arg-type]  # every seat taken
        seed = self.seeds()
        deals, table.preset_deals = table.preset_deals, None  # a duplicate round's, for this game only
        driver = self._driver(players, table.options, table.bots, seed, table.variant, deals)
        log_number = self.logs.reserve(None if self.storage is None else self.storage.games.next_log_number())
        record = None
        if self.storage is not None:
            # the options as the table shows them (a variant's name among them; none: the 4-player
            # game), and preset deals, which the restore deals again
            stored = table.option_data()
            if deals is not None:
                stored[DEALS_KEY] = [deal_text(deal) for deal in deals]
            game_id = self.storage.games.begin(log_number, table.number, seed, stored,
                                               players, table.bots, table.private)
            levels = {name: level for name, level in table.bots.values()}
            record = DurableGame(self.storage, game_id, players, levels, table.options.turnier)
            driver.subscribe(record)
        driver.subscribe(GameLogRecorder(self.logs, log_number))
        return TableGame(table, driver, log_number, record)

    def _driver(self, players: Sequence[str], table_options: GameOptions, bots: dict, seed: Seed,
                variant: Variant = NANJING, deals: Sequence[Sequence[Card]] | None = None) -> GameDriver:
        options = replace(table_options, tichujoin=False)
        seeds = GameSeeds.from_seed(seed, variant.seats)
        levels = {name: level for name, level in bots.values()}
        return GameDriver(players, options, seeds,
                          seated_bots(players, options, levels, seeds, self.bot_settings, variant),
                          self.clock, self.bot_delay, self.substitute_after, turns=self.turns,
                          counters=self.counters, workers=self.workers, variant=variant, deals=deals)

    def restore(self, hall: TableHall) -> list[Table]:
        """Bring back every unfinished stored game at its table, seats held, paused until someone
        returns (without storage: none)."""
        storage = self.storage
        if storage is None:  # nothing is stored: nothing to bring back
            return []
        tables = []
        for stored in storage.games.running():
            try:
                table = self._restore(hall, stored, storage)
            except Exception as error:  # a journal that does not replay, or does not even decode
                # said once: the game is set aside (abandoned), its journal stays in the file
                self.log.error("stored game {number} (table {table}) cannot be restored and is set"
                               " aside as abandoned (its journal stays in the database): {error}",
                               number=stored.log_number, table=stored.table_number,
                               error=repr(error))
                storage.games.abandon(stored.id)
                continue
            if table is not None:
                tables.append(table)
        return tables

    def _restore(self, hall: TableHall, stored: StoredGame, storage: Storage) -> Table | None:
        """The stored game's table, playing on; None if the game turned out to be over."""
        if stored.problem is not None:
            raise ValueError(stored.problem)
        data = stored.table_options
        options = GameOptions(data["round"], data["tichujoin"], data["turnier"], data.get("clock"),
                              data.get("exact_rounds", False))
        variant = variant_named(data.get("variant", NANJING.name))  # a row without it: the 4-player game
        deals = data.get(DEALS_KEY)  # a preset game's deals (none: shuffled from the seed)
        driver = self._driver(stored.players, options, stored.bots, stored.seed, variant,
                              None if deals is None else [parse_deal(text) for text in deals])
        differed = replay_journal(driver, stored.entries)
        if differed:
            self.log.warn("stored game {number}: {n} bot choices differed from the journal",
                          number=stored.log_number, n=differed)
        levels = {name: level for name, level in stored.bots.values()}
        # as seated now (a seat may have been handed over): the stored names, or those handed to
        players: tuple[str, ...] = driver.game.base_seats  # type: ignore[assignment]  # names (above)
        record = DurableGame(storage, stored.id, players, levels, options.turnier, len(stored.entries))
        record.caught_up(driver)
        recorder = GameLogRecorder(self.logs, stored.log_number)
        if driver.game.over:  # the last step was stored, its result and log not yet: do it now
            recorder.save(driver.game)
            record.game_over(driver)
            self.over_at_restore[stored.log_number] = driver.game
            return None
        driver.subscribe(record)
        self.logs.reopen(stored.log_number)
        driver.subscribe(recorder)
        table = hall.open(stored.table_number)
        table.private = stored.private  # invitations are not kept: those invited before ask again
        table.event = data.get("event")  # an event's table: its event takes it back (server/events)
        game = TableGame(table, driver, stored.log_number, record)
        table.restore(options, list(players), stored.bots, game,
                      {name: SUBSTITUTE_LEVEL for name in driver.replaced}, variant)  # type: ignore[misc]  # the replaced are players: names
        self.log.info("table {table}: game {number} restored after {n} journal entries",
                      table=table.number, number=stored.log_number, n=len(stored.entries))
        return table


__all__ = ["GameWiring"]
