"""Combinations (rules.md §6), Phoenix readings (R6.9), comparisons (§7, R8.4, R8.5, R9.3)."""

import pytest

from bswtichu.engine import (
    Combo, ComboType, IllegalActionError, bombs, classify, parse_cards, plays, readings,
)

T = ComboType


def cl(text, phoenix_as=None) -> Combo:
    return classify(parse_cards(text), phoenix_as)


def reads(text) -> list[Combo]:
    return readings(parse_cards(text))


def invalid(text) -> bool:
    return readings(parse_cards(text)) == []


def beats(a, b) -> bool:
    """Whether play ``a`` may be played onto table ``b`` (given as texts, default readings)."""
    top = None if b is None else cl(b).played_over(None)
    return cl(a).played_over(top).beats(top)


# ---------------------------------------------------------------- R6.1 singles

@pytest.mark.parametrize("text,rank", [("2j", 2), ("Ts", 10), ("Ar", 14), ("MJ", 1), ("DR", 15)])
def test_single(text, rank):
    c = cl(text)
    assert c.type is T.SINGLE and c.rank == rank and c.length == 1


def test_single_phoenix_led_is_one_and_a_half():
    c = cl("PH")
    assert c.type is T.SINGLE and c.rank == 1.5


def test_dog_is_its_own_type():
    assert cl("DG").type is T.DOG


# ---------------------------------------------------------------- R6.2 / R6.3 pairs and triples

def test_pair_natural_and_with_phoenix():
    assert (cl("7j 7s").type, cl("7j 7s").rank) == (T.PAIR, 7)
    c = cl("7j PH")
    assert (c.type, c.rank, c.phoenix_as) == (T.PAIR, 7, 7)


def test_triple_natural_and_with_phoenix():
    assert (cl("Qj Qs Qr").type, cl("Qj Qs Qr").rank) == (T.TRIPLE, 12)
    c = cl("Qj Qs PH")
    assert (c.type, c.rank, c.phoenix_as) == (T.TRIPLE, 12, 12)


@pytest.mark.parametrize("text", ["7j 8j", "7j 7s 8r", "MJ 2j", "DR Aj", "DG 2j", "7j PH 8s"])
def test_not_pairs_or_triples(text):
    assert invalid(text)


# ---------------------------------------------------------------- R6.4 full house

def test_full_house_ranks_by_triple():
    c = cl("3j 3s 3p Kj Ks")
    assert (c.type, c.rank, c.length) == (T.FULL_HOUSE, 3, 5)


def test_full_house_phoenix_completes_pair():
    c = cl("9j 9s 9p 4j PH")
    assert (c.type, c.rank, c.phoenix_as) == (T.FULL_HOUSE, 9, 4)


def test_full_house_phoenix_completes_triple():
    c = cl("9j 9s 4p 4j PH", phoenix_as=9)
    assert (c.type, c.rank, c.phoenix_as) == (T.FULL_HOUSE, 9, 9)


def test_two_pairs_and_the_phoenix_are_read_as_the_higher_triple():
    # docs/rules.md 11: as a BSW player expects; PH=x names the lower reading
    assert (cl("3s 3p 9j 9p PH").rank, cl("3s 3p 9j 9p PH").phoenix_as) == (9, 9)
    assert (cl("3s 3p 9j 9p PH", phoenix_as=3).rank, cl("3s 3p 9j 9p PH", phoenix_as=3).phoenix_as) == (3, 3)


def test_four_of_a_kind_plus_phoenix_is_not_a_full_house():
    # R6.4 decision and R14.5: invalid (triple and pair would share a rank)
    assert invalid("7j 7s 7p 7r PH")
    with pytest.raises(IllegalActionError):
        cl("7j 7s 7p 7r PH")


def test_four_of_a_kind_plus_single_is_invalid():
    assert invalid("7j 7s 7p 7r 9j")


