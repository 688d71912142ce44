"""The compiled round paths (``_combos_accel.c``) behave exactly as the pure `Round` methods.

`Round.iter_legal_actions` and `Round.apply` are compiled for the commonest
steps of a round and hand everything else to ``_pure_iter_legal_actions`` and
``_pure_apply``, the reference.  Here two copies of each random round go side
by side, one through the compiled methods and one through the pure ones: at
every step every seat's legal list (same actions, same order, every field),
then random legal and illegal actions (passes and plays by any seat, plays not
held, stale plays, plays that do not beat the table, typed plays, wishes,
gifts, Tichu and Grand Tichu out of place, bad exchanges) give the same events
or the same error with the same message, and leave the same state.  Skipped
where the extension is not in use.
"""

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bswtichu.engine import (
    DECK, CallTichu, DeclineGrand, CallGrand, Exchange, GiveDragon, IllegalActionError, MakeWish, Pass, Play, Round,
)
from bswtichu.engine import round as round_module
from bswtichu.engine.actions import play_of
from bswtichu.engine.combos import Combo, plays
from bswtichu.engine.events import Event
from bswtichu.engine.round import EXCHANGE, GRAND, OVER

from leak_check import assert_no_leak

pytestmark = pytest.mark.skipif(
    not round_module.COMPILED_PATHS,
    reason="the compiled round paths are not in use (the extension was not built: it needs gcc and the "
           "Python headers, Debian packages gcc and python3-dev, at install time; or BSWTICHU_PURE is set)")

pure_legal = Round._pure_iter_legal_actions
pure_apply = Round._pure_apply


def plain(value):
    """A value with every field spelled out, for comparisons that see types and all fields."""
    if isinstance(value, Combo):
        return ("Combo", value.type, type(value.rank), value.rank, value.length, value.mask, value.phoenix_as)
    if isinstance(value, Play):
        return ("Play", value.seat, value.cards, value.phoenix_as, plain(value.combo))
    if isinstance(value, Event):
        return (type(value).__name__, tuple(sorted((k, plain(v)) for k, v in vars(value).items())))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(plain(v) for v in value))
    if isinstance(value, (set, frozenset)):
        return ("set", frozenset(plain(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, plain(v)) for k, v in value.items())))
    return (type(value).__name__, value)


def state(rnd: Round):
    """Every field of the round but the cache of hand indexes."""
    return {name: plain(value) for name, value in vars(rnd).items() if name != "_indexes"}


def outcome(apply, rnd, action):
    try:
        return ("events", plain(apply(rnd, action)))
    except IllegalActionError as error:
        return ("refused", str(error), error.code)


def candidates(rnd: Round, rng: Random, listed: list, seen: list) -> list:
    """Actions to try now: mostly legal and illegal passes and plays, some of every other kind."""
    seat = rng.randrange(4)
    hand = rnd.hands[seat]
    out = [Pass(rng.randrange(4))]
    if listed:
        out.append(rng.choice(listed))
    if hand:
        leads = list(plays(hand))
        if leads:  # listed plays of his own hand: illegal when they do not beat, or not his turn
            out.append(play_of(seat, rng.choice(leads)))
            combo = rng.choice(leads)
            out.append(Play(seat, combo.cards, combo.phoenix_as))  # typed: classified when applied
        other = rnd.hands[(seat + rng.randrange(1, 4)) % 4]
        if other:
            out.append(play_of(seat, rng.choice(list(plays(other)))))  # cards he does not hold
    if seen:
        out.append(rng.choice(seen))  # stale: listed at an earlier step
    if rnd.phase in (GRAND, EXCHANGE):  # exchanges: cards not held, the same card twice, two cards, a list
        mine = sorted(hand, key=lambda c: c.index)
        out.append(Exchange(seat, tuple(rng.sample(DECK, 3))))
        if len(mine) >= 3:
            trio = rng.sample(mine, 3)
            twice = [trio[0], trio[1], trio[2]]
            twice[rng.randrange(3)] = twice[rng.randrange(3)]  # maybe the same card twice, anywhere
            out += [Exchange(seat, tuple(twice)), Exchange(seat, (trio[0], trio[1], trio[1])),
                    Exchange(seat, tuple(trio[:2])),
                    Exchange(seat, list(trio)), Exchange(seat, tuple(trio))]
    if rng.random() < 0.35:
        out.append(rng.choice([MakeWish(seat, rng.choice([None, 1, 7, 14, 15])), GiveDragon(seat, rng.randrange(5)),
                               CallTichu(seat), DeclineGrand(seat), CallGrand(seat), Pass(rng.choice([-1, 4]))]))
    rng.shuffle(out)
    return out


