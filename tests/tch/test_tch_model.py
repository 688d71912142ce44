"""A server builds a round from scratch; the writer lays it out as BSW does."""

import pytest

from bswtichu.engine.cards import DECK, parse_bsw_card
from bswtichu.tch import (DragonGift, GameLog, GrandTichuCall, Pass, Play, Result, RoundLog,
                          TichuCall, Wish, read_tch, write_tch)


def _cards(text):
    return [parse_bsw_card(token) for token in text.split()]


HANDS = [DECK[0:14], DECK[14:28], DECK[28:42], DECK[42:56]]


def _round(**changes):
    fields = dict(
        seat_names=["Anna", "Börgit", "c.d!", "Dora"],
        grand_hands=[hand[:8] for hand in HANDS],
        start_hands=HANDS,
        exchanges=[hand[-3:] for hand in HANDS],
        entries=[TichuCall(0), Play(3, _cards("Ma")), Wish(11), Pass(0), Play(1, _cards("S5 G5")),
                 DragonGift(2), Result(300, -100)],
        grand_tichu_calls=[GrandTichuCall(2)],
        bomb_holders=[1, 3],
    )
    fields.update(changes)
    return RoundLog(**fields)


def test_round_built_from_lists_is_immutable_and_hashable():
    r = _round()
    assert isinstance(r.start_hands[0], tuple) and isinstance(r.entries, tuple)
    assert r.grand_tichu_callers == {2} and r.is_complete and r.result == Result(300, -100)
    assert hash(r) == hash(_round())
    with pytest.raises(AttributeError):
        r.seat_names = ("x",) * 4


def test_writer_lays_out_a_round_as_the_readme_shows():
    """Expected text written by hand from the layout in /work/shared/bsw-logs/README.md."""
    r = _round(
        grand_hands=[_cards("BB S9 G6 S5 R4 B4 G3 S3")] + [hand[:8] for hand in HANDS[1:]],
        start_hands=[_cards("GA BB SB S9 S7 B7 G6 S5 R4 B4 G3 S3 G2 B2")] + HANDS[1:],
        exchanges=[_cards("S7 S9 B7")] + [hand[-3:] for hand in HANDS[1:]],
    )
    lines = write_tch(GameLog([r])).split("\n")
    assert lines[0] == "---------------Gr.Tichukarten------------------"
    assert lines[1] == "(0)Anna BB S9 G6 S5 R4 B4 G3 S3 "
    assert lines[5] == "---------------Startkarten------------------"
    assert lines[6] == "(0)Anna GA BB SB S9 S7 B7 G6 S5 R4 B4 G3 S3 G2 B2 "
    assert lines[10:13] == ["Grosses Tichu: (2)c.d!", "Schupfen:",
                            "(0)Anna gibt: Börgit: S7 - c.d!: S9 - Dora: B7 - "]
    assert lines[16:19] == ["BOMBE: (1)Börgit (3)Dora ",
                            "---------------Rundenverlauf------------------", "Tichu: (0)Anna"]
    assert lines[19:] == ["(3)Dora: Ma ", "Wunsch:B", "(0)Anna passt.", "(1)Börgit: S5 G5 ",
                          "Drache an: (2)c.d!", "Ergebnis: 300 - -100", ""]


def test_writer_omits_the_bombe_line_when_no_seat_holds_a_bomb():
    text = write_tch(GameLog([_round(bomb_holders=())]))
    assert "BOMBE" not in text and read_tch(text).rounds[0].bomb_holders == ()


def test_an_unfinished_round_is_written_without_result():
    r = _round(entries=[Play(3, _cards("Ma"))])
    text = write_tch(GameLog([r]))
    assert text.endswith("---------------Rundenverlauf------------------\n(3)Dora: Ma \n")
    assert read_tch(text).rounds[0].is_complete is False


def test_card_block_names_equal_to_the_seat_names_are_dropped():
    assert _round(card_block_names=("Anna", "Börgit", "c.d!", "Dora")).card_block_names is None


@pytest.mark.parametrize("changes,message", [
    ({"seat_names": ["a", "b", "c"]}, "seat_names needs one entry per seat, got 3"),
    ({"grand_hands": [HANDS[0][:7]] + [h[:8] for h in HANDS[1:]]},
     "Grand Tichu hand of seat 0 has 7 cards, not 8"),
    ({"exchanges": [HANDS[0][:2]] + [h[-3:] for h in HANDS[1:]]},
     "exchange of seat 0 has 2 cards, not 3"),
    ({"entries": [Result(0, 0), Pass(1)]}, "the Result must be the round's last entry"),
    ({"bomb_holders": [4]}, "seat 4 is not 0-3"),
    ({"seat_names": ["a\nb", "b", "c", "d"]}, "name 'a\\nb' holds a line break; a log line cannot"),
])
def test_round_rejects_values_no_log_could_hold(changes, message):
    with pytest.raises(ValueError) as info:
        _round(**changes)
    assert str(info.value) == message


def test_entries_reject_bad_values():
    with pytest.raises(ValueError, match="seat 5 is not 0-3"):
        Pass(5)
    with pytest.raises(ValueError, match="has no cards"):
        Play(0, [])
    with pytest.raises(ValueError, match="names a card twice"):
        Play(0, [DECK[0], DECK[0]])
    with pytest.raises(ValueError, match="wished rank 1 is not 2-14"):
        Wish(1)


def test_only_the_last_round_may_be_unfinished():
    unfinished = _round(entries=[Pass(0)])
    with pytest.raises(ValueError, match="only the last round may be unfinished"):
        GameLog([unfinished, _round()])


def test_line_numbers_do_not_take_part_in_equality():
    assert Play(0, [DECK[0]], line=7) == Play(0, [DECK[0]])
