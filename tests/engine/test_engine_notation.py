"""Typed plays (rules.md R2.4): PH=x, rank-only shorthand, wishes, and action texts."""

import pytest

from bswtichu.engine import (
    AmbiguousError, CallGrand, CallTichu, ComboType, DeclineGrand, Exchange, GiveDragon, MakeWish,
    ParseError, Pass, Play, TichuError, action_text, classify, parse_cards, parse_exchange, parse_play,
    parse_wish,
)


def hand(text):
    return parse_cards(text)


def texts(cards):
    return sorted(c.text for c in cards)


# ---------------------------------------------------------------- explicit cards and PH=x

def test_explicit_cards():
    cards, ph = parse_play("7j 7s", hand("7j 7s 7p"))
    assert texts(cards) == ["7j", "7s"] and ph is None


def test_commas_and_aliases():
    cards, ph = parse_play("7g,7k, PHOENIX", hand("7j 7s PH"))
    assert texts(cards) == ["7j", "7s", "PH"] and ph is None


@pytest.mark.parametrize("token,rank", [
    ("PH=9", 9), ("PH9", 9), ("ph=9", 9), ("PH=T", 10), ("PH10", 10), ("PH=10", 10), ("PHA", 14),
    ("ph=a", 14), ("PH=4", 4), ("PH=2", 2),
])
def test_phoenix_role(token, rank):
    cards, ph = parse_play(f"5j 6s 7p 8r {token}", hand("5j 6s 7p 8r PH"))
    assert ph == rank
    assert texts(cards) == ["5j", "6s", "7p", "8r", "PH"]


def test_phoenix_role_picks_the_reading():
    cards, ph = parse_play("5j 6s 7p 8r PH=4", hand("5j 6s 7p 8r PH"))
    combo = classify(cards, ph)
    assert (combo.type, combo.rank) == (ComboType.STRAIGHT, 8)
    cards, ph = parse_play("5j 6s 7p 8r PH", hand("5j 6s 7p 8r PH"))
    assert classify(cards, ph).rank == 9


@pytest.mark.parametrize("token", ["PH=1", "PH=X", "PH=", "PH=DR", "PH=15", "PH1"])
def test_bad_phoenix_roles(token):
    with pytest.raises(ParseError):
        parse_play(f"5j 6s 7p 8r {token}", hand("5j 6s 7p 8r PH"))


def test_the_phoenix_named_and_its_rank_given_is_one_phoenix():
    """R2.4's full form names the Phoenix among the cards and its rank: PH ... PH=9."""
    cards, ph = parse_play("PH Tj Js Qp Kr PH=9", hand("PH Tj Js Qp Kr 2s"))
    assert texts(cards) == texts(hand("Tj Js Qp Kr PH")) and ph == 9
    cards, ph = parse_play("Tj Js Qp Kr PH=9", hand("PH Tj Js Qp Kr 2s"))
    assert texts(cards) == texts(hand("Tj Js Qp Kr PH")) and ph == 9


@pytest.mark.parametrize("typed", ["7j PH PH", "7j PH=7 PH=8"])
def test_phoenix_named_twice_is_an_error(typed):
    with pytest.raises(ParseError):
        parse_play(typed, hand("7j PH"))


def test_an_exchange_takes_ranks_from_the_hand_sparing_bombs():
    def passed(text, held):
        return [c.text for c in parse_exchange(text, held)]

    held = hand("2j 2s 2p 2r 3p 9s 9j Kr")
    assert passed("2 9 K", held) == ["2j", "9j", "Kr"]  # every 2 is in the bomb: suit order
    held = hand("2j 3p 5p 6p 7p 8p 9p 9s 9j Kr")
    assert passed("9 2j 3", held) == ["9j", "2j", "3p"]  # 9p is in the straight flush
    assert passed("9 9 Kr", held) == ["9j", "9s", "Kr"]
    with pytest.raises(ParseError, match="no 4"):
        parse_exchange("4 2j 3", held)


@pytest.mark.parametrize("text, held, said", [
    ("9 9", "9p 5j", "you hold only one 9 (9p); you asked for 2"),
    ("4", "9p 5j", "you hold no 4s; you asked for 1"),
    ("9s 9 9", "9s 9p Kj", "you hold only one more 9 (9p); you asked for 2"),
])
def test_too_few_cards_of_a_rank_say_what_is_held(text, held, said):
    with pytest.raises(ParseError) as refused:
        parse_play(text, hand(held))
    assert str(refused.value) == said


