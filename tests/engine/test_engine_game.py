"""Games (rules.md §12), the BSW options `round X` and `tichujoin`, and the tournament (§13.3)."""

from itertools import combinations

import pytest

from bswtichu.engine import (
    PARTNERSHIPS, TOURNAMENT_SCHEDULE, CallGrand, Game, GameOptions, IllegalActionError,
    RoundResult, seats_from_join_order, tournament_victory_points,
)
from bswtichu.engine.events import GameOver, RoundScored, SeatingChanged
from bswtichu.engine.round import EXCHANGE, GRAND

from test_engine_support import (
    DOUBLE_HANDS, DOUBLE_SCRIPT, NORMAL_HANDS, NORMAL_SCRIPT, deal_for, play_scripted,
)

PLAYERS = ("A", "B", "C", "D")


def normal(game, shift=0, calls=""):
    """A round scoring 50 : 50 on cards (first out: seat ``shift``), plus the calls.

    The seats in ``calls`` are moved ``shift`` seats on like the rest of the script.
    """
    return play_scripted(game, NORMAL_HANDS, NORMAL_SCRIPT, shift, calls)


def double(game, shift=0, calls=""):
    """A double victory for the team of seat ``shift`` (seat shift+2 goes out first)."""
    return play_scripted(game, DOUBLE_HANDS, DOUBLE_SCRIPT, shift, calls)


# ================================================================ seating (R3.2, §13.2)

def test_join_order_is_seat_order():
    assert seats_from_join_order(PLAYERS, tichujoin=False) == ("A", "B", "C", "D")


def test_tichujoin_makes_the_first_two_joiners_partners():
    seats = seats_from_join_order(PLAYERS, tichujoin=True)
    assert seats == ("A", "C", "B", "D")
    # partners sit opposite: seats 1+3 and 2+4
    assert {seats[0], seats[2]} == {"A", "B"} and {seats[1], seats[3]} == {"C", "D"}


def test_game_uses_tichujoin_seating():
    game = Game(PLAYERS, GameOptions(tichujoin=True))
    assert game.seating == ("A", "C", "B", "D")
    assert game.seat_of("B") == 2


def test_a_game_needs_four_players():
    with pytest.raises(ValueError):
        seats_from_join_order(("A", "B", "C"), tichujoin=False)


# ================================================================ R12.1 end of a normal game

def test_scores_add_up_per_team():
    game = Game(PLAYERS)
    normal(game, calls="1: tichu")
    assert game.totals == [150, 50]
    normal(game, shift=1)
    assert game.totals == [200, 100]
    assert not game.over


def test_game_ends_when_a_team_reaches_1000():
    game = Game(PLAYERS)
    game.totals = [900, 850]
    rnd = double(game)
    assert rnd.result.score == (200, 0)
    assert game.totals == [1100, 850]
    assert game.over
    assert set(game.winners()) == {"A", "C"}
    with pytest.raises(IllegalActionError):
        game.start_round()


def test_exactly_1000_ends_the_game():
    game = Game(PLAYERS)
    game.totals = [950, 0]
    normal(game)
    assert game.totals == [1000, 50] and game.over and set(game.winners()) == {"A", "C"}


def test_both_over_1000_the_higher_wins():
    game = Game(PLAYERS)
    game.totals = [950, 990]
    normal(game, calls="1: tichu")
    assert game.totals == [1100, 1040]
    assert game.over and set(game.winners()) == {"A", "C"}


def test_both_over_1000_other_team_higher():
    game = Game(PLAYERS)
    game.totals = [990, 950]
    normal(game, shift=1, calls="1: tichu")   # seat 2 goes out first with a Tichu (calls shift too)
    assert game.totals == [1040, 1100]
    assert game.over and set(game.winners()) == {"B", "D"}


def test_tie_over_1000_plays_on():
    game = Game(PLAYERS)
    game.totals = [950, 950]
    normal(game)
    assert game.totals == [1000, 1000]
    assert not game.over and game.winners() == ()
    normal(game, calls="1: tichu")
    assert game.over and set(game.winners()) == {"A", "C"}


def test_below_1000_plays_on():
    game = Game(PLAYERS)
    game.totals = [700, 940]
    normal(game)
    assert not game.over
    game.start_round()  # a next round can be dealt