def test_triple_plus_single_is_invalid():
    assert invalid("7j 7s 7p 9j")
    assert invalid("7j 7s 7p 9j Ts")


# ---------------------------------------------------------------- R6.5 straights

def test_five_card_straight_mixed_suits():
    c = cl("4j 5s 6p 7r 8j")
    assert (c.type, c.rank, c.length) == (T.STRAIGHT, 8, 5)


def test_mahjong_at_the_bottom():
    c = cl("MJ 2s 3p 4r 5j")
    assert (c.type, c.rank, c.length) == (T.STRAIGHT, 5, 5)


def test_mahjong_straight_of_one_suit_is_an_ordinary_straight():
    # R9.1: the Mahjong has no suit, so MJ 2j 3j 4j 5j is not a bomb
    c = cl("MJ 2j 3j 4j 5j")
    assert c.type is T.STRAIGHT and not c.is_bomb


def test_longest_straight_is_14_cards():
    c = cl("MJ 2j 3s 4p 5r 6j 7s 8p 9r Tj Js Qp Kr Aj")
    assert (c.type, c.length, c.rank) == (T.STRAIGHT, 14, 14)


def test_straight_with_gap_is_invalid():
    assert invalid("4j 5s 6p 8r 9j")


def test_straight_with_duplicate_rank_is_invalid():
    assert invalid("4j 5s 6p 6r 7j 8j")


def test_four_cards_in_a_row_are_not_a_straight():
    assert invalid("4j 5s 6p 7r")


def test_no_wrap_around():
    assert invalid("Qj Ks As 2p 3r")
    assert invalid("Kj As MJ 2p 3r")


def test_nothing_above_ace():
    assert invalid("Js Qp Kr Aj DR")


@pytest.mark.parametrize("text", ["4j 5s 6p 7r DG", "Jj Qs Kp Ar DR", "MJ 2s 3p 4r DG"])
def test_dog_and_dragon_never_in_straights(text):
    assert invalid(text)


def test_mahjong_not_inside_or_top_of_straight():
    assert invalid("MJ 3s 4p 5r 6j")  # no 2: Mahjong cannot sit anywhere but at 1 below 2


def test_one_suit_straight_is_a_straight_flush_bomb():
    c = cl("4j 5j 6j 7j 8j")
    assert c.type is T.STRAIGHT_FLUSH and c.is_bomb and c.rank == 8


def test_phoenix_in_a_one_suit_straight_is_not_a_bomb():
    c = cl("4j 5j 6j 7j PH")
    assert c.type is T.STRAIGHT and not c.is_bomb


# ---------------------------------------------------------------- R6.9 Phoenix readings

def test_phoenix_straight_either_end_default_highest():
    c = cl("5j 6s 7p 8r PH")
    assert (c.rank, c.phoenix_as) == (9, 9)
    assert {(r.rank, r.phoenix_as) for r in reads("5j 6s 7p 8r PH")} == {(9, 9), (8, 4)}
    assert reads("5j 6s 7p 8r PH")[0].rank == 9


def test_phoenix_as_override_takes_lower_reading():
    c = cl("5j 6s 7p 8r PH", phoenix_as=4)
    assert (c.type, c.rank, c.phoenix_as) == (T.STRAIGHT, 8, 4)


def test_phoenix_as_impossible_rank_rejected():
    with pytest.raises(IllegalActionError):
        cl("5j 6s 7p 8r PH", phoenix_as=6)
    with pytest.raises(IllegalActionError):
        cl("7j PH", phoenix_as=8)
    with pytest.raises(IllegalActionError):
        cl("7j 7s", phoenix_as=7)  # no Phoenix in the play


def test_phoenix_fills_a_gap():
    c = cl("5j 6s 8p 9r PH")
    assert (c.rank, c.phoenix_as) == (9, 7)
    assert len(reads("5j 6s 8p 9r PH")) == 1


