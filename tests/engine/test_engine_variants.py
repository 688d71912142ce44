"""Trichu, Tientsin and Duo in the engine (rules.md §17, docs/rules.md): properties over random
rounds and games to the end, a reference tally, and worked examples from the rules' text."""

from __future__ import annotations

import json
from random import Random

import pytest

from bswtichu.engine import (
    DECK, DUMMY, DUO, NANJING, TIENTSIN, TRICHU, CallGrand, CallTichu, DeclineGrand, DogLead, Exchange,
    Game, GameOptions, GiveDragon, MakeWish, Pass, Play, Round, Variant, card_points, parse_cards, variant_named,
)
from bswtichu.engine.deal import deal_from_hands
from bswtichu.engine.events import CardsReceived, DogLeadChosen, RoundEnded
from bswtichu.engine.round import EXCHANGE, GRAND, OVER, PLAY, double_victory, round_over, round_points

from test_engine_support import rejected

VARIANTS = (NANJING, TRICHU, TIENTSIN, DUO)


# ---------------------------------------------------------------------------- helpers

def random_round(variant, rng: Random, dealer: int = 0, grand_tichu: bool = True, check=None) -> Round:
    """A round played to the end with every seat's legal actions listed at every step (but the exchange's)."""
    rnd = Round.deal_random(rng, variant=variant, dealer=dealer, grand_tichu=grand_tichu)
    k = len(variant.exchange_steps)
    while rnd.phase != OVER:
        if rnd.phase == EXCHANGE:  # a uniform exchange, without listing all 2,184 of the 4-player game
            options = [Exchange(s, tuple(rng.sample(sorted(rnd.hands[s], key=lambda c: c.index), k)))
                       for s in range(variant.seats) if rnd.exchanges[s] is None]
            options += [CallTichu(s) for s in range(variant.seats) if rnd.can_call_tichu(s)]
        else:
            options = [a for s in range(variant.seats) for a in rnd.legal_actions(s)]
        assert options, f"nobody can act: {rnd.phase} {rnd.need}"
        action = rng.choice(options)
        if check:
            check(rnd, action)
        rnd.apply(action)
        assert sorted(rnd.all_cards(), key=lambda c: c.index) == list(DECK)
    return rnd


def position(variant, hands: dict[int, str], dealer: int = 0) -> Round:
    """A round in the play phase where seat s holds ``hands[s]`` (completed from the rest),
    reached through the exchange: every seat receives the last cards of its listed hand."""
    sizes = variant.hand_sizes(dealer)
    final = [list(parse_cards(hands.get(s, ""))) for s in range(variant.seats)]
    rest = [c for c in DECK if all(c not in h for h in final)]
    for s in range(variant.seats):
        while len(final[s]) < sizes[s]:
            final[s].append(rest.pop())
    k = len(variant.exchange_steps)
    givers = [[g for g in range(variant.seats) if s in variant.exchange_targets[g]] for s in range(variant.seats)]
    received = [{g: c for g, c in zip(givers[s], final[s][-k:])} for s in range(variant.seats)]
    exchanges, before = [], []
    for g in range(variant.seats):
        gives = tuple(received[to][g] for to in variant.exchange_targets[g])
        exchanges.append(Exchange(g, gives))
        before.append(final[g][:-k] + list(gives))
    first = variant.grand_after
    rnd = Round(deal_from_hands([b[:first] for b in before], [b[first:] for b in before], variant, dealer),
                grand_tichu=False, variant=variant, dealer=dealer)
    for e in exchanges:
        rnd.apply(e)
    assert rnd.phase == PLAY and all(rnd.hands[s] == set(final[s]) for s in range(variant.seats))
    return rnd


