"""The Mahjong wish: the §8.2 table row by row, and R8.1.2-R8.1.5.

Seats in `run` scripts are people's seats 1..4; in Python calls they are 0..3.
Each position is reached from a deal through the public API (see
test_engine_support.position), and every seat whose cards matter holds all of
the relevant cards explicitly.
"""

import pytest

from bswtichu.engine import MakeWish, Pass, Play

from test_engine_support import C, can_pass, legal_card_sets, legal_plays, position, rejected, run


def plays_of(rnd, seat):
    return legal_card_sets(rnd, seat)


def assert_only(rnd, seat, *expected):
    """The seat's legal plays are exactly ``expected`` (texts) and it may not pass."""
    assert plays_of(rnd, seat) == {C(t) for t in expected}
    assert not can_pass(rnd, seat)
    assert rejected(rnd, Pass(seat))


# ---------------------------------------------------------------- §8.2, one test per row

def test_row1_wish7_on_mahjong_holder_of_7_must_play_it():
    rnd = position({0: "MJ 7s 7p 7r", 1: "7j 9s Ks 2j 3s 4p 6r 8j Tj Jp Qr Aj 2s 3p"})
    run(rnd, "1: MJ; wish 7")
    assert rnd.view().wish == 7
    assert_only(rnd, 1, "7j")
    assert rejected(rnd, Play(1, C("9s")))
    assert rejected(rnd, Play(1, C("Ks")))
    run(rnd, "2: 7j")
    assert rnd.view().wish is None


def test_row2_wish7_phoenix_is_not_a_7():
    rnd = position({0: "MJ 7j 7s 7p 7r", 1: "9s Ks PH 2j 3s 4p 6r 8j Tj Jp Qr Aj 2s 3p"})
    run(rnd, "1: MJ; wish 7")
    assert can_pass(rnd, 1)
    assert {C("9s"), C("Ks"), C("PH")} <= plays_of(rnd, 1)
    run(rnd, "2: pass")
    assert rnd.view().wish == 7 and rnd.view().turn == 2


def test_row3_wish7_on_single_8_with_7_and_Q_is_free():
    rnd = position({0: "MJ 7s 7p 7r", 1: "8s 2j 3s 4p 6r 9j Tj Jp Qr Aj 2s 3p Ks Kj",
                    2: "7j Qj 2p 3r 4j 5s 6p 8r 9s Tp Jr Ar Kp 5p"})
    run(rnd, "1: MJ; wish 7; 2: 8s")
    assert can_pass(rnd, 2)
    assert C("Qj") in plays_of(rnd, 2)
    assert not any(c & C("7j") for c in plays_of(rnd, 2))
    run(rnd, "3: pass")
    assert rnd.view().wish == 7


def test_row4_wish7_on_pair_5_must_play_7_with_phoenix():
    # seat 4 ends up on turn over a pair of 5s holding 7j PH 9s 9p
    rnd = position({
        0: "MJ 7s 7r 2j 3j 4j 6j 8j 9j Tj Jj Qj Aj 2s",
        1: "Ks 5j 5s 2p 3s 4s 6s 8s Ts Js Qs As 3p 4p",
        2: "7p 2r 3r 4r 6p 8p Tp Jp Qp Ap Kj Kr 6r 8r",
        3: "7j PH 9s 9p",
    })
    run(rnd, "1: MJ; wish 7; 2: Ks; 3: pass; 4: pass; 1: pass")
    run(rnd, "2: 5j 5s")
    assert can_pass(rnd, 2)  # one 7, no Phoenix: no pair with a 7
    run(rnd, "3: pass")
    assert rnd.view().turn == 3
    assert plays_of(rnd, 3) == {C("7j PH")}
    assert rejected(rnd, Pass(3))
    assert rejected(rnd, Play(3, C("9s 9p")))
    run(rnd, "4: 7j PH")
    assert rnd.view().wish is None