def test_game_over_events():
    game = Game(PLAYERS)
    game.totals = [900, 0]
    deal, exchanges = deal_for(DOUBLE_HANDS)
    rnd = double(game)
    assert game.over
    # the last action's events end with the round's score and the game's end
    replay_game = Game(PLAYERS)
    replay_game.totals = [900, 0]
    replay_game.start_round(rnd.deal)
    events = []
    for action in rnd.history:
        events = replay_game.apply(action)
    assert isinstance(events[-2], RoundScored) and isinstance(events[-1], GameOver)
    assert set(events[-1].winners) == {"A", "C"}


def test_cannot_deal_while_a_round_is_running():
    game = Game(PLAYERS)
    game.start_round()
    with pytest.raises(IllegalActionError):
        game.start_round()


def test_grand_tichu_offered_in_a_normal_game():
    game = Game(PLAYERS)
    game.start_round()
    assert game.round.phase == GRAND
    assert CallGrand(0) in game.legal_actions(0)


# ================================================================ R12.2 round X

def test_round_limit_ends_the_game_higher_wins():
    game = Game(PLAYERS, GameOptions(round_limit=2))
    normal(game, calls="1: tichu")
    assert not game.over
    normal(game)
    assert game.over and game.totals == [200, 100]
    assert set(game.winners()) == {"A", "C"}


def test_round_limit_tie_is_a_draw():
    game = Game(PLAYERS, GameOptions(round_limit=1))
    normal(game)
    assert game.over and game.totals == [50, 50]
    assert game.winners() == ()


def test_1000_ends_before_the_round_limit():
    game = Game(PLAYERS, GameOptions(round_limit=5))
    game.totals = [900, 0]
    double(game)
    assert game.over and len(game.rounds) == 1


def test_round_limit_and_1000_tie_coincide_is_a_draw():
    game = Game(PLAYERS, GameOptions(round_limit=1))
    game.totals = [950, 950]
    normal(game)
    assert game.totals == [1000, 1000]
    assert game.over and game.winners() == ()


@pytest.mark.parametrize("limit", [0, -3])
def test_round_limit_must_be_positive(limit):
    with pytest.raises(ValueError):
        GameOptions(round_limit=limit)


# ================================================================ §13.3 tournament

def test_tournament_schedule_cycles_x_y_z():
    assert TOURNAMENT_SCHEDULE == ("X", "Y", "Z") * 3
    assert PARTNERSHIPS["X"] == (0, 1, 2, 3)
    assert PARTNERSHIPS["Y"] == (0, 2, 1, 3)
    assert PARTNERSHIPS["Z"] == (0, 1, 3, 2)


def test_tournament_seatings_match_the_table():
    game = Game(PLAYERS, GameOptions(turnier=True))
    seatings = [game.seating_for(i) for i in range(9)]
    x, y, z = ("A", "B", "C", "D"), ("A", "C", "B", "D"), ("A", "B", "D", "C")
    assert seatings == [x, y, z] * 3


def test_each_pair_partners_exactly_three_times():
    game = Game(PLAYERS, GameOptions(turnier=True))
    partners = {frozenset(p): 0 for p in combinations(PLAYERS, 2)}
    for i in range(9):
        s = game.seating_for(i)
        partners[frozenset((s[0], s[2]))] += 1
        partners[frozenset((s[1], s[3]))] += 1
    assert set(partners.values()) == {3}


def test_tournament_rotation_uses_the_tichujoin_seats():
    game = Game(PLAYERS, GameOptions(turnier=True, tichujoin=True))
    a, b, c, d = "A", "C", "B", "D"  # seats at /start after the swap
    assert game.seating_for(0) == (a, b, c, d)
    assert game.seating_for(1) == (a, c, b, d)
    assert game.seating_for(2) == (a, b, d, c)


def test_no_grand_tichu_in_a_tournament():
    game = Game(PLAYERS, GameOptions(turnier=True))
    game.start_round()
    assert game.round.phase == EXCHANGE
    assert all(len(h) == 14 for h in game.round.hands)
    with pytest.raises(IllegalActionError):
        game.apply(CallGrand(0))


def test_tournament_double_victory_is_100():
    game = Game(PLAYERS, GameOptions(turnier=True))
    rnd = double(game)
    assert rnd.result.card_points == (100, 0)


def result(score=(50, 50), calls=(None,) * 4, first=0, double_victory=None, call_points=(0, 0)):
    order = (first, (first + 2) % 4) if double_victory is not None else (first, (first + 1) % 4, (first + 3) % 4, (first + 2) % 4)
    return RoundResult(order, double_victory, score, call_points, calls)


