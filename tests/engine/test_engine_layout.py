"""The deal's layout, the table options by their BSW names, and the errors' stable codes."""

from random import Random

import pytest
from hypothesis import given, strategies as st

from bswtichu.engine import (
    DECK, AmbiguousError, GameOptions, IllegalActionError, ParseError, Pass, Round, TichuError,
    parse_play, parse_wish,
)
from bswtichu.engine.deal import FIRST_CARDS, LAST_CARDS, deal_from_hands, first_cards, last_cards
from bswtichu.engine.game import OPTION_NAMES


@given(st.randoms(use_true_random=False))
def test_a_deal_is_rebuilt_from_its_first_and_last_cards(rng):
    deal = list(DECK)
    rng.shuffle(deal)
    firsts = [first_cards(deal, s) for s in range(4)]
    lasts = [last_cards(deal, s) for s in range(4)]
    assert [len(f) for f in firsts] == [FIRST_CARDS] * 4 and [len(x) for x in lasts] == [LAST_CARDS] * 4
    assert deal_from_hands(firsts, lasts) == deal
    rnd = Round(deal)
    assert all(set(rnd.hands[s]) == set(firsts[s]) for s in range(4))


def test_a_deal_needs_eight_and_six_cards_per_seat():
    with pytest.raises(ValueError):
        deal_from_hands([DECK[:7]] * 4, [DECK[:6]] * 4)


def test_options_speak_the_bsw_names():
    assert OPTION_NAMES == ("round", "tichujoin", "turnier", "clock")
    options = GameOptions().with_option("round", 3).with_option("tichujoin", True)
    assert options == GameOptions(round_limit=3, tichujoin=True)
    assert options.as_data() == {"round": 3, "tichujoin": True, "turnier": False, "clock": None}
    with pytest.raises(ValueError):
        options.with_option("colour", "red")


def test_every_engine_error_has_a_stable_code():
    rnd = Round.deal_random(Random(1))
    with pytest.raises(ParseError) as parse:
        parse_wish("eleven")
    with pytest.raises(IllegalActionError) as illegal:
        rnd.apply(Pass(1))  # nobody passes while the Grand Tichu decisions are open
    hand = [c for c in DECK if c.text in ("7j", "7s", "7p", "7r", "8j")]
    with pytest.raises(AmbiguousError) as ambiguous:
        parse_play("7 7", hand)
    assert [e.value.code for e in (parse, illegal, ambiguous)] == ["bad_cards", "illegal", "ambiguous"]
    assert all(isinstance(e.value, TichuError) for e in (parse, illegal, ambiguous))