def run_side_by_side(seed: int, illegal_tries: int, max_steps: int = 400) -> int:
    rng = Random(seed)
    fast = Round.deal_random(Random(seed), grand_tichu=rng.random() < 0.8)
    ref = fast.copy()
    seen: list = []
    steps = 0
    while fast.phase != OVER and steps < max_steps:
        steps += 1
        listed = []
        for seat in range(4):
            if fast.phase in (GRAND, EXCHANGE):
                continue
            mine = list(fast.iter_legal_actions(seat))
            theirs = list(pure_legal(ref, seat))
            assert [plain(a) for a in mine] == [plain(a) for a in theirs], f"seat {seat}"
            listed += mine
        assert state(fast) == state(ref)
        if fast.phase == EXCHANGE:
            seat = rng.choice([s for s in range(4) if fast.exchanges[s] is None])
            chosen = Exchange(seat, tuple(rng.sample(sorted(fast.hands[seat], key=lambda c: c.index), 3)))
        elif fast.phase == GRAND:
            seat = rng.choice([s for s in range(4) if not fast.grand_decided[s]])
            chosen = rng.choice([DeclineGrand(seat), DeclineGrand(seat), CallGrand(seat)])
        else:
            chosen = rng.choice(listed)
        tries = candidates(fast, rng, listed, seen)[:illegal_tries]
        for action in tries + [chosen]:
            got, expected = outcome(Round.apply, fast, action), outcome(pure_apply, ref, action)
            assert got == expected, f"{action!r}"
            assert state(fast) == state(ref)
            if fast.phase == OVER:
                break
        seen = (seen + [a for a in listed if isinstance(a, Play)][:3])[-30:]
    return steps


# Each example is a whole round, about 110 steps with every seat's list and up to
# nine actions compared at each: a few dozen rounds make tens of thousands of checks.
@settings(max_examples=60)
@given(st.integers(min_value=0, max_value=2 ** 32 - 1))
def test_compiled_round_paths_match_the_pure_methods_on_random_rounds(seed):
    run_side_by_side(seed, illegal_tries=3)


@settings(max_examples=25)
@given(st.integers(min_value=0, max_value=2 ** 32 - 1))
def test_compiled_round_paths_match_the_pure_methods_with_many_illegal_actions(seed):
    run_side_by_side(seed, illegal_tries=8)


def test_the_compiled_paths_are_in_place_and_the_pure_ones_kept():
    assert Round.apply is not pure_apply and Round.iter_legal_actions is not pure_legal
    played = Round.deal_random(Random(3))
    rng = Random(4)
    while played.phase != OVER:
        if played.phase == EXCHANGE:
            seat = next(s for s in range(4) if played.exchanges[s] is None)
            played.apply(Exchange(seat, tuple(rng.sample(sorted(played.hands[seat], key=lambda c: c.index), 3))))
        else:
            played.apply(rng.choice([a for s in range(4) for a in played.iter_legal_actions(s)]))
    again = Round(played.deal)
    for action in played.history:
        pure_apply(again, action)
    assert state(again) == state(played)