@pytest.mark.parametrize("res,vp", [
    (result((60, 40)), (2, 0)),
    (result((40, 60)), (0, 2)),
    (result((50, 50)), (1, 1)),
    # the hand score includes the calls: 60 : 40 on cards, but team 0 lost a Tichu
    (result((60, 40), calls=(None, None, "tichu", None), call_points=(-100, 0)), (0, 2)),
    # 30 card points and a Tichu beat 70 (ATP example 130 : 70)
    (result((30, 70), calls=("tichu", None, None, None), call_points=(100, 0)), (2, 0)),
    (result((-25, 125)), (0, 2)),
    # equal hand scores with calls: 150 - 100 = 50 : 50
    (result((150, -50), calls=(None, "tichu", None, None), first=0, call_points=(0, 0)), (2, 0)),
])
def test_vp_without_double_victory(res, vp):
    assert tournament_victory_points(res) == vp


def test_vp_double_victory_3():
    res = result((100, 0), first=2, double_victory=0)
    assert tournament_victory_points(res) == (3, 0)
    res = result((0, 100), first=1, double_victory=1)
    assert tournament_victory_points(res) == (0, 3)


def test_vp_double_victory_with_a_failed_call_by_the_winners_is_2():
    # seat 1 called Tichu but its partner (seat 3) went out first
    res = result((100, 0), first=2, double_victory=0, calls=("tichu", None, None, None),
                 call_points=(-100, 0))
    assert res.score == (0, 0)
    assert tournament_victory_points(res) == (2, 0)


def test_vp_double_victory_with_a_failed_call_by_the_losers_is_3():
    res = result((100, 0), first=2, double_victory=0, calls=(None, "tichu", None, None),
                 call_points=(0, -100))
    assert tournament_victory_points(res) == (3, 0)


def test_vp_double_victory_with_a_successful_call_is_3():
    res = result((100, 0), first=2, double_victory=0, calls=(None, None, "tichu", None),
                 call_points=(100, 0))
    assert tournament_victory_points(res) == (3, 0)


def test_full_tournament_victory_points_tichu_points_and_ranking():
    game = Game(PLAYERS, GameOptions(turnier=True, round_limit=2))  # round X is ignored
    # seatings: X = A B C D, Y = A C B D, Z = A B D C; scores are (seats 1+3, seats 2+4)
    scores = [
        normal(game, calls="1: tichu"),            # X: A+C 150 : B+D 50        A C +2 VP
        double(game),                              # Y: A+B double victory 100   A B +3
        double(game, calls="1: tichu"),            # Z: A+D double, A's call fails: 0 : 0   A D +2
        normal(game),                              # X: 50 : 50                  all +1
        normal(game, shift=1, calls="1: tichu"),   # Y: A+B 50 : C+D 150 (C out first, Tichu)  C D +2
        double(game, shift=1),                     # Z: B+C double victory 100   B C +3
        double(game, shift=1, calls="2: tichu"),   # X: B+D double; C fails: -100 : 100   B D +3
        normal(game, calls="2: tichu"),            # Y: A+B 50 : C+D -50 (C fails)  A B +2
    ]
    assert not game.over
    scores.append(normal(game, calls="1: tichu; 3: tichu"))  # Z: A+D 100-100+50 = 50 : 50   all +1
    assert [r.result.score for r in scores] == [
        (150, 50), (100, 0), (0, 0), (50, 50), (50, 150), (0, 100), (-100, 100), (50, -50), (50, 50)]
    assert game.over and len(game.rounds) == 9
    assert game.victory_points == {"A": 11, "B": 13, "C": 9, "D": 9}
    assert game.tichu_points == {"A": 350, "B": 550, "C": 350, "D": 350}
    places = {s.player: s.place for s in game.standings()}
    assert places == {"B": 1, "A": 2, "C": 3, "D": 3}
    assert game.winners() == ("B",)
    with pytest.raises(IllegalActionError):
        game.start_round()


def test_tournament_seating_events():
    game = Game(PLAYERS, GameOptions(turnier=True))
    events = game.start_round()
    assert any(isinstance(e, SeatingChanged) and e.players == ("A", "B", "C", "D") for e in events)


def test_tournament_tie_break_by_tichu_points():
    game = Game(PLAYERS, GameOptions(turnier=True))
    normal(game, calls="1: tichu")  # X: A+C 150 : 50, 2 VP each
    game.victory_points = {"A": 4, "B": 4, "C": 4, "D": 4}
    places = {s.player: s.place for s in game.standings()}
    assert places == {"A": 1, "C": 1, "B": 3, "D": 3}


def test_tournament_ignores_1000():
    game = Game(PLAYERS, GameOptions(turnier=True))
    game.totals = [5000, 0]
    normal(game)
    assert not game.over