def test_empty_play_is_an_error():
    with pytest.raises(ParseError):
        parse_play("", hand("7j"))
    with pytest.raises(ParseError):
        parse_play(" , ", hand("7j"))


def test_bad_tokens():
    with pytest.raises(ParseError):
        parse_play("7j 1j", hand("7j"))
    with pytest.raises(ParseError):
        parse_play("7x", hand("7j"))


# ---------------------------------------------------------------- rank-only shorthand

def test_shorthand_is_deterministic_suits_in_order():
    h = hand("7r 7p 7s 9j")
    first = parse_play("7 7", h)
    assert first == parse_play("7 7", list(reversed(h)))
    cards, ph = first
    # engine choice: suits taken in the order j, s, p, r
    assert texts(cards) == ["7p", "7s"] and ph is None


def test_shorthand_mixed_with_explicit_cards():
    cards, _ = parse_play("7j 7", hand("7j 7s 7p"))
    assert texts(cards) == ["7j", "7s"]


@pytest.mark.parametrize("typed,expected", [("T T", ["Tj", "Tp"]), ("10 10", ["Tj", "Tp"]),
                                            ("a", ["As"]), ("K", ["Kr"])])
def test_shorthand_rank_forms(typed, expected):
    cards, _ = parse_play(typed, hand("Tj Tp As Kr"))
    assert texts(cards) == expected


def test_shorthand_needs_enough_cards():
    with pytest.raises(ParseError):
        parse_play("7 7", hand("7j 8s"))
    with pytest.raises(ParseError):
        parse_play("7j 7", hand("7j 8s"))


def test_shorthand_one_is_the_mahjong_not_a_rank():
    cards, _ = parse_play("1 2 3 4 5", hand("MJ 2j 3s 4p 5r"))
    assert texts(cards) == ["2j", "3s", "4p", "5r", "MJ"]


def test_shorthand_never_makes_a_straight_flush():
    h = hand("5j 6j 7j 8j 9j 9s")
    cards, _ = parse_play("5j 6j 7j 8j 9", h)
    assert texts(cards) == ["5j", "6j", "7j", "8j", "9s"]
    assert classify(cards).type is ComboType.STRAIGHT


def test_shorthand_all_ranks_avoids_the_flush():
    h = hand("5j 6j 7j 8j 9j 5s")
    cards, _ = parse_play("5 6 7 8 9", h)
    assert classify(cards).type is ComboType.STRAIGHT
    assert "5s" in texts(cards)


def test_shorthand_that_can_only_be_a_flush_asks_for_suits():
    h = hand("5j 6j 7j 8j 9j Ks")
    with pytest.raises(AmbiguousError) as info:
        parse_play("5 6 7 8 9", h)
    assert info.value.choices == ["5j 6j 7j 8j 9j"]
    assert isinstance(info.value, TichuError)
    # naming the suits plays the bomb
    cards, _ = parse_play("5j 6j 7j 8j 9j", h)
    assert classify(cards).type is ComboType.STRAIGHT_FLUSH


def test_shorthand_avoids_breaking_a_bomb():
    # the 7j belongs to a straight flush 3j-7j; a single 7 should be the 7s
    h = hand("3j 4j 5j 6j 7j 7s")
    cards, _ = parse_play("7", h)
    assert texts(cards) == ["7s"]


def test_shorthand_breaks_as_few_bombs_as_possible():
    # 8s is in the four 8s and in the straight flush 4s-8s; the other 8s break only one bomb
    h = hand("4s 5s 6s 7s 8s 8j 8p 8r Tj")
    with pytest.raises(AmbiguousError) as info:
        parse_play("8", h)
    assert sorted(info.value.choices) == ["8j", "8p", "8r"]


def test_shorthand_breaking_unavoidable_with_choices_is_ambiguous():
    h = hand("7j 7s 7p 7r 2s")
    with pytest.raises(AmbiguousError) as info:
        parse_play("7 7", h)
    assert len(info.value.choices) == 6
    assert len(set(info.value.choices)) == 6
    for choice in info.value.choices:
        assert len(parse_cards(choice)) == 2


