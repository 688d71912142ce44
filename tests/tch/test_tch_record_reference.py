"""`record.round_log` (a one-pass tally, the engine's combinations, unchecked model values)
gives exactly what the plain version gives: it replays the round through the engine on a
shadow `Round`, classifies every play again and builds checked model values.  That plain
version is kept here as the reference; both are compared on random rounds (finished and
not), on every round of the shared BSW logs, and as `.tch` text."""

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from bswtichu.engine import (
    OVER, CallGrand, CallTichu, DeclineGrand, Exchange, GiveDragon, MakeWish, Pass, Play, Round,
)
from bswtichu.engine.cards import DECK, DOG, DRAGON, DRAGON_CARD, MAHJONG, PHOENIX, Card
from bswtichu.engine.combos import ComboType, classify
from bswtichu.engine.deal import first_cards, last_cards
from bswtichu.tch import model, read_tch_file, write_tch
from bswtichu.tch.record import _play_order, bsw_order, game_log, round_log
from bswtichu.tch.replay import deal_of, replay_round
from bswtichu.tch.writer import round_tch

from tch_rounds import random_options, random_tournament

LOGS = Path(__file__).resolve().parents[2].parent / "shared" / "bsw-logs"
NAMES = ("ann", "bob", "cid", "dan")


# -- the reference: the plain replaying version ---------------------------------------------

def reference_order(cards, phoenix_as=None):
    special = {DRAGON: 16, PHOENIX: 15, MAHJONG: 1, DOG: 0}

    def key(c: Card):
        if c.kind == PHOENIX and phoenix_as is not None:
            return (phoenix_as, -1)
        return (special.get(c.kind, c.rank), "jspr".index(c.suit) if c.suit else 0)
    return tuple(sorted(cards, key=key, reverse=True))


def reference_play_order(action: Play):
    combo = classify(action.cards, action.phoenix_as)
    cards = reference_order(action.cards, combo.phoenix_as)
    if combo.type is ComboType.FULL_HOUSE:
        in_triple = [c for c in cards if (combo.phoenix_as if c.kind == PHOENIX else c.rank) == combo.rank]
        cards = tuple(in_triple) + tuple(c for c in cards if c not in in_triple)
    return cards


def reference_round_log(rnd: Round, names) -> model.RoundLog:
    deal = rnd.deal
    grand_hands = [reference_order(first_cards(deal, s)) for s in range(4)]
    start_hands = [reference_order(tuple(first_cards(deal, s)) + tuple(last_cards(deal, s))) for s in range(4)]
    exchanges: list = [None] * 4
    grand_calls = []
    entries: list = []
    shadow = Round(deal, grand_tichu=rnd.grand_tichu, double_victory_points=rnd.double_victory_points)
    for action in rnd.history:
        if isinstance(action, CallGrand):
            grand_calls.append(model.GrandTichuCall(action.seat))
        elif isinstance(action, Exchange):
            exchanges[action.seat] = action.cards
        elif isinstance(action, CallTichu):
            entries.append(model.TichuCall(action.seat))
        elif isinstance(action, Pass):
            entries.append(model.Pass(action.seat))
        elif isinstance(action, MakeWish):
            if action.rank is not None:
                entries.append(model.Wish(action.rank))
        elif isinstance(action, GiveDragon):
            if shadow.top_seat not in shadow.finish_order and not shadow.ending:
                entries.append(model.Pass(shadow.top_seat))
            entries.append(model.DragonGift(action.to))
        elif isinstance(action, Play):
            if shadow.trick_won and action.seat == shadow.leader and shadow.top_seat == action.seat:
                entries.append(model.Pass(action.seat))
            entries.append(model.Play(action.seat, reference_play_order(action)))
        elif not isinstance(action, DeclineGrand):
            raise TypeError(f"unknown action {action!r}")
        shadow.apply(action)
    if shadow.phase == OVER:
        score = shadow.result.score
        entries.append(model.Result(score[0], score[1]))
    return model.RoundLog(
        seat_names=tuple(names), grand_hands=tuple(grand_hands), start_hands=tuple(start_hands),
        exchanges=tuple(exchanges), entries=tuple(entries), grand_tichu_calls=tuple(grand_calls))


# -- random rounds -------------------------------------------------------------------------

def random_round(seed: int, grand_tichu: bool = True, stop: float = 1.0) -> Round:
    """Uniformly random legal actions of all seats (Tichu thinned), the play phase cut after ``stop`` of it."""
    rng = random.Random(seed)
    rnd = Round.deal_random(rng, grand_tichu=grand_tichu)
    while rnd.phase != OVER and not (rnd.phase == "play" and rng.random() > stop):
        options = random_options(rnd, rng, lambda a: not isinstance(a, CallTichu) or rng.random() < 0.2)
        if not options:
            options = [a for s in range(4) for a in rnd.iter_legal_actions(s)]
        rnd.apply(rng.choice(options))
    return rnd


