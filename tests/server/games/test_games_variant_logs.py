"""A variant's game log at the server: the recorder writes it (.tvl, docs/variant-log.md) beside
the 4-player games' .tch files, the store numbers and reads it, /log serves it."""

from __future__ import annotations

import pytest
from twisted.internet.task import Clock

from bswtichu.engine import NANJING, TIENTSIN, TRICHU, GameOptions
from bswtichu.play.driver import GameDriver, GameSeeds, seated_bots
from bswtichu.server.games.logs import GameLogRecorder, GameLogStore
from bswtichu.tch import read_tch
from bswtichu.tch.variant_log import read_variant_log
from bswtichu.tch.variant_record import VariantLogWriter
from bswtichu.tch.variant_replay import replay_variant_log

from lobby_clients import Client
from test_tables_game import seeded_lobby


def recorded_game(store: GameLogStore, variant, seed: int):
    """A headless game of ``variant`` whose log the server's recorder writes into ``store``."""
    seeds = GameSeeds.from_seed(seed, variant.seats)
    players = tuple(f"P{i}" for i in range(variant.players))
    limit = variant.players if variant.game_rounds is not None else 2
    options = GameOptions(round_limit=limit)
    bots = seated_bots(players, options, {p: "basic" for p in players}, seeds, variant=variant)
    clock = Clock()
    driver = GameDriver(players, options, seeds, bots, clock, variant=variant)
    number = store.reserve()
    driver.subscribe(GameLogRecorder(store, number))
    driver.start()
    assert store.is_open(number)
    clock.advance(0)
    return driver.game, number


@pytest.mark.parametrize("variant", (TRICHU, TIENTSIN), ids=lambda v: v.name)
def test_the_recorder_writes_a_variants_game_in_the_variant_log(tmp_path, variant):
    store = GameLogStore(tmp_path / "logs")
    game, number = recorded_game(store, variant, 4)
    assert game.over and not store.is_open(number)
    assert [p.name for p in (tmp_path / "logs").iterdir()] == [f"game-{number:06d}.tvl"]
    text = store.read(number)
    assert text == VariantLogWriter().text(game)
    reports = replay_variant_log(read_variant_log(text))
    assert len(reports) == len(game.rounds) and all(r.ok for r in reports)
    # a 4-player game beside it keeps its .tch, and numbers go on past the .tvl after a restart
    later = GameLogStore(tmp_path / "logs")
    nanjing, second = recorded_game(later, NANJING, 4)
    assert second == number + 1 and later.path(second).suffix == ".tch"
    assert len(read_tch(later.read(second)).rounds) == len(nanjing.rounds)
    assert GameLogStore(tmp_path / "logs").reserve() == second + 1
    assert later.path(number).suffix == ".tvl"


def test_log_serves_a_stored_variant_log_and_review_steps_through_it(tmp_path):
    store = GameLogStore(tmp_path / "logs")
    game, number = recorded_game(store, TIENTSIN, 9)
    text = store.read(number)
    lobby = seeded_lobby(tmp_path, 5)
    bob = Client(lobby, "Bob")
    bob.say(f"/log {number}")
    assert bob.only("LOG") == {"number": number, "text": text}
    bob.clear()
    bob.say(f"/review {number}")  # its steps: tests/server/games/test_games_review.py
    assert bob.only("REVIEW")["names"] == ["P0", "P1", "P2", "P3", "P4", "P5"]
    eve = Client(lobby, "Eve", machine=False)
    eve.say(f"/log {number}")
    said = "\n".join(eve.connection.lines)
    assert f"Log of game {number} (bswtichu variant log, docs/variant-log.md):" in said
    assert "variant tientsin" in said
