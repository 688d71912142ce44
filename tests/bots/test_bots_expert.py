"""The expert level: its card counting, its sampled deals, its playouts and its partnership rules."""

from random import Random

import pytest
from hypothesis import given, settings, strategies as st

from bswtichu.bots import BotSettings, ExpertBot, make_bot
from bswtichu.bots.search import (
    MAHJONG, SLOT_POINTS, CardCounter, Playout, counts_of, sample_hands,
)
from bswtichu.engine import (
    DECK, NANJING, VARIANTS, CallTichu, DeclineGrand, Exchange, GameOptions, GiveDragon, Pass, Play,
    Round, parse_cards,
)
from bswtichu.engine.round import double_victory
from bswtichu.engine.deal import deal_from_hands
from bswtichu.play import GameSeeds, headless_driver, run_game

SMALL = BotSettings(expert_budget=30)


class Scenario:
    """A round with chosen hands (after the exchange); every event is shown to the expert at seat 0."""

    def __init__(self, hands_text, budget=60, seed=1):
        hands = [parse_cards(text) for text in hands_text]
        assert sorted(c.index for h in hands for c in h) == list(range(56))
        # Each seat receives its three highest-index cards from its neighbours; it gave
        # them what they receive, so its hand before the exchange is worked out backwards.
        received = [sorted(h, key=lambda c: c.index)[-3:] for h in hands]
        gives = [[None] * 3 for _ in range(4)]
        for seat in range(4):
            for step, card in zip((3, 2, 1), received[seat]):  # from seat-1 (its step 1), partner, seat+1
                giver = (seat + step) % 4
                gives[giver][(seat - giver) % 4 - 1] = card
        before = [[c for c in hands[s] if c not in received[s]] + gives[s] for s in range(4)]
        deal = deal_from_hands([b[:8] for b in before], [b[8:] for b in before])
        self.round = Round(deal, grand_tichu=False)
        self.bot = ExpertBot(0, Random(seed), budget)
        self.bot.begin_round(0)
        self._show(self.round.opening_events)
        self.bot.counter.give(tuple(gives[0]), NANJING.exchange_targets[0])  # as the bot does when it chooses its exchange
        for seat in range(4):
            self.act(Exchange(seat, tuple(gives[seat])))
        assert [set(h) for h in self.round.hands] == [set(h) for h in hands]

    def _show(self, events):
        for event in events:
            if event.private_to in (None, 0):
                self.bot.observe(event)

    def act(self, action):
        self._show(self.round.apply(action))

    def play(self, seat, text):
        self.act(Play(seat, parse_cards(text)))

    def bot_choice(self):
        return self.bot.choose(self.round.view(0), self.round.legal_actions(0))


HANDS = [
    "MJ DG 2j 3j 4s 6j 7s 8p 9r Tj Qs Kr 5r 2r",      # seat 0, the expert
    "3s 4j 5j 6s 7j 8j 9j Js Qj Kj Aj 2s 5s 6p",      # seat 1
    "PH DR As Ar Ap Kp Ks Qp Qr Jp Jr Tp Tr 9p",      # seat 2, the partner: a Tichu hand
    "2p 3p 3r 4p 4r 5p 6r 7p 7r 8s 8r 9s Ts Jj",      # seat 3
]


def test_the_dog_goes_to_a_partner_who_called_tichu():
    scene = Scenario(HANDS)
    scene.act(CallTichu(2))
    choice = scene.bot_choice()
    if choice == CallTichu(0):  # not with this hand, but the question comes first
        choice = scene.bot_choice()
    assert choice == Play(0, parse_cards("DG"))


def test_never_overtakes_a_partner_who_called_tichu_when_a_pass_is_allowed():
    scene = Scenario(HANDS)
    scene.act(CallTichu(2))
    scene.play(0, "2j")
    scene.act(Pass(1))
    scene.play(2, "Jp")
    scene.act(Pass(3))
    view = scene.round.view(0)
    assert view.top_seat == 2 and any(isinstance(a, Play) for a in scene.round.legal_actions(0))
    assert scene.bot_choice() == Pass(0)


def test_the_dragon_trick_goes_to_the_opponent_worse_off_not_to_a_tichu_caller():
    hands = [HANDS[2], HANDS[1], HANDS[0], HANDS[3]]  # the expert now holds the Dragon hand
    hands[0], hands[2] = hands[0].replace("PH ", ""), hands[2] + " PH"
    hands[2] = hands[2].replace("MJ ", "")
    hands[0] += " MJ"
    scene = Scenario(hands)
    scene.act(CallTichu(1))
    scene.play(0, "DR")
    for seat in (1, 2, 3):
        scene.act(Pass(seat))
    assert scene.round.view(0).need == "give"
    assert scene.bot_choice() == GiveDragon(0, 3)


def test_the_same_seed_and_events_give_the_same_decisions():
    def game(seed):
        seeds = GameSeeds.from_seed(seed)
        bots = [make_bot("expert" if s % 2 == 0 else "basic", s, seeds.seats[s], SMALL) for s in range(4)]
        driver, clock = headless_driver(bots, GameOptions(round_limit=1), seeds)
        driver.start()
        clock.advance(0)
        return driver.game.rounds[0].history

    assert game(3) == game(3)
    assert game(3) != game(4)


