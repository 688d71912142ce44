"""The `basic` bot's judgement, on views built by hand (a bot needs nothing but the view)."""

from random import Random

import pytest

from bswtichu.bots import BasicBot, RandomBot
from bswtichu.bots.handeval import shape_of
from bswtichu.engine import (
    DECK, CallGrand, CallTichu, DeclineGrand, Exchange, GiveDragon, MakeWish, Pass, Play, Round,
    RoundView, classify, parse_cards, plays,
)


def view(hand, seat=0, phase="play", need="follow", top=None, top_seat=None, counts=None,
         calls=(None,) * 4, finish_order=(), wish=None):
    hand = tuple(parse_cards(hand))
    counts = counts or tuple(len(hand) if s == seat else 10 for s in range(4))
    top_combo = classify(parse_cards(top)) if top else None
    return RoundView(
        seat=seat, phase=phase, hand=hand, hand_counts=counts, calls=tuple(calls),
        grand_decided=(True,) * 4, exchange_submitted=(phase != "exchange",) * 4,
        top=top_combo, top_seat=top_seat, trick=((top_seat, top_combo),) if top else (),
        trick_won=False, turn=seat, need=need, wish=wish, finish_order=tuple(finish_order),
        points_taken=(0,) * 4, result=None)


def legal_follow(v):
    return [Pass(v.seat)] + [Play(v.seat, c.cards, c.phoenix_as) for c in plays(v.hand, v.top)]


def legal_lead(v):
    return [Play(v.seat, c.cards, c.phoenix_as) for c in plays(v.hand, None)]


def bot(seat=0):
    return BasicBot(seat, Random(1))


def test_it_lets_the_partner_trick_stand():
    v = view("3j 3s 8p Ar DR", top="Kj", top_seat=2)
    assert bot().choose(v, legal_follow(v)) == Pass(0)


def test_it_beats_an_opponent_cheaply_and_keeps_the_dragon():
    v = view("3j 3s 9p Qs Ar DR", top="8j", top_seat=1)
    action = bot().choose(v, legal_follow(v))
    assert action == Play(0, parse_cards("9p"))


def test_it_does_not_break_a_straight_for_a_low_trick():
    v = view("4j 5s 6p 7r 8j Kp Kr", top="3j", top_seat=3)
    assert bot().choose(v, legal_follow(v)) == Pass(0)


def test_it_bombs_an_opponent_about_to_go_out():
    v = view("7j 7s 7p 7r 3j 9s", top="Ar", top_seat=1, counts=(6, 1, 8, 8))
    action = bot().choose(v, legal_follow(v))
    assert action.cards == frozenset(parse_cards("7j 7s 7p 7r"))


def test_it_keeps_its_bomb_when_nothing_is_at_stake():
    v = view("7j 7s 7p 7r 3j 9s", top="Ar", top_seat=1, counts=(6, 9, 8, 8))
    assert bot().choose(v, legal_follow(v)) == Pass(0)
    assert bot().interrupt(v, [a for a in legal_follow(v) if isinstance(a, Play)]) is None


def test_it_bombs_out_of_turn_to_stop_an_opponent():
    v = view("7j 7s 7p 7r 3j 9s", top="Kr", top_seat=1, counts=(6, 2, 8, 8))
    bombs = [Play(0, parse_cards("7j 7s 7p 7r"))]
    assert bot().interrupt(v, bombs) == bombs[0]


def test_it_leads_low():
    v = view("MJ 3j 7s 7p Tr Kj Ar DR", need="lead")
    assert bot().choose(v, legal_lead(v)) == Play(0, parse_cards("MJ"))


def test_it_leads_high_when_an_opponent_has_one_card_left():
    v = view("3j 8s Kp", need="lead", counts=(3, 1, 5, 6))
    assert bot().choose(v, legal_lead(v)) == Play(0, parse_cards("Kp"))


def test_it_goes_out_when_it_can():
    v = view("9j 9s", top="8j 8s", top_seat=2, counts=(2, 5, 4, 6))
    assert bot().choose(v, legal_follow(v)) == Play(0, parse_cards("9j 9s"))


def test_it_wishes_a_rank_it_does_not_hold():
    v = view("2j 3s Ap Ar Kj", need="wish")
    legal = [MakeWish(0, None)] + [MakeWish(0, r) for r in range(2, 15)]
    wish = bot().choose(v, legal)
    assert wish.rank not in (None, 2, 3, 13, 14)


def test_it_gives_the_dragon_to_the_opponent_with_more_cards():
    v = view("3j 4s", need="give", counts=(2, 9, 3, 4))
    assert bot().choose(v, [GiveDragon(0, 1), GiveDragon(0, 3)]) == GiveDragon(0, 1)
    called = view("3j 4s", need="give", counts=(2, 9, 3, 8), calls=(None, "tichu", None, None))
    assert bot().choose(called, [GiveDragon(0, 1), GiveDragon(0, 3)]) == GiveDragon(0, 3)


def test_grand_tichu_only_with_a_strong_start():
    strong = view("DR PH Aj As 5j 7s 9p Tr", phase="grand", need=None)
    weak = view("2j 3s 5p 7r 8j 9s Jp Kr", phase="grand", need=None)
    options = [CallGrand(0), DeclineGrand(0)]
    assert bot().choose(strong, options) == CallGrand(0)
    assert bot().choose(weak, options) == DeclineGrand(0)


def test_tichu_only_with_a_strong_hand():
    strong = view("MJ 2j 3s 4p 5r 6j 7s 8p 9r Tj Ap Ar DR PH", need="lead")
    weak = view("2j 2s 3p 5r 6j 7s 8p 9r Tj Jj Qp Kr Kj DG", need="lead")
    assert bot().choose(strong, [CallTichu(0)] + legal_lead(strong)) == CallTichu(0)
    assert bot().choose(weak, [CallTichu(0)] + legal_lead(weak)) != CallTichu(0)


@pytest.mark.parametrize("seed", range(30))
def test_exchange_keeps_dragon_phoenix_and_bombs_from_opponents(seed):
    rnd = Round.deal_random(Random(seed), grand_tichu=False)
    for seat in range(4):
        v = rnd.view(seat)
        action = bot(seat).choose(v, rnd.legal_actions(seat))
        assert isinstance(action, Exchange) and rnd.is_legal(action)
        right, partner, left = action.cards
        protected = shape_of(v.hand).bomb_cards | {DECK[54], DECK[55]}
        assert not {right, left} & protected
        assert partner.kind != "DG"


def test_random_bot_is_reproducible_and_legal():
    rnd = Round.deal_random(Random(3))
    legal = rnd.legal_actions(2)
    picks = [RandomBot(2, Random(7)).choose(rnd.view(2), legal) for _ in range(2)]
    assert picks[0] == picks[1] and picks[0] in legal


@pytest.mark.parametrize("need, top", [("lead", None), ("follow", "2j 2s 2p 4j 4s")])
def test_of_two_readings_of_the_same_cards_it_plays_the_higher(need, top):
    """3s 3p 9j 9p PH is nines over threes or threes over nines: the same cards, so the bot takes the nines."""
    v = view("3s 3p 9j 9p PH", need=need, top=top, top_seat=None if top is None else 1)
    legal = legal_lead(v) if top is None else legal_follow(v)
    assert {a.phoenix_as for a in legal if isinstance(a, Play)} >= {3, 9}
    for seed in range(20):
        action = BasicBot(0, Random(seed)).choose(v, legal)
        assert classify(action.cards, action.phoenix_as).describe() == "full house of nines"