def assert_same_log(rnd: Round, names=NAMES) -> model.RoundLog:
    fast, plain = round_log(rnd, names), reference_round_log(rnd, names)
    assert fast == plain
    assert [type(e) for e in fast.entries] == [type(e) for e in plain.entries]
    assert round_tch(fast) == round_tch(plain)
    return fast


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.booleans(), st.sampled_from([1.0, 1.0, 0.99, 0.97]))
def test_random_rounds_are_logged_as_the_replaying_reference_logs_them(seed, grand_tichu, stop):
    assert_same_log(random_round(seed, grand_tichu, stop))


def test_many_rounds_agree_and_cover_the_tricky_lines():
    """A fixed sweep that must meet each case the tally decides: a winner collecting by leading,
    a Dragon trick given by a seat still in and by one who went out with it, bombs, the Dog."""
    seen = Counter()
    for seed in range(250):
        rnd = random_round(seed, grand_tichu=seed % 2 == 0)
        rlog = assert_same_log(rnd)
        history = rnd.history
        dragon_owner = None
        for before, entry in zip(rlog.entries, rlog.entries[1:]):
            if isinstance(before, model.Pass) and isinstance(entry, model.Play) and before.seat == entry.seat:
                seen["winner collects by leading"] += 1
            if isinstance(entry, model.Play) and DRAGON_CARD in entry.cards:
                dragon_owner = entry.seat
            if isinstance(entry, model.DragonGift):
                owner_passed = isinstance(before, model.Pass) and before.seat == dragon_owner
                seen["gift after the owner's pass" if owner_passed else "gift by one who is out"] += 1
        seen["bomb"] += sum(1 for a in history if isinstance(a, Play) and a.combo.is_bomb)
        seen["dog"] += sum(1 for a in history if isinstance(a, Play) and a.combo.type is ComboType.DOG)
        seen["full house with the Phoenix"] += sum(
            1 for a in history if isinstance(a, Play) and a.combo.type is ComboType.FULL_HOUSE
            and a.phoenix_as is not None)
    assert min(seen[k] for k in ("winner collects by leading", "gift after the owner's pass",
                                 "gift by one who is out", "bomb", "dog", "full house with the Phoenix")) > 0, seen


def test_a_whole_tournament_with_its_changing_seats_is_logged_as_the_reference_logs_it():
    rounds = random_tournament(NAMES, 5)
    assert len({seating for _, seating in rounds}) > 1
    assert write_tch(game_log(rounds)) == "".join(round_tch(reference_round_log(r, s)) for r, s in rounds)


@pytest.mark.skipif(not sorted(LOGS.glob("*.tch")), reason=f"the shared BSW logs are not at {LOGS}")
def test_the_shared_bsw_rounds_replayed_are_logged_as_the_reference_logs_them():
    count = 0
    for path in sorted(LOGS.glob("*.tch")):
        for number, rlog in enumerate(read_tch_file(path).rounds, start=1):
            report = replay_round(rlog, number)
            assert report.ok, report.error
            rnd = Round(deal_of(rlog))
            for action in report.actions:
                rnd.apply(action)
            assert_same_log(rnd, rlog.seat_names)
            count += 1
    assert count == 50


# -- the parts -----------------------------------------------------------------------------

@given(st.lists(st.sampled_from(DECK), unique=True, max_size=14),
       st.one_of(st.none(), st.integers(1, 16)))
def test_bsw_order_is_sorting_by_bsws_rank_and_suit(cards, phoenix_as):
    assert bsw_order(cards, phoenix_as) == reference_order(cards, phoenix_as)
    assert bsw_order(reversed(cards), phoenix_as) == reference_order(cards, phoenix_as)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9))
def test_a_play_is_ordered_alike_from_its_engine_combo_and_classified_anew(seed):
    for action in random_round(seed).history:
        if isinstance(action, Play):
            assert action.combo is not None  # the engine records its combination
            typed = Play(action.seat, action.cards, action.phoenix_as)
            assert _play_order(action) == _play_order(typed) == reference_play_order(action)


def test_of_engine_values_equal_the_checked_ones():
    rnd = random_round(7)
    fast = round_log(rnd, NAMES)
    checked = model.RoundLog(fast.seat_names, fast.grand_hands, fast.start_hands, fast.exchanges,
                             fast.entries, fast.grand_tichu_calls)
    assert fast == checked and fast.card_block_names is None and fast.bomb_holders == ()
    play = next(e for e in fast.entries if isinstance(e, model.Play))
    assert play == model.Play(play.seat, play.cards) and play.name is None and play.line is None
    with pytest.raises(ValueError, match="line break"):
        round_log(rnd, ("ann", "b\nob", "cid", "dan"))
    with pytest.raises(ValueError, match="one entry per seat"):
        round_log(rnd, ("ann", "bob", "cid"))