def test_row5_wish8_on_single_K_must_bomb_with_four_8s():
    rnd = position({0: "MJ", 1: "Ks 2j 3s 4p 6r 7j 9j Tj Jp Qr 2s 3p 5j 6s",
                    2: "8j 8s 8p 8r 3j Aj"})
    run(rnd, "1: MJ; wish 8; 2: Ks")
    assert_only(rnd, 2, "8j 8s 8p 8r")
    assert rejected(rnd, Play(2, C("Aj")))
    run(rnd, "3: 8j 8s 8p 8r")
    assert rnd.view().wish is None


def test_row6_wish8_on_dragon_must_bomb_with_four_8s():
    rnd = position({0: "MJ", 1: "DR 2j 3s 4p 6r 7j 9j Tj Jp Qr 2s 3p 5j 6s",
                    2: "8j 8s 8p 8r"})
    run(rnd, "1: MJ; wish 8; 2: DR")
    assert_only(rnd, 2, "8j 8s 8p 8r")


def test_row7_wish8_on_straight_3_to_7_must_play_4_to_8():
    rnd = position({
        0: "MJ 2j 3j 4j 5j 8p",
        1: "3s 4s 5p 6r 7j",
        2: "4p 5r 6j 7s 8j Kp Kr 2p 3p Tj Js Qp Ar Jr",
        3: "8s 8r",
    })
    run(rnd, "1: MJ 2j 3j 4j 5j; wish 8; 2: 3s 4s 5p 6r 7j")
    assert_only(rnd, 2, "4p 5r 6j 7s 8j")
    assert rejected(rnd, Play(2, C("Kp Kr")))
    run(rnd, "3: 4p 5r 6j 7s 8j")
    assert rnd.view().wish is None


def test_row8_wish7_with_mahjong_straight_next_player_must_play_3_to_7():
    rnd = position({0: "MJ 2j 3j 4j 5j 7r 7p 7s", 1: "3s 4s 5p 6r 7j Ks Kj Qs Qj 2s 2p Js Ts Tj"})
    run(rnd, "1: MJ 2j 3j 4j 5j; wish 7")
    assert_only(rnd, 1, "3s 4s 5p 6r 7j")


def test_row9_wish8_on_single_5_may_play_8_or_bomb():
    rnd = position({0: "MJ 8s 8p", 1: "5s 2j 3s 4p 6r 7j 9j Tj Jp 2s 3p 5j 6s Ts",
                    2: "8j Qj Qs Qp Qr Kj Aj", 3: "8r"})
    run(rnd, "1: MJ; wish 8; 2: 5s")
    assert plays_of(rnd, 2) == {C("8j"), C("Qj Qs Qp Qr")}
    assert rejected(rnd, Pass(2))
    assert rejected(rnd, Play(2, C("Kj")))
    run(rnd, "3: Qj Qs Qp Qr")
    assert rnd.view().wish == 8  # a bomb without the 8 leaves the wish active


def test_row10_wish8_bound_leader_must_lead_an_8_not_dog_or_bomb():
    rnd = position({0: "MJ 8s", 1: "Aj 2j 3s 4p 6r 7j 9j Tj Jp 2s 3p 5j 6s Ts",
                    2: "8j Qj Qs Qp Qr DG DR", 3: "8p 8r"})
    run(rnd, "1: MJ; wish 8; 2: Aj; 3: DR; 4: pass; 1: pass; 2: pass; 3: give 2")
    assert rnd.view().need == "lead" and rnd.view().turn == 2
    legal = plays_of(rnd, 2)
    assert legal and all(c & C("8j") for c in legal)
    assert C("8j") in legal
    assert rejected(rnd, Play(2, C("DG")))
    assert rejected(rnd, Play(2, C("Qj Qs Qp Qr")))
    assert rejected(rnd, Play(2, C("Qj")))
    run(rnd, "3: 8j")
    assert rnd.view().wish is None


def test_row11_wish6_on_stairs_3344_must_play_55_6_phoenix():
    rnd = position({
        0: "MJ 6s",
        1: "9s 3j 3s 4p 4r 2j Tj Jp Qr Aj 2s 7j Kj Ks",
        2: "5j 5s 6j PH 2p 8p Tp Jr Qp Ap 9j Kp 3r 7p",
        3: "6p 6r",
    })
    run(rnd, "1: MJ; wish 6; 2: 9s; 3: pass; 4: pass; 1: pass; 2: 3j 3s 4p 4r")
    assert_only(rnd, 2, "5j 5s 6j PH")
    run(rnd, "3: 5j 5s 6j PH")
    assert rnd.view().wish is None