def reference_tally(variant, finish_order, bonuses, taken, tail_hand):
    """The tally read off rules.md §11 and §17 directly: move the piles, then add up per team."""
    teams = variant.teams
    first = finish_order[0]
    calls = [0, 0]
    for seat, bonus in enumerate(bonuses):
        calls[teams[seat]] += bonus if seat == first else -bonus
    size = variant.team_size
    if len({teams[s] for s in finish_order[:size]}) == 1 and len(finish_order) >= size:
        cards = [0, 0]
        cards[teams[first]] = variant.sweep_points
        return tuple(cards), tuple(calls), teams[first]
    piles = dict(enumerate(taken))
    tail = (set(range(variant.seats)) - set(finish_order)).pop()
    if variant is TIENTSIN:  # the 5th's tricks to the first out, the 6th's to the opponents
        fifth = finish_order[-1]
        piles[first] += piles.pop(fifth)
        to_opponent = next(o for o in piles if teams[o] != teams[tail])
        piles[to_opponent] += piles.pop(tail)
    else:  # the last one's tricks to the first out
        piles[first] += piles.pop(tail)
    cards = [0, 0]
    for seat, points in piles.items():
        cards[teams[seat]] += points
    cards[1 - teams[tail]] += tail_hand
    return tuple(cards), tuple(calls), None


# ---------------------------------------------------------------------------- the values

def test_variants_by_name():
    assert variant_named("Tientsin") is TIENTSIN and variant_named("trichu") is TRICHU
    with pytest.raises(ValueError, match="nanjing, trichu, tientsin"):
        variant_named("tea-chu")
    assert TIENTSIN.partners[0] == (2, 4) and TIENTSIN.opponents[0] == (1, 3, 5)
    assert TRICHU.exchange_targets[1] == (2, 0)  # one card to each opponent, none to the partner
    assert TIENTSIN.exchange_targets[1] == (3, 5)  # one card to each partner, none to opponents
    assert NANJING.partner_of(3) == 1
    with pytest.raises(ValueError):
        TIENTSIN.partner_of(0)


def test_tientsin_extra_cards_go_round_fairly():
    """Two hands of 10 each round, one per team (dealer and the seat opposite him); over six
    rounds every seat holds 10 cards twice."""
    tens = [0] * 6
    for dealer in range(6):
        sizes = TIENTSIN.hand_sizes(dealer)
        assert sum(sizes) == 56 and sorted(sizes) == [9, 9, 9, 9, 10, 10]
        long = [s for s in range(6) if sizes[s] == 10]
        assert {TIENTSIN.teams[s] for s in long} == {0, 1}
        for s in long:
            tens[s] += 1
    assert tens == [2] * 6


# ---------------------------------------------------------------------------- properties

@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_random_rounds_to_the_end(variant):
    """Cards conserved, listed actions apply, the round ends by the variant's rule, the scores add up."""
    rng = Random(variant.name)
    sweeps = 0
    for number in range(120):
        def check(rnd, action):
            if rng.random() < 0.05:  # a listed action of any seat applies on a copy
                seat = rng.randrange(variant.seats)
                for listed in rnd.legal_actions(seat)[:20]:
                    rnd.copy().apply(listed)
        rnd = random_round(variant, rng, dealer=number % variant.seats, grand_tichu=number % 3 != 0,
                           check=check)
        result = rnd.result
        if result.double_victory is not None:
            sweeps += 1
            assert len(result.finish_order) == variant.team_size
            assert {variant.teams[s] for s in result.finish_order} == {result.double_victory}
            assert sorted(result.card_points) == [0, variant.sweep_points]
        else:
            assert sorted(result.finish_order) == list(range(variant.seats))
            assert sum(result.card_points) == 100
        bonus = {None: 0, "tichu": 100, "grand": 200}
        first = result.finish_order[0]
        assert sum(result.call_points) == sum(bonus[c] if s == first else -bonus[c]
                                              for s, c in enumerate(result.calls))
        assert sum(card_points(p) for p in rnd.piles) + card_points(  # a sweep leaves the last trick
            [c for h in rnd.hands for c in h] + rnd.trick_cards + rnd.loose_cards) == 100
        json.dumps(rnd.view(0).to_dict())
    assert sweeps > 0


