"""Random logs, written then read, give back the same model (and their line numbers)."""

from hypothesis import given, strategies as st

from bswtichu.engine.cards import DECK
from bswtichu.tch import (DragonGift, GameLog, GrandTichuCall, Pass, Play, Result, RoundLog,
                          TichuCall, Wish, read_tch, write_tch)

# Names hold letters, digits, umlauts and punctuation, never blanks or control characters.
names = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zs", "Zl", "Zp"),
                              blacklist_characters="\t\n\r\x0b\x0c\x85"), max_size=12)
seats = st.integers(0, 3)
scores = st.integers(-400, 800)


def _line_name(draw, seat_names, seat):
    """None (the seat's name) or another name this one line shows, as BSW sometimes does."""
    name = draw(st.one_of(st.none(), names))
    return None if name == seat_names[seat] else name


@st.composite
def entries(draw, seat_names):
    kind = draw(st.sampled_from(["play", "pass", "tichu", "wish", "dragon"]))
    if kind == "wish":
        return Wish(draw(st.integers(2, 14)))
    seat = draw(seats)
    name = _line_name(draw, seat_names, seat)
    if kind == "play":
        cards = draw(st.lists(st.sampled_from(DECK), min_size=1, max_size=14, unique=True))
        return Play(seat, cards, name)
    return {"pass": Pass, "tichu": TichuCall, "dragon": DragonGift}[kind](seat, name)


@st.composite
def rounds(draw, finished):
    seat_names = tuple(draw(st.lists(names, min_size=4, max_size=4)))
    deck = draw(st.permutations(DECK))
    start = [deck[14 * s:14 * s + 14] for s in range(4)]
    grand = [draw(st.permutations(hand))[:8] for hand in start]
    exchanges = [draw(st.permutations(hand))[:3] for hand in start]
    played = draw(st.lists(entries(seat_names), max_size=30))
    if finished:
        played.append(Result(draw(scores), draw(scores)))
    calls = [GrandTichuCall(seat, _line_name(draw, seat_names, seat))
             for seat in draw(st.lists(seats, max_size=5))]
    return RoundLog(
        seat_names=seat_names,
        grand_hands=grand,
        start_hands=start,
        exchanges=exchanges,
        entries=played,
        grand_tichu_calls=calls,
        bomb_holders=draw(st.lists(seats, max_size=4, unique=True)),
        card_block_names=draw(st.one_of(st.none(), st.tuples(names, names, names, names))),
    )


@st.composite
def game_logs(draw):
    count = draw(st.integers(1, 3))
    finished = [True] * (count - 1) + [draw(st.booleans())]
    return GameLog(tuple(draw(rounds(f)) for f in finished), draw(names))


@given(game_logs())
def test_written_then_read_gives_the_same_log(log):
    text = write_tch(log)
    back = read_tch(text, source=log.source)
    assert back == log
    assert write_tch(back) == text
    lines = text.split("\n")
    for r in back.rounds:
        for entry in r.entries:
            if isinstance(entry, Play):
                assert lines[entry.line - 1].endswith(
                    ": " + "".join(c.bsw + " " for c in entry.cards))
            elif isinstance(entry, Result):
                assert lines[entry.line - 1] == f"Ergebnis: {entry.team_0_2} - {entry.team_1_3}"