# ---------------------------------------------------------------- R8.1.2 making a wish

def test_wish_is_optional():
    rnd = position({0: "MJ"})
    run(rnd, "1: MJ; wish none")
    assert rnd.view().wish is None
    assert can_pass(rnd, 1)


def test_wish_waits_for_the_mahjong_player():
    rnd = position({0: "MJ"})
    run(rnd, "1: MJ")
    assert rnd.view().need == "wish" and rnd.view().turn == 0
    assert {type(a) for a in rnd.legal_actions(0)} >= {MakeWish}
    assert rejected(rnd, Pass(1))
    assert rejected(rnd, MakeWish(1, 7))


@pytest.mark.parametrize("rank", [0, 1, 15, 16, -1])
def test_special_cards_cannot_be_wished(rank):
    rnd = position({0: "MJ"})
    run(rnd, "1: MJ")
    assert rejected(rnd, MakeWish(0, rank))


def test_every_rank_2_to_A_can_be_wished():
    rnd = position({0: "MJ"})
    run(rnd, "1: MJ")
    wishes = {a.rank for a in rnd.legal_actions(0) if isinstance(a, MakeWish)}
    assert wishes == set(range(2, 15)) | {None}


def test_wish_without_mahjong_is_rejected():
    rnd = position({0: "MJ"})
    assert rejected(rnd, MakeWish(0, 7))
    run(rnd, "1: MJ; wish 7")
    assert rejected(rnd, MakeWish(0, 8))


def test_wish_inside_the_mahjong_straight_is_not_fulfilled_by_it():
    # R8.1.2 decision: the wish applies even when the rank is in the Mahjong's own straight
    rnd = position({0: "MJ 2j 3j 4j 5s"})
    run(rnd, "1: MJ 2j 3j 4j 5s; wish 3")
    assert rnd.view().wish == 3


def test_wisher_holding_the_rank_is_bound_himself():
    # seat 1 wishes 9, holds 9j; wins the trick back and must lead a 9
    rnd = position({0: "MJ 9j DR", 1: "2j 3s 4p 6r 7j 8j Tj Jp 2s 3p 5j 6s Ts Qr",
                    2: "9s", 3: "9p 9r"})
    run(rnd, "1: MJ; wish 9; 2: Qr")
    # seat 3 holds 9s, but a 9 cannot beat a Q: free
    assert can_pass(rnd, 2)
    run(rnd, "3: pass; 4: pass; 1: DR; 2: pass; 3: pass; 4: pass; 1: give 2")
    assert rnd.view().need == "lead" and rnd.view().turn == 0
    assert all(c & C("9j") for c in plays_of(rnd, 0))
    other = next(c for c in rnd.hands[0] if c.text != "9j")
    assert rejected(rnd, Play(0, [other]))
    run(rnd, "1: 9j")
    assert rnd.view().wish is None


def test_partner_of_the_wisher_is_bound():
    rnd = position({0: "MJ", 1: "2j 3s 4p 6r 8j Tj Jp 2s 3p 5j 6s Ts Qr Kj",
                    2: "7j 7s", 3: "7p 7r"})
    run(rnd, "1: MJ; wish 7; 2: 3s")
    assert plays_of(rnd, 2) == {C("7j"), C("7s")}
    assert not can_pass(rnd, 2)


# ---------------------------------------------------------------- R8.1.3 who is bound, when

def test_bound_only_at_regular_turn_not_when_others_play():
    # seat 4 holds a 7 but it is seat 2's turn: seat 4 has no plays but bombs
    rnd = position({0: "MJ 7s", 1: "2j 3s 4p 6r 8j Tj Jp 2s 3p 5j 6s Ts Qr Kj",
                    2: "7j", 3: "7p 7r"})
    run(rnd, "1: MJ; wish 7")
    assert plays_of(rnd, 3) == set()
    assert can_pass(rnd, 1)