@pytest.mark.parametrize("variant", (TRICHU, TIENTSIN, DUO), ids=lambda v: v.name)
def test_views_show_only_what_a_seat_may_see(variant):
    """A seat's view shows its own hand (and Trichu's dummy where open); in Duo a person's two
    hands are two seats' views, which a server puts together for him."""
    rng = Random(3)
    rnd = Round.deal_random(rng, variant=variant)
    while rnd.phase != OVER:
        for seat in range(variant.seats):
            view = rnd.view(seat)
            shown = {c for c in view.hand} | set(view.open_hand or ())
            allowed = set(rnd.hands[seat])
            if variant.dummy is not None and (rnd.phase in (PLAY, OVER) or seat in (0, 2)):
                allowed |= rnd.hands[variant.dummy]
            assert shown <= allowed
        assert rnd.view(None).open_hand is None or rnd.phase == PLAY
        options = [a for s in range(variant.seats) for a in rnd.legal_actions(s)]
        rnd.apply(rng.choice(options))


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_tally_matches_the_reference(variant):
    """round_points against the rules read directly, over random ends of rounds."""
    rng = Random(11)
    for _ in range(3000):
        seats = list(range(variant.seats))
        rng.shuffle(seats)
        order = seats[:rng.choice([variant.team_size, variant.seats - 1])]
        if len(order) < variant.seats - 1 and len({variant.teams[s] for s in order}) > 1:
            order = seats[:variant.seats - 1]
        bonuses = [rng.choice([0, 0, 0, 100, 200]) for _ in range(variant.seats)]
        taken = [rng.randrange(-25, 60, 5) for _ in range(variant.seats)]
        tail_hand = rng.randrange(-25, 40, 5)
        assert round_points(order, bonuses, taken, tail_hand, variant=variant) == \
            reference_tally(variant, order, bonuses, taken, tail_hand)


# ---------------------------------------------------------------------------- Trichu

def test_trichu_dealer_and_dummy_have_no_grand_tichu():
    rnd = Round.deal_random(Random(1), variant=TRICHU)
    assert rnd.phase == GRAND
    assert [len(h) for h in rnd.hands] == [14, 8, 14, 8]
    assert rnd.legal_actions(1) == [CallGrand(1), DeclineGrand(1)]
    assert CallGrand(0) not in rnd.legal_actions(0) and CallGrand(2) not in rnd.legal_actions(2)
    assert rejected(rnd, CallGrand(0)) and rejected(rnd, CallGrand(2))
    assert CallTichu(0) in rnd.legal_actions(0)  # the dealer holds all his cards: Tichu is open
    rnd.apply(DeclineGrand(1))
    rnd.apply(DeclineGrand(3))
    assert rnd.phase == EXCHANGE


def test_trichu_exchange_one_card_to_each_opponent():
    rnd = Round.deal_random(Random(2), variant=TRICHU, grand_tichu=False)
    hand = sorted(rnd.hands[0], key=lambda c: c.index)
    assert rejected(rnd, Exchange(0, tuple(hand[:3])))
    assert sum(isinstance(a, Exchange) for a in rnd.legal_actions(0)) == 14 * 13
    gives = {}
    events = []
    for s in range(4):
        cards = tuple(sorted(rnd.hands[s], key=lambda c: c.index)[:2])
        gives[s] = cards
        events = rnd.apply(Exchange(s, cards))
    received = {e.seat: e.received for e in events if isinstance(e, CardsReceived)}
    for s in range(4):
        assert set(received[s]) == set(TRICHU.opponents[s])  # from the two opponents only
        assert len(rnd.hands[s]) == 14
    assert received[1][0] == gives[0][0] and received[3][0] == gives[0][1]


def test_trichu_the_dummy_need_not_fulfil_the_wish():
    """Seat 2 is the dummy.  After the Mahjong and a wish for 7 it may pass though it holds a 7
    that beats the table; its opponent in the same spot may not."""
    rnd = position(TRICHU, {1: "MJ 3s", 2: "7j 8s", 3: "7s 9s", 0: "7p 9p"})
    rnd.apply(Play(1, parse_cards("MJ")))
    rnd.apply(MakeWish(1, 7))
    assert rnd.turn == 2 and rnd.need == "follow"
    assert Pass(2) in rnd.legal_actions(2)
    rnd.apply(Pass(2))
    assert rnd.turn == 3
    assert Pass(3) not in rnd.legal_actions(3) and rejected(rnd, Pass(3))


