"""One round as a state machine: phases, calls, tricks, bombs, Dog, Dragon, the end and scoring.

Seats in `run` scripts are people's seats 1..4; in Python calls they are 0..3.
"""

from random import Random

import pytest

from bswtichu.engine import (
    DECK, CallGrand, CallTichu, DeclineGrand, Exchange, GiveDragon, MakeWish,
    Pass, Play, Round, TichuError,
)
from bswtichu.engine.cards import SUITS, natural
from bswtichu.engine.events import (
    CardsDealt, CardsReceived, GrandDecided, RoundEnded, TrickCollected,
)
from bswtichu.engine.round import EXCHANGE, GRAND, OVER, PLAY

from test_engine_support import (
    C, can_pass, legal_card_sets, position, rejected, run,
)


def shuffled_deal(seed=0):
    deal = list(DECK)
    Random(seed).shuffle(deal)
    return deal


def run13(offset: int, extra: str = "") -> str:
    """The 13 naturals 2..A, rank r in suit (r + offset) % 4 (never a straight flush), plus extras."""
    return " ".join(natural(r, SUITS[(r + offset) % 4]).text for r in range(2, 15)) + (" " + extra if extra else "")


def straight(offset: int) -> str:
    return run13(offset)


def points(rnd, seat):
    return rnd.view().points_taken[seat]


# ================================================================ phases

def test_grand_phase_deals_8_cards_each():
    deal = shuffled_deal(1)
    rnd = Round(deal)
    assert rnd.phase == GRAND
    for s in range(4):
        assert rnd.hands[s] == set(deal[8 * s: 8 * s + 8])
        assert rnd.view(s).hand_counts == (8, 8, 8, 8)
    assert sorted(rnd.all_cards(), key=lambda c: c.index) == list(DECK)


def test_grand_decision_reveals_the_last_six_to_that_player_only():
    deal = shuffled_deal(2)
    rnd = Round(deal)
    rnd.apply(DeclineGrand(2))
    assert rnd.hands[2] == set(deal[16:24]) | set(deal[32 + 12: 38 + 12])
    assert [len(rnd.hands[s]) for s in range(4)] == [8, 8, 14, 8]
    assert rnd.phase == GRAND


def test_grand_call_is_public_and_final():
    rnd = Round(shuffled_deal(3))
    events = rnd.apply(CallGrand(1))
    assert any(isinstance(e, GrandDecided) and e.called and e.private_to is None for e in events)
    assert rnd.view(None).calls[1] == "grand"
    assert rnd.view(3).calls[1] == "grand"
    assert rejected(rnd, DeclineGrand(1))
    assert rejected(rnd, CallGrand(1))
    assert rejected(rnd, CallTichu(1))  # one call per player (R5.3)


def test_grand_phase_ends_when_all_four_decided():
    rnd = Round(shuffled_deal(4))
    for s in range(3):
        rnd.apply(DeclineGrand(s))
        assert rnd.phase == GRAND
    assert rejected(rnd, Exchange(0, tuple(list(rnd.hands[0])[:3])))
    rnd.apply(CallGrand(3))
    assert rnd.phase == EXCHANGE
    assert all(len(h) == 14 for h in rnd.hands)


def test_only_grand_decisions_during_grand_phase():
    rnd = Round(shuffled_deal(5))
    hand = sorted(rnd.hands[0], key=lambda c: c.index)
    assert rejected(rnd, Play(0, hand[:1]))
    assert rejected(rnd, Pass(0))
    assert rejected(rnd, MakeWish(0, 7))
    assert rejected(rnd, GiveDragon(0, 1))
    assert {type(a) for a in rnd.legal_actions(0)} == {CallGrand, DeclineGrand}


def test_tichu_needs_14_cards():
    # R4.5 decision: no normal Tichu while only 8 cards are seen
    rnd = Round(shuffled_deal(6))
    assert rejected(rnd, CallTichu(0))
    assert CallTichu(0) not in rnd.legal_actions(0)
    rnd.apply(DeclineGrand(0))
    assert CallTichu(0) in rnd.legal_actions(0)
    rnd.apply(CallTichu(0))
    assert rnd.view().calls[0] == "tichu"
    assert rejected(rnd, CallTichu(0))
    # the Tichu caller still cannot call Grand: he already decided
    assert rejected(rnd, CallGrand(0))


def test_round_without_grand_tichu_deals_14_and_starts_with_the_exchange():
    deal = shuffled_deal(7)
    rnd = Round(deal, grand_tichu=False)
    assert rnd.phase == EXCHANGE
    for s in range(4):
        assert rnd.hands[s] == set(deal[8 * s: 8 * s + 8]) | set(deal[32 + 6 * s: 38 + 6 * s])
    assert rejected(rnd, CallGrand(0))
    assert rejected(rnd, DeclineGrand(0))
    assert CallTichu(0) in rnd.legal_actions(0)


def test_opening_events_private_cards():
    rnd = Round(shuffled_deal(8))
    dealt = [e for e in rnd.opening_events if isinstance(e, CardsDealt)]
    assert sorted(e.seat for e in dealt) == [0, 1, 2, 3]
    assert all(e.private_to == e.seat and set(e.cards) == rnd.hands[e.seat] for e in dealt)


# ================================================================ exchange (R4.3)

def exchange_round(seed=9):
    return Round(shuffled_deal(seed), grand_tichu=False)


def trio(rnd, seat, k=0):
    return tuple(sorted(rnd.hands[seat], key=lambda c: c.index)[k:k + 3])