def test_odd_states_and_arguments_go_to_the_pure_methods():
    """A subclass, a seat that is not 0..3, a field of an unexpected type: the pure method answers."""
    rnd = Round.deal_random(Random(5))
    for seat in range(4):
        rnd.apply(DeclineGrand(seat))
    for seat in range(4):
        rnd.apply(Exchange(seat, tuple(sorted(rnd.hands[seat], key=lambda c: c.index)[:3])))
    def answer(call, *args):
        try:
            return ("listed", plain(list(call(*args))))
        except Exception as error:  # whatever the pure method does with it, the same
            return ("raised", type(error), str(error))

    for bad in (4, -1, True, "1", 1.0, None):
        assert answer(Round.iter_legal_actions, rnd, bad) == answer(pure_legal, rnd, bad)
        assert answer(Round.apply, rnd.copy(), Pass(bad)) == answer(pure_apply, rnd.copy(), Pass(bad))
    leader = rnd.turn
    other = rnd.copy()
    other.turn = float(leader)  # not an int: the compiled path declines, the pure one decides
    assert [plain(a) for a in other.iter_legal_actions(leader)] == [plain(a) for a in pure_legal(other, leader)]

    for seat in range(4):  # a hand holding something that is not a card
        odd = rnd.copy()
        odd.hands[seat] = odd.hands[seat] | {"7j"}
        assert answer(Round.iter_legal_actions, odd, seat) == answer(pure_legal, odd, seat)
        for action in rnd.legal_actions(seat)[:3] + [Pass(seat)]:
            assert answer(Round.apply, odd.copy(), action) == answer(pure_apply, odd.copy(), action)

    class Traced(Round):
        pass

    traced = Traced.__new__(Traced)
    traced.__dict__.update(rnd.copy().__dict__)
    action = rnd.legal_actions(leader)[-1]
    assert plain(traced.apply(action)) == plain(pure_apply(rnd.copy(), action))


def test_many_round_calls_leave_no_references_or_memory_behind():
    """Leak check for the compiled round paths, refused actions included."""
    shared = [None, True, False, *round_module._PASS, *round_module._PASSED, *round_module._TO_FOLLOW,
              *round_module._TO_LEAD, *round_module._CALL_TICHU, *round_module._TURN_TO["wish"],
              *round_module._TURN_TO["give"], *(e for row in round_module._TICHU_CALLED for e in row),
              *(e for row in round_module._TRICK_WON for e in row), *(a for row in round_module._WISHES for a in row),
              *(a for row in round_module._GIFTS for a in row), *(a for row in round_module._GRAND_CHOICES for a in row)]

    def work():
        for seed in range(6):
            rng = Random(seed)
            rnd = Round.deal_random(Random(seed))
            while rnd.phase != OVER:
                if rnd.phase == EXCHANGE:
                    seat = next(s for s in range(4) if rnd.exchanges[s] is None)
                    rnd.apply(Exchange(seat, tuple(sorted(rnd.hands[seat], key=lambda c: c.index)[:3])))
                    continue
                options = [a for s in range(4) for a in rnd.iter_legal_actions(s)]
                holder = next(s for s in range(4) if rnd.hands[s])
                stolen = play_of((holder + 1) % 4, next(iter(plays(rnd.hands[holder]))))  # not his cards
                for bad in (Pass(((rnd.turn or 0) + 1) % 4), stolen):
                    try:
                        rnd.apply(bad)
                    except IllegalActionError:
                        pass
                rnd.apply(rng.choice(options))

    assert_no_leak(work, shared, wandering=3, repeats=5)


def test_the_compiled_paths_handle_most_of_a_round(monkeypatch):
    """They must not hand everything over: count what reaches the pure methods."""
    reached = {"legal": 0, "apply": 0}

    def counted(name, method):
        def call(self, arg):
            reached[name] += 1
            return method(self, arg)
        return call

    monkeypatch.setattr(Round, "_pure_iter_legal_actions", counted("legal", pure_legal))
    monkeypatch.setattr(Round, "_pure_apply", counted("apply", pure_apply))
    asked = applied = 0
    for seed in range(20):
        rng = Random(seed)
        rnd = Round.deal_random(rng)
        while rnd.phase != OVER:
            if rnd.phase == EXCHANGE:
                seat = next(s for s in range(4) if rnd.exchanges[s] is None)
                rnd.apply(Exchange(seat, tuple(sorted(rnd.hands[seat], key=lambda c: c.index)[:3])))
                continue
            options = []
            for seat in range(4):
                options += rnd.iter_legal_actions(seat)
                asked += rnd.phase != GRAND
            rnd.apply(rng.choice(options))
            applied += 1
    assert reached["legal"] < asked * 0.15, (reached, asked)
    assert reached["apply"] < applied * 0.35, (reached, applied)