def test_trichu_open_hand():
    rnd = Round.deal_random(Random(5), variant=TRICHU, grand_tichu=False)
    assert rnd.view(0).open_hand == tuple(sorted(rnd.hands[2], key=lambda c: c.index)) or \
        set(rnd.view(0).open_hand) == rnd.hands[2]  # the dealer sees the dummy before the exchange
    assert rnd.view(1).open_hand is None and rnd.view(None).open_hand is None
    for s in range(4):
        rnd.apply(Exchange(s, tuple(sorted(rnd.hands[s], key=lambda c: c.index)[:2])))
    for seat in (None, 0, 1, 2, 3):  # open to everyone once the exchange is over
        assert set(rnd.view(seat).open_hand) == rnd.hands[2]
    assert "open_hand" in rnd.view(1).to_dict()


def test_trichu_game_rotates_the_dealer_and_scores_per_player():
    rng = Random(8)
    game = Game(["ann", "bob", "cy"], rng=rng, variant=TRICHU)
    dealers = []
    expected = {"ann": 0, "bob": 0, "cy": 0, DUMMY: 0}
    while not game.over:
        game.start_round()
        seating = game.seating
        assert seating[2] is DUMMY and len(set(seating)) == 4
        dealers.append(seating[0])
        rnd = game.round
        while rnd.phase != OVER:
            options = [a for s in range(4) for a in rnd.legal_actions(s)]
            events = game.apply(rng.choice(options))
        score = rnd.result.score
        for seat, player in enumerate(seating):  # each partner scores what his team scores
            expected[player] += score[seat % 2]
        assert events[-1].kind == "game_over" or events[-1].kind == "round_scored"
    assert len(game.rounds) == 9 and dealers == ["ann", "bob", "cy"] * 3
    assert game.scores() == (expected["ann"], expected["bob"], expected["cy"], expected[DUMMY])
    assert game.dummy_points == expected[DUMMY]
    best = max(expected[p] for p in ("ann", "bob", "cy"))
    assert set(game.winners()) == {p for p in ("ann", "bob", "cy") if expected[p] == best}
    assert [s.player for s in game.standings()] == sorted(("ann", "bob", "cy"), key=lambda p: -expected[p])


def test_trichu_game_rules():
    with pytest.raises(ValueError, match="three players"):
        Game(["a", "b", "c", "d"], variant=TRICHU)
    with pytest.raises(ValueError, match="multiple of 3"):
        Game(["a", "b", "c"], GameOptions(round_limit=4), variant=TRICHU)
    with pytest.raises(ValueError, match="4-player"):
        Game(["a", "b", "c"], GameOptions(turnier=True), variant=TRICHU)
    game = Game(["a", "b", "c"], GameOptions(round_limit=3), rng=Random(1), variant=TRICHU)
    while not game.over:
        game.start_round()
        while game.round.phase != OVER:
            game.apply(Random(len(game.round.history)).choice(
                [a for s in range(4) for a in game.round.legal_actions(s)]))
    assert len(game.rounds) == 3


# ---------------------------------------------------------------------------- Tientsin

def test_tientsin_deal_grand_tichu_after_six():
    rnd = Round.deal_random(Random(4), variant=TIENTSIN, dealer=1)
    assert [len(h) for h in rnd.hands] == [6] * 6
    for s in range(6):
        rnd.apply(DeclineGrand(s))
    assert [len(h) for h in rnd.hands] == [9, 10, 9, 9, 10, 9]
    assert rnd.phase == EXCHANGE


def test_tientsin_exchange_one_card_to_each_partner():
    rnd = Round.deal_random(Random(6), variant=TIENTSIN, grand_tichu=False)
    events = []
    gives = {}
    for s in range(6):
        gives[s] = tuple(sorted(rnd.hands[s], key=lambda c: c.index)[:2])
        events = rnd.apply(Exchange(s, gives[s]))
    received = {e.seat: e.received for e in events if isinstance(e, CardsReceived)}
    for s in range(6):
        assert set(received[s]) == set(TIENTSIN.partners[s])
    assert received[2][0] == gives[0][0] and received[4][0] == gives[0][1]
    assert [len(h) for h in rnd.hands] == list(TIENTSIN.hand_sizes(0))


