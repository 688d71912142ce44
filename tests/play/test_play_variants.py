"""Bots and headless games in every variant: `bswtichu match --variant NAME`, the dummy's bot."""

from __future__ import annotations

import pytest
from twisted.internet.task import Clock

from bswtichu.bots import BotSettings, ExpertBot
from bswtichu.engine import DUMMY, NANJING, TIENTSIN, TRICHU, GameOptions
from bswtichu.play.driver import GameDriver, GameSeeds, seated_bots
from bswtichu.play.headless import play_game
from bswtichu.play.match import main, sides_in_game

LEVELS = ("random", "basic", "expert")


@pytest.mark.parametrize("variant", (TRICHU, TIENTSIN), ids=lambda v: v.name)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_every_variant(variant, level):
    """Whole rounds with no illegal bot action (the driver logs one as an error, which fails the test)."""
    summary = play_game([level] * variant.players, GameOptions(round_limit=3), seed=f"v/{level}",
                        variant=variant)
    assert summary.rounds == 3 and summary.finished
    assert len(summary.players) == variant.players
    assert len(summary.totals) == (variant.players + 1 if variant.per_player_scores else 2)


def test_the_dummy_plays_with_its_dealers_settings():
    """A match's expert budget reaches the dummy's expert too."""
    seeds = GameSeeds.from_seed(5, TRICHU.seats)
    players = ("Ann", "Bob", "Cy")
    settings = BotSettings(expert_budget=7)
    bots = seated_bots(players, GameOptions(), {p: "expert" for p in players}, seeds, settings, variant=TRICHU)
    driver = GameDriver(players, GameOptions(round_limit=3), seeds, bots, Clock(), variant=TRICHU)
    driver.start()  # the first round is dealt; the clock never runs, so nobody plays
    assert isinstance(driver.bots[DUMMY], ExpertBot) and driver.bots[DUMMY].budget == 7


def test_the_dummy_is_played_by_a_bot_of_its_dealers_level():
    seeds = GameSeeds.from_seed(3, TRICHU.seats)
    players = ("Ann", "Bob", "Cy")
    bots = seated_bots(players, GameOptions(), {"Ann": "random", "Bob": "basic", "Cy": "basic"}, seeds,
                       variant=TRICHU)
    clock = Clock()
    driver = GameDriver(players, GameOptions(round_limit=3), seeds, bots, clock, variant=TRICHU)
    levels = []

    class Watch:
        def round_dealt(self, driver):
            levels.append((driver.game.seating[0], driver.bots[DUMMY].level))

        def happened(self, driver, events):
            pass

    driver.subscribe(Watch())
    driver.start()
    clock.advance(0)
    assert driver.game.over
    assert levels == [("Ann", "random"), ("Bob", "basic"), ("Cy", "basic")]


def test_a_person_dealing_plays_the_dummy_himself():
    seeds = GameSeeds.from_seed(4, TRICHU.seats)
    players = ("Ann", "Bob", "Cy")
    bots = seated_bots(players, GameOptions(), {"Bob": "basic", "Cy": "basic"}, seeds, variant=TRICHU)
    driver = GameDriver(players, GameOptions(round_limit=3), seeds, bots, Clock(), variant=TRICHU)
    driver.start()
    assert driver.game.seating[0] == "Ann" and DUMMY not in driver.bots


def test_sides_in_a_match():
    assert sides_in_game(NANJING, 0) == (0, 1, 0, 1) and sides_in_game(NANJING, 1) == (1, 0, 1, 0)
    assert sides_in_game(TIENTSIN, 1) == (1, 0, 1, 0, 1, 0)
    assert [sides_in_game(TRICHU, n) for n in range(3)] == [(0, 1, 1), (1, 0, 1), (1, 1, 0)]


@pytest.mark.parametrize("name", ("trichu", "tientsin", "Nanjing"))
def test_match_with_a_variant(capsys, name):
    rounds = ["--rounds", "3"]
    assert main(["--games", "2", *rounds, "--seed", "2", "--no-progress", "--variant", name, "basic", "random"]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first.startswith("basic vs random: 2 ")
    assert (name.lower() == "nanjing") != (name.capitalize() in first)
    assert "games won" in out and "points per round" in out


def test_match_refuses_what_a_variant_does_not_have(capsys):
    with pytest.raises(SystemExit):
        main(["--variant", "trichu", "--turnier", "basic", "random"])
    assert "4-player" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--variant", "trichu", "--rounds", "4", "basic", "random"])
    assert "multiple of 3" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--variant", "tea-chu", "basic", "random"])
