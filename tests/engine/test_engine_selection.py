"""A selection's check and the suggestions (engine/selection.py) against the engine itself.

The reference is the round's own `apply`: a reading of the selected cards is playable exactly
when the engine accepts it, and a selection that is not playable gets the reason the engine's
own refusal gives (mapped to the check's codes), over random rounds of every variant.
"""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import given, settings, strategies as st

from bswtichu.engine import (
    DUO, NANJING, TIENTSIN, TRICHU, CardsNotHeld, Exchange, IllegalActionError, Pass, Play, Round,
    TichuError, card, parse_cards, readings,
)
from bswtichu.engine.combos import classify
from bswtichu.engine.round import EXCHANGE, OVER, PLAY
from bswtichu.engine.selection import (
    MAX_BOMBS, MAX_SUGGESTED, SUGGESTED_KINDS, check_selection, combo_name, suggestions,
)

from test_engine_support import position, run

SEEDS = st.integers(min_value=0, max_value=2 ** 32 - 1)
VARIANTS = (NANJING, TIENTSIN, TRICHU, DUO)

#: The engine's refusals of a play, by the words that say why, as the check's codes.
ENGINE_REASONS = (
    ("first decide", "phase"), ("first pass your", "phase"), ("the others decide", "phase"),
    ("the round is over: only", "waiting"), ("the round is over", "phase"), ("waiting for", "waiting"),
    ("you are out", "out"), ("not a valid combination", "not_a_combination"),
    ("not your turn", "not_your_turn"), ("nobody may bomb", "not_your_turn"),
    ("the trick is won", "not_your_turn"),
    ("does not beat", "does_not_beat"), ("the table holds", "does_not_beat"),
    ("nothing beats the Dragon", "does_not_beat"), ("cannot be played on the Dragon", "does_not_beat"),
    ("can only be led", "does_not_beat"), ("fulfil the wish", "wish"),
)


def engine_reason(rnd: Round, play: Play) -> str | None:
    """The check's code for the engine's refusal of ``play`` (None: the engine accepts it)."""
    try:
        rnd.copy().apply(play)
    except CardsNotHeld:
        return "not_in_hand"
    except TichuError as error:
        for words, code in ENGINE_REASONS:
            if words in str(error):
                return code
        raise AssertionError(f"an engine refusal the check has no code for: {error}") from None
    return None


def random_round(seed: int) -> tuple[Round, Random]:
    """A round of a random variant, moved on by random legal actions to a random moment."""
    rng = Random(seed)
    variant = rng.choice(VARIANTS)
    rnd = Round.deal_random(rng, variant=variant, dealer=rng.randrange(variant.seats))
    for _ in range(rng.randrange(120)):
        if rnd.phase == OVER:
            break
        step(rnd, rng)
    return rnd, rng


def step(rnd: Round, rng: Random) -> None:
    seats = range(rnd.variant.seats)
    if rnd.phase == EXCHANGE and rng.random() < 0.9:
        waiting = [s for s in seats if rnd.exchanges[s] is None and rnd.grand_decided[s]]
        if waiting:
            seat = rng.choice(waiting)
            rnd.apply(Exchange(seat, rng.sample(sorted(rnd.hands[seat], key=lambda c: c.index),
                                                len(rnd.variant.exchange_steps))))
            return
    options = [a for s in seats for a in rnd.iter_legal_actions(s) if not isinstance(a, Exchange)]
    if options:
        rnd.apply(rng.choice(options))


def random_selection(rnd: Round, seat: int, rng: Random) -> list:
    """Mostly cards of the seat's hand (a legal play's, or any few), sometimes another's card too."""
    hand = sorted(rnd.hands[seat], key=lambda c: c.index)
    legal = [a for a in rnd.iter_legal_actions(seat) if type(a) is Play] if rnd.phase == PLAY else []
    roll = rng.random()
    if legal and roll < 0.4:
        return sorted(rng.choice(legal).cards, key=lambda c: c.index)
    if hand and roll < 0.9:
        return rng.sample(hand, rng.randint(1, min(6, len(hand))))
    others = [c for s in range(rnd.variant.seats) if s != seat for c in rnd.hands[s]]
    return rng.sample(others, 1) + hand[:1] if others else hand[:1]


@settings(max_examples=400, deadline=None)
@given(SEEDS)
def test_a_selection_is_playable_exactly_when_the_engine_accepts_it(seed):
    rnd, rng = random_round(seed)
    for _ in range(4):
        seat = rng.randrange(rnd.variant.seats)
        cards = random_selection(rnd, seat, rng)
        check = check_selection(rnd, seat, cards)
        options = readings(cards)
        accepted = {r.phoenix_as for r in options if engine_reason(rnd, Play(seat, cards, r.phoenix_as)) is None}
        assert {p.phoenix_as for p in check.plays} == accepted
        assert check.playable == bool(accepted)
        assert (check.why is None) == check.playable == (check.reason is None)
        assert check.name == (combo_name(options[0]) if options else None)
        if check.playable:
            assert all(p.combo.mask == check.plays[0].combo.mask for p in check.plays)
            assert check.how == ("turn" if rnd.waiting_for == seat else "bomb") or rnd.need not in ("lead", "follow")
        else:
            highest = Play(seat, cards, options[0].phoenix_as if options else None)
            assert check.why == engine_reason(rnd, highest), (check, rnd.need)


