"""Restore from the journal gives the state live play had, at any point of a game.

A live game (people acting at random moments, bots on a clock, people going
away and coming back so stand-ins start and end) is journaled into SQLite; at
a random step a fresh driver replays the stored journal.  Engine state, the
stand-ins and every bot's full state (its random generator included) must be
what live play had, and both must go on to make the same choices.
"""

from __future__ import annotations

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st
from twisted.internet.task import Clock

from bswtichu.engine import GameOptions
from bswtichu.play import GameDriver, GameSeeds, seated_bots
from bswtichu.play.journal import replay_journal
from bswtichu.server.games.durable import DurableGame
from bswtichu.storage import Storage

PLAYERS = ("Ann", "Bob", "Cy", "Dan")
CACHES = {"_costs"}  # memo tables: the same answers whether filled or not


def new_driver(seed, options, levels, clock):
    seeds = GameSeeds.from_seed(seed)
    return GameDriver(PLAYERS, options, seeds, seated_bots(PLAYERS, options, levels, seeds), clock,
                      bot_delay=1.0, substitute_after=3.0)


def bot_state(bot) -> dict:
    state = {k: v for k, v in vars(bot).items() if k not in CACHES and k != "rng"}
    return {"class": type(bot).__name__, "rng": bot.rng.getstate(), **state}


def state_of(driver: GameDriver) -> dict:
    game = driver.game
    rnd = game.round
    return {
        "deals": [r.deal for r in game.rounds],
        "histories": [list(r.history) for r in game.rounds],
        "seatings": list(game.seatings),
        "hands": [set(h) for h in rnd.hands],
        "phase": rnd.phase, "turn": rnd.turn, "wish": rnd.wish, "calls": list(rnd.calls),
        "top": rnd.top, "piles": [list(p) for p in rnd.piles],
        "totals": list(game.totals), "tichu_points": dict(game.tichu_points),
        "victory_points": dict(game.victory_points), "over": game.over,
        "substitutes": set(driver.substitutes),
        "bots": {player: bot_state(bot) for player, bot in driver.bots.items()},
        "deal_rng": game.rng.getstate(), "driver_rng": driver.seeds.driver.getstate(),
    }


def person_step(driver: GameDriver, people, rng: Random) -> bool:
    """A present person takes a random legal action, if one can; returns whether one did."""
    candidates = []
    for player in people:
        if player in driver.away or player in driver.substitutes:
            continue
        legal = driver.round.legal_actions(driver.seat_of(player))
        if legal:
            candidates.append((player, legal))
    if not candidates:
        return False
    player, legal = rng.choice(candidates)
    driver.act(player, [rng.choice(legal)])
    return True


def live_step(driver: GameDriver, clock: Clock, people, rng: Random) -> None:
    roll = rng.random()
    if people and roll < 0.1:
        player = rng.choice(people)
        if player in driver.away:
            driver.player_back(player)
        else:
            driver.player_away(player)
    elif roll < 0.55 and person_step(driver, people, rng):
        return
    else:
        clock.advance(rng.choice([1.0, 3.0]))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2 ** 32), people=st.sets(st.sampled_from(PLAYERS), max_size=3),
       level=st.sampled_from(["basic", "random"]), turnier=st.booleans(), steps=st.integers(0, 400),
       moves=st.integers(0, 2 ** 32))
def test_restore_gives_the_live_state_after_any_number_of_steps(seed, people, level, turnier, steps, moves):
    people = sorted(people)
    options = GameOptions(round_limit=None if turnier else 2, turnier=turnier)
    levels = {p: level for p in PLAYERS if p not in people}
    storage = Storage.open()
    clock = Clock()
    live = new_driver(seed, options, levels, clock)
    game_id = storage.games.begin(1, 1, seed, options.as_data(), PLAYERS, {})
    live.subscribe(DurableGame(storage, game_id, PLAYERS, levels, turnier))
    live.start()
    rng = Random(moves)
    for _ in range(steps):
        if live.finished:
            break
        live_step(live, clock, people, rng)
    restored = new_driver(seed, options, levels, Clock())
    assert replay_journal(restored, storage.games.journal(game_id)) == 0
    assert state_of(restored) == state_of(live)
    # both go on alike: everyone back, then the bots' choices and the same people's moves agree
    for driver in (live, restored):
        for player in people:
            driver.player_back(player)
    for _ in range(60):
        if live.finished:
            break
        action = live.step()
        assert restored.step() == action
        if action is None:
            same = rng.random()
            if not person_step(live, people, Random(same)):
                break
            assert person_step(restored, people, Random(same))
        assert state_of(restored) == state_of(live)
    storage.close()