def test_only_way_with_a_straight_using_the_phoenix():
    # wish 8, table straight 2-6, the only straight with an 8 needs the Phoenix: 4 5 6 PH 8
    rnd = position({0: "MJ 2j 3j 4j 5j 8p", 1: "2s 3s 4s 5p 6r",
                    2: "4p 5r 6j 8j PH 2p 3p Jp Qr Kp Ar Aj Qj Kj", 3: "8s 8r"})
    run(rnd, "1: MJ 2j 3j 4j 5j; wish 8; 2: 2s 3s 4s 5p 6r")
    assert plays_of(rnd, 2) == {C("4p 5r 6j PH 8j")}
    assert not can_pass(rnd, 2)
    # the Phoenix reading must be the 7
    assert legal_plays(rnd, 2) == {(C("4p 5r 6j PH 8j"), 7)}


def test_only_way_with_a_straight_of_the_tables_exact_length():
    # wish 8, table 6-card straight; player holds 3..T (8 cards): must play a 6-card straight with the 8
    rnd = position({0: "MJ 2j 3j 4j 5j 6s 8r", 1: "2s 3s 4s 5p 6r 7r",
                    2: "3p 4p 5r 6j 7j 8j 9s Tp 2p 2r Qp Kp Ar Aj", 3: "8s 8p"})
    run(rnd, "1: MJ 2j 3j 4j 5j 6s; wish 8; 2: 2s 3s 4s 5p 6r 7r")
    got = plays_of(rnd, 2)
    assert got == {C("3p 4p 5r 6j 7j 8j"), C("4p 5r 6j 7j 8j 9s"), C("5r 6j 7j 8j 9s Tp")}
    assert not can_pass(rnd, 2)
    assert rejected(rnd, Play(2, C("3p 4p 5r 6j 7j 8j 9s")))


def test_not_bound_when_the_wished_card_cannot_beat_the_table():
    # table single K, lone 7: free to pass or play anything legal
    rnd = position({0: "MJ 7s 7p 7r", 1: "Ks 2j 3s 4p 6r 8j Tj Jp 2s 3p 5j 6s Ts Qr",
                    2: "7j Aj"})
    run(rnd, "1: MJ; wish 7; 2: Ks")
    assert can_pass(rnd, 2)
    assert C("Aj") in plays_of(rnd, 2)
    run(rnd, "3: Aj")
    assert rnd.view().wish == 7


# ---------------------------------------------------------------- R8.1.4 out-of-turn bombs

def test_out_of_turn_bomb_without_the_wished_card_is_allowed():
    # seat 4 (not on turn) holds a 7 that could be played, but bombs with four 9s
    rnd = position({0: "MJ", 1: "2j 3s 4p 6r 8j Tj Jp 2s 3p 5j 6s Ts Qr Kj",
                    2: "7j 7s", 3: "7p 9j 9s 9p 9r"})
    run(rnd, "1: MJ; wish 7")
    assert C("9j 9s 9p 9r") in plays_of(rnd, 3)
    run(rnd, "4: 9j 9s 9p 9r")
    assert rnd.view().wish == 7
    assert rnd.view().turn == 0  # the turn passes to the player after the bomber


def test_faq_example_king_bomb_then_must_lead_the_8():
    rnd = position({0: "MJ 8s", 1: "3j 4s 5p 6r 7j 8j 9s Tp Jr Qj Kj Ks Kp Kr", 3: "8p 8r"})
    run(rnd, "1: MJ; wish 8")
    assert C("Kj Ks Kp Kr") in plays_of(rnd, 1)
    assert C("8j") in plays_of(rnd, 1)
    run(rnd, "2: Kj Ks Kp Kr; 3: pass; 4: pass; 1: pass")
    assert rnd.view().need == "lead" and rnd.view().turn == 1
    leads = plays_of(rnd, 1)
    assert C("3j 4s 5p 6r 7j 8j 9s Tp Jr Qj") in leads
    assert all(c & C("8j") for c in leads)
    assert rejected(rnd, Play(1, C("3j 4s 5p 6r 7j")))
    run(rnd, "2: 3j 4s 5p 6r 7j 8j 9s Tp Jr Qj")
    assert rnd.view().wish is None


