"""Cards, the deck, points and the text notations (rules.md R2.1-R2.4)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bswtichu.engine import (
    DECK, ParseError, TichuError, card, card_points, format_cards, parse_bsw_card, parse_card,
    parse_cards, parse_rank, rank_text, sort_cards,
)
from bswtichu.engine.cards import format_mask, format_play, mask_of, natural, texts_of_mask

RANKS = "23456789TJQKA"


# ---------------------------------------------------------------- the deck (R2.1, R2.3)

def test_deck_has_56_distinct_cards():
    assert len(DECK) == 56
    assert len(set(DECK)) == 56
    assert len({c.text for c in DECK}) == 56


def test_deck_has_52_naturals_in_four_suits_and_four_specials():
    naturals = [c for c in DECK if c.is_natural]
    assert len(naturals) == 52
    assert {(c.rank, c.suit) for c in naturals} == {(r, s) for r in range(2, 15) for s in "jspr"}
    specials = [c for c in DECK if not c.is_natural]
    assert sorted(c.text for c in specials) == ["DG", "DR", "MJ", "PH"]
    assert all(c.suit is None for c in specials)


def test_card_points_sum_to_100():
    assert card_points(DECK) == 100


@pytest.mark.parametrize("text,points", [
    ("5j", 5), ("5r", 5), ("Ts", 10), ("Tp", 10), ("Kj", 10), ("Kr", 10), ("DR", 25), ("PH", -25),
    ("MJ", 0), ("DG", 0), ("2j", 0), ("9s", 0), ("Jp", 0), ("Qr", 0), ("Aj", 0),
])
def test_card_points(text, points):
    assert parse_card(text).points == points


def test_points_by_kind_match_r23():
    fives = [c for c in DECK if c.is_natural and c.rank == 5]
    tens_kings = [c for c in DECK if c.is_natural and c.rank in (10, 13)]
    assert card_points(fives) == 20 and card_points(tens_kings) == 80


def test_cards_are_interned_values():
    assert parse_card("7j") is parse_card("7J") is card("7g")
    assert natural(7, "j") is parse_card("7j")


def test_rank_order_mahjong_to_dragon():
    order = [parse_card(t) for t in "MJ 2j 3j 4j 5j 6j 7j 8j 9j Tj Jj Qj Kj Aj DR".split()]
    ranks = [c.rank for c in order]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)


# ---------------------------------------------------------------- R2.4 notation

@pytest.mark.parametrize("c", DECK, ids=lambda c: c.text)
def test_every_card_prints_and_parses_back(c):
    assert parse_card(c.text) is c
    assert parse_card(c.text.lower()) is c
    assert parse_card(c.text.upper()) is c
    assert str(c) == c.text


@pytest.mark.parametrize("c", DECK, ids=lambda c: c.text)
def test_every_card_bsw_token_round_trip(c):
    assert parse_bsw_card(c.bsw) is c


def test_canonical_forms():
    assert [c.text for c in parse_cards("7j Tr As Qp 2s")] == ["7j", "Tr", "As", "Qp", "2s"]
    assert parse_card("7j").rank == 7 and parse_card("7j").suit == "j"


@pytest.mark.parametrize("rank", list(RANKS))
@pytest.mark.parametrize("suit,alias", [("j", "g"), ("s", "k"), ("p", "b"), ("r", "r")])
def test_suit_aliases(rank, suit, alias):
    canonical = parse_card(rank + suit)
    assert parse_card(rank + alias) is canonical
    assert parse_card((rank + alias).upper()) is canonical
    assert canonical.suit == suit


@pytest.mark.parametrize("text", ["Tr", "10r", "tr", "TR", "10R", "10g", "Tj"])
def test_ten_as_t_or_10(text):
    c = parse_card(text)
    assert c.rank == 10


def test_10_and_t_are_the_same_card():
    for s in "jspr":
        assert parse_card("10" + s) is parse_card("T" + s)


@pytest.mark.parametrize("alias,text", [
    ("MJ", "MJ"), ("1", "MJ"), ("MA", "MJ"), ("MAHJONG", "MJ"), ("mahjong", "MJ"), ("Mj", "MJ"),
    ("ma", "MJ"), ("DG", "DG"), ("DOG", "DG"), ("HU", "DG"), ("dog", "DG"), ("hu", "DG"),
    ("PH", "PH"), ("PHX", "PH"), ("PHOENIX", "PH"), ("phoenix", "PH"), ("Phx", "PH"),
    ("DR", "DR"), ("DRA", "DR"), ("DRAGON", "DR"), ("dragon", "DR"), ("dr", "DR"),
])
def test_special_aliases(alias, text):
    assert parse_card(alias).text == text


def test_special_ranks():
    assert parse_card("MJ").rank == 1
    assert parse_card("DR").rank > parse_card("As").rank


def test_tokens_split_on_spaces_and_commas():
    expected = [parse_card(t) for t in ("7j", "Tr", "MJ", "PH")]
    assert parse_cards("7j Tr MJ PH") == expected
    assert parse_cards("7j,Tr,MJ,PH") == expected
    assert parse_cards("7j, Tr ,MJ  ,  PH") == expected
    assert parse_cards(["7j", "Tr", "MJ", "PH"]) == expected


@pytest.mark.parametrize("bad", ["1j", "Xj", "7x", "11j", "0j", "j7", "7", "", "PHX9", "7jj", "Z", "DRG"])
def test_bad_card_tokens_are_parse_errors(bad):
    with pytest.raises(ParseError):
        parse_card(bad)


def test_parse_errors_are_tichu_errors_and_value_errors():
    with pytest.raises(TichuError):
        parse_card("Xj")
    with pytest.raises(ValueError):
        parse_card("Xj")


def test_same_card_twice_is_an_error():
    with pytest.raises(ParseError):
        parse_cards("7j 7g")
    with pytest.raises(ParseError):
        parse_cards("MJ 1")


def test_bad_token_inside_a_list_is_an_error():
    with pytest.raises(ParseError):
        parse_cards("7j 1j 8s")


# ---------------------------------------------------------------- ranks

@pytest.mark.parametrize("text,rank", [
    ("2", 2), ("9", 9), ("T", 10), ("10", 10), ("t", 10), ("J", 11), ("q", 12), ("K", 13),
    ("A", 14), ("a", 14),
])
def test_parse_rank(text, rank):
    assert parse_rank(text) == rank


@pytest.mark.parametrize("bad", ["1", "0", "15", "X", "MJ", "DR", "", "11"])
def test_parse_rank_rejects_non_ranks(bad):
    with pytest.raises(ParseError):
        parse_rank(bad)


@pytest.mark.parametrize("rank", range(2, 15))
def test_rank_text_round_trip(rank):
    assert parse_rank(rank_text(rank)) == rank


# ---------------------------------------------------------------- BSW log tokens

@pytest.mark.parametrize("token,text", [
    ("R7", "7r"), ("GK", "Kj"), ("SB", "Js"), ("B10", "Tp"), ("G2", "2j"), ("SD", "Qs"),
    ("RA", "Ar"), ("BB", "Jp"), ("S10", "Ts"),
    ("Ma", "MJ"), ("Hu", "DG"), ("Ph", "PH"), ("Dr", "DR"),
])
def test_bsw_tokens(token, text):
    assert parse_bsw_card(token) is parse_card(text)


def test_bsw_colour_letters():
    # G = green = Jade, S = black = Sword, B = blue = Pagoda, R = red = Star (R2.1)
    assert [parse_bsw_card(t + "7").suit for t in "GSBR"] == ["j", "s", "p", "r"]


def test_bsw_writes_the_same_tokens():
    assert parse_card("7r").bsw == "R7"
    assert parse_card("Kj").bsw == "GK"
    assert parse_card("Js").bsw == "SB"
    assert parse_card("Tp").bsw == "B10"
    assert [parse_card(t).bsw for t in ("MJ", "DG", "PH", "DR")] == ["Ma", "Hu", "Ph", "Dr"]


@pytest.mark.parametrize("bad", ["X7", "R1", "RT", "7R", "", "Mx", "R11"])
def test_bad_bsw_tokens(bad):
    with pytest.raises(ParseError):
        parse_bsw_card(bad)


# ---------------------------------------------------------------- printing

def test_format_cards_sorts_by_rank_and_round_trips():
    hand = parse_cards("DR As 2j MJ PH DG 7r 7j")
    text = format_cards(hand)
    assert text == "DG MJ 2j 7j 7r As PH DR"
    assert set(parse_cards(text)) == set(hand)


def test_sort_cards_full_deck_round_trip():
    text = format_cards(reversed(DECK))
    assert parse_cards(text) == sort_cards(DECK)
    assert set(parse_cards(text)) == set(DECK)


@settings(max_examples=300)
@given(st.sets(st.integers(min_value=0, max_value=55), max_size=14),
       st.one_of(st.none(), st.integers(min_value=2, max_value=14)))
def test_a_masks_texts_are_the_sorted_cards_texts(indexes, phoenix_as):
    """The cards' texts read off a bit mask, in print order, as the cards sorted give them
    (a listed play's notation and a combination's data are made so)."""
    cards = [DECK[i] for i in indexes]
    mask = mask_of(cards)
    assert texts_of_mask(mask) == [c.text for c in sort_cards(cards)]
    assert format_mask(mask, phoenix_as) == format_play(cards, phoenix_as)