def test_exchange_is_simultaneous_and_moves_cards_to_right_partner_left():
    rnd = exchange_round()
    before = [set(h) for h in rnd.hands]
    trios = {s: trio(rnd, s) for s in range(4)}
    for s in range(3):
        rnd.apply(Exchange(s, trios[s]))
        assert [set(h) for h in rnd.hands] == before  # nothing moves before the 4th
        assert rnd.view().exchange_submitted[s]
    events = rnd.apply(Exchange(3, trios[3]))
    assert rnd.phase == PLAY
    for s in range(4):
        got = {trios[(s - 1) % 4][0], trios[(s - 2) % 4][1], trios[(s - 3) % 4][2]}
        assert rnd.hands[s] == (before[s] - set(trios[s])) | got
        assert len(rnd.hands[s]) == 14
    received = {e.seat: e for e in events if isinstance(e, CardsReceived)}
    assert received[1].received[0] == trios[0][0]  # right opponent
    assert received[2].received[0] == trios[0][1]  # partner
    assert received[3].received[0] == trios[0][2]  # left opponent
    assert all(e.private_to == e.seat for e in received.values())


def test_exchange_is_final():
    rnd = exchange_round()
    rnd.apply(Exchange(0, trio(rnd, 0)))
    assert rejected(rnd, Exchange(0, trio(rnd, 0, 3)))
    assert not any(isinstance(a, Exchange) for a in rnd.legal_actions(0))


@pytest.mark.parametrize("make", [
    lambda h, other: h[:2],                  # too few
    lambda h, other: h[:4],                  # too many
    lambda h, other: (h[0], h[0], h[1]),     # the same card twice
    lambda h, other: (h[0], h[1], other),    # a card not held
    lambda h, other: (),
])
def test_malformed_exchanges_are_rejected(make):
    rnd = exchange_round()
    hand = sorted(rnd.hands[0], key=lambda c: c.index)
    other = next(iter(rnd.hands[1]))
    assert rejected(rnd, Exchange(0, tuple(make(hand, other))))
    assert not rnd.view().exchange_submitted[0]


def test_exchange_legal_actions_are_all_ordered_trios():
    rnd = exchange_round()
    exchanges = [a for a in rnd.iter_legal_actions(0) if isinstance(a, Exchange)]
    assert len(exchanges) == 14 * 13 * 12 == 2184
    assert len(set(exchanges)) == 2184


def test_special_cards_may_be_passed_and_the_new_mahjong_holder_leads():
    # the Mahjong holder passes it to his partner, who then leads
    deal = [c for c in DECK]
    rnd = Round(deal, grand_tichu=False)
    holder = next(s for s in range(4) if any(c.text == "MJ" for c in rnd.hands[s]))
    specials = [c for c in rnd.hands[holder] if c.text == "MJ"]
    rest = sorted((c for c in rnd.hands[holder] if c.text != "MJ"), key=lambda c: c.index)
    rnd.apply(Exchange(holder, (rest[0], specials[0], rest[1])))  # the Mahjong to the partner
    for s in range(4):
        if s != holder:
            rnd.apply(Exchange(s, trio(rnd, s)))
    partner = (holder + 2) % 4
    assert rnd.view().turn == partner and rnd.view().need == "lead"


def test_no_play_during_the_exchange():
    rnd = exchange_round()
    card = next(iter(rnd.hands[0]))
    assert rejected(rnd, Play(0, [card]))
    assert rejected(rnd, Pass(0))


def test_tichu_before_during_and_after_the_exchange():
    rnd = exchange_round()
    rnd.apply(CallTichu(0))                       # before submitting
    rnd.apply(Exchange(1, trio(rnd, 1)))
    rnd.apply(CallTichu(1))                       # after submitting, before the others
    for s in (0, 2, 3):
        rnd.apply(Exchange(s, trio(rnd, s)))
    rnd.apply(CallTichu(2))                       # after the exchange, before any play
    assert rnd.view().calls == ("tichu", "tichu", "tichu", None)


# ================================================================ first lead, passes, tricks

def test_mahjong_holder_leads_anything():
    rnd = position({2: "MJ 5j 5s"})
    assert rnd.view().turn == 2 and rnd.view().need == "lead"
    assert C("5j 5s") in legal_card_sets(rnd, 2)
    assert not can_pass(rnd, 2)
    assert rejected(rnd, Pass(2))
    run(rnd, "3: 5j 5s")
    assert rnd.view().top.cards == C("5j 5s") and rnd.view().turn == 3


def test_only_the_player_on_turn_plays_a_non_bomb():
    rnd = position({0: "MJ 2j", 1: "3s", 2: "4s", 3: "5s"})
    run(rnd, "1: 2j")
    assert rejected(rnd, Play(2, C("4s")))
    assert rejected(rnd, Play(3, C("5s")))
    assert rejected(rnd, Pass(2))
    assert legal_card_sets(rnd, 2) == set()  # no bombs in the filler either
    run(rnd, "2: 3s; 3: 4s")
    assert rnd.view().turn == 3


def test_play_must_beat_the_table():
    rnd = position({0: "MJ 9j", 1: "8s Ts 5p 5r"})
    run(rnd, "1: 9j")
    assert rejected(rnd, Play(1, C("8s")))
    assert rejected(rnd, Play(1, C("5p 5r")))
    run(rnd, "2: Ts")


def test_pass_is_not_final():
    rnd = position({0: "MJ 2j 9j", 1: "3s Ks", 2: "4s", 3: "5s"})
    run(rnd, "1: 2j; 2: pass; 3: 4s; 4: 5s; 1: 9j")
    assert rnd.view().turn == 1
    run(rnd, "2: Ks")
    assert rnd.view().top_seat == 1


def test_seat_order_skips_nobody_and_goes_up():
    rnd = position({0: "MJ 2j", 1: "3s", 2: "4s", 3: "5s"})
    turns = []
    run(rnd, "1: 2j")
    turns.append(rnd.view().turn)
    run(rnd, "2: 3s")
    turns.append(rnd.view().turn)
    run(rnd, "3: 4s")
    turns.append(rnd.view().turn)
    run(rnd, "4: 5s")
    turns.append(rnd.view().turn)
    assert turns == [1, 2, 3, 0]


