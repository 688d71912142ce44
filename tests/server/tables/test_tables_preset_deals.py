"""A table given preset deals (a duplicate event's round) plays them, its log shows them, and
a restart in the middle of the game restores it with the same deals still to come."""

from __future__ import annotations

from random import Random

from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.engine.deal import first_cards, last_cards
from bswtichu.events.duplicate import round_deals
from bswtichu.records import DEAL
from bswtichu.server.games.logs import GameLogStore
from bswtichu.server.lobby import Lobby
from bswtichu.server.tables.wiring import GameWiring, deal_text, parse_deal
from bswtichu.service import build_lobby
from bswtichu.storage import ScryptCost, Storage
from bswtichu.tch.reader import read_tch_file
from bswtichu.tch.replay import deal_of

from lobby_clients import Client

CHEAP = ScryptCost(n=2 ** 8)
DELAY = 1.0
DEALS = round_deals("evening", 1, 4)


def hands(deal) -> list[tuple[frozenset, frozenset]]:
    """Each seat's first 8 and last 6 cards (a log keeps a hand, not the order within it)."""
    return [(frozenset(first_cards(deal, seat)), frozenset(last_cards(deal, seat))) for seat in range(4)]


def durable_lobby(tmp_path, clock: Clock) -> tuple[Lobby, GameWiring]:
    config = ServerConfig(reconnect_grace=30.0, log_folder=str(tmp_path / "logs"), bot_delay=DELAY,
                          database=str(tmp_path / "bswtichu.sqlite3"))
    storage = Storage.open(config.database, cost=CHEAP)
    seeds = Random(4)
    wiring = GameWiring(clock, GameLogStore(config.log_folder), DELAY, config.reconnect_grace,
                        seeds=lambda: seeds.getrandbits(64), storage=storage)
    lobby = build_lobby(clock, config, wiring, wiring.logs, storage=storage)
    wiring.restore(lobby.tables)
    return lobby, wiring


def act_once(ann: Client, clock: Clock, rng: Random) -> None:
    """Ann takes a random legal action (her three cards for the exchange), or the bots move."""
    ann.clear()
    ann.say("/legal")
    commands = [c for c in ann.only("LEGAL")["commands"] if c != "/tichu"]
    if not commands:
        clock.advance(DELAY)
        return
    command = rng.choice(commands)
    if command.startswith("/schupf"):
        ann.clear()
        ann.say("/hand")
        command = "/schupf " + " ".join(ann.only("HAND")["cards"][:3])
    ann.say(command)


def test_a_preset_table_plays_its_deals_and_a_restart_mid_game_keeps_them(tmp_path):
    clock = Clock()
    lobby, wiring = durable_lobby(tmp_path, clock)
    ann = Client(lobby, "Ann")
    ann.say("/register secret-ann")
    for line in ("/join", "/round 4", "/bot", "/bot", "/bot"):
        ann.say(line)
    table = lobby.tables.get(1)
    table.preset_deals = DEALS
    ann.say("/start")
    assert table.preset_deals is None  # taken by this game: a next game at the table shuffles
    driver = table.game.driver
    number = table.game.log_number
    rng = Random(8)
    while len(driver.game.rounds) < 2 or len(driver.round.history) < 10:
        act_once(ann, clock, rng)
    assert [r.deal for r in driver.game.rounds] == list(DEALS[:2])
    history = list(driver.round.history)

    wiring.storage.close()  # the server dies in the middle of round 2
    clock2 = Clock()
    lobby2, wiring2 = durable_lobby(tmp_path, clock2)
    driver2 = lobby2.tables.get(1).game.driver
    assert driver2.preset_deals == DEALS
    assert [r.deal for r in driver2.game.rounds] == list(DEALS[:2]) and driver2.round.history == history
    ann2 = Client(lobby2, None)
    ann2.say("/nick Ann secret-ann")
    while not driver2.finished:
        act_once(ann2, clock2, rng)
    assert driver2.game.over and [r.deal for r in driver2.game.rounds] == list(DEALS)

    log = read_tch_file(wiring2.logs.path(number))
    assert [hands(deal_of(rlog)) for rlog in log.rounds] == [hands(deal) for deal in DEALS]
    game_id = wiring2.storage.db.execute("SELECT id FROM games WHERE log_number = ?", (number,)).fetchone()[0]
    journaled = [e.deal for e in wiring2.storage.games.journal(game_id) if e.kind == DEAL]
    assert journaled == list(DEALS)
    ann2.clear()
    ann2.say("/history Ann")
    assert ann2.only("HISTORY")["games"][0]["options"]["deals"] == [deal_text(deal) for deal in DEALS]
    wiring2.storage.close()


def test_a_stored_deal_reads_back():
    assert parse_deal(deal_text(DEALS[0])) == DEALS[0]
