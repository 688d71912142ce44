"""The pairing on small fields: examples of each rule, and the brute-force reference's
optimum, which the pairing reaches where it promises to (repeated partners, rematches)."""

from random import Random

import pytest

from bswtichu.events.pairing import (
    IndividualRound, Match, PairsRound, Table, choose_byes, individual_penalty, pairings,
    pair_pairs_round, pairs_penalty, seat_individual_round,
)

from pairing_fields import individual_event, pairs_event
from pairing_reference import best_individual_penalty, best_pairs_penalty

PLAYERS = [f"p{i}" for i in range(8)]


def test_the_first_round_seats_the_best_four_together():
    standings = {name: 80 - 10 * i for i, name in enumerate(PLAYERS)}
    seated = seat_individual_round(PLAYERS, standings, [], Random(1))
    assert sorted(sorted(t.seats) for t in seated.tables) == [PLAYERS[:4], PLAYERS[4:]]
    assert seated.byes == ()


def test_partners_are_neighbours_in_the_standings():
    standings = {name: 80 - 10 * i for i, name in enumerate(PLAYERS)}
    seated = seat_individual_round(PLAYERS, standings, [], Random(1))
    teams = {team for t in seated.tables for team in t.partnerships()}
    assert teams == {frozenset(PLAYERS[i:i + 2]) for i in range(0, 8, 2)}


def test_a_repeated_partner_is_avoided_by_leaving_the_standing_order():
    """p0+p1 and p2+p3 partnered last round; the best four are again p0-p3, so the partners
    this time are p0+p2 or p0+p3."""
    earlier = IndividualRound((Table(("p0", "p2", "p1", "p3")), Table(("p4", "p6", "p5", "p7"))))
    standings = {name: 80 - 10 * i for i, name in enumerate(PLAYERS)}
    seated = seat_individual_round(PLAYERS, standings, [earlier], Random(2))
    teams = {team for t in seated.tables for team in t.partnerships()}
    assert not teams & set(earlier.tables[0].partnerships() + earlier.tables[1].partnerships())
    assert individual_penalty(seated, standings, [earlier])[0] == 0


def test_the_lowest_standing_with_the_fewest_byes_sits_out():
    standings = {name: 10 - i for i, name in enumerate(PLAYERS)}
    assert choose_byes(PLAYERS, 2, standings, {}, Random(0)) == ["p7", "p6"]
    assert choose_byes(PLAYERS, 2, standings, {"p7": 1}, Random(0)) == ["p6", "p5"]


def test_a_field_not_divisible_by_four_has_that_many_byes():
    seated = seat_individual_round([f"p{i}" for i in range(11)], {}, [], Random(0))
    assert len(seated.byes) == 3 and len(seated.tables) == 2


def test_too_small_a_field_is_refused():
    with pytest.raises(ValueError):
        seat_individual_round(["a", "b", "c"], {}, [], Random(0))
    with pytest.raises(ValueError):
        pair_pairs_round(["a"], {}, [], Random(0))


def test_a_newcomer_and_a_player_gone_are_no_trouble():
    earlier = IndividualRound((Table(("gone", "p1", "p2", "p3")),), ("p4",))
    seated = seat_individual_round(["p1", "p2", "p3", "p4", "new", "p5", "p6", "p7"], {"p1": 9}, [earlier], Random(0))
    assert sorted(n for t in seated.tables for n in t.seats) == sorted(["p1", "p2", "p3", "p4", "new", "p5", "p6", "p7"])


def test_the_same_generator_seats_the_same_round():
    first = seat_individual_round(PLAYERS, {}, [], Random(5))
    assert seat_individual_round(PLAYERS, {}, [], Random(5)) == first


def test_the_second_round_of_four_puts_everyone_in_a_new_seat():
    first = seat_individual_round(["a", "b", "c", "d"], {}, [], Random(0))
    second = seat_individual_round(["a", "b", "c", "d"], {}, [first], Random(0))
    assert all(one != two for one, two in zip(first.tables[0].seats, second.tables[0].seats))