def test_trick_is_won_after_three_passes_and_collected_by_the_next_lead():
    rnd = position({0: "MJ 5j Kj", 1: "Ks 3s", 2: "4s", 3: "6s"})
    run(rnd, "1: 5j; 2: Ks; 3: pass; 4: pass")
    assert not rnd.view().trick_won
    run(rnd, "1: pass")
    v = rnd.view()
    assert v.trick_won and v.need == "lead" and v.turn == 1
    assert v.top.cards == C("Ks")              # still on the table
    assert v.points_taken == (0, 0, 0, 0)      # not yet collected (R9.6)
    run(rnd, "2: 3s")
    assert rnd.view().points_taken == (0, 15, 0, 0)  # 5j + Ks
    assert rnd.view().top.cards == C("3s") and len(rnd.view().trick) == 1


def test_collection_event_at_the_leaders_lead():
    rnd = position({0: "MJ 5j", 1: "Ks 3s"})
    run(rnd, "1: 5j; 2: Ks; 3: pass; 4: pass; 1: pass")
    events = rnd.apply(Play(1, C("3s")))
    collected = [e for e in events if isinstance(e, TrickCollected)]
    assert collected and collected[0].to == 1 and collected[0].points == 15


def test_owner_cannot_play_onto_his_own_won_trick_his_play_is_a_new_lead():
    rnd = position({0: "MJ 5j", 1: "Ks Kp 3s"})
    run(rnd, "1: 5j; 2: Ks; 3: pass; 4: pass; 1: pass; 2: Kp")
    v = rnd.view()
    assert len(v.trick) == 1 and v.top.cards == C("Kp") and v.points_taken[1] == 15


def test_non_leader_cannot_play_a_non_bomb_in_the_window():
    rnd = position({0: "MJ 5j", 1: "Ks", 2: "As"})
    run(rnd, "1: 5j; 2: Ks; 3: pass; 4: pass; 1: pass")
    assert rejected(rnd, Play(2, C("As")))
    assert rejected(rnd, Pass(2))
    assert rejected(rnd, Pass(1))  # the leader may not pass


# ================================================================ Tichu timing (R5.1, R5.3)

def test_tichu_after_passing_several_times():
    rnd = position({0: "MJ 2j 3j", 1: "Ks As", 3: "Kj Aj"})
    run(rnd, "1: 2j; 2: pass; 3: pass; 4: Kj; 1: pass; 2: pass; 3: pass")
    run(rnd, "2: tichu")
    assert rnd.view().calls[1] == "tichu"


def test_tichu_with_the_first_play_and_not_after():
    rnd = position({0: "MJ 2j 3j"})
    run(rnd, "1: tichu; 1: 2j")
    assert rnd.view().calls[0] == "tichu"
    rnd2 = position({0: "MJ 2j 3j"})
    run(rnd2, "1: 2j")
    assert rejected(rnd2, CallTichu(0))
    assert CallTichu(0) not in rnd2.legal_actions(0)


def test_tichu_out_of_turn_is_allowed():
    rnd = position({0: "MJ 2j 3j"})
    run(rnd, "1: 2j; 4: tichu")
    assert rnd.view().calls[3] == "tichu"


def test_out_of_turn_bomb_counts_as_playing():
    rnd = position({0: "MJ 2j", 2: "9j 9s 9p 9r"})
    run(rnd, "1: 2j; 3: 9j 9s 9p 9r")
    assert rejected(rnd, CallTichu(2))


def test_both_partners_and_both_teams_may_call():
    rnd = position({0: "MJ"})
    for s in range(4):
        rnd.apply(CallTichu(s))
    assert rnd.view().calls == ("tichu",) * 4


# ================================================================ bombs (R9.2 - R9.4)

def test_no_bomb_before_the_first_lead():
    rnd = position({0: "MJ", 2: "9j 9s 9p 9r"})
    assert legal_card_sets(rnd, 2) == set()
    assert rejected(rnd, Play(2, C("9j 9s 9p 9r")))


def test_leader_may_lead_a_bomb():
    rnd = position({0: "MJ 9j 9s 9p 9r"})
    run(rnd, "1: 9j 9s 9p 9r")
    assert rnd.view().top.is_bomb


def test_bomb_right_after_the_mahjong():
    rnd = position({0: "MJ", 2: "9j 9s 9p 9r"})
    run(rnd, "1: MJ")
    # the wish comes first: it is part of the Mahjong play (engine choice)
    assert rejected(rnd, Play(2, C("9j 9s 9p 9r")))
    run(rnd, "1: wish none; 3: 9j 9s 9p 9r")
    assert rnd.view().top_seat == 2 and rnd.view().turn == 3


def test_out_of_turn_bomb_jumps_the_turn():
    # R9.4: seat 2 was on turn; seat 3 bombs; seat 4 is next, seat 2 lost its turn
    rnd = position({0: "MJ 2j", 1: "3s Ks", 2: "9j 9s 9p 9r"})
    run(rnd, "1: 2j; 3: 9j 9s 9p 9r")
    v = rnd.view()
    assert v.turn == 3 and v.top_seat == 2
    assert rejected(rnd, Play(1, C("3s")))
    assert rejected(rnd, Pass(1))
    run(rnd, "4: pass; 1: pass")
    assert rnd.view().turn == 1  # he gets a turn again when it comes round
    run(rnd, "2: pass")
    assert rnd.view().trick_won and rnd.view().turn == 2


def test_bomb_over_own_combination():
    rnd = position({0: "MJ 2j 9j 9s 9p 9r"})
    run(rnd, "1: 2j; 1: 9j 9s 9p 9r")
    assert rnd.view().top_seat == 0 and rnd.view().turn == 1


