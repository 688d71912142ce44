"""Variant logs (docs/variant-log.md): every variant's games written, read and replayed; the
engine's notation read back; broken logs refused with the line at fault."""

from __future__ import annotations

import json
import re
from pathlib import Path
from random import Random

import pytest
from hypothesis import given, settings, strategies as st

from bswtichu.engine import DUMMY, OVER, TIENTSIN, TRICHU, Round
from bswtichu.engine.errors import ParseError
from bswtichu.engine.notation import parse_action
from bswtichu.tch.replay import main, replay_file
from bswtichu.tch.variant_log import (EXTENSION, MAGIC, VariantLogError, is_variant_log, read_variant_log,
                                      write_variant_log)
from bswtichu.tch.variant_record import VariantLogWriter
from bswtichu.tch.variant_replay import replay_variant_log

from variant_games import ALL_VARIANTS, played_game, sample_text

VARIANT_IDS = [v.name for v in ALL_VARIANTS]


def check_round_trip(game, text: str) -> None:
    """The text is what a fresh writer makes, reads back to itself, and replays round by round
    to the engine's own results and totals."""
    assert text == VariantLogWriter().text(game)  # the cached texts are the afresh ones
    log = read_variant_log(text)
    assert write_variant_log(log) == text
    assert log.variant is game.variant and len(log.rounds) == len(game.rounds)
    reports = replay_variant_log(log)
    assert [r.ok for r in reports] == [True] * len(game.rounds), [r.to_dict() for r in reports if not r.ok]
    assert [tuple(r.result) for r in reports] == [rnd.result.score for rnd in game.rounds]
    assert [list(r.actions) for r in reports] == [rnd.history for rnd in game.rounds]
    assert log.rounds[-1].totals == game.scores()
    assert (log.end is not None) == game.over
    if game.over:
        assert log.end.winners == tuple(str(p) for p in game.winners())
    for logged, seating in zip(log.rounds, game.seatings):
        assert logged.seats == tuple("-" if p is DUMMY else str(p) for p in seating)


# ---------------------------------------------------------------------- round trips

@settings(max_examples=60)
@given(variant=st.sampled_from(ALL_VARIANTS), seed=st.integers(0, 2 ** 32),
       levels=st.sampled_from([("random",), ("basic",), ("random", "basic")]))
def test_every_variants_games_are_written_and_replay(variant, seed, levels):
    limit = variant.players if variant.game_rounds is not None else 3
    game, text = played_game(variant, seed, levels, round_limit=limit)
    check_round_trip(game, text)


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=VARIANT_IDS)
def test_a_whole_game_to_its_end(variant):
    """No round limit: Trichu's nine rounds, the others to 1000 (stopped after 40 rounds at most)."""
    game, text = played_game(variant, f"whole/{variant.name}", ("basic",))
    check_round_trip(game, text)
    assert game.over and text.rstrip().splitlines()[-1].startswith("end ")


def test_the_text_reads_as_the_docs_say():
    text = sample_text("trichu")
    lines = text.splitlines()
    assert lines[0] == MAGIC and lines[2] == "variant trichu" and lines[3] == "players 0 1 2"
    assert is_variant_log(text) and not is_variant_log("---------------Gr.Tichukarten------------------\n")
    seats = [line for line in lines if line.startswith("seats ")]
    assert seats[:3] == ["seats 0 1 - 2", "seats 1 2 - 0", "seats 2 0 - 1"]  # people move, seat 3 the dummy
    hands = [line for line in lines if line.startswith("hand ")][:4]
    assert [len(h.split(": ")[1].replace(" / ", " ").split()) for h in hands] == [14] * 4
    assert all(len(h.split(": ")[1].split(" / ")[0].split()) == 8 for h in hands)
    tientsin = sample_text("tientsin").splitlines()
    sizes = [len(h.split(": ")[1].replace(" / ", " ").split()) for h in tientsin if h.startswith("hand ")][:6]
    assert sizes == [10, 9, 9, 10, 9, 9] and "dealer 1" in tientsin


@settings(max_examples=20)
@given(seed=st.integers(0, 2 ** 32), variant=st.sampled_from(ALL_VARIANTS))
def test_every_legal_action_is_read_back_from_its_notation(seed, variant):
    """The log's one spelling: `parse_action` inverts `notation()` for whatever the engine allows."""
    rng = Random(seed)
    rnd = Round.deal_random(rng, variant=variant, dealer=rng.randrange(variant.seats))
    while rnd.phase != OVER:
        legal = [a for s in range(variant.seats) for a in rnd.legal_actions(s)]
        for action in legal:
            assert parse_action(action.seat, action.notation()) == action
        rnd.apply(rng.choice(legal))