def test_tientsin_dog_lead_to_the_chosen_partner():
    rnd = position(TIENTSIN, {0: "MJ DG 2s"})
    assert rnd.turn == 0
    rnd.apply(Play(0, parse_cards("DG")))
    assert rnd.need == "dog" and rnd.waiting_for == 0
    legal = rnd.legal_actions(0)
    assert DogLead(0, 2) in legal and DogLead(0, 4) in legal
    assert not any(isinstance(a, (Play, Pass)) for a in legal)
    assert rejected(rnd, DogLead(0, 1)) and rejected(rnd, DogLead(3, 2))
    assert rejected(rnd, Play(0, parse_cards("2s"))) and rejected(rnd, Pass(1))
    events = rnd.apply(DogLead(0, 4))
    assert DogLeadChosen(0, 4, 4) in events
    assert rnd.need == "lead" and rnd.turn == 4


def test_tientsin_dog_lead_when_partners_are_out():
    """Over random rounds, every Dog lead: the lead goes to the chosen partner or, if he is out,
    to the next player in after him (R8.3.2); the round asks only when the two choices differ."""
    rng = Random(13)
    cases = {"choice": 0, "no choice": 0}

    def next_in(rnd, seat):
        s = seat
        while s in rnd.finish_order:
            s = (s + 1) % 6
        return s

    def check(rnd, action):
        if not (isinstance(action, Play) and parse_cards("DG")[0] in action.cards):
            return
        after = rnd.copy()
        after.apply(action)
        if after.phase == OVER:
            return
        leaders = {next_in(after, p) for p in TIENTSIN.partners[action.seat]}
        if len(leaders) == 1:
            cases["no choice"] += 1
            assert after.need == "lead" and after.waiting_for == leaders.pop()
        else:
            cases["choice"] += 1
            assert after.need == "dog" and after.waiting_for == action.seat
            for partner in TIENTSIN.partners[action.seat]:
                chosen = after.copy()
                chosen.apply(DogLead(action.seat, partner))
                assert chosen.need == "lead" and chosen.waiting_for == next_in(after, partner)

    for _ in range(250):
        random_round(TIENTSIN, rng, grand_tichu=False, check=check)
    assert cases["choice"] > 0 and cases["no choice"] > 0


def test_tientsin_triple_victory_scores_300():
    cards, calls, sweep = round_points([1, 3, 5], [0, 100, 0, 0, 0, 200], [10, 20, 30, 0, 40, 0], 0,
                                       variant=TIENTSIN)
    assert (cards, calls, sweep) == ((0, 300), (0, 100 - 200), 1)
    # two of a team first is no double victory in Tientsin: the round goes on
    assert double_victory([1, 3], TIENTSIN) is None and not round_over([1, 3], TIENTSIN)
    assert round_over([1, 3, 5], TIENTSIN) and not round_over([1, 3, 0, 5], TIENTSIN)
    assert round_over([1, 3, 0, 5, 2], TIENTSIN)


def test_tientsin_worked_example_of_the_normal_end():
    """Out in the order 1, 2, 3, 4, 5 (people's seats 1..6: seats 0..4); seat 5 (team 1) is last.
    His hand (15) and his tricks (20) go to the opponents (team 0); the 5th (seat 4, team 0)
    gives his tricks (10) to the first out (seat 0, team 0)."""
    taken = [30, 5, 10, -25, 10, 20]  # 50 in the piles (20 of them seat 5's), 15 in seat 5's hand
    cards, calls, sweep = round_points([0, 1, 2, 3, 4], [100, 0, 0, 0, 0, 0], taken, 15, variant=TIENTSIN)
    assert sweep is None
    assert cards == (30 + 10 + 10 + 20 + 15, 5 - 25)
    assert sum(cards) == 50 + 15 and calls == (100, 0)
    # the 5th out is an opponent of the first: his tricks change teams
    cards, _, _ = round_points([0, 1, 2, 4, 3], [0] * 6, taken, 15, variant=TIENTSIN)
    assert cards == (30 + 10 + 10 + 20 + 15 + (-25), 5)