def test_jqka_phoenix_is_ten_to_ace():
    rs = reads("Jj Qs Kp Ar PH")
    assert [(r.type, r.rank, r.phoenix_as) for r in rs] == [(T.STRAIGHT, 14, 10)]


def test_mahjong_2_3_4_phoenix_is_one_to_five():
    rs = reads("MJ 2j 3s 4p PH")
    assert [(r.type, r.rank, r.phoenix_as) for r in rs] == [(T.STRAIGHT, 5, 5)]


def test_phoenix_never_stands_for_one():
    # 2 3 4 5 PH: 2-6 only, never 1-5
    rs = reads("2j 3s 4p 5r PH")
    assert [(r.rank, r.phoenix_as) for r in rs] == [(6, 6)]
    # twelve naturals 2..K plus PH: only 2..A, with the Phoenix as the ace
    rs = reads("2j 3s 4p 5r 6j 7s 8p 9r Tj Js Qp Kr PH")
    assert [(r.rank, r.phoenix_as) for r in rs] == [(14, 14)]
    # 2..A (13 naturals) + PH: the Phoenix has no place (neither 1 nor above A)
    assert invalid("2j 3s 4p 5r 6j 7s 8p 9r Tj Js Qp Kr Aj PH")
    with pytest.raises(IllegalActionError):
        cl("2j 3s 4p 5r PH", phoenix_as=1)


def test_mahjong_phoenix_straight_14_long():
    c = cl("MJ 2j 3s 4p 5r 6j 7s 8p 9r Tj Js Qp Kr PH")
    assert (c.length, c.rank, c.phoenix_as) == (14, 14, 14)


def test_two_pairs_plus_phoenix_is_full_house_either_way():
    rs = reads("7j 7s 9p 9r PH")
    assert [(r.type, r.rank, r.phoenix_as) for r in rs] == [(T.FULL_HOUSE, 9, 9), (T.FULL_HOUSE, 7, 7)]
    assert cl("7j 7s 9p 9r PH").rank == 9
    assert cl("7j 7s 9p 9r PH", phoenix_as=7).rank == 7


def test_readings_are_unique():
    for text in ("5j 6s 7p 8r PH", "7j 7s 9p 9r PH", "5j 5s 6p PH", "3j 3s 4p 4r 5j PH"):
        rs = reads(text)
        assert len({r.phoenix_as for r in rs}) == len(rs)


# ---------------------------------------------------------------- R6.6 stairs

def test_stairs():
    c = cl("5j 5s 6p 6r")
    assert (c.type, c.rank, c.length) == (T.STAIRS, 6, 4)
    c = cl("Qj Qs Kp Kr Aj As")
    assert (c.type, c.rank, c.length) == (T.STAIRS, 14, 6)


def test_stairs_with_phoenix():
    c = cl("5j 5s 6p PH")
    assert (c.type, c.rank, c.phoenix_as) == (T.STAIRS, 6, 6)
    c = cl("3j 3s 4p 4r 5j PH")
    assert (c.type, c.rank, c.phoenix_as) == (T.STAIRS, 5, 5)


@pytest.mark.parametrize("text", [
    "5j 5s 7p 7r",            # gap
    "5j 5s 6p 6r 8j 8s",      # gap
    "MJ PH 2j 2s",            # no pair of 1s
    "5j 5s 5p 6r",            # triple + single
    "5j 5s 6p 6r 6j 7s",      # uneven
    "5j 5s PH 7j",            # the Phoenix can only complete a pair
    "Aj As 2p 2r",            # no wrap-around
    "5j 6s 7p 8r",
])
def test_not_stairs(text):
    assert invalid(text)


def test_long_stairs():
    c = cl("2j 2s 3p 3r 4j 4s 5p 5r 6j 6s 7p 7r 8j 8s")
    assert (c.type, c.length, c.rank) == (T.STAIRS, 14, 8)