@pytest.mark.parametrize("text, why", [
    ("play", "needs its cards"), ("play 7j 7j", "twice"), ("play PH=9 PH=8", "twice"),
    ("give x", "seat number"), ("dog 0", "seat number"), ("wish", "rank"), ("wish 1", "not a"),
    ("pass now", "takes nothing"), ("bomb 7j 7s 7p 7r", "no action"), ("play 7x", "suit"),
])
def test_bad_notation_says_what_is_wrong(text, why):
    with pytest.raises(ParseError, match=why):
        parse_action(0, text)


# ---------------------------------------------------------------------- broken logs

def _line_of(lines: list[str], pattern: str, nth: int = 0) -> int:
    found = [i for i, line in enumerate(lines) if re.match(pattern, line)]
    return found[nth]


def corrupt(text: str, pattern: str, change, nth: int = 0) -> tuple[str, int]:
    """The text with the ``nth`` line matching ``pattern`` changed; and that line's number."""
    lines = text.split("\n")
    at = _line_of(lines, pattern, nth)
    lines[at] = change(lines[at])
    return "\n".join(lines), at + 1


def first_failure(tmp_path, text: str, name: str = "broken" + EXTENSION) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    failed = [r for r in replay_file(path) if not r.ok]
    assert failed, "the broken log was accepted"
    return failed[0].error


def _other_card(line: str) -> str:
    """A hand line with its first card swapped for one from elsewhere in the deck."""
    head, cards = line.split(": ")
    first = cards.split()[0]
    return f"{head}: {cards.replace(first, 'DR' if first != 'DR' else 'MJ', 1)}"




def _plus_ten(line: str) -> str:
    words = line.split()
    words[1] = str(int(words[1]) + 10)
    return " ".join(words)


BROKEN = [
    ("a card changed in a hand", r"hand 2: ", _other_card, "dealt twice"),
    ("a hand one card short", r"hand 1: ", lambda line: line.rsplit(" ", 1)[0], "cards"),
    ("an unknown card", r"hand 1: ", lambda line: line.replace(": ", ": 7x ", 1), "suit"),
    ("an action by a seat that does not exist", r"\d: pass", lambda line: "9: pass", "no seat"),
    ("a wrong score", r"score ", _plus_ten, "scores 'score"),
    ("a wrong order out", r"out ", lambda line: re.sub(r"out (\d) (\d)", r"out \2 \1", line), "went out"),
    ("wrong totals", r"totals ", _plus_ten, "totals after round 1"),
    ("a wrong seating", r"seats ", lambda line: "seats " + " ".join(reversed(line.split()[1:])), "seating"),
    ("a wrong dealer", r"dealer ", lambda line: "dealer 2", "deals round 1"),
    ("wrong winners", r"end ", lambda line: "end winners nobody", "the game ends"),
    ("an unknown variant", r"variant ", lambda line: "variant chess", "unknown variant"),
    ("an unknown option", r"options", lambda line: "options fast", "unknown option"),
    ("a line that is no line of the format", r"dealer ", lambda line: "hello world", "expected the dealer"),
]


