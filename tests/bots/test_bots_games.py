"""Bots in whole games: only legal actions, only their own information, games and tournaments end."""

import copy
from random import Random

import pytest
from hypothesis import given, settings, strategies as st

from twisted.logger import LogLevel, globalLogPublisher

from bswtichu.bots import Bot, BasicBot, BotSettings, ExpertBot, RandomBot, make_bot, must_act
from bswtichu.engine import VARIANTS, DeclineGrand, GameOptions
from bswtichu.engine.round import OVER
from bswtichu.play import GameSeeds, headless_driver, play_game, run_game


class Referee(Bot):
    """Wraps a bot and records every action it takes and every event it is shown."""

    def __init__(self, inner: Bot):
        super().__init__(inner.seat, inner.rng)
        self.inner = inner
        self.level = inner.level
        self.illegal: list = []
        self.foreign_events: list = []
        self.actions = 0

    def begin_round(self, seat):
        super().begin_round(seat)
        self.inner.begin_round(seat)

    def observe(self, event):
        if event.private_to not in (None, self.seat):
            self.foreign_events.append(event)
        self.inner.observe(event)

    def choose(self, view, legal):
        action = self.inner.choose(view, legal)
        self._check(action, legal)
        return action

    def interrupt(self, view, legal):
        action = self.inner.interrupt(view, legal)
        if action is not None:
            self._check(action, legal)
        return action

    def _check(self, action, legal):
        self.actions += 1
        if action not in legal or action.seat != self.seat:
            self.illegal.append(action)


LEVEL_MIXES = [("random",) * 4, ("basic",) * 4, ("basic", "random") * 2, ("random", "basic") * 2,
               ("expert", "basic") * 2, ("random", "expert") * 2]
#: The expert level searches with a tiny budget here, to keep the tests fast.
SMALL = BotSettings(expert_budget=6)


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32), mix=st.sampled_from(LEVEL_MIXES), turnier=st.booleans())
def test_bots_only_take_legal_actions_and_only_see_their_events(seed, mix, turnier):
    master = Random(seed)
    bots = [Referee(make_bot(level, s, Random(master.getrandbits(32)), SMALL)) for s, level in enumerate(mix)]
    options = GameOptions(round_limit=1) if not turnier else GameOptions(turnier=True)
    summary = run_game(bots, options, GameSeeds.from_seed(master.getrandbits(32)), max_rounds=2)
    assert summary.rounds == (2 if turnier else 1)
    assert all(b.actions > 0 for b in bots)
    assert [b.illegal for b in bots] == [[]] * 4
    assert [b.foreign_events for b in bots] == [[]] * 4


class WrongSeat(RandomBot):
    """Answers its first decision for its neighbour, which the driver must not apply."""

    wrong = 0

    def choose(self, view, legal):
        if not self.wrong:
            self.wrong += 1
            return DeclineGrand((self.seat + 1) % 4)
        return super().choose(view, legal)


def test_an_illegal_bot_action_is_logged_as_an_error_and_replaced_by_a_legal_one(logged_errors):
    errors = []

    def observe(event):
        if event["log_level"] >= LogLevel.error:
            errors.append(event)

    bots = [WrongSeat(s, Random(s)) for s in range(4)]
    driver, clock = headless_driver(bots, GameOptions(round_limit=1), GameSeeds.from_seed(1))
    globalLogPublisher.addObserver(observe)
    try:
        driver.start()
        clock.advance(0)
    finally:
        globalLogPublisher.removeObserver(observe)
    assert driver.finished and len(driver.game.rounds) == 1
    assert len(errors) == 4 and all("illegal action" in e["log_format"] for e in errors)
    first = driver.game.rounds[0].history[:4]
    assert [a.seat for a in first] == [0, 1, 2, 3]  # each seat's own decision, not its neighbour's


def scrambled(rnd, seat, rng):
    """A copy of the round where the cards ``seat`` cannot see are dealt out among their seats anew
    (not the dummy's, where its hand is open to ``seat``)."""
    other = rnd.copy()
    dummy = rnd.variant.dummy if rnd.view(seat).open_hand is not None else None
    seats = [s for s in range(rnd.variant.seats) if s not in (seat, dummy)]
    pool = [c for s in seats for c in other.hands[s]]
    rng.shuffle(pool)
    for s in seats:
        size = len(other.hands[s])
        other.hands[s], pool = set(pool[:size]), pool[size:]
    return other


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=lambda v: v.name)
@pytest.mark.parametrize("level", ["basic", "random", "expert"])
def test_bot_choices_do_not_depend_on_the_hidden_cards(level, variant):
    """In every variant; in Trichu the dummy's hand, once open, is no hidden card."""
    bots = [make_bot(level, s, Random(10 + s), SMALL) for s in range(variant.players)]
    options = GameOptions(round_limit=variant.players if variant.game_rounds else 1)
    driver, _ = headless_driver(bots, options, GameSeeds.from_seed(5, variant.seats), variant=variant)
    driver.start()
    rnd, shuffler, compared = driver.round, Random(99), 0
    while rnd.phase != OVER:
        for seat in range(variant.seats):
            view = rnd.view(seat)
            if not must_act(view):
                continue
            bot = driver.bot_at(seat)
            other = scrambled(rnd, seat, shuffler)
            assert other.view(seat) == view
            mine = copy.deepcopy(bot).choose(view, rnd.legal_actions(seat))
            theirs = copy.deepcopy(bot).choose(other.view(seat), other.legal_actions(seat))
            assert mine == theirs
            compared += 1
        assert driver.step() is not None
    assert compared > 20


def test_basic_bots_finish_a_full_game():
    summary = play_game(["basic"] * 4, GameOptions(), seed=11)
    assert summary.finished
    assert max(summary.totals) >= 1000
    assert set(summary.winners) in ({0, 2}, {1, 3})


def test_bots_finish_a_full_tournament():
    summary = play_game(["basic", "random", "basic", "random"], GameOptions(turnier=True), seed=4)
    assert summary.finished and summary.rounds == 9
    assert all(p.victory_points is not None for p in summary.players)
    assert summary.winners


def test_a_game_that_does_not_end_is_stopped_unfinished():
    summary = play_game(["random"] * 4, GameOptions(), seed=1, max_rounds=2)
    assert summary.rounds == 2 and not summary.finished and summary.winners == ()


def test_the_same_seed_plays_the_same_game():
    first = play_game(["basic", "random"] * 2, GameOptions(round_limit=2), seed=8)
    again = play_game(["basic", "random"] * 2, GameOptions(round_limit=2), seed=8)
    other = play_game(["basic", "random"] * 2, GameOptions(round_limit=2), seed=9)
    assert first == again
    assert first != other


def test_basic_beats_random_in_a_small_sample():
    wins = 0
    for seed in range(6):
        basic_seats = (0, 2) if seed % 2 == 0 else (1, 3)
        levels = ["basic" if s in basic_seats else "random" for s in range(4)]
        summary = play_game(levels, GameOptions(), seed=seed)
        wins += set(summary.winners) == set(basic_seats)
    assert wins >= 5


def test_levels_are_made_by_name():
    assert isinstance(make_bot("basic", 2, Random(0)), BasicBot)
    assert isinstance(make_bot("random", 1, Random(0)), RandomBot)
    expert = make_bot("expert", 3, Random(0), BotSettings(expert_budget=25))
    assert isinstance(expert, ExpertBot) and expert.budget == 25
    assert make_bot("expert", 3, Random(0)).budget == BotSettings().expert_budget
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("master", 0, Random(0))