def test_after_a_bomb_only_higher_bombs():
    rnd = position({0: "MJ 2j", 1: "Ks 3j 3s 3p 3r", 2: "9j 9s 9p 9r",
                    3: "Tj Ts Tp Tr"})
    run(rnd, "1: 2j; 3: 9j 9s 9p 9r")
    assert rejected(rnd, Play(1, C("Ks")))
    assert rejected(rnd, Play(1, C("3j 3s 3p 3r")))
    assert rejected(rnd, Play(3, C("Tj")))
    assert legal_card_sets(rnd, 3) == {C("Tj Ts Tp Tr")}
    run(rnd, "4: Tj Ts Tp Tr")
    assert rnd.view().top_seat == 3 and rnd.view().turn == 0


def test_bomb_over_the_dragon_keeps_the_trick_no_gift():
    rnd = position({0: "MJ DR", 2: "9j 9s 9p 9r"})
    run(rnd, "1: DR; 3: 9j 9s 9p 9r; 4: pass; 1: pass; 2: pass")
    assert rnd.view().need == "lead" and rnd.view().turn == 2
    run(rnd, "3: " + " ".join(c.text for c in sorted(rnd.hands[2], key=lambda c: c.index)[:1]))
    assert rnd.view().points_taken[2] == 25


def test_players_who_are_out_cannot_bomb():
    rnd = position({1: "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As DG", 0: "MJ"})
    # seat 2 holds a 13-card straight flush; it goes out with it as a bomb
    run(rnd, "1: MJ; wish none; 2: 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As")
    assert 1 not in rnd.view().finish_order  # still holds the Dog
    run(rnd, "3: pass; 4: pass; 1: pass; 2: DG")
    assert rnd.view().finish_order == (1,)
    assert rnd.legal_actions(1) == []
    assert rejected(rnd, Pass(1))


# ================================================================ the bomb window (R9.6)

def test_bomb_in_the_window_reopens_the_trick():
    rnd = position({0: "MJ 5j", 1: "Ks 3s", 2: "9j 9s 9p 9r 4s"})
    run(rnd, "1: 5j; 2: Ks; 3: pass; 4: pass; 1: pass")
    assert rnd.view().trick_won
    assert C("9j 9s 9p 9r") in legal_card_sets(rnd, 2)
    run(rnd, "3: 9j 9s 9p 9r")
    v = rnd.view()
    assert not v.trick_won and v.top_seat == 2 and v.turn == 3 and v.need == "follow"
    assert len(v.trick) == 3
    run(rnd, "4: pass; 1: pass; 2: pass")
    assert rnd.view().trick_won and rnd.view().turn == 2
    run(rnd, "3: 4s")
    assert rnd.view().points_taken[2] == 15


def test_dragon_owner_bombs_his_own_dragon_trick():
    rnd = position({0: "MJ DR 9j 9s 9p 9r 2j"})
    run(rnd, "1: DR; 2: pass; 3: pass; 4: pass")
    assert rnd.view().need == "give" and rnd.view().turn == 0
    assert C("9j 9s 9p 9r") in legal_card_sets(rnd, 0)
    run(rnd, "1: 9j 9s 9p 9r")
    run(rnd, "2: pass; 3: pass; 4: pass")
    assert rnd.view().need == "lead"  # a bomb, not the Dragon, won: no gift
    run(rnd, "1: 2j")
    assert rnd.view().points_taken[0] == 25


def test_other_player_bombs_the_dragon_in_the_window():
    rnd = position({0: "MJ DR 2j", 3: "9j 9s 9p 9r"})
    run(rnd, "1: DR; 2: pass; 3: pass; 4: pass")
    assert rejected(rnd, Play(1, C(next(iter(rnd.hands[1])).text)))
    run(rnd, "4: 9j 9s 9p 9r; 1: pass; 2: pass; 3: pass")
    assert rnd.view().need == "lead" and rnd.view().turn == 3


def test_window_stays_open_even_without_any_bomb():
    # never collected early: the trick waits for the leader's action
    rnd = position({0: "MJ 5j", 1: "Ks 3s"})
    run(rnd, "1: 5j; 2: Ks; 3: pass; 4: pass; 1: pass")
    assert rnd.view().trick_won and rnd.view().top is not None


# ================================================================ the Dog (R8.3)

def test_dog_passes_the_lead_to_the_partner():
    rnd = position({0: "MJ DG", 2: "9j 9s 9p 9r"})
    run(rnd, "1: DG")
    v = rnd.view()
    assert v.top is None and v.turn == 2 and v.need == "lead"
    assert rejected(rnd, Pass(1))
    assert rejected(rnd, Pass(2))


def test_dog_cannot_be_bombed():
    rnd = position({0: "MJ DG", 1: "9j 9s 9p 9r"})
    run(rnd, "1: DG")
    assert legal_card_sets(rnd, 1) == set()
    assert rejected(rnd, Play(1, C("9j 9s 9p 9r")))


def test_dog_cannot_follow():
    rnd = position({0: "MJ 2j", 1: "DG"})
    run(rnd, "1: 2j")
    assert C("DG") not in legal_card_sets(rnd, 1)
    assert rejected(rnd, Play(1, C("DG")))


def test_dog_goes_with_the_next_trick():
    # R8.3.3 decision: into the pile of the next trick's winner, 0 points
    rnd = position({0: "MJ DG", 2: "Kj 2s"})
    run(rnd, "1: DG; 3: Kj; 4: pass; 1: pass; 2: pass; 3: 2s")
    assert rnd.view().points_taken[2] == 10
    assert any(c.text == "DG" for c in rnd.piles[2])