def test_tientsin_round_goes_on_after_a_team_is_out():
    """A team all out without a triple victory: play continues until one player holds cards."""
    rng = Random(21)
    seen = 0
    for _ in range(150):
        rnd = random_round(TIENTSIN, rng, grand_tichu=False)
        order = rnd.result.finish_order
        if rnd.result.double_victory is None:
            assert len(order) == 6
            seen += any(set(TIENTSIN.team_seats(team)) <= set(order[:4]) for team in (0, 1))
    assert seen > 0


def test_tientsin_game_dealer_rotates():
    rng = Random(9)
    game = Game(list("abcdef"), rng=rng, variant=TIENTSIN)
    for number in range(6):
        game.start_round()
        rnd = game.round
        assert rnd.dealer == number
        for s in range(6):
            game.apply(DeclineGrand(s))
        assert [len(h) for h in rnd.hands] == list(TIENTSIN.hand_sizes(number))
        while rnd.phase != OVER:
            events = game.apply(rng.choice([a for s in range(6) for a in rnd.legal_actions(s)]))
        assert any(isinstance(e, RoundEnded) for e in events)
        if game.over:
            break
    assert game.totals[0] + game.totals[1] == sum(sum(r.result.score) for r in game.rounds)


def test_tientsin_dragon_gift_to_any_opponent():
    rnd = position(TIENTSIN, {0: "MJ DR 2s 3s", 1: "4s", 3: "5s", 5: "6s"})
    rnd.apply(Play(0, parse_cards("MJ")))
    rnd.apply(MakeWish(0, None))
    for s in range(1, 6):
        rnd.apply(Pass(s))
    rnd.apply(Play(0, parse_cards("DR")))
    for s in range(1, 6):
        rnd.apply(Pass(s))
    assert rnd.need == "give"
    gifts = [a for a in rnd.legal_actions(0) if isinstance(a, GiveDragon)]
    assert {g.to for g in gifts} == {1, 3, 5}
    assert rejected(rnd, GiveDragon(0, 2))
    rnd.apply(GiveDragon(0, 5))
    assert card_points(rnd.piles[5]) == 25


def test_copies_of_a_variant_are_the_variant():
    """Variants compare by identity; a copied or pickled bot or round keeps its variant."""
    import copy
    import pickle
    for variant in VARIANTS:
        assert copy.deepcopy(variant) is variant and pickle.loads(pickle.dumps(variant)) is variant
    rnd = Round.deal_random(Random(1), variant=TRICHU)
    assert copy.deepcopy(rnd).variant is TRICHU


def test_seats_played_by_each_person():
    """Every seat is played by exactly one person; in Trichu the dealer also plays the dummy."""
    for variant, people in ((NANJING, 4), (TIENTSIN, 6), (TRICHU, 3), (DUO, 2)):
        game = Game([f"p{i}" for i in range(people)], rng=Random(1), variant=variant)
        for number in range(3):
            game.start_round()
            played = [s for p in game.base_seats for s in game.seats_played_by(p)]
            assert sorted(played) == list(range(variant.seats))
            for p in game.base_seats:
                assert game.seats_played_by(p)[0] == game.seat_of(p)
            if variant is TRICHU:
                assert game.seats_played_by(game.seating[0]) == (0, 2)
            if variant is DUO:
                assert [game.seats_played_by(p) for p in game.base_seats] == [(0, 2), (1, 3)]
            game.round.phase = OVER  # the next deal; the seats are the game's, not the round's


# ---------------------------------------------------------------------------- Duo

def test_duo_is_the_4_player_round_with_two_people():
    assert variant_named("Duo") is DUO and DUO.players == 2 and DUO.seats == 4
    assert DUO.four_player_round and NANJING.four_player_round
    assert not TRICHU.four_player_round and not TIENTSIN.four_player_round
    assert DUO.played_by == (0, 1, 0, 1) and DUO.person_seats == (0, 1) and DUO.further_seats == (2, 3)
    assert DUO.hands_with == ((0, 2), (1, 3), (0, 2), (1, 3))
    assert [DUO.partner_of(s) for s in range(4)] == [NANJING.partner_of(s) for s in range(4)]
    assert DUO.exchange_targets == NANJING.exchange_targets  # a person's hands exchange with each other too
    assert TRICHU.played_by == (0, 1, 0, 3) and TRICHU.players == 3  # the dummy played by its dealer
    with pytest.raises(ValueError, match="played by"):
        Variant(name="odd", seats=4, teams=(0, 1, 0, 1), grand_after=8, extra_card_offsets=(),
                grand_seats=(0, 1, 2, 3), exchange_steps=(1, 2, 3), dog_choice=False, sweep_points=200,
                tail_tricks_to_opponents=False, next_to_last_tricks_to_first=False, played_by=(0, 0, 1, 1))


