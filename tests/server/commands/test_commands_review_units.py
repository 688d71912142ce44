"""/review's moves on their own: a `ReviewCommands` over an empty log store, and a cursor in a
made-up game of two rounds (no log, no engine)."""

from __future__ import annotations

import pytest

from bswtichu.server.commands.review import Cursor, ReviewCommands
from bswtichu.server.games.logs import GameLogStore
from bswtichu.server.games.review import ReviewedGame, Step
from bswtichu.server.text.messages import Refusal

from hall_parts import People, refusal

NAMES = ("Ann", "Bob", "Cy", "Dan")
HANDS = (("2j",), ("3j",), ("4j",), ("5j",))
GAME = ReviewedGame(7, (NAMES, NAMES), (
    (Step("the deal and the exchange", HANDS, ()), Step("trick 1 and the score", HANDS, ())),
    (Step("the deal and the exchange", HANDS, ()), Step("trick 1", HANDS, ()), Step("trick 2 and the score", HANDS, ())),
))


def moved(cursor: Cursor, *words: str) -> tuple[int, int]:
    ReviewCommands.move(cursor, list(words))
    return cursor.round, cursor.step


def test_next_and_prev_cross_from_round_to_round():
    cursor = Cursor(GAME, 1, 0)
    assert moved(cursor, "next") == (1, 1)
    assert moved(cursor, "next") == (2, 0)
    assert moved(cursor, "prev") == (1, 1)
    assert moved(cursor, "round", "2") == (2, 0)
    assert moved(cursor, "next") == (2, 1)


def test_the_games_ends_and_a_round_it_lacks_are_refused():
    with pytest.raises(Refusal, match="first step"):
        moved(Cursor(GAME, 1, 0), "prev")
    with pytest.raises(Refusal, match="last step"):
        moved(Cursor(GAME, 2, 2), "next")
    with pytest.raises(Refusal, match="rounds 1-2"):
        moved(Cursor(GAME, 1, 0), "round", "3")


def test_a_review_needs_a_game_and_one_that_was_played(tmp_path):
    people = People()
    ann = people.add("Ann")
    group = ReviewCommands(GameLogStore(str(tmp_path)), readers=None)
    assert refusal(group, ann, "/review").message == \
        "which game? /history lists them; usage: /review N [ROUND] | next | prev | round K | end"
    assert refusal(group, ann, "/review next").code == "no_review"
    group.cursors[ann] = Cursor(GAME, 1, 0)
    assert refusal(group, ann, "/review sideways").message.startswith("N [ROUND], next, prev, round K or end")
    group.review(ann, "next")
    (keyword, fields), = people.told(ann)
    assert (keyword, fields["log"], fields["round"], fields["step"], fields["steps"]) == ("REVIEW", 7, 1, 2, 2)
    group.review(ann, "end")
    assert people.told(ann) == [("REVIEW_END", {"log": 7})]
    assert ann not in group.cursors