@settings(max_examples=200, deadline=None)
@given(SEEDS)
def test_suggestions_are_legal_lowest_of_their_kind_and_few(seed):
    rnd, rng = random_round(seed)
    seat = rng.randrange(rnd.variant.seats)
    found = suggestions(rnd, seat)
    legal = rnd.legal_actions(seat) if rnd.phase == PLAY else []
    plays = [a for a in legal if type(a) is Play]
    assert set(found.plays) | set(found.bombs) <= set(plays)
    assert found.can_pass == (Pass(seat) in legal)
    assert len(found.plays) <= MAX_SUGGESTED and len(found.bombs) <= MAX_BOMBS
    kinds = [p.combo.type for p in found.plays]
    assert len(set(kinds)) == len(kinds)
    assert kinds == sorted(kinds, key=SUGGESTED_KINDS.index)
    assert all(p.combo.is_bomb for p in found.bombs)
    bombs = sorted({p.combo.bomb_key for p in plays if p.combo.is_bomb})
    assert [p.combo.bomb_key for p in found.bombs] == bombs[:MAX_BOMBS] or len(bombs) != len(set(bombs))
    if found.need in ("lead", "follow"):
        offered = {p.combo.type for p in plays if p.combo.type in SUGGESTED_KINDS}
        assert set(kinds) == offered or len(kinds) == MAX_SUGGESTED
        for play in found.plays:  # none of its kind without the Phoenix is lower
            natural = [p.combo for p in plays if p.combo.type is play.combo.type and not p.combo.mask & card("PH").bit]
            if natural and play.combo.length == 1 or natural and not play.combo.mask & card("PH").bit:
                assert play.combo.rank <= min(c.rank for c in natural)
    else:
        assert found.plays == ()


def test_names_as_players_say_them():
    def name(text: str, phoenix_as=None) -> str:
        return combo_name(classify(parse_cards(text), phoenix_as))

    assert name("3j 4s 5p 6r 7j") == "straight 3-7"
    assert name("MJ 2s 3p 4r 5j") == "straight MJ-5"
    assert name("9j 9s") == "pair of nines"
    assert name("8j 8s 8p 4j 4r") == "full house of eights over fours"
    assert name("PH 8s 8p 4j 4r", 4) == "full house of fours over eights"
    assert name("PH 8s 8p 4j 4r", 8) == "full house of eights over fours"
    assert name("5j 5s 5p 5r") == "bomb: four fives"
    assert name("3j 4j 5j 6j 7j") == "bomb: straight flush 3-7"
    assert name("PH") == "single Phoenix"
    assert name("DG") == "the Dog"
    assert name("5j 5s 6p 6r 7j 7s") == "stairs 5-7"


def test_the_phoenix_ambiguity_gives_one_play_per_reading():
    rnd = position({0: "MJ PH 5j 5s 8p 8r 2j 3s 4p 9r Tj Js Qp Kr"})
    check = check_selection(rnd, 0, parse_cards("PH 5j 5s 8p 8r"))
    assert [combo_name(p.combo) for p in check.plays] == ["full house of eights over fives",
                                                           "full house of fives over eights"]
    assert [p.notation() for p in check.plays] == ["play 5j 5s 8p 8r PH=8", "play 5j 5s 8p 8r PH=5"]
    assert check.how == "turn" and check.why is None and check.wish is None


HANDS = {0: "MJ 2j 2s 4j 5s 6p 7r 8j 9s Tp Jr Qj Ks DG", 1: "3j 3s 3p 4s 5j 6j 7j 8s 9p Tr Js Qp Kj Ar",
         3: "9j 9r 2p 4p 5p 6r 7s 8p Tj Jj Qr Kp Aj Ap"}


@pytest.mark.parametrize("script, seat, cards, why, reason", [
    ("1: 2j", 3, "9j 9r", "not_your_turn", "not your turn"),
    ("1: 2j", 1, "3s 3p", "does_not_beat", "does not beat the single 2j"),
    ("", 0, "9r", "not_in_hand", "not in your hand: 9r"),
    ("", 0, "2j 4j", "not_a_combination", "not a combination"),
    ("1: MJ; wish 3", 1, "4s", "wish", "you must play the wished 3"),
    ("1: MJ", 1, "4s", "waiting", "waiting for the wish"),
])
def test_why_a_selection_is_not_playable(script, seat, cards, why, reason):
    rnd = position(HANDS)
    run(rnd, script)
    check = check_selection(rnd, seat, parse_cards(cards))
    assert (check.why, check.reason) == (why, reason)
    assert check.plays == () and not check.playable and check.how is None


def test_a_bomb_out_of_turn_a_wish_made_and_fulfilled():
    rnd = position({0: "MJ 2j 2s 4j 5s 6p 7r 8j Ts Tp Jr Qj Ks DG", 1: "2p 3j 4p 5j 6j 8s Tr Js Qp Kj Ar 3s 4s 5p",
                    2: "9j 9s 9p 9r 3r 4r 5r 6r 7s 8p Tj Jj Qr Kp"})
    lead = check_selection(rnd, 0, parse_cards("MJ"))
    assert lead.playable and lead.wish == "make" and lead.how == "turn"
    run(rnd, "1: MJ; wish 7")
    bomb = check_selection(rnd, 2, parse_cards("9j 9s 9p 9r"))
    assert bomb.playable and bomb.how == "bomb" and bomb.name == "bomb: four nines"
    assert check_selection(rnd, 2, parse_cards("7s")).why == "not_your_turn"
    run(rnd, "2: pass")
    fulfils = check_selection(rnd, 2, parse_cards("7s"))
    assert fulfils.playable and fulfils.wish == "fulfil" and fulfils.how == "turn"
    assert check_selection(rnd, 2, parse_cards("8p")).why == "wish"


def test_no_check_or_suggestion_outside_play():
    rnd = Round.deal_random(Random(3))
    check = check_selection(rnd, 0, sorted(rnd.hands[0], key=lambda c: c.index)[:1])
    assert (check.why, check.reason) == ("phase", "Grand Tichu is decided first")
    assert suggestions(rnd, 0).plays == () and not suggestions(rnd, 0).can_pass