def random_game(game: Game, rng: Random) -> list:
    """Play ``game`` to its end with random legal actions of any seat, calls rare (so that a team
    reaches 1000); the events of each round's end."""
    ends = []
    while not game.over:
        game.start_round()
        rnd = game.round
        while rnd.phase != OVER:
            options = [a for s in range(game.variant.seats) for a in rnd.legal_actions(s)]
            quiet = [a for a in options if not isinstance(a, (CallGrand, CallTichu))]
            events = game.apply(rng.choice(quiet if quiet and rng.random() < 0.98 else options))
        ends.append(events)
    return ends


@pytest.mark.parametrize("seed", range(6))
def test_duo_game_scores_per_person_and_plays_as_the_4_player_game(seed):
    """The same deals and actions make the same rounds and team totals as a 4-player game; each
    person is seated twice, scores his team's total once, and stands once in the standings."""
    duo = Game(["ann", "bob"], rng=Random(seed), variant=DUO)
    four = Game(["ann", "bob", "cy", "dan"], rng=Random(seed))
    duo_ends = random_game(duo, Random(f"a{seed}"))
    four_ends = random_game(four, Random(f"a{seed}"))
    assert [r.history for r in duo.rounds] == [r.history for r in four.rounds]
    assert [e[-1].kind for e in duo_ends] == [e[-1].kind for e in four_ends]
    assert duo.scores() == four.scores() and max(duo.scores()) >= 1000
    assert all(seating == ("ann", "bob", "ann", "bob") for seating in duo.seatings)
    assert duo.tichu_points == {"ann": duo.totals[0], "bob": duo.totals[1]}
    standings = duo.standings()
    assert sorted(s.player for s in standings) == ["ann", "bob"]
    assert {s.player: s.points for s in standings} == duo.tichu_points
    winner = "ann" if duo.totals[0] > duo.totals[1] else "bob"
    assert duo.winners() == (winner,) and standings[0].player == winner and standings[0].place == 1
    assert duo_ends[-1][-1].winners == (winner,)
    for events in duo_ends:
        scored = next(e for e in events if e.kind == "round_scored")
        assert len(scored.standings) == 2


def test_duo_game_rules_and_rename():
    with pytest.raises(ValueError, match="two players"):
        Game(["a", "b", "c", "d"], variant=DUO)
    with pytest.raises(ValueError, match="4-player"):
        Game(["a", "b"], GameOptions(turnier=True), variant=DUO)
    with pytest.raises(ValueError, match="4-player"):
        Game(["a", "b"], GameOptions(tichujoin=True), variant=DUO)
    game = Game(["a", "b"], GameOptions(round_limit=2), rng=Random(2), variant=DUO)
    assert game.seating == ("a", "b", "a", "b") and game.seat_of("b") == 1
    random_game(game, Random(3))
    assert len(game.rounds) == 2 and game.over
    before = game.tichu_points["a"]
    game.rename("a", "zoe")
    assert game.seating == ("zoe", "b", "zoe", "b") and game.seats_played_by("zoe") == (0, 2)
    assert game.tichu_points["zoe"] == before and "a" not in game.tichu_points
    assert sorted(s.player for s in game.standings()) == ["b", "zoe"]


def test_duo_view_says_its_variant_and_has_no_open_hand():
    """The 4-player protocol fields, plus the variant's name (the 4-player view omits it)."""
    rnd = Round.deal_random(Random(4), variant=DUO)
    data = rnd.view(2).to_dict()
    assert data["variant"] == "duo" and data["open_hand"] is None
    assert set(data["hand"]) == {c.text for c in rnd.hands[2]}
    assert "variant" not in Round.deal_random(Random(4)).view(2).to_dict()
