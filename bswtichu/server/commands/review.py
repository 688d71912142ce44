"""/review: stepping through a finished game, each session at its own place in it.

The steps themselves (the rounds replayed through the engine, one `REVIEW` message each)
are the games' (`bswtichu.server.games.review`); this group keeps each session's place.
``/review N [ROUND]`` starts at the round's first step; ``next``, ``prev``, ``round K``
move; ``end`` stops.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from bswtichu.server.text.i18n import _
from bswtichu.server.commands.registry import CommandGroup, command, wrong_use
from bswtichu.server.games.logs import GameLogStore, GameReaders
from bswtichu.server.games.review import ReviewedGame, review_of, step_message
from bswtichu.server.numbers import is_number
from bswtichu.server.session import Session
from bswtichu.server.text.messages import Message, Refusal


@dataclass
class Cursor:
    """Where a session is in the game it reviews: a round (1-based) and its step (0-based)."""

    game: ReviewedGame
    round: int
    step: int


def _round_in(game: ReviewedGame, round_number: int) -> int:
    if not 1 <= round_number <= len(game.rounds):
        raise Refusal("no_such_round", _('game %(game)s has rounds 1-%(count)s', game=game.number, count=len(game.rounds)))
    return round_number


class ReviewCommands(CommandGroup):
    """/review over the finished games in ``logs`` that ``readers`` lets a session read; each
    session's place in its review (forgotten with the session)."""

    def __init__(self, logs: GameLogStore, readers: GameReaders) -> None:
        self.logs = logs
        self.readers = readers
        self.cursors: weakref.WeakKeyDictionary[Session, Cursor] = weakref.WeakKeyDictionary()

    @command("review", group="game", german="nachspielen", usage="/review N [ROUND] | next | prev | round K | end",
             summary=_("step through a finished game, all hands open"),
             help=_("/review N [ROUND] shows finished game N (its number is in /history and in its"
             " GAME OVER line) from the deal of ROUND (default 1): every hand open, then one trick"
             " at a time with /review next and /review prev; /review round K jumps to round K,"
             " /review end stops. The texts are the ones spectators read in live play. A game"
             " still running cannot be reviewed, nor a private table's game but by its players."))
    def review(self, session: Session, args: str) -> None:
        words = args.lower().split()
        if not words:
            raise wrong_use(_('which game? /history lists them'))
        if is_number(words[0]):
            if len(words) > 2 or (len(words) == 2 and not is_number(words[1])):
                raise wrong_use(_('a game number and, if you like, a round number'))
            self.start(session, int(words[0]), int(words[1]) if len(words) == 2 else 1)
            return
        cursor = self.cursors.get(session)
        if cursor is None:
            raise Refusal("no_review", _('you are not reviewing a game; /review N starts one'))
        if words == ["end"]:
            del self.cursors[session]
            session.send(Message("REVIEW_END", {"log": cursor.game.number},
                                 _('Review of game %(game)s ended.', game=cursor.game.number)))
            return
        self.move(cursor, words)
        self.show(session, cursor)

    def start(self, session: Session, number: int, round_number: int) -> None:
        """The review of game ``number`` from the first step of round ``round_number``."""
        if self.logs.is_open(number):
            raise Refusal("log_running", _('game %(number)s is still being played; it can be reviewed once it is over', number=number))
        self.readers.check(session.name, number)
        text = self.logs.read(number)
        if text is None:
            raise Refusal("no_such_log", _('there is no game %(number)s; /history lists finished games', number=number))
        game = review_of(number, text)
        self.show(session, Cursor(game, _round_in(game, round_number), 0))

    @staticmethod
    def move(cursor: Cursor, words: list[str]) -> None:
        """``next``, ``prev`` or ``round K``: the cursor moved, or a refusal at the game's ends."""
        steps = len(cursor.game.rounds[cursor.round - 1])
        if words == ["next"]:
            if cursor.step + 1 < steps:
                cursor.step += 1
            elif cursor.round < len(cursor.game.rounds):
                cursor.round, cursor.step = cursor.round + 1, 0
            else:
                raise Refusal("review_end", _('that was the last step of the game; /review end stops'))
        elif words == ["prev"]:
            if cursor.step > 0:
                cursor.step -= 1
            elif cursor.round > 1:
                cursor.round -= 1
                cursor.step = len(cursor.game.rounds[cursor.round - 1]) - 1
            else:
                raise Refusal("review_end", _('that is the first step of the game'))
        elif words[0] == "round" and len(words) == 2 and is_number(words[1]):
            cursor.round, cursor.step = _round_in(cursor.game, int(words[1])), 0
        else:
            raise wrong_use(_('N [ROUND], next, prev, round K or end'))

    def show(self, session: Session, cursor: Cursor) -> None:
        self.cursors[session] = cursor
        session.send(step_message(cursor.game, cursor.round, cursor.step))