def scenario_two_out(dog_seat_hand_extra=""):
    """Seat 3 (0-based 2) goes out with MJ..A, seat 4 (0-based 3) with 2..A then the Phoenix.

    Returns the round with seats 1 and 2 (0-based 0, 1) still in; seat 1 holds the Dog and leads.
    """
    hands = {
        2: "MJ " + run13(2),
        3: run13(3, "PH"),
        0: run13(0, "DG"),
        1: run13(1, "DR"),
    }
    rnd = position(hands)
    run(rnd, "3: MJ " + run13(2) + "; wish none; 4: pass; 1: pass; 2: pass")
    # seat 3 is out; the trick's winner is out: the next active player (seat 4) leads and collects
    assert rnd.view().finish_order == (2,)
    assert rnd.view().need == "lead" and rnd.view().turn == 3
    run(rnd, "4: " + run13(3))
    assert rnd.view().points_taken[2] == 25
    run(rnd, "1: pass; 2: pass; 4: PH")
    assert rnd.view().finish_order == (2, 3)
    run(rnd, "1: pass; 2: pass")
    return rnd


def test_trick_won_by_a_player_who_is_out_goes_to_him_next_active_leads():
    rnd = scenario_two_out()
    v = rnd.view()
    assert v.trick_won and v.need == "lead" and v.turn == 0  # next active after seat 4
    run(rnd, "1: DG")
    assert rnd.view().points_taken[3] == 25 - 25  # his straight, then his Phoenix trick


def test_dog_when_partner_and_next_are_out_comes_back_to_the_dog_player():
    rnd = scenario_two_out()
    run(rnd, "1: DG")
    v = rnd.view()
    assert v.turn == 0 and v.need == "lead" and v.top is None


def test_dog_when_partner_out_goes_to_the_next_active_after_the_partner():
    # seat 3 (0-based 2) goes out first; seat 1 wins a trick and leads the Dog: seat 4 leads
    hands = {2: "MJ " + run13(2), 0: run13(0, "DG"), 1: run13(1, "DR"), 3: run13(3, "PH")}
    rnd = position(hands)
    run(rnd, "3: MJ " + run13(2) + "; wish none; 4: pass; 1: pass; 2: pass")
    run(rnd, "4: 2s; 1: Ap; 2: pass; 4: pass")
    assert rnd.view().need == "lead" and rnd.view().turn == 0
    run(rnd, "1: DG")
    v = rnd.view()
    assert v.turn == 3 and v.need == "lead" and v.top is None


def test_dog_as_last_card_makes_a_double_victory():
    hands = {
        2: "MJ " + " ".join(natural(r, "spr"[r % 3]).text for r in range(2, 15)),
        0: " ".join(natural(r, "j").text for r in range(2, 15)) + " DG",
        1: " ".join(natural(r, "spr"[(r + 1) % 3]).text for r in range(2, 15)) + " DR",
    }
    rnd = position(hands)
    run(rnd, "3: " + hands[2] + "; wish none; 4: pass; 1: pass; 2: pass")
    lead = sorted(rnd.hands[3], key=lambda c: c.index)[0].text
    run(rnd, f"4: {lead}")
    run(rnd, "1: " + " ".join(natural(r, "j").text for r in range(2, 15)))
    run(rnd, "2: pass; 4: pass")
    assert rnd.phase == PLAY and rnd.view().turn == 0
    run(rnd, "1: DG")
    assert rnd.phase == OVER
    res = rnd.result
    assert res.double_victory == 0 and res.finish_order[:2] == (2, 0)
    assert res.card_points == (200, 0)


# ================================================================ the Dragon (R8.5)

def test_a_single_on_the_dragon_is_told_that_only_a_bomb_beats_it():
    rnd = position({0: "MJ DR 2j", 1: "7s 9s", 2: "PH 3j"})
    run(rnd, "1: MJ; wish none; 2: pass; 3: pass; 4: pass; 1: DR")
    with pytest.raises(TichuError, match="nothing beats the Dragon but a bomb"):
        rnd.apply(Play(1, C("7s")))
    run(rnd, "2: pass")
    with pytest.raises(TichuError, match="the Phoenix cannot be played on the Dragon"):
        rnd.apply(Play(2, C("PH")))


def test_dragon_gift_to_an_opponent():
    rnd = position({0: "MJ DR 2j"})
    run(rnd, "1: DR; 2: pass; 3: pass; 4: pass")
    gifts = [a for a in rnd.legal_actions(0) if isinstance(a, GiveDragon)]
    assert {g.to for g in gifts} == {1, 3}
    assert rejected(rnd, GiveDragon(0, 2))  # the partner
    assert rejected(rnd, GiveDragon(0, 0))  # himself
    assert rejected(rnd, GiveDragon(0, 4))
    assert rejected(rnd, GiveDragon(1, 1))  # not the owner
    assert rejected(rnd, Play(0, C("2j")))  # the gift comes before his lead
    run(rnd, "1: give 4")
    v = rnd.view()
    assert v.points_taken == (0, 0, 0, 25)
    assert v.need == "lead" and v.turn == 0  # he still leads


def test_phoenix_cannot_go_on_the_dragon():
    rnd = position({0: "MJ DR", 1: "PH"})
    run(rnd, "1: DR")
    assert rejected(rnd, Play(1, C("PH")))


def test_dragon_gift_to_an_opponent_who_is_out():
    # seat 3 (0-based 2) goes out with MJ..A; seat 2 (0-based 1) wins a Dragon trick and gives it to seat 3? no:
    # seat 3 is his opponent only if on the other team: use seat 4 (0-based 3) with the Dragon
    hands = {2: "MJ " + run13(2), 3: run13(3, "DR"), 0: run13(0, "DG"), 1: run13(1, "PH")}
    rnd = position(hands)
    run(rnd, "3: MJ " + run13(2) + "; wish none; 4: pass; 1: pass; 2: pass")
    run(rnd, "4: DR; 1: pass; 2: pass")
    assert rnd.view().need == "give" and rnd.view().turn == 3
    assert GiveDragon(3, 2) in rnd.legal_actions(3)
    run(rnd, "4: give 3")
    assert rnd.view().points_taken[2] == 25 + 25
    assert rnd.view().turn == 3


