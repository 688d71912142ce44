"""Properties over random deals and random legal play to the end of the round (Hypothesis)."""

import json
from random import Random

from hypothesis import given, settings, strategies as st

from bswtichu.engine import (
    DECK, CallGrand, CallTichu, DeclineGrand, Exchange, GiveDragon, MakeWish, Pass, Play, Round,
    bombs, card_points, classify, parse_card, parse_play, plays, readings,
)
from bswtichu.engine.round import EXCHANGE, GRAND, OVER, PLAY

from test_engine_support import random_step, random_trio, rejected, snapshot

SEEDS = st.integers(min_value=0, max_value=2 ** 32 - 1)
TEXTS = {c.text for c in DECK}


def card_texts(value) -> set[str]:
    """Every card text inside a JSON-like value."""
    out = set()
    if isinstance(value, str):
        if value in TEXTS:
            out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            out |= card_texts(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            out |= card_texts(v)
    return out


def check_invariants(rnd: Round):
    # all 56 cards accounted for, each once
    assert sorted(rnd.all_cards(), key=lambda c: c.index) == list(DECK)
    for seat in range(4):
        view = rnd.view(seat)
        assert set(view.hand) == rnd.hands[seat]
        seen = card_texts(view.to_dict())
        for other in range(4):
            if other != seat:
                assert not seen & {c.text for c in rnd.hands[other]}, "a view shows another seat's cards"
    json.dumps(rnd.view(None).to_dict())
    public = card_texts(rnd.view(None).to_dict())
    assert not public & {c.text for h in rnd.hands for c in h}
    if rnd.phase == GRAND:
        for s in range(4):
            assert len(rnd.hands[s]) == (14 if rnd.grand_decided[s] else 8)


def check_events(rnd: Round, events):
    held = {c.text for h in rnd.hands for c in h}
    for e in events:
        json.dumps(e.to_dict())  # events are JSON-ready
        texts = card_texts(e.to_dict())
        if e.private_to is None:
            assert not texts & held, f"public event {e} shows cards in a hand"
        else:
            others = {c.text for s in range(4) if s != e.private_to for c in rnd.hands[s]}
            assert not texts & others


def legal_set(rnd: Round, seat: int) -> set:
    return set(rnd.legal_actions(seat))


def expected_legal(rnd: Round, action, legal: set) -> bool:
    """Whether ``action`` should be accepted, given the legal list (default Phoenix reading)."""
    if isinstance(action, Play) and action.phoenix_as is None:
        options = readings(action.cards)
        if not options:
            return False
        return Play(action.seat, action.cards, classify(action.cards).phoenix_as) in legal
    return action in legal


def random_candidate(rnd: Round, rng: Random):
    seat = rng.randrange(4)
    hand = sorted(rnd.hands[seat], key=lambda c: c.index)
    kind = rng.randrange(10)
    if kind <= 3 and hand:
        cards = rng.sample(hand, rng.randint(1, min(len(hand), 6)))
        if rng.random() < 0.2:
            cards.append(rng.choice(DECK))
        ph = rng.choice([None, None, None, rng.randint(1, 15)])
        return Play(seat, set(cards), ph)
    if kind == 4:
        return Pass(seat)
    if kind == 5:
        return rng.choice([CallTichu(seat), CallGrand(seat), DeclineGrand(seat)])
    if kind == 6:
        return MakeWish(seat, rng.choice([None, rng.randint(0, 16)]))
    if kind == 7:
        return GiveDragon(seat, rng.randint(-1, 4))
    if kind == 8 and len(hand) >= 3:
        trio = list(random_trio(rng, hand))
        if rng.random() < 0.5:
            trio[rng.randrange(3)] = rng.choice(DECK)
        return Exchange(seat, tuple(trio))
    return Play(seat, set(rng.sample(DECK, rng.randint(1, 5))))


def reference_plays(rnd: Round, seat: int):
    """The plays (cards, phoenix_as) and whether a pass is allowed, derived from the rules.

    Uses only the seat's hand, its view and `plays` (checked against a brute force
    in test_engine_plays): R7.3, R8.1.3, R8.3, R9.2, R9.6, R10.2-R10.4.
    """
    v = rnd.view(seat)
    if v.phase != PLAY or seat in v.finish_order or v.need == "wish":
        return set(), False
    hand = rnd.hands[seat]
    key = lambda combos: {(c.cards, c.phoenix_as) for c in combos}
    holds_w = v.wish is not None and any(c.is_natural and c.rank == v.wish for c in hand)
    if v.need == "give":
        if len(v.finish_order) >= 3:        # the last trick: nobody may bomb (R8.5.4)
            return set(), False
        return key(bombs(hand, v.top)), False
    if v.need == "lead" and v.turn == seat:  # leading (also in the bomb window: a new lead)
        leads = list(plays(hand, None))
        if holds_w:
            leads = [c for c in leads if c.contains_rank(v.wish)]
        return key(leads), False
    if v.top is None:                        # someone else leads an empty table: no bombs
        return set(), False
    if v.need == "follow" and v.turn == seat:
        options = list(plays(hand, v.top))
        with_w = [c for c in options if holds_w and c.contains_rank(v.wish)]
        if with_w:                           # bound: a play with the wished rank, or any bomb
            return key(with_w + [c for c in options if c.is_bomb]), False
        return key(options), True
    return key(bombs(hand, v.top)), False    # out of turn, or in the bomb window


def check_legal_plays(rnd: Round):
    for seat in range(4):
        actions = rnd.legal_actions(seat)
        got = {(a.cards, a.phoenix_as) for a in actions if isinstance(a, Play)}
        expected, may_pass = reference_plays(rnd, seat)
        assert got == expected, f"seat {seat}: legal plays differ from the rules"
        assert (Pass(seat) in actions) == may_pass


@settings(max_examples=25)
@given(SEEDS, st.booleans(), st.sampled_from(["uniform", "eager"]))
def test_random_rounds_keep_every_invariant(seed, grand, policy):
    """``eager`` players prefer playing (bombs included) to passing and calling: more endings."""
    rng = Random(seed)
    rnd = Round.deal_random(rng, grand_tichu=grand)
    check_invariants(rnd)
    check_events(rnd, rnd.opening_events)
    steps = 0
    while rnd.phase != OVER:
        if rnd.phase == EXCHANGE:
            seat = rng.choice([s for s in range(4) if rnd.exchanges[s] is None])
            action = Exchange(seat, random_trio(rng, rnd.hands[seat]))
        else:
            options = [a for s in range(4) for a in rnd.iter_legal_actions(s)]
            assert options, "nobody can act but the round is not over"
            played = [a for a in options if isinstance(a, Play)]
            if policy == "eager" and played and rng.random() < 0.85:
                options = played
            action = rng.choice(options)
        events = rnd.apply(action)
        check_events(rnd, events)
        check_invariants(rnd)
        check_legal_plays(rnd)
        steps += 1
        assert steps < 1000
    res = rnd.result
    if res.double_victory is None:
        assert sum(res.card_points) == 100
        assert sorted(res.finish_order) == [0, 1, 2, 3]
    else:
        assert sorted(res.card_points) == [0, 200]
        assert len(res.finish_order) == 2
        assert res.finish_order[0] % 2 == res.finish_order[1] % 2 == res.double_victory
    # calls: +-100 / +-200 for each caller, by whether he went out first
    expected_calls = [0, 0]
    for s, call in enumerate(res.calls):
        if call:
            bonus = 200 if call == "grand" else 100
            expected_calls[s % 2] += bonus if res.finish_order[0] == s else -bonus
    assert list(res.call_points) == expected_calls
    assert res.score == (res.card_points[0] + res.call_points[0], res.card_points[1] + res.call_points[1])
    for seat in range(4):
        assert rnd.legal_actions(seat) == []


@settings(max_examples=25)
@given(SEEDS, st.booleans())
def test_replay_rebuilds_the_same_state(seed, grand):
    rng = Random(seed)
    rnd = Round.deal_random(rng, grand_tichu=grand)
    cut = rng.randint(0, 120)
    while rnd.phase != OVER:
        random_step(rnd, rng)
        if len(rnd.history) == cut:
            mid = Round.replay(rnd.deal, rnd.history, grand_tichu=grand)
            assert snapshot(mid) == snapshot(rnd)
    again = Round.replay(rnd.deal, rnd.history, grand_tichu=grand)
    assert again.result == rnd.result
    assert snapshot(again) == snapshot(rnd)
    assert again.history == rnd.history


@settings(max_examples=15)
@given(SEEDS, st.booleans())
def test_illegal_actions_are_rejected_and_legal_ones_accepted(seed, grand):
    rng = Random(seed)
    rnd = Round.deal_random(rng, grand_tichu=grand)
    deep_checks = 0
    while rnd.phase != OVER:
        legal = {s: legal_set(rnd, s) for s in range(4)} if rnd.phase != EXCHANGE else None
        for _ in range(6):
            action = random_candidate(rnd, rng)
            if rnd.phase == EXCHANGE:
                ok = (isinstance(action, Exchange) and rnd.exchanges[action.seat] is None
                      and len(set(action.cards)) == 3 and set(action.cards) <= rnd.hands[action.seat]) \
                    or (isinstance(action, CallTichu) and CallTichu(action.seat) in rnd.legal_actions(action.seat))
            else:
                ok = expected_legal(rnd, action, legal[action.seat])
            if ok:
                assert rnd.is_legal(action), f"{action} is legal but refused"
            else:
                assert rejected(rnd, action), f"{action} is not legal but accepted"
        if legal is not None and deep_checks < 3 and rng.random() < 0.1:
            # every legal action of every seat is accepted here
            deep_checks += 1
            for s in range(4):
                for action in legal[s]:
                    assert rnd.is_legal(action), f"{action} listed but refused"
        random_step(rnd, rng)


@settings(max_examples=15)
@given(SEEDS)
def test_printing_and_parsing_plays_gives_them_back(seed):
    rng = Random(seed)
    rnd = Round.deal_random(rng, grand_tichu=False)
    while rnd.phase != OVER:
        random_step(rnd, rng)
    for action in rnd.history:
        if isinstance(action, Play):
            text = action.notation()
            assert text.startswith("play ")
            cards, ph = parse_play(text[5:], DECK)
            assert set(cards) == set(action.cards)
            assert ph == action.phoenix_as
            combo = classify(cards, ph)
            assert combo.notation() == text[5:]
            for c in action.cards:
                assert parse_card(c.text) is c


@settings(max_examples=20)
@given(SEEDS)
def test_points_in_piles_never_exceed_the_deck(seed):
    rng = Random(seed)
    rnd = Round.deal_random(rng)
    while rnd.phase != OVER:
        random_step(rnd, rng)
        on_table = card_points(rnd.trick_cards) + card_points(rnd.loose_cards)
        in_hands = sum(card_points(h) for h in rnd.hands)
        assert sum(rnd.view().points_taken) + on_table + in_hands == 100 - (
            card_points(c for s in range(4) if rnd.phase == GRAND and not rnd.grand_decided[s]
                        for c in rnd.deal[32 + 6 * s: 38 + 6 * s]))
