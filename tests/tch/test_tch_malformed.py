"""Malformed logs raise TchFormatError at the right line; tolerated variants read fine."""

import pytest
from hypothesis import given, strategies as st

from bswtichu.engine.cards import parse_bsw_card
from bswtichu.engine.errors import ParseError
from bswtichu.tch import DragonGift, Pass, Play, TchFormatError, read_tch, read_tch_file, write_tch

# Lines 1-28 of ainze_tichu_2417500.tch (round 1 of a real game), then a made-up
# end: the text level does not care whether the round is legal.
ROUND = """\
---------------Gr.Tichukarten------------------
(0)evi_sea BB S9 G6 S5 R4 B4 G3 S3 
(1)1David Dr Ph SD G10 R9 R8 S6 R3 
(2)evdokia!! RK BK GK GB S10 R10 G8 R7 
(3)Lisaaaaaaa BA SA BD RB B5 G4 S2 Ma 
---------------Startkarten------------------
(0)evi_sea GA BB SB S9 S7 B7 G6 S5 R4 B4 G3 S3 G2 B2 
(1)1David Dr Ph SK SD G10 B9 R9 R8 B8 S8 S6 R6 R5 R3 
(2)evdokia!! RK BK GK RD GD GB S10 R10 G9 G8 R7 B6 G5 B3 
(3)Lisaaaaaaa BA SA RA BD RB B10 G7 B5 G4 S4 S2 R2 Ma Hu 
Grosses Tichu: (1)1David
Schupfen:
(0)evi_sea gibt: 1David: S7 - evdokia!!: S9 - Lisaaaaaaa: B7 - 
(1)1David gibt: evdokia!!: R5 - Lisaaaaaaa: SD - evi_sea: R3 - 
(2)evdokia!! gibt: Lisaaaaaaa: R10 - evi_sea: RD - 1David: B3 - 
(3)Lisaaaaaaa gibt: evi_sea: R2 - 1David: SA - evdokia!!: S2 - 
---------------Rundenverlauf------------------
(3)Lisaaaaaaa: Ma 
Wunsch:2
(0)evi_sea: R2 
(1)1David: B3 
(2)evdokia!!: G9 
(3)Lisaaaaaaa passt.
(0)evi_sea: RD 
(1)1David: SK 
(2)evdokia!! passt.
(3)Lisaaaaaaa passt.
(0)evi_sea: GA 
(1)1David: Dr 
(2)evdokia!! passt.
(3)Lisaaaaaaa passt.
(0)evi_sea passt.
Drache an: (1)1David
Tichu: (2)evdokia!!
Ergebnis: 300 - -100
"""
LINES = ROUND.split("\n")[:-1]
RESULT_LINE = 35


def _with(number: int, new_line: str) -> str:
    """The round with its line ``number`` (1-based) replaced."""
    lines = list(LINES)
    lines[number - 1] = new_line
    return "\n".join(lines) + "\n"


def _error(text: str) -> TchFormatError:
    with pytest.raises(TchFormatError) as info:
        read_tch(text)
    return info.value


def test_the_fixture_is_valid_and_round_trips():
    log = read_tch(ROUND + ROUND)
    assert len(log.rounds) == 2
    assert log.rounds[1].result.line == RESULT_LINE + len(LINES)
    assert (log.rounds[0].result.team_0_2, log.rounds[0].result.team_1_3) == (300, -100)
    assert write_tch(log) == ROUND + ROUND


def test_error_is_a_parse_error_with_line_and_message():
    error = _error(_with(2, "(0)evi_sea BB X9 G6 S5 R4 B4 G3 S3 "))
    assert isinstance(error, ParseError)
    assert (error.line, error.reason) == (2, "unknown card token 'X9'")
    assert str(error) == "line 2: unknown card token 'X9'"


def test_unknown_token_in_a_play():
    assert str(_error(_with(20, "(0)evi_sea: R2 Q7 "))) == "line 20: unknown card token 'Q7'"


def test_token_in_another_case_is_unknown_and_the_message_says_how_bsw_writes_it():
    assert str(_error(_with(20, "(0)evi_sea: r2 "))) == (
        "line 20: unknown card token 'r2' (BSW writes 'R2')")


def test_truncated_between_lines_before_the_play_section():
    text = "\n".join(LINES[:8]) + "\n"
    assert str(_error(text)) == (
        "line 9: the file ends where the Startkarten line of seat (2) was expected")