def test_dragon_as_last_card_not_ending_owner_gives_next_active_leads():
    hands = {2: "MJ " + run13(2), 3: run13(3, "DR"), 0: run13(0, "DG"), 1: run13(1, "PH")}
    rnd = position(hands)
    run(rnd, "3: MJ " + run13(2) + "; wish none; 4: pass; 1: pass; 2: pass")
    run(rnd, "4: " + run13(3) + "; 1: pass; 2: pass; 4: DR")
    assert rnd.view().finish_order == (2, 3)
    run(rnd, "1: pass; 2: pass")
    assert rnd.view().need == "give" and rnd.view().turn == 3
    assert rejected(rnd, GiveDragon(3, 1))  # his partner, even though seat 2 is in
    run(rnd, "4: give 1")
    assert rnd.view().need == "lead" and rnd.view().turn == 0
    assert rnd.view().points_taken[0] == 25


def last_trick_dragon_round():
    """F1 seat 1, F2 seat 2, F3 seat 3 goes out with the Dragon; seat 4 is the tail-ender (0-based)."""
    hands = {0: "MJ " + run13(0), 1: run13(1, "PH"), 2: run13(2, "DR"), 3: run13(3, "DG")}
    rnd = position(hands)
    run(rnd, "1: MJ " + run13(0) + "; wish none; 2: pass; 3: pass; 4: pass")
    run(rnd, "2: " + run13(1) + "; 3: pass; 4: pass; 2: PH")
    run(rnd, "3: pass; 4: pass; 3: " + run13(2) + "; 4: pass; 3: DR")
    return rnd


def test_dragon_gift_required_in_the_last_trick_and_no_bombs():
    rnd = last_trick_dragon_round()
    assert rnd.view().finish_order == (0, 1, 2)
    assert rnd.phase == PLAY and rnd.result is None
    assert rnd.view().need == "give" and rnd.view().turn == 2
    assert {type(a) for a in rnd.legal_actions(3)} <= {CallTichu} and CallTichu not in {
        type(a) for a in rnd.legal_actions(3)}
    assert rejected(rnd, Pass(3))
    assert rejected(rnd, GiveDragon(2, 0))


def test_dragon_gift_happens_before_the_end_transfers():
    # given to the tail-ender (seat 4), the trick then goes with his tricks to the first player out
    rnd = last_trick_dragon_round()
    run(rnd, "3: give 4")
    res = rnd.result
    assert rnd.phase == OVER
    assert res.finish_order == (0, 1, 2, 3)
    # team 1+3: seat 1 straight 25 + Dragon trick 25 (via the tail) + seat 3 straight 25
    #           + the tail's hand (2..A + Dog = 25) counted for the opponents of the tail
    assert res.card_points == (100, 0)
    assert sum(res.card_points) == 100


def test_dragon_gift_to_the_other_opponent_in_the_last_trick():
    rnd = last_trick_dragon_round()
    run(rnd, "3: give 2")
    assert rnd.result.card_points == (75, 25)


# ================================================================ going out, end, scoring (§10, §11)

def normal_round(calls=""):
    """F1 seat 1, F2 seat 2, F3 seat 4, tail seat 3; optional calls before play."""
    hands = {0: "MJ " + run13(0), 1: run13(1, "DG"), 2: run13(2, "PH"), 3: run13(3, "DR")}
    rnd = position(hands)
    if calls:
        run(rnd, calls)
    run(rnd, "1: MJ " + run13(0) + "; wish none; 2: pass; 3: pass; 4: pass")
    run(rnd, "2: " + run13(1) + "; 3: pass; 4: pass; 2: DG")
    # seat 2 went out with the Dog (F2); the lead goes to its partner seat 4
    run(rnd, "4: " + run13(3) + "; 3: pass; 4: DR")
    return rnd


def test_going_out_combination_stays_and_player_is_skipped():
    hands = {0: "MJ " + run13(0), 1: run13(1, "DG")}
    rnd = position(hands)
    run(rnd, "1: MJ " + run13(0))
    assert rnd.view().finish_order == (0,)
    run(rnd, "1: wish none")
    assert rnd.view().top.length == 14 and rnd.view().top_seat == 0
    run(rnd, "2: pass; 3: pass; 4: pass")
    assert rnd.view().turn == 1  # skipped: the next active player leads


def test_normal_end_scoring_tail_hand_to_opponents_tail_tricks_to_first():
    rnd = normal_round()
    assert rnd.view().finish_order == (0, 1, 3)
    assert rnd.view().need == "give"
    run(rnd, "4: give 1")
    res = rnd.result
    assert res.finish_order == (0, 1, 3, 2) and res.double_victory is None
    # seat 1: 25 + Dragon trick 25; seat 2: 25 (its straight) + Dog; seat 4: 25 (its straight)
    # tail seat 3 holds 2..A + PH = 0 points for team 2+4
    assert res.card_points == (50, 50)
    assert res.call_points == (0, 0) and res.score == (50, 50)


def test_calls_settled_success_and_partner_first_fails():
    rnd = normal_round("1: tichu; 3: tichu; 4: tichu")
    run(rnd, "4: give 3")
    res = rnd.result
    assert res.calls == ("tichu", None, "tichu", "tichu")
    assert res.call_points == (100 - 100, -100)
    assert res.score == (50, -50)


def test_grand_tichu_settled_plus_minus_200():
    hands = {0: "MJ " + run13(0), 1: run13(1, "DG"), 2: run13(2, "PH"), 3: run13(3, "DR")}
    from test_engine_support import deal_for
    deal, exchanges = deal_for(hands)
    rnd = Round(deal)
    rnd.apply(CallGrand(0))
    rnd.apply(DeclineGrand(1))
    rnd.apply(CallGrand(3))
    rnd.apply(DeclineGrand(2))
    for e in exchanges:
        rnd.apply(e)
    run(rnd, "1: MJ " + run13(0) + "; wish none; 2: pass; 3: pass; 4: pass")
    run(rnd, "2: " + run13(1) + "; 3: pass; 4: pass; 2: DG")
    run(rnd, "4: " + run13(3) + "; 3: pass; 4: DR; 4: give 1")
    res = rnd.result
    assert res.calls == ("grand", None, None, "grand")
    assert res.call_points == (200, -200)
    assert res.score == (250, -150)