def test_pairs_play_the_nearest_pair_not_met():
    pairs = ["a", "b", "c", "d"]
    standings = {"a": 4, "b": 3, "c": 2, "d": 1}
    earlier = PairsRound((Match("a", "b"), Match("c", "d")))
    seated = pair_pairs_round(pairs, standings, [earlier], Random(0))
    assert {frozenset((m.first, m.second)) for m in seated.matches} == {frozenset("ac"), frozenset("bd")}


def test_the_lowest_pair_with_the_fewest_byes_sits_out():
    standings = {"a": 3, "b": 2, "c": 1}
    assert pair_pairs_round("abc", standings, [], Random(0)).bye == "c"
    assert pair_pairs_round("abc", standings, [PairsRound((Match("a", "b"),), "c")], Random(0)).bye == "b"


def test_seats_one_and_three_go_to_the_pair_that_had_them_less():
    earlier = PairsRound((Match("a", "b"),))
    assert pair_pairs_round("ab", {}, [earlier], Random(0)).matches == (Match("b", "a"),)


# -- the brute-force reference ------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_two_tables_meet_as_few_old_partners_and_opponents_as_the_reference_finds(seed):
    """Fields of 8-11 players (8 seated, two tables), 7 rounds: partners run out, so
    repeats come. With two tables the pairing is exact: fewest repeated partnerships, then
    fewest repeated meetings of opponents (docs/rules.md, item 47)."""
    rng = Random(seed)
    for _, standings, played, seated in individual_event(rng, rng.randint(8, 11), 7, absence=0):
        at_tables = [n for t in seated.tables for n in t.seats]
        best = best_individual_penalty(at_tables, seated.byes, standings, played)
        assert individual_penalty(seated, standings, played)[:2] == best[:2]


@pytest.mark.parametrize("seed", range(40))
def test_rematches_are_as_few_as_the_reference_finds(seed):
    rng = Random(seed)
    for _, standings, played, seated in pairs_event(rng, rng.randint(2, 9), 9):
        playing = [n for m in seated.matches for n in (m.first, m.second)]
        best = best_pairs_penalty(playing, seated.bye, standings, played)
        assert pairs_penalty(seated, standings, played)[0] == best[0]


def test_the_reference_finds_a_seating_without_repeats_the_pairing_also_finds():
    """A check of the reference itself: after one round of 8 a fresh seating exists."""
    rng = Random(0)
    rounds = list(individual_event(rng, 8, 2, absence=0))
    _, standings, played, seated = rounds[1]
    assert best_individual_penalty(PLAYERS, (), standings, played)[:2] == (0, 0)
    assert individual_penalty(seated, standings, played)[0] == 0


def random_rounds(rng, players, count):
    """Earlier rounds seated at random: histories the pairing would not have made."""
    rounds = []
    for _ in range(count):
        order = list(players)
        rng.shuffle(order)
        rounds.append(IndividualRound(tuple(Table(tuple(order[i:i + 4])) for i in range(0, len(order) - 3, 4))))
    return rounds


@pytest.mark.parametrize("seed", range(60))
def test_after_a_random_history_two_tables_are_as_good_as_the_reference_finds(seed):
    rng = Random(seed)
    played = random_rounds(rng, PLAYERS, rng.randint(5, 12))
    standings = {name: rng.randint(0, 40) for name in PLAYERS}
    seated = seat_individual_round(PLAYERS, standings, played, rng)
    best = best_individual_penalty(PLAYERS, (), standings, played)
    assert individual_penalty(seated, standings, played)[:2] == best[:2]



def test_every_way_to_pair_is_listed_once():
    ways = [frozenset(map(frozenset, way)) for way in pairings("abcdefgh")]
    assert len(ways) == len(set(ways)) == 105  # 7 * 5 * 3
    assert len(list(pairings("abcd"))) == 3