def test_shorthand_breaking_unavoidable_single_choice_is_taken():
    h = hand("3j 4j 5j 6j 7j 2s")
    cards, _ = parse_play("7", h)
    assert texts(cards) == ["7j"]


def test_shorthand_whole_bomb_is_not_breaking():
    h = hand("7j 7s 7p 7r 2s")
    cards, _ = parse_play("7 7 7 7", h)
    assert texts(cards) == ["7j", "7p", "7r", "7s"]


# ---------------------------------------------------------------- wishes

@pytest.mark.parametrize("text,rank", [("7", 7), ("T", 10), ("10", 10), ("j", 11), ("A", 14),
                                       ("2", 2), ("none", None), ("NONE", None), ("0", None),
                                       ("-", None)])
def test_parse_wish(text, rank):
    assert parse_wish(text) == rank


@pytest.mark.parametrize("text", ["1", "MJ", "DR", "X", "15", "", "PH"])
def test_bad_wishes(text):
    with pytest.raises(ParseError):
        parse_wish(text)


# ---------------------------------------------------------------- action texts

def test_action_texts():
    c = parse_cards
    assert action_text(Play(0, c("7j 7s"))) == "1: play 7j 7s"
    assert action_text(Play(2, c("5j 6s 7p 8r PH"), 4)) == "3: play 5j 6s 7p 8r PH=4"
    assert action_text(Pass(3)) == "4: pass"
    assert action_text(MakeWish(0, 10)) == "1: wish T"
    assert action_text(MakeWish(0, None)) == "1: wish none"
    assert action_text(GiveDragon(1, 2)) == "2: give 3"
    assert action_text(CallTichu(1)) == "2: tichu"
    assert action_text(CallGrand(1)) == "2: grand"
    assert action_text(DeclineGrand(1)) == "2: nogrand"
    assert action_text(Exchange(0, tuple(c("2j MJ DR")))) == "1: exchange 2j MJ DR"


def test_play_text_parses_back():
    for text, ph in (("5j 6s 7p 8r PH", 4), ("7j PH", 7), ("DR", None), ("MJ 2j 3s 4p 5r", None)):
        action = Play(0, parse_cards(text), ph)
        cards, got = parse_play(action.notation()[len("play "):], parse_cards(text))
        assert set(cards) == action.cards and got == ph


# ---------------------------------------------------------------- the suggested exchange


def test_the_suggested_exchange_passes_the_lowest_free_cards_the_highest_to_the_partner():
    from bswtichu.engine import NANJING, suggested_exchange

    # 2s 2p 2r 2j are a bomb, MJ is kept: the lowest free cards are 3j 4s 5p; 5p to the partner
    assert texts_in_order(suggested_exchange(0, hand("MJ 2j 2s 2p 2r 3j 4s 5p 9j Tj Jj Qj PH DR"), NANJING)) \
        == ["3j", "5p", "4s"]
    # the Dragon, Phoenix and Mahjong stay even if a bomb breaks; they go when nothing else is left
    assert sorted(texts_in_order(suggested_exchange(1, hand("MJ PH DR 7j 7s 7p 7r"), NANJING))) == ["7j", "7p", "7s"]
    assert sorted(texts_in_order(suggested_exchange(1, hand("MJ PH DR"), NANJING))) == ["DR", "MJ", "PH"]


@pytest.mark.parametrize("name", ["nanjing", "tientsin", "trichu", "duo"])
def test_the_suggested_exchange_is_legal_in_every_variant_and_keeps_the_strong_cards(name):
    from random import Random

    from bswtichu.engine import EXCHANGE, Round, suggested_exchange, variant_named
    from bswtichu.engine.cards import DRAGON, MAHJONG, PHOENIX

    variant = variant_named(name)
    for seed in range(30):
        rnd = Round.deal_random(Random(seed), variant=variant)
        for seat in variant.grand_seats:
            rnd.apply(DeclineGrand(seat))
        assert rnd.phase == EXCHANGE
        for seat in range(variant.seats):
            suggested = suggested_exchange(seat, rnd.hands[seat], variant)
            assert suggested == suggested_exchange(seat, sorted(rnd.hands[seat], key=lambda c: c.text), variant)
            assert not {c.kind for c in suggested.cards} & {DRAGON, PHOENIX, MAHJONG}
            rnd.apply(suggested)
        assert rnd.phase != EXCHANGE


def texts_in_order(exchange):
    return [c.text for c in exchange.cards]