def test_hand_ends_at_once_with_third_player_out():
    rnd = normal_round()
    run(rnd, "4: give 1")
    assert rnd.phase == OVER
    assert rnd.legal_actions(2) == []
    assert rejected(rnd, Pass(2))
    assert rejected(rnd, CallTichu(2))


def test_double_victory_scores_200_and_calls():
    hands = {
        2: "MJ " + " ".join(natural(r, "spr"[r % 3]).text for r in range(2, 15)),
        0: " ".join(natural(r, "j").text for r in range(2, 15)) + " DG",
        1: " ".join(natural(r, "spr"[(r + 1) % 3]).text for r in range(2, 15)) + " DR",
    }
    rnd = position(hands)
    run(rnd, "3: tichu; 1: tichu; 2: tichu")
    run(rnd, "3: " + hands[2] + "; wish none; 4: pass; 1: pass; 2: pass")
    lead = sorted(rnd.hands[3], key=lambda c: c.index)[0].text
    run(rnd, f"4: {lead}; 1: " + " ".join(natural(r, "j").text for r in range(2, 15)))
    run(rnd, "2: pass; 4: pass; 1: DG")
    res = rnd.result
    assert res.double_victory == 0
    assert res.card_points == (200, 0)
    assert res.call_points == (100 - 100, -100)
    assert res.score == (200, -100)
    assert res.finish_order == (2, 0)


def test_double_victory_points_option():
    hands = {
        2: "MJ " + " ".join(natural(r, "spr"[r % 3]).text for r in range(2, 15)),
        0: " ".join(natural(r, "j").text for r in range(2, 15)) + " DG",
        1: " ".join(natural(r, "spr"[(r + 1) % 3]).text for r in range(2, 15)) + " DR",
    }
    rnd = position(hands, double_victory_points=100)
    run(rnd, "3: " + hands[2] + "; wish none; 4: pass; 1: pass; 2: pass")
    lead = sorted(rnd.hands[3], key=lambda c: c.index)[0].text
    run(rnd, f"4: {lead}; 1: " + " ".join(natural(r, "j").text for r in range(2, 15)))
    run(rnd, "2: pass; 4: pass; 1: DG")
    assert rnd.result.card_points == (100, 0)


def test_double_victory_ends_at_once_with_a_trick_open():
    # seat 1 goes out first; seat 3 goes out with an out-of-turn straight-flush bomb
    spr = lambda r, k: natural(r, "spr"[(r + k) % 3]).text
    first = "MJ " + " ".join(spr(r, 0) for r in range(2, 15))
    flush = " ".join(natural(r, "j").text for r in range(2, 15))
    hands = {
        0: first,
        2: flush + " 9r",
        1: " ".join(spr(r, 1) for r in range(2, 15)) + " DR",
        3: " ".join(spr(r, 2) for r in range(2, 15) if r != 9) + " DG PH",
    }
    rnd = position(hands)
    run(rnd, "1: " + first + "; wish none; 2: pass; 3: pass; 4: pass")
    assert rnd.view().turn == 1
    run(rnd, "2: 2s; 3: 9r; 4: Ks")
    assert rnd.view().turn == 0 + 1
    run(rnd, "3: " + flush)
    assert rnd.phase == OVER
    res = rnd.result
    assert res.double_victory == 0 and res.finish_order == (0, 2)
    assert res.card_points == (200, 0)


def test_round_end_card_points_sum_to_100_and_replay():
    rnd = normal_round("2: tichu")
    run(rnd, "4: give 3")
    assert sum(rnd.result.card_points) == 100
    again = Round.replay(rnd.deal, rnd.history, grand_tichu=False)
    assert again.result == rnd.result
    assert again.view(0) == rnd.view(0)


def test_round_ended_event():
    rnd = normal_round()
    events = rnd.apply(GiveDragon(3, 0))
    assert isinstance(events[-1], RoundEnded) and events[-1].result == rnd.result


# ================================================================ general

def test_all_cards_accounted_for_through_a_scripted_round():
    rnd = normal_round()
    assert sorted(rnd.all_cards(), key=lambda c: c.index) == list(DECK)
    run(rnd, "4: give 1")
    assert sorted(rnd.all_cards(), key=lambda c: c.index) == list(DECK)


def test_actions_after_the_round_are_rejected():
    rnd = normal_round()
    run(rnd, "4: give 1")
    for a in (Pass(2), CallTichu(2), MakeWish(0, 3), GiveDragon(3, 0), Play(2, list(rnd.hands[2])[:1])):
        assert rejected(rnd, a)


def test_bad_seats_and_non_actions_are_rejected():
    rnd = position({0: "MJ"})
    assert rejected(rnd, Pass(4))
    assert rejected(rnd, CallTichu(-1))
    with pytest.raises(TichuError):
        rnd.apply("pass")


def test_bad_deals_are_rejected():
    with pytest.raises(ValueError):
        Round(list(DECK)[:55])
    with pytest.raises(ValueError):
        Round(list(DECK)[:55] + [DECK[0]])


def test_history_records_resolved_phoenix_reading():
    rnd = position({0: "MJ 5j 6s 7p 8r PH"})
    run(rnd, "1: 5j 6s 7p 8r PH")
    assert rnd.history[-1].phoenix_as == 9
    assert rnd.view().top.rank == 9
    rnd2 = position({0: "MJ 5j 6s 7p 8r PH"})
    run(rnd2, "1: 5j 6s 7p 8r PH=4")
    assert rnd2.history[-1].phoenix_as == 4 and rnd2.view().top.rank == 8


