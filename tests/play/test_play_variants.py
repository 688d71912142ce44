"""Bots and headless games in every variant: `bswtichu match --variant NAME`, the dummy's bot,
Duo's person of two seats (his bots, his actions, his stand-in, his clock, his journal)."""

from __future__ import annotations

from random import Random

import pytest
from twisted.internet.task import Clock

from bswtichu.bots import BotSettings, ExpertBot
from bswtichu.engine import DUO, NANJING, TIENTSIN, TRICHU, GameOptions
from bswtichu.engine.actions import Exchange
from bswtichu.play import ClockRanOut, GameDriver, GameSeeds, SubstituteStarted, seated_bots
from bswtichu.play.headless import play_game
from bswtichu.play.journal import ACT, BOT, Journal, replay_journal
from bswtichu.play.match import main, sides_in_game

LEVELS = ("random", "basic", "expert")


@pytest.mark.parametrize("variant", (TRICHU, TIENTSIN, DUO), ids=lambda v: v.name)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_every_variant(variant, level):
    """Whole rounds with no illegal bot action (the driver logs one as an error, which fails the test)."""
    summary = play_game([level] * variant.players, GameOptions(round_limit=3), seed=f"v/{level}",
                        variant=variant, settings=BotSettings(expert_budget=10))
    assert summary.rounds == 3 and summary.finished
    assert len(summary.players) == variant.players
    assert len(summary.totals) == (variant.players + 1 if variant.per_player_scores else 2)


@pytest.mark.parametrize("variant", (TRICHU, DUO), ids=lambda v: v.name)
def test_further_hands_play_with_their_persons_settings(variant):
    """A match's expert budget reaches the dummy's expert, and a Duo person's second hand's."""
    seeds = GameSeeds.from_seed(5, variant.seats)
    players = ("Ann", "Bob", "Cy")[:variant.players]
    settings = BotSettings(expert_budget=7)
    bots = seated_bots(players, GameOptions(), {p: "expert" for p in players}, seeds, settings, variant=variant)
    driver = GameDriver(players, GameOptions(round_limit=3), seeds, bots, Clock(), variant=variant)
    driver.start()  # the first round is dealt; the clock never runs, so nobody plays
    for seat in variant.further_seats:
        assert isinstance(driver.bot_at(seat), ExpertBot) and driver.bot_at(seat).budget == 7


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
            levels.append((driver.game.seating[0], driver.bot_at(TRICHU.dummy).level))

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
    assert driver.game.seating[0] == "Ann" and driver.bot_at(TRICHU.dummy) is None


def test_a_stand_in_for_a_dealer_plays_his_dummy_too():
    """A person's stand-in takes every seat he plays: the dealer's dummy gets one as well."""
    seeds = GameSeeds.from_seed(4, TRICHU.seats)
    players = ("Ann", "Bob", "Cy")
    bots = seated_bots(players, GameOptions(), {"Bob": "basic", "Cy": "basic"}, seeds, variant=TRICHU)
    clock = Clock()
    driver = GameDriver(players, GameOptions(round_limit=3), seeds, bots, clock, substitute_after=0,
                        variant=TRICHU)
    driver.start()
    driver.player_away("Ann")
    assert driver.bot_at(0).level == driver.bot_at(TRICHU.dummy).level == "basic"
    clock.advance(0)
    assert driver.game.over


def test_sides_in_a_match():
    assert sides_in_game(NANJING, 0) == (0, 1, 0, 1) and sides_in_game(NANJING, 1) == (1, 0, 1, 0)
    assert sides_in_game(TIENTSIN, 1) == (1, 0, 1, 0, 1, 0)
    assert [sides_in_game(TRICHU, n) for n in range(3)] == [(0, 1, 1), (1, 0, 1), (1, 1, 0)]
    assert sides_in_game(DUO, 0) == (0, 1) and sides_in_game(DUO, 1) == (1, 0)


@pytest.mark.parametrize("name", ("trichu", "tientsin", "duo", "Nanjing"))
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


# ---------------------------------------------------------------------------- Duo

PAIR = ("Ann", "Bob")


def duo_driver(levels, options=GameOptions(round_limit=2), seed=5, **kwargs):
    seeds = GameSeeds.from_seed(seed, DUO.seats)
    bots = seated_bots(PAIR, options, levels, seeds, variant=DUO)
    clock = Clock()
    return GameDriver(PAIR, options, seeds, bots, clock, variant=DUO, **kwargs), clock


class SeatBots:
    """At every deal: the bot of each seat; wraps their `observe` to record what each was told."""

    def __init__(self):
        self.deals, self.told = [], []

    def round_dealt(self, driver):
        bots = tuple(driver.bot_at(seat) for seat in range(DUO.seats))
        self.deals.append(bots)
        for seat, bot in enumerate(bots):
            if bot is not None and not hasattr(bot, "watched"):
                bot.watched, observe = True, bot.observe
                bot.observe = lambda event, seat=seat, observe=observe: (self.told.append((seat, event)),
                                                                          observe(event))

    def happened(self, driver, events):
        pass