def test_truncated_in_the_middle_of_a_line():
    text = ROUND[:ROUND.index("(1)1David: SK") + 8]
    assert str(_error(text)) == "line 25: the last line has no line end: the file is truncated"


def test_truncated_in_the_play_section_is_an_unfinished_round():
    log = read_tch("\n".join(LINES[:30]) + "\n")
    (r,) = log.rounds
    assert not r.is_complete and r.result is None
    assert r.entries[-1] == Pass(2) and r.entries[-1].line == 30


def test_empty_file():
    assert str(_error("")) == "line 1: the file is empty"


@pytest.mark.parametrize("number,line,message", [
    (20, "(7)evi_sea: R2 ", "seat (7) is not 0-3"),
    (3, "(7)1David Dr Ph SD G10 R9 R8 S6 R3 ", "seat (7) is not 0-3"),
    (3, "(2)1David Dr Ph SD G10 R9 R8 S6 R3 ", "expected seat (1), found (2)"),
    (14, "(3)1David gibt: evdokia!!: R5 - Lisaaaaaaa: SD - evi_sea: R3 - ",
     "expected seat (1), found (3)"),
    (34, "Tichu: (4)evdokia!!", "seat (4) is not 0-3"),
    (33, "Drache an: 1David", "expected a seat such as (0) at the start of '1David'"),
])
def test_bad_seat(number, line, message):
    assert str(_error(_with(number, line))) == f"line {number}: {message}"


@pytest.mark.parametrize("number,line,message", [
    (21, "hello", "unknown line in the Rundenverlauf of round 1: 'hello'"),
    (21, "(1)1David B3", "expected a play '(s)name: cards' or a pass '(s)name passt.', "
                        "found '(1)1David B3'"),
    (19, "Wunsch:1", "unknown wish rank '1' (BSW writes 2-10, B, D, K, A)"),
    (RESULT_LINE, "Ergebnis: 300 : -100",
     "expected 'Ergebnis: a - b' with whole numbers, found 'Ergebnis: 300 : -100'"),
    (12, "Schupfen", "expected the Schupfen header of round 1, found 'Schupfen'"),
    (13, "(0)evi_sea gives: 1David: S7", "expected '(s)name gibt: ...', "
                                        "found '(0)evi_sea gives: 1David: S7'"),
    (17, "BOMBE: ", "the BOMBE line names no seat"),
    (17, "BOMBE: (1)David ", "seat (1) in the BOMBE line is not named '1David' "
                             "as in the Schupfen block"),
])
def test_line_of_unknown_shape(number, line, message):
    assert str(_error(_with(number, line))) == f"line {number}: {message}"


def test_block_out_of_order():
    text = _with(6, "---------------Rundenverlauf------------------")
    assert str(_error(text)) == ("line 6: block out of order: expected the Startkarten header "
                                 "of round 1, found the Rundenverlauf header")
    assert str(_error(_with(21, "Schupfen:"))) == (
        "line 21: block out of order: the Schupfen header inside the Rundenverlauf of round 1")


def test_next_round_before_the_result():
    text = "\n".join(LINES[:30]) + "\n" + ROUND
    assert str(_error(text)) == (
        "line 31: round 1 has no Ergebnis line before the next round begins")


def test_text_after_the_result():
    assert str(_error(ROUND + "(0)evi_sea passt.\n")) == (
        "line 36: expected the Gr.Tichukarten header of round 2, found '(0)evi_sea passt.'")


@pytest.mark.parametrize("number,line,message", [
    (2, "(0)evi_sea BB S9 G6 S5 R4 B4 G3 ",
     "Gr.Tichukarten line of seat (0) has 7 cards, expected 8"),
    (2, "(0)evi_sea BB S9 G6 S5 R4 B4 G3 S3 R3 ",
     "Gr.Tichukarten line of seat (0) has 9 cards, expected 8"),
    (8, "(1)1David Dr Ph SK SD G10 B9 R9 R8 B8 S8 S6 R6 R5 ",
     "Startkarten line of seat (1) has 13 cards, expected 14"),
    (2, "(0)evi_sea BB S9 G6 S5 R4 B4 G3 G3 ", "card 'G3' is listed twice"),
    (13, "(0)evi_sea gibt: 1David: S7 - evdokia!!: S9 - Lisaaaaaaa: S7 - ",
     "card 'S7' is listed twice"),
])
def test_wrong_card_count(number, line, message):
    assert str(_error(_with(number, line))) == f"line {number}: {message}"