# ---------------------------------------------------------------- R6.7 / R9.1 bombs

def test_four_of_a_kind_bomb():
    c = cl("8j 8s 8p 8r")
    assert c.type is T.FOUR_BOMB and c.is_bomb and c.rank == 8


def test_straight_flush_lowest_and_longest():
    assert cl("2s 3s 4s 5s 6s").type is T.STRAIGHT_FLUSH
    c = cl("2r 3r 4r 5r 6r 7r 8r 9r Tr Jr Qr Kr Ar")
    assert (c.type, c.length, c.rank) == (T.STRAIGHT_FLUSH, 13, 14)


def test_mahjong_straight_is_never_a_bomb_even_longest():
    c = cl("MJ 2r 3r 4r 5r 6r 7r 8r 9r Tr Jr Qr Kr Ar")
    assert c.type is T.STRAIGHT and not c.is_bomb


# ---------------------------------------------------------------- R6.8 never valid

@pytest.mark.parametrize("text", [
    "8j 8s 8p PH",           # Phoenix in a would-be bomb
    "MJ PH", "DR PH", "DG PH",
    "DG 2j", "DR DG", "DR Aj",
    "DR 2j 2s",
    "MJ 2j 2s", "MJ 2j", "MJ 1",  # (MJ 1 is the same card twice: parse error handled elsewhere)
    "7j 7s 7p 9j",           # triple + single
    "7j 8s 9p Tr",           # 4 cards, not a bomb or stairs
    "7j 8s",                 # two unrelated cards
    "PH PH",
    "4j 5j 6j 7j 8j 8s",     # 6 cards: straight + extra
    "DG DR MJ PH",
    "7j 7s 7p 7r 8j 8s",     # bomb + pair
])
def test_r68_invalid_plays(text):
    try:
        cs = parse_cards(text)
    except Exception:
        return  # a repeated card is rejected even earlier
    assert readings(cs) == []
    with pytest.raises(IllegalActionError):
        classify(cs)


def test_empty_play_is_invalid():
    assert readings([]) == []
    with pytest.raises(IllegalActionError):
        classify([])


# ---------------------------------------------------------------- §7 comparisons

@pytest.mark.parametrize("a,b", [
    ("3j", "2s"), ("Aj", "Ks"), ("DR", "Aj"), ("2j", "MJ"),
    ("8j 8s", "7j 7p"), ("8j PH", "7j 7p"), ("Aj As", "Kj PH"),
    ("4j 4s 4p", "3j 3s 3r"),
    ("4j 4s 4p 2j 2s", "3j 3s 3r Aj As"),  # full house by its triple
    ("5j 6s 7p 8r 9j", "4j 5s 6p 7r 8j"),
    ("6j 6s 7p 7r", "5j 5s 6p 6r"),
    ("Qj Qs Kp Kr Aj As", "Jj Js Qp Qr Kj Ks"),
])
def test_higher_same_shape_beats(a, b):
    assert beats(a, b)
    assert not beats(b, a)


@pytest.mark.parametrize("a,b", [
    ("7j", "7s"), ("7j 7s", "7p 7r"), ("5j 6s 7p 8r 9j", "5s 6p 7r 8j 9s"),
    ("4j 4s 4p 2j 2s", "4r 4p PH 3j 3s"),  # triple 4 (Phoenix) vs triple 4
])
def test_equal_rank_never_beats(a, b):
    assert cl(a).rank == cl(b).rank
    assert not beats(a, b)


@pytest.mark.parametrize("a,b", [
    ("9j 9s", "8j"),                                   # type differs
    ("9j 9s 9p", "8j 8s"),
    ("5j 6s 7p 8r 9j Tj", "4j 5s 6p 7r 8j"),           # longer straight does not beat shorter
    ("5j 6s 7p 8r 9j", "2j 3s 4p 5r 6j 7s"),           # shorter does not beat longer
    ("6j 6s 7p 7r 8j 8s", "5j 5s 6p 6r"),              # stairs need the same number of pairs
    ("Aj As Ap", "2j 2s 2p 3j 3s"),                    # triple vs full house
    ("DG", "2j"),                                      # the Dog never follows
])
def test_different_shape_never_beats(a, b):
    assert not beats(a, b)