def test_faq_example_straight_flush_with_the_8_must_bomb_the_kings():
    rnd = position({0: "MJ 8s", 1: "Kj Ks Kp Kr 2j 3s 4j 6r 7j 9j Tj Jj 2s 3p",
                    2: "4p 5p 6p 7p 8p", 3: "8j 8r"})
    run(rnd, "1: MJ; wish 8; 2: Kj Ks Kp Kr")
    assert rnd.view().turn == 2
    assert plays_of(rnd, 2) == {C("4p 5p 6p 7p 8p")}
    assert not can_pass(rnd, 2)


# ---------------------------------------------------------------- R8.1.5 fulfilment

def test_out_of_turn_bomb_with_the_wished_card_fulfils():
    rnd = position({0: "MJ", 1: "2j 3s 4p 6r 8j Tj Jp 2s 3p 5j 6s Ts Qr Kj",
                    3: "7j 7s 7p 7r"})
    run(rnd, "1: MJ; wish 7; 4: 7j 7s 7p 7r")
    assert rnd.view().wish is None


def test_unbound_player_fulfils_the_wish():
    # seat 3 is not bound (a 7 cannot beat K) but later leads a 7: that fulfils the wish
    rnd = position({0: "MJ 7s 7p 7r", 1: "Ks 2j 3s 4p 6r 8j Tj Jp 2s 3p 5j 6s Ts Qr",
                    2: "7j DR"})
    run(rnd, "1: MJ; wish 7; 2: Ks; 3: DR; 4: pass; 1: pass; 2: pass; 3: give 2; 3: 7j")
    assert rnd.view().wish is None


def test_phoenix_standing_for_the_wished_rank_does_not_fulfil():
    # wish 7: a straight 3-7 with the Phoenix as the 7 leaves the wish active
    rnd = position({0: "MJ 7j 7s 7p", 1: "2j 3s 4p 5r 6j PH Kj Ks Qj Qs Jj Js Tp Ap", 2: "7r"})
    run(rnd, "1: MJ; wish 7; 2: Kj; 3: pass; 4: pass; 1: pass")
    run(rnd, "2: 3s 4p 5r 6j PH=7")
    assert rnd.view().top.phoenix_as == 7
    assert rnd.view().wish == 7


def test_phoenix_does_not_bind_without_natural():
    rnd = position({0: "MJ 7j 7s 7p 7r", 1: "3s 4p 5r 6j PH 8j Ks Qj Qs Jj Js Tp Ap 2j"})
    run(rnd, "1: MJ; wish 7")
    assert can_pass(rnd, 1)


def test_wish_carries_over_tricks():
    rnd = position({0: "MJ 7s 7p 7r", 1: "Ks 2j 3s 4p 6r 8j Tj Jp 2s 3p 5j 6s Ts Qr",
                    2: "7j Aj"})
    run(rnd, "1: MJ; wish 7; 2: Ks; 3: pass; 4: pass; 1: pass")
    assert rnd.view().need == "lead" and rnd.view().turn == 1
    run(rnd, "2: 2j")
    assert rnd.view().wish == 7
    # seat 3 can now play its 7 over the 2 and is bound
    assert plays_of(rnd, 2) <= {C("7j"), C("Aj")} | {c for c in plays_of(rnd, 2) if len(c) == 4}
    assert C("7j") in plays_of(rnd, 2) and C("Aj") not in plays_of(rnd, 2)
    assert not can_pass(rnd, 2)


def test_fulfilled_wish_is_cleared_for_everyone():
    rnd = position({0: "MJ 7s", 1: "7j 9s Ks 2j 3s 4p 6r 8j Tj Jp Qr Aj 2s 3p", 2: "7p", 3: "7r"})
    run(rnd, "1: MJ; wish 7; 2: 7j")
    assert rnd.view().wish is None
    assert can_pass(rnd, 2)