def test_exchange_recipients_must_be_the_next_three_seats():
    line = "(0)evi_sea gibt: evdokia!!: S9 - 1David: S7 - Lisaaaaaaa: B7 - "
    assert str(_error(_with(13, line))) == (
        "line 13: the first card goes to 'evdokia!!' (seat (2)); "
        "BSW lists seat (1) '1David' there")
    line = "(0)evi_sea gibt: 1David: S7 - evdokia!!: S9 - Lisa: B7 - "
    assert str(_error(_with(13, line))) == (
        "line 13: the third card goes to 'Lisa' (no seat's name); "
        "BSW lists seat (3) 'Lisaaaaaaa' there")


def test_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "broken.tch"
    path.write_bytes(ROUND.encode("utf-8").replace(b"Lisaaaaaaa: Ma", b"Lis\xe4: Ma"))
    with pytest.raises(TchFormatError) as info:
        read_tch_file(path)
    assert (info.value.line, info.value.source) == (18, "broken.tch")
    assert str(info.value) == "line 18: not UTF-8 text (byte 0xe4)"


# Tolerated variants: they read, and the writer gives back BSW's own layout.

def test_stripped_trailing_spaces_and_crlf_read_the_same():
    original = read_tch(ROUND)
    for variant in ("\n".join(line.rstrip() for line in LINES) + "\n",
                    ROUND.replace("\n", "\r\n"),
                    "\n".join(line + "  " for line in LINES) + "\n"):
        log = read_tch(variant)
        assert log == original
        assert write_tch(log) == ROUND


def test_dragon_line_without_a_name():
    text = _with(33, "Drache an: (1)")
    entry = read_tch(text).rounds[0].entries[33 - 18]
    assert entry == DragonGift(1, name="") and entry.line == 33
    assert write_tch(read_tch(text)) == text


def test_stale_names_are_kept_as_written():
    text = ROUND.replace("(2)evdokia!! RK", "(2)Ersatz RK").replace("(2)evdokia!!: G9", "(2)alt: G9")
    r = read_tch(text).rounds[0]
    assert r.seat_names[2] == "evdokia!!"  # from the gibt: lines
    assert r.card_block_names == ("evi_sea", "1David", "Ersatz", "Lisaaaaaaa")
    assert r.entries[22 - 18] == Play(2, [parse_bsw_card("G9")], name="alt")
    assert write_tch(read_tch(text)) == text


def test_card_blocks_may_disagree_on_names():
    # stale names: the Schupfen lines name the seats; the Gr.Tichukarten names are kept
    text = ROUND.replace("(2)evdokia!! RK BK GK RD", "(2)Ersatz RK BK GK RD")
    (r,) = read_tch(text).rounds
    assert r.seat_names[2] == "evdokia!!" and r.card_block_names is None
    assert write_tch(read_tch(text)) == ROUND


def test_a_complete_last_line_without_line_end_blank_lines_and_a_bom_are_read():
    text = "\ufeff" + ROUND.replace("---------------Startkarten", "\n---------------Startkarten")
    assert write_tch(read_tch(text.rstrip("\n"))) == ROUND
    joined = ROUND + "\n--END GAME--\n" + ROUND
    assert write_tch(read_tch(joined)) == ROUND + ROUND
    assert read_tch(ROUND.rstrip("\n")).rounds[0].is_complete


def test_carriage_return_inside_a_line():
    assert str(_error(_with(20, "(0)evi\rsea: R2 "))) == (
        "line 20: a carriage return inside the line")


_line_edits = st.lists(st.tuples(
    st.sampled_from(["replace", "delete", "duplicate", "insert"]),
    st.integers(0, len(LINES) - 1),
    st.one_of(st.text(max_size=30), st.sampled_from(LINES).map(lambda line: line[:-3]))),
    min_size=1, max_size=3)


@given(_line_edits)
def test_any_damaged_log_reads_or_raises_only_tch_format_error(edits):
    lines = list(LINES)
    for edit, index, text in edits:
        index = min(index, len(lines) - 1)
        if edit == "replace":
            lines[index] = text
        elif edit == "delete" and len(lines) > 1:
            del lines[index]
        elif edit == "duplicate":
            lines.insert(index, lines[index])
        else:
            lines.insert(index, text)
    damaged = "\n".join(lines) + "\n"
    try:
        log = read_tch(damaged)
    except TchFormatError as error:
        assert 1 <= error.line <= damaged.count("\n") + 1
    else:
        assert len(log.rounds) == 1