@pytest.mark.parametrize("variant", [v.name for v in (TRICHU, TIENTSIN)])
@pytest.mark.parametrize("what, pattern, change, why", BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_log_is_refused_naming_its_line(tmp_path, variant, what, pattern, change, why):
    text, line = corrupt(sample_text(variant), pattern, change)
    error = first_failure(tmp_path, text)
    assert f"line {line}" in error and why in error, error


@pytest.mark.parametrize("variant", [v.name for v in (TRICHU, TIENTSIN)])
def test_a_play_of_a_card_already_played_is_illegal(tmp_path, variant):
    """The round's first play's card, played again later as a single by whoever plays the next one."""
    text = sample_text(variant)
    lines = text.split("\n")
    lead = _line_of(lines, r"\d: play ")
    card = lines[lead].split()[2]
    later = next(i for i in range(lead + 1, len(lines)) if re.match(r"\d: play \S+$", lines[i])
                 and lines[i].split()[2] not in ("MJ", card))
    lines[later] = f"{lines[later].split(':')[0]}: play {card}"
    error = first_failure(tmp_path, "\n".join(lines))
    assert error.startswith(f"line {later + 1}: ") and "is not legal here" in error, error


def test_a_log_cut_after_a_round_of_a_finished_game_lacks_its_end(tmp_path):
    text = sample_text("tientsin")
    cut = text[:text.index("\nend ")]
    line = cut.count("\n")
    assert first_failure(tmp_path, cut) == (f"line {line}: the game is over after this round,"
                                            " but the log has no 'end' line")


def test_a_log_cut_inside_a_round_replays_as_incomplete(tmp_path):
    text = sample_text("trichu")
    lines = text.split("\n")
    cut = "\n".join(lines[:_line_of(lines, r"out ", 1) - 3]) + "\n"
    path = tmp_path / "cut.tvl"
    path.write_text(cut)
    reports = replay_file(path)
    assert [(r.ok, r.complete) for r in reports] == [(True, True), (True, False)]
    assert "incomplete" in reports[1].notes[0]


def test_an_action_after_the_round_ended(tmp_path):
    text, line = corrupt(sample_text("trichu"), r"out ", lambda out: "1: pass\n" + out)
    assert f"line {line}: 1: pass, but the round is over" == first_failure(tmp_path, text)


def test_the_reader_names_the_line_of_a_layout_fault():
    text = sample_text("tientsin")
    with pytest.raises(VariantLogError, match="^line 1: a variant log begins"):
        read_variant_log("hello\n" + text)
    broken, line = corrupt(text, r"hand 3: ", lambda h: h.replace(" / ", " "))
    with pytest.raises(VariantLogError, match=f"^line {line}: a hand is its cards"):
        read_variant_log(broken)
    broken, line = corrupt(text, r"round 2", lambda r: "round 3")
    with pytest.raises(VariantLogError, match=f"^line {line}: round 2 comes next"):
        read_variant_log(broken)


# ---------------------------------------------------------------------- the command

def test_bswtichu_replay_knows_a_variant_log_by_its_ending_or_its_first_line(tmp_path, capsys):
    text = sample_text("trichu")
    (tmp_path / "game.tvl").write_text(text)
    (tmp_path / "game.txt").write_text(text)
    assert main([str(tmp_path / "game.tvl"), str(tmp_path / "game.txt")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "6 rounds in 2 files: 6 ok, 0 failed, 0 incomplete"
    assert out[0].startswith("game.tvl round 1: ok, ")
    broken, line = corrupt(text, r"score ", _plus_ten)
    (tmp_path / "broken.tvl").write_text(broken)
    assert main(["--json", str(tmp_path / "broken.tvl")]) == 1
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["ok"] for r in reports] == [False, False, False]
    assert reports[0]["error"].startswith(f"line {line}: ")
    assert reports[1]["error"] == "not checked: round 1 failed"


def test_the_example_logs_of_the_docs_replay_clean():
    examples = sorted((Path(__file__).resolve().parents[2] / "docs" / "examples").glob("*.tvl"))
    assert {p.name for p in examples} >= {"sample-trichu.tvl", "sample-tientsin.tvl", "sample-duo.tvl"}
    assert main([str(p) for p in examples]) == 0
    doc = (Path(__file__).resolve().parents[2] / "docs" / "variant-log.md").read_text(encoding="utf-8")
    example = doc.split("```\n")[1]  # the example's lines are the sample's, some left out
    sample = (examples[0].parent / "sample-tientsin.tvl").read_text(encoding="utf-8").splitlines()
    shown = [line for line in example.splitlines() if line != "..."]
    at = 0
    for line in shown:
        at = sample.index(line, at) + 1


@settings(max_examples=150)
@given(data=st.data(), variant=st.sampled_from(["trichu", "tientsin"]))
def test_any_damage_gives_a_report_never_an_exception(tmp_path_factory, data, variant):
    """A line dropped, repeated, swapped with the next or with one character changed: the
    replay reports (a round's failure or an unreadable file), it never raises."""
    lines = sample_text(variant).split("\n")
    at = data.draw(st.integers(0, len(lines) - 2))
    how = data.draw(st.sampled_from(["drop", "repeat", "swap", "char"]))
    if how == "drop":
        del lines[at]
    elif how == "repeat":
        lines.insert(at, lines[at])
    elif how == "swap":
        lines[at], lines[at + 1] = lines[at + 1], lines[at]
    elif lines[at]:
        place = data.draw(st.integers(0, len(lines[at]) - 1))
        char = data.draw(st.sampled_from("0123456789 :/-#jsprTJQKAMDGPHx=\t"))
        lines[at] = lines[at][:place] + char + lines[at][place + 1:]
    path = tmp_path_factory.mktemp("damaged") / "damaged.tvl"
    path.write_text("\n".join(lines), encoding="utf-8")
    reports = replay_file(path)
    assert reports and all(r.ok or r.error for r in reports)


def test_a_seat_handed_over_shows_its_new_player_in_every_round():
    """`Game.rename` gives the new player the old one's past: the writer's cached rounds follow."""
    variant = TRICHU
    game, _ = played_game(variant, 8, round_limit=3)
    writer = VariantLogWriter()
    before = writer.text(game)
    game.rename(1, "Zed")
    after = writer.text(game)
    assert after == VariantLogWriter().text(game) and after != before
    assert "players 0 Zed 2" in after and " 1 " not in " ".join(
        line for line in after.splitlines() if line.startswith("seats "))
    assert all(r.ok for r in replay_variant_log(read_variant_log(after)))