def test_phoenix_reading_fixed_on_the_table():
    # R6.9: a straight 4-8 read low can be beaten by 5-9; read high (5-9) it cannot
    rnd = position({0: "MJ 5j 6s 7p 8r PH", 1: "5s 6p 7r 8j 9j"})
    run(rnd, "1: 5j 6s 7p 8r PH=4")
    assert C("5s 6p 7r 8j 9j") in legal_card_sets(rnd, 1)
    rnd2 = position({0: "MJ 5j 6s 7p 8r PH", 1: "5s 6p 7r 8j 9j"})
    run(rnd2, "1: 5j 6s 7p 8r PH")
    assert C("5s 6p 7r 8j 9j") not in legal_card_sets(rnd2, 1)
    assert rejected(rnd2, Play(1, C("5s 6p 7r 8j 9j")))


def test_following_reading_must_beat():
    # table 4-8: 5 6 7 8 PH read as 4-8 does not beat it, read as 5-9 (the default) it does
    rnd = position({0: "MJ 4j 5s 6p 7r 8j", 1: "5j 6s 7p 8r PH"})
    run(rnd, "1: 4j 5s 6p 7r 8j")
    assert rejected(rnd, Play(1, C("5j 6s 7p 8r PH"), 4))
    assert rejected(rnd, Play(1, C("5j 6s 7p 8r PH"), 3))  # no such reading
    run(rnd, "2: 5j 6s 7p 8r PH")
    assert rnd.view().top.rank == 9 and rnd.view().top.phoenix_as == 9


def test_phoenix_single_value_over_a_ten():
    rnd = position({0: "MJ Tj", 1: "PH", 2: "Ts Js"})
    run(rnd, "1: Tj; 2: PH")
    assert rnd.view().top.rank == 10.5
    assert rejected(rnd, Play(2, C("Ts")))
    run(rnd, "3: Js")


def test_dog_as_last_card_of_the_third_player_ends_the_hand():
    # R8.3.4: going-out checks come before the next leader is found
    hands = {0: "MJ " + run13(0), 1: run13(1, "PH"), 2: run13(2, "DG"), 3: run13(3, "DR")}
    rnd = position(hands)
    run(rnd, "1: MJ " + run13(0) + "; wish none; 2: pass; 3: pass; 4: pass")
    run(rnd, "2: " + run13(1) + "; 3: pass; 4: pass; 2: PH; 3: pass; 4: pass")
    assert rnd.view().turn == 2  # the winner (seat 2) is out: seat 3 leads
    run(rnd, "3: " + run13(2) + "; 4: pass; 3: DG")
    assert rnd.phase == OVER
    res = rnd.result
    assert res.finish_order == (0, 1, 2, 3)
    # seat 1: 25; seat 2: 25 - 25 (its Phoenix trick); seat 3: 25; tail seat 4 holds 25 + Dragon 25
    assert res.card_points == (100, 0)


def test_simultaneous_bombs_second_must_beat_the_first():
    # R9.8: commands apply in arrival order
    rnd = position({0: "MJ 2j", 2: "9j 9s 9p 9r", 3: "3j 3s 3p 3r"})
    run(rnd, "1: 2j; 3: 9j 9s 9p 9r")
    assert rejected(rnd, Play(3, C("3j 3s 3p 3r")))


def test_played_events_mark_out_of_turn_bombs():
    from bswtichu.engine.events import Played
    rnd = position({0: "MJ 2j", 2: "9j 9s 9p 9r"})
    events = rnd.apply(Play(0, C("2j")))
    assert [e.out_of_turn for e in events if isinstance(e, Played)] == [False]
    events = rnd.apply(Play(2, C("9j 9s 9p 9r")))
    assert [e.out_of_turn for e in events if isinstance(e, Played)] == [True]


# ---------------------------------------------------------------- the window when the winner is out

STRAIGHT_OUT = "MJ 2j 3s 4j 5s 6j 7s 8j 9s Tj Js Qj Ks Aj"  # 14 cards: its player goes out at once


def winner_out_window() -> Round:
    """Seat 3 goes out with a 14-card straight (25 points); all pass; seat 4 leads next."""
    rnd = position({2: STRAIGHT_OUT, 3: "2p 3p 4p 5p 6p"})
    run(rnd, f"3: {STRAIGHT_OUT}; wish none; 4: pass; 1: pass; 2: pass")
    v = rnd.view()
    assert v.trick_won and v.top_seat == 2 and v.turn == 3 and v.finish_order == (2,)
    return rnd


def test_next_leader_bombs_a_trick_whose_winner_is_out_and_takes_it():
    # our decision (docs/rules.md): his bomb goes onto the trick, as anyone's would (R9.6)
    rnd = winner_out_window()
    assert C("2p 3p 4p 5p 6p") in legal_card_sets(rnd, 3)
    run(rnd, "4: 2p 3p 4p 5p 6p")
    v = rnd.view()
    assert not v.trick_won and v.top_seat == 3 and v.turn == 0 and len(v.trick) == 2
    run(rnd, "1: pass; 2: pass")
    assert rnd.view().trick_won and rnd.view().turn == 3
    lead = next(a for a in rnd.legal_actions(3) if isinstance(a, Play) and len(a.cards) == 1)
    rnd.apply(lead)
    assert rnd.view().points_taken[3] == 25 + 5  # the straight's 5s, Tj, Ks and his 5p
    assert rnd.view().points_taken[2] == 0


def test_next_leaders_other_play_is_his_lead_and_the_out_winner_keeps_the_trick():
    rnd = winner_out_window()
    lead = next(a for a in rnd.legal_actions(3) if isinstance(a, Play) and len(a.cards) == 1)
    rnd.apply(lead)
    v = rnd.view()
    assert v.points_taken[2] == 25 and v.top_seat == 3 and len(v.trick) == 1