def test_dog_can_be_led():
    assert beats("DG", None)


def test_six_straight_only_beaten_by_six_straight():
    top = cl("3j 4s 5p 6r 7j 8s")
    hand = parse_cards("5j 6s 7p 8r 9j Tj Jp Qr")
    straights = [c for c in plays(hand, top) if c.type is T.STRAIGHT]
    assert straights and all(c.length == 6 and c.rank > 8 for c in straights)
    assert {c.rank for c in straights} == {10, 11, 12}


# ---------------------------------------------------------------- R8.4 Phoenix single, R8.5 Dragon

def single_on(top_text):
    top = cl(top_text).played_over(None)
    return cl("PH").played_over(top), top


def test_phoenix_single_is_half_a_rank_above():
    ph, top = single_on("Ts")
    assert ph.rank == 10.5 and ph.beats(top)
    assert cl("Jj").beats(ph)
    assert not cl("Tj").beats(ph)


def test_phoenix_on_ace_only_dragon_or_bomb_beats():
    ph, top = single_on("As")
    assert ph.rank == 14.5 and ph.beats(top)
    assert not cl("Aj").beats(ph)
    assert cl("DR").beats(ph)
    assert cl("2j 2s 2p 2r").beats(ph)


def test_phoenix_led_is_one_and_a_half():
    ph = cl("PH").played_over(None)
    assert ph.rank == 1.5
    assert cl("2j").beats(ph)
    assert not cl("MJ").beats(ph)


def test_phoenix_over_mahjong_is_one_and_a_half():
    ph, top = single_on("MJ")
    assert ph.rank == 1.5 and ph.beats(top)
    assert cl("2j").beats(ph)


def test_phoenix_not_on_the_dragon():
    ph, top = single_on("DR")
    assert not ph.beats(top)
    hand = parse_cards("PH Aj 2s")
    assert list(plays(hand, top)) == []


def test_dragon_beats_ace_and_phoenix():
    ph, _ = single_on("As")
    assert cl("DR").beats(ph)
    assert cl("DR").beats(cl("As"))
    assert not cl("As").beats(cl("DR"))


def test_only_bombs_beat_the_dragon():
    dr = cl("DR")
    assert cl("3j 3s 3p 3r").beats(dr)
    assert cl("3j 4j 5j 6j 7j").beats(dr)
    assert not cl("Aj As").beats(dr)


# ---------------------------------------------------------------- R7.2 / R9.3 bombs

def test_bomb_beats_any_non_bomb():
    bomb = cl("2j 2s 2p 2r")
    for text in ("DR", "Aj As", "Aj As Ap", "Aj As Ap Kj Ks", "Tj Js Qp Kr Aj",
                 "Qj Qs Kp Kr Aj As", "MJ 2r 3s 4p 5j 6j 7s 8p 9r Tj Js Qp Kr Ar"):
        assert bomb.beats(cl(text))


def test_non_bomb_never_beats_a_bomb():
    bomb = cl("2j 2s 2p 2r")
    for text in ("DR", "Aj As", "Ac".replace("c", "j")):
        assert not cl(text).beats(bomb)
    assert not cl("PH").played_over(bomb).beats(bomb)


SEED_003_CHAIN = [
    "2j 2s 2p 2r", "3j 3s 3p 3r", "9j 9s 9p 9r", "Aj As Ap Ar",
    "2s 3s 4s 5s 6s", "3p 4p 5p 6p 7p", "9r Tr Jr Qr Kr", "Tj Jj Qj Kj Aj",
    "2r 3r 4r 5r 6r 7r", "9s Ts Js Qs Ks As",
    "2p 3p 4p 5p 6p 7p 8p",
    "2j 3j 4j 5j 6j 7j 8j 9j Tj Jj Qj Kj Aj",
]