def test_a_budget_below_one_playout_is_refused():
    with pytest.raises(ValueError, match="at least 1"):
        ExpertBot(0, Random(0), 0)


def test_the_counter_knows_the_passed_card_and_the_mahjong_holder():
    scene = Scenario(HANDS)
    counter = scene.bot.counter
    given = scene.round.history[0].cards  # the expert's exchange: to seats 1, 2, 3
    assert counter.sure[given[0]] == 1 and counter.sure[given[1]] == 2 and counter.sure[given[2]] == 3
    hidden = counter.hidden(scene.round.hands[0])
    assert len(hidden) == 42 and not set(hidden) & scene.round.hands[0]


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(list(VARIANTS.values())), seed=st.integers(0, 2**32),
       plays=st.integers(0, 40), me=st.integers(0, 5))
def test_sampled_deals_fit_everything_the_seat_saw(variant, seed, plays, me):
    """Play a random round part-way; every sampled deal must fit the counter's knowledge
    and keep the hand the seat sees open (Trichu's dummy) as it is."""
    rng = Random(seed)
    me %= variant.seats
    rnd = Round.deal_random(rng, variant=variant, dealer=seed % variant.seats)
    counter = CardCounter(me)
    for event in rnd.opening_events:
        if event.private_to in (None, me):
            counter.observe(event)

    def apply(action):
        for event in rnd.apply(action):
            if event.private_to in (None, me):
                counter.observe(event)

    for seat in range(variant.seats):
        if not rnd.grand_decided[seat]:
            apply(DeclineGrand(seat))
    for seat in range(variant.seats):
        hand = sorted(rnd.hands[seat], key=lambda c: c.index)
        given = tuple(rng.sample(hand, len(variant.exchange_steps)))
        if seat == me:
            counter.give(given, variant.exchange_targets[me])
        apply(Exchange(seat, given))
    for _ in range(plays):
        if rnd.phase == "over":
            break
        seat = rnd.view().turn
        apply(rng.choice([a for a in rnd.legal_actions(seat) if not isinstance(a, CallTichu)]))
    if rnd.phase == "over":
        return
    view = rnd.view(me)
    open_hands = None if view.open_hand is None else {variant.dummy: view.open_hand}
    assert (open_hands is not None) == (variant.dummy is not None)
    hands = sample_hands(counter, view.hand, view.hand_counts, Random(seed + 1), open_hands)
    assert [len(h) for h in hands] == list(view.hand_counts)
    assert set(hands[me]) == rnd.hands[me]
    if open_hands:
        assert set(hands[variant.dummy]) == rnd.hands[variant.dummy]
    dealt = [c for h in hands for c in h]
    assert len(set(dealt)) == len(dealt)
    assert set(dealt) | counter.played == set(DECK)
    for card, seat in counter.sure.items():
        assert card in hands[seat] and card in rnd.hands[seat]  # what it is sure of is true
    for seat, rank in counter.lacks:
        assert seat == variant.dummy or not any(c.is_natural and c.rank == rank for c in rnd.hands[seat])


@settings(max_examples=90, deadline=None)
@given(variant=st.sampled_from(list(VARIANTS.values())), seed=st.integers(0, 2**32))
def test_a_playout_from_the_deal_ends_and_scores_100_points_or_a_double_victory(variant, seed):
    deal = list(DECK)
    Random(seed).shuffle(deal)
    seats = range(variant.seats)
    hands, start = [], 0
    for size in variant.hand_sizes(seed % variant.seats):
        hands.append(counts_of(deal[start:start + size]))
        start += size
    leader = next(s for s in seats if hands[s][MAHJONG])
    bonus = [100 if s == seed % 7 else 0 for s in seats]
    state = Playout(variant, hands, (), None, None, 0, (0,) * variant.seats, leader, 0, bonus)
    score = state.run()
    assert state.finished
    out, teams = state.out, variant.teams
    calls = [0, 0]
    for s in seats:
        calls[teams[s]] += (bonus[s] if out[0] == s else -bonus[s])
    cards = (score[0] - calls[0], score[1] - calls[1])
    sweep = double_victory(out, variant)
    if sweep is not None:
        assert len(out) == variant.team_size and all(teams[s] == sweep for s in out)
        assert cards[sweep] == variant.sweep_points and cards[1 - sweep] == 0
    else:
        assert len(out) == variant.seats - 1 and sum(cards) == 100
    assert sum(SLOT_POINTS[s] * n for h in hands for s, n in enumerate(h)) == 100


def test_expert_beats_basic_in_a_small_sample():
    wins = 0
    for number in range(4):
        experts = (0, 2) if number % 2 == 0 else (1, 3)
        seeds = GameSeeds.from_seed(f"small/{number}")
        bots = [make_bot("expert" if s in experts else "basic", s, seeds.seats[s], SMALL) for s in range(4)]
        summary = run_game(bots, GameOptions(round_limit=3), seeds)
        wins += set(summary.winners) == set(experts)
    assert wins >= 2
