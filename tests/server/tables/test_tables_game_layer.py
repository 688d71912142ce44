"""The game layer seen from a server table: the same driver, the same bot decisions as a match."""

from __future__ import annotations

from twisted.internet.task import Clock

from bswtichu.bots import BotSettings
from bswtichu.config import ServerConfig
from bswtichu.engine import GameOptions
from bswtichu.play import GameSeeds, headless_driver, seated_bots
from bswtichu.server.tables.wiring import GameWiring
from bswtichu.server.games.logs import GameLogStore
from bswtichu.service import build_lobby

from lobby_clients import Client


def server_histories(tmp_path, seed: int, options: list[str]) -> list:
    """One person seats three basic bots and starts; a basic stand-in plays for him from the start.

    (The stand-in is called in directly: a real departure would close this table, as
    nobody would be left at it.)
    """
    clock = Clock()
    config = ServerConfig(reconnect_grace=0.0, log_folder=str(tmp_path / "logs"), bot_delay=0.0)
    wiring = GameWiring(clock, GameLogStore(config.log_folder), bot_delay=0.0, substitute_after=0.0,
                        seeds=lambda: seed)
    lobby = build_lobby(clock, config, wiring, wiring.logs)
    ann = Client(lobby, "Ann")
    for line in ["/join", "/bot", "/bot", "/bot", *options, "/start"]:
        ann.say(line)
    game = lobby.tables.get(1).game
    game.player_away("Ann")
    driver = game.driver
    assert driver.substitutes == {"Ann"}
    clock.advance(0)
    assert driver.game.over
    return [rnd.history for rnd in driver.game.rounds]


def match_histories(seed: int, options: GameOptions) -> list:
    """The same seed in a headless match of four basic bots."""
    seeds = GameSeeds.from_seed(seed)
    bots = seated_bots(tuple(range(4)), options, dict.fromkeys(range(4), "basic"), seeds)
    driver, clock = headless_driver([bots[p] for p in range(4)], options, seeds)
    driver.start()
    clock.advance(0)
    assert driver.game.over
    return [rnd.history for rnd in driver.game.rounds]


def test_bots_decide_the_same_at_a_server_table_as_in_a_match(tmp_path):
    for seed, table_options, options in [(3, ["/round 2"], GameOptions(round_limit=2)),
                                         (8, ["/turnier"], GameOptions(turnier=True))]:
        server = server_histories(tmp_path / str(seed), seed, table_options)
        headless = match_histories(seed, options)
        assert len(server) == len(headless) >= 2
        assert server == headless


def test_expert_bots_at_a_table_search_with_the_configured_budget(tmp_path):
    clock = Clock()
    config = ServerConfig(reconnect_grace=0.0, log_folder=str(tmp_path / "logs"), bot_delay=0.0,
                          expert_budget=7)
    wiring = GameWiring(clock, GameLogStore(config.log_folder), bot_delay=0.0, substitute_after=0.0,
                        seeds=lambda: 1, bot_settings=BotSettings(expert_budget=config.expert_budget))
    lobby = build_lobby(clock, config, wiring, wiring.logs)
    ann = Client(lobby, "Ann")
    for line in ["/join", "/round 1", "/bot 2 expert", "/bot 3 expert", "/bot 4 basic", "/start"]:
        ann.say(line)
    bots = lobby.tables.get(1).game.driver.bots
    assert sorted(bot.level for bot in bots.values()) == ["basic", "expert", "expert"]
    assert all(bot.budget == 7 for bot in bots.values() if bot.level == "expert")