@pytest.mark.parametrize("i", range(len(SEED_003_CHAIN) - 1))
def test_bomb_order_seed_003_chain(i):
    low, high = cl(SEED_003_CHAIN[i]), cl(SEED_003_CHAIN[i + 1])
    assert low.is_bomb and high.is_bomb
    assert high.beats(low)
    assert not low.beats(high)


def test_bomb_order_is_transitive_over_the_chain():
    combos = [cl(t) for t in SEED_003_CHAIN]
    for i, a in enumerate(combos):
        for j, b in enumerate(combos):
            assert a.beats(b) == (i > j)


def test_equal_straight_flushes_cannot_beat_each_other():
    assert not cl("3j 4j 5j 6j 7j").beats(cl("3s 4s 5s 6s 7s"))


def test_any_straight_flush_beats_any_four_of_a_kind():
    assert cl("2j 3j 4j 5j 6j").beats(cl("Aj As Ap Ar"))


def test_longer_straight_flush_beats_higher_shorter():
    assert cl("2r 3r 4r 5r 6r 7r").beats(cl("Tj Jj Qj Kj Aj"))
    assert not cl("Tj Jj Qj Kj Aj").beats(cl("2r 3r 4r 5r 6r 7r"))


def test_bomb_on_empty_table_is_a_valid_lead():
    assert cl("2j 2s 2p 2r").beats(None)


def test_bombs_generator():
    hand = parse_cards("2j 2s 2p 2r 3j 4j 5j 6j 7j 8j PH")
    found = {(c.type, c.length, c.rank) for c in bombs(hand)}
    assert found == {
        (T.FOUR_BOMB, 4, 2),
        (T.STRAIGHT_FLUSH, 5, 6), (T.STRAIGHT_FLUSH, 5, 7), (T.STRAIGHT_FLUSH, 5, 8),
        (T.STRAIGHT_FLUSH, 6, 7), (T.STRAIGHT_FLUSH, 6, 8), (T.STRAIGHT_FLUSH, 7, 8),
    }
    top = cl("Aj As Ap Ar")
    assert {(c.type, c.length) for c in bombs(hand, top)} == {(T.STRAIGHT_FLUSH, 5), (T.STRAIGHT_FLUSH, 6), (T.STRAIGHT_FLUSH, 7)}


def test_straight_flush_is_not_generated_as_a_straight():
    hand = parse_cards("4j 5j 6j 7j 8j")
    got = list(plays(hand, cl("2s 3p 4r 5s 6p")))
    assert [c.type for c in got] == [T.STRAIGHT_FLUSH]


def test_notation_round_trip_of_readings():
    for text in ("5j 6s 7p 8r PH", "7j 7s 9p 9r PH", "7j PH", "Jj Qs Kp Ar PH"):
        for r in reads(text):
            again = classify(r.cards, r.phoenix_as)
            assert again == r and again.rank == r.rank and again.type is r.type


# ---------------------------------------------------------------- names people read

@pytest.mark.parametrize("text, name", [
    ("7j 7s", "pair of sevens"),
    ("Aj As Ap", "triple of aces"),
    ("4j 4s 4p 9j 9s", "full house of fours"),
    ("2j 2s 2p 2r", "bomb: four twos"),
    ("MJ 2j 3s 4p 5r", "straight MJ-5"),
    ("5j 5s 6p 6r", "stairs 5-6"),
    ("3j 4j 5j 6j 7j", "bomb: straight flush 3-7"),
    ("Tj", "single Tj"),
])
def test_a_combination_is_named_without_looking_like_a_card(text, name):
    assert cl(text).describe() == name  # "pair of 7s" would read as the card 7s