def test_a_duo_bot_person_plays_each_seat_with_a_bot_of_his_level_to_the_game_over():
    driver, clock = duo_driver({"Ann": "basic", "Bob": "random"}, GameOptions())
    watch = SeatBots()
    driver.subscribe(watch)
    driver.start()
    clock.advance(0)
    game = driver.game
    assert game.over and max(game.scores()) >= 1000 and len(game.winners()) == 1
    assert sorted(s.player for s in game.standings()) == list(PAIR)
    for bots in watch.deals:
        assert [b.level for b in bots] == ["basic", "random", "basic", "random"]
        assert bots[0] is driver.bots["Ann"] and bots[1] is driver.bots["Bob"]
        assert len({id(b) for b in bots}) == 4 and [b.seat for b in bots] == [0, 1, 2, 3]
    # A bot knows its own seat's hand only: nothing private to another seat reaches it.
    assert all(event.private_to in (None, seat) for seat, event in watch.told)
    assert {seat for seat, event in watch.told if event.private_to is not None} == {0, 1, 2, 3}


def play_person(driver, clock, person, rng, steps=5000):
    """Run the game, ``person`` acting at whichever of his seats the round waits for."""
    for _ in range(steps):
        if driver.finished:
            return
        clock.advance(0)
        if driver.finished:
            return
        waiting = [s for s in driver.game.seats_played_by(person) if driver.round.waits_for(s)]
        if waiting and person not in driver.bots:
            driver.act(person, [rng.choice(driver.round.legal_actions(waiting[0]))])
    raise AssertionError("the game did not end")


def test_a_duo_person_acts_for_both_his_seats_and_the_journal_rebuilds_the_game():
    driver, clock = duo_driver({"Bob": "basic"})
    entries = []
    driver.subscribe(Journal(entries.append))
    driver.start()
    assert driver.bot_at(0) is None and driver.bot_at(2) is None and driver.bot_at(3).level == "basic"
    play_person(driver, clock, "Ann", Random(1))
    assert driver.game.over and len(driver.game.rounds) == 2
    acts = [e for e in entries if e.kind in (ACT, BOT)]
    assert {e.action.seat for e in acts if e.kind == ACT} == {0, 2}
    assert all((e.kind, e.player) == ((ACT, "Ann") if e.action.seat % 2 == 0 else (BOT, "Bob")) for e in acts)
    again, _ = duo_driver({"Bob": "basic"})
    assert replay_journal(again, entries) == 0
    assert [r.history for r in again.game.rounds] == [r.history for r in driver.game.rounds]
    assert again.game.scores() == driver.game.scores()
    assert [again.bot_at(s).rng.getstate() for s in (1, 3)] == [driver.bot_at(s).rng.getstate() for s in (1, 3)]


def test_a_duo_stand_in_takes_both_seats_and_both_stand_aside():
    driver, clock = duo_driver({"Bob": "random"}, substitute_after=0)
    entries = []
    driver.subscribe(Journal(entries.append))
    driver.start()
    driver.player_away("Ann")
    stand_ins = driver.bot_at(0), driver.bot_at(2)
    assert [b.level for b in stand_ins] == ["basic", "basic"] and stand_ins[0] is not stand_ins[1]
    assert [b.seat for b in stand_ins] == [0, 2]
    for _ in range(30):
        driver.step()
    driver.player_back("Ann")
    assert driver.bot_at(0) is None and driver.bot_at(2) is None
    driver.player_away("Ann")
    clock.advance(0)
    assert driver.game.over
    again, _ = duo_driver({"Bob": "random"}, substitute_after=0)
    assert replay_journal(again, entries) == 0
    assert [r.history for r in again.game.rounds] == [r.history for r in driver.game.rounds]
    assert [again.bot_at(s).rng.getstate() for s in range(4)] == [driver.bot_at(s).rng.getstate() for s in range(4)]


def test_a_duo_persons_clock_runs_while_either_of_his_seats_waits():
    driver, clock = duo_driver({"Bob": "basic"}, GameOptions(round_limit=1, clock=30))
    events = []

    class Recorder:
        def round_dealt(self, driver):
            pass

        def happened(self, driver, told):
            events.extend(told)

    entries = []
    driver.subscribe(Recorder())
    driver.subscribe(Journal(entries.append))
    driver.start()
    clock.advance(0)  # Bob's bots decide on Grand Tichu
    assert driver.time_left("Ann") == 30
    clock.advance(20)
    driver.act("Ann", [driver.round.legal_actions(2)[0]])  # his second hand's decision: a new one
    assert driver.time_left("Ann") == 30
    clock.advance(30)  # his first hand's Grand Tichu decision runs out, then its exchange
    clock.advance(30)
    clock.advance(0)
    outs = [e for e in events if isinstance(e, ClockRanOut)]
    assert [(e.player, e.seat, e.strikes) for e in outs] == [("Ann", 0, 1), ("Ann", 0, 2)]
    assert any(isinstance(e, SubstituteStarted) and e.player == "Ann" for e in events)
    assert driver.bot_at(2).level == "basic"  # the stand-in that stays takes both his seats
    assert any(isinstance(a, Exchange) and a.seat == 2 for a in driver.round.history)
    again, _ = duo_driver({"Bob": "basic"}, GameOptions(round_limit=1, clock=30))
    assert replay_journal(again, entries) == 0
    assert again.round.history == driver.round.history
    assert again.strikes == driver.strikes and again.substitutes == driver.substitutes == {"Ann"}


def test_a_duo_persons_place_handed_over_moves_both_seats():
    driver, clock = duo_driver({"Bob": "basic"})
    driver.start()
    driver.hand_over("Ann", "Zoe")
    assert driver.game.seating == ("Zoe", "Bob", "Zoe", "Bob") and driver.game.seats_played_by("Zoe") == (0, 2)
    play_person(driver, clock, "Zoe", Random(2))
    assert driver.game.over and {s.player for s in driver.game.standings()} == {"Zoe", "Bob"}
