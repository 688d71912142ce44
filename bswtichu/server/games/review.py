"""Looking back at a finished game: its rounds replayed through the engine, one trick at a time.

A finished game's log (`GameLogStore`) is read and each round's actions replayed
through the engine: a 4-player game's `.tch` (`bswtichu.tch.replay`), another
variant's `.tvl` (`bswtichu.tch.variant_replay`, with the logged variant and each
round's seating and dealer), so a review shows what the engine says, in the
words spectators read in live play (`GameTexts`, a spectator's view), with every
hand open.  A round's steps: the deal (Grand Tichu, the exchange), then each
trick until it is taken, then the round's result.  A running game is not
reviewed: nobody may see more of it than he saw; nor a private table's game but by its
players and admins (`GameReaders`).

``/review N [ROUND]`` starts at the round's first step; ``next``, ``prev``,
``round K`` move; ``end`` stops.  Each step is one ``REVIEW`` message.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from bswtichu.engine import DUMMY, Exchange, Round, Variant, card_points, sort_cards
from bswtichu.engine import events as ev
from bswtichu.engine.deal import deal_from_hands
from bswtichu.engine.round import OVER
from bswtichu.server.commands.registry import Command, is_number, wrong_use
from bswtichu.server.text.game_messages import GameTexts
from bswtichu.server.games.logs import GameLogStore, GameReaders
from bswtichu.server.text.messages import Message, Refusal
from bswtichu.server.session import Session
from bswtichu.tch import TchFormatError, read_tch
from bswtichu.tch.replay import deal_of, replay_round
from bswtichu.tch.report import RoundReport
from bswtichu.tch.variant_log import DUMMY_NAME, is_variant_log, read_variant_log
from bswtichu.tch.variant_replay import replay_variant_log


@dataclass(frozen=True)
class Step:
    """One step of a round: its title, the hands at its start, and what happened in it."""

    title: str
    hands: tuple[tuple[str, ...], ...]
    said: tuple[Message, ...]


@dataclass(frozen=True)
class ReviewedGame:
    """A finished game's rounds, each as its steps, and each round's names in seat order
    (Trichu's seating moves round by round)."""

    number: int
    seatings: tuple[tuple[str, ...], ...]
    rounds: tuple[tuple[Step, ...], ...]


def review_of(number: int, log_text: str) -> ReviewedGame:
    """The steps of every round of game ``number`` from its log, `.tch` or variant log."""
    try:
        if is_variant_log(log_text):
            return _variant_review(number, log_text)
        game = read_tch(log_text, f"game {number}")
    except TchFormatError as exc:
        raise Refusal("no_such_log", f"the log of game {number} does not read: {exc}") from None
    rounds, seatings = [], []
    for index, rlog in enumerate(game.rounds, start=1):
        report = _replayed(number, replay_round(rlog, index))
        seatings.append(tuple(rlog.seat_names))
        rounds.append(_steps(Round(deal_of(rlog)), report.actions, seatings[-1]))
    return ReviewedGame(number, tuple(seatings), tuple(rounds))


def _variant_review(number: int, log_text: str) -> ReviewedGame:
    """A variant log's rounds: each dealt as logged by its dealer, with its seating (the dummy's
    seat named "dummy", as live play names it; a Duo person at both his seats)."""
    log = read_variant_log(log_text, f"game {number}")
    reports = replay_variant_log(log)
    for report in reports:
        _replayed(number, report)
    rounds, seatings = [], []
    for logged, report in zip(log.rounds, reports):
        seatings.append(tuple(str(DUMMY) if name == DUMMY_NAME else name for name in logged.seats))
        deal = deal_from_hands(logged.first_cards, logged.last_cards, log.variant, logged.dealer)
        # no tournament rules: `turnier` is for the 4-player game only (the replay refuses it)
        rnd = Round(deal, variant=log.variant, dealer=logged.dealer)
        rounds.append(_steps(rnd, report.actions, seatings[-1]))
    return ReviewedGame(number, tuple(seatings), tuple(rounds))


def _replayed(number: int, report: RoundReport) -> RoundReport:
    """The round's replay, if the engine accepts it; else the refusal saying where it fails."""
    if not report.ok:
        where = f"round {report.round} of game {number}" if report.round is not None else f"game {number}"
        raise Refusal("no_such_log", f"{where} does not replay: {report.error}")
    return report


def _steps(rnd: Round, actions: list, names: tuple[str, ...]) -> tuple[Step, ...]:
    """The deal (the whole hands before the exchange), each trick (hands as it begins: a trick is
    collected by the action that leads the next one), and the last trick with the score."""
    texts = GameTexts(None, names, lambda: card_points(c for _, combo in rnd.trick for c in combo.cards),
                      variant=rnd.variant)
    steps: list[Step] = []
    hands = _hands(rnd)
    said: list[Message] = []
    exchanges: list[Exchange] = []
    trick = 0
    for action in actions:
        if isinstance(action, Exchange):
            exchanges.append(action)
        before = _hands(rnd)
        for event in rnd.apply(action):
            if event.private_to is not None or isinstance(event, ev.TurnStarted):
                continue
            if isinstance(event, ev.PhaseStarted) and event.phase == "play":
                said.append(_exchange_line(names, exchanges, rnd.variant))
                steps.append(Step("the deal and the exchange", hands, tuple(said)))
                hands, said = _hands(rnd), []
            elif isinstance(event, ev.PhaseStarted) and event.phase == "exchange":
                hands = _hands(rnd)  # all 14 cards dealt
            message = texts.event(event, None)
            if message is not None:
                said.append(message)
            if isinstance(event, ev.TrickCollected) and rnd.phase != OVER:
                trick += 1
                steps.append(Step(f"trick {trick}", hands, tuple(said)))
                hands, said = before, []
    steps.append(Step(f"trick {trick + 1} and the score", hands, tuple(said)))
    return tuple(steps)


def _hands(rnd: Round) -> tuple[tuple[str, ...], ...]:
    """Every seat's cards, sorted as /hand shows a hand (`sort_cards`)."""
    return tuple(tuple(card.text for card in sort_cards(rnd.hands[seat])) for seat in range(rnd.variant.seats))


def _exchange_line(names: tuple[str, ...], exchanges: list[Exchange], variant: Variant) -> Message:
    """Who passed which card to whom (live, each player reads only his own); a name at two
    seats (Duo's person) with the seat, to tell his hands apart."""
    given = {}
    parts = []
    label = (lambda seat: names[seat]) if len(set(names)) == len(names) else \
        (lambda seat: f"{names[seat]} (seat {seat + 1})")
    for exchange in sorted(exchanges, key=lambda e: e.seat):
        to = {str(target + 1): card.text
              for target, card in zip(variant.exchange_targets[exchange.seat], exchange.cards)}
        given[str(exchange.seat + 1)] = to
        parts.append(f"{label(exchange.seat)} passed "
                     + ", ".join(f"{card} to {label(int(seat) - 1)}" for seat, card in to.items()))
    return Message("EXCHANGED", {"table": None, "given": given}, "; ".join(parts) + ".")


def step_message(game: ReviewedGame, round_number: int, index: int) -> Message:
    """Step ``index`` of round ``round_number`` (1-based) as one REVIEW message."""
    steps = game.rounds[round_number - 1]
    names = game.seatings[round_number - 1]
    step = steps[index]
    seats = ", ".join(f"{name} (seat {seat}): {' '.join(hand) or '(none)'}"
                      for seat, (name, hand) in enumerate(zip(names, step.hands), start=1))
    heading = (f"Review of game {game.number}, round {round_number} of {len(game.rounds)}, {step.title}"
               f" (step {index + 1} of {len(steps)}; /review next, prev, round K, end).")
    text = "\n".join([heading, f"Hands: {seats}.", *(m.text for m in step.said)])
    fields = {"log": game.number, "round": round_number, "rounds": len(game.rounds),
              "step": index + 1, "steps": len(steps), "title": step.title, "names": list(names),
              "hands": [list(hand) for hand in step.hands],
              "events": [{"keyword": m.keyword, **m.fields} for m in step.said]}
    return Message("REVIEW", fields, text)


@dataclass
class _Cursor:
    game: ReviewedGame
    round: int
    step: int


def review_commands(logs: GameLogStore, readers: GameReaders) -> list[Command]:
    """/review over the finished games in ``logs`` that ``readers`` lets a session read; each
    session's place in its review."""
    cursors: weakref.WeakKeyDictionary[Session, _Cursor] = weakref.WeakKeyDictionary()

    def show(session: Session, cursor: _Cursor) -> None:
        cursors[session] = cursor
        session.send(step_message(cursor.game, cursor.round, cursor.step))

    def start(session: Session, number: int, round_number: int) -> None:
        if logs.is_open(number):
            raise Refusal("log_running", f"game {number} is still being played; it can be reviewed"
                                         " once it is over")
        readers.check(session.nick, number)
        text = logs.read(number)
        if text is None:
            raise Refusal("no_such_log", f"there is no game {number}; /history lists finished games")
        game = review_of(number, text)
        show(session, _Cursor(game, _round_in(game, round_number), 0))

    def review(session: Session, args: str) -> None:
        words = args.lower().split()
        if not words:
            raise wrong_use("which game? /history lists them")
        if is_number(words[0]):
            if len(words) > 2 or (len(words) == 2 and not is_number(words[1])):
                raise wrong_use("a game number and, if you like, a round number")
            start(session, int(words[0]), int(words[1]) if len(words) == 2 else 1)
            return
        cursor = cursors.get(session)
        if cursor is None:
            raise Refusal("no_review", "you are not reviewing a game; /review N starts one")
        word = words[0]
        steps = len(cursor.game.rounds[cursor.round - 1])
        if word == "next" and len(words) == 1:
            if cursor.step + 1 < steps:
                cursor.step += 1
            elif cursor.round < len(cursor.game.rounds):
                cursor.round, cursor.step = cursor.round + 1, 0
            else:
                raise Refusal("review_end", "that was the last step of the game; /review end stops")
        elif word == "prev" and len(words) == 1:
            if cursor.step > 0:
                cursor.step -= 1
            elif cursor.round > 1:
                cursor.round -= 1
                cursor.step = len(cursor.game.rounds[cursor.round - 1]) - 1
            else:
                raise Refusal("review_end", "that is the first step of the game")
        elif word == "round" and len(words) == 2 and is_number(words[1]):
            cursor.round, cursor.step = _round_in(cursor.game, int(words[1])), 0
        elif word == "end" and len(words) == 1:
            del cursors[session]
            session.send(Message("REVIEW_END", {"log": cursor.game.number},
                                 f"Review of game {cursor.game.number} ended."))
            return
        else:
            raise wrong_use("N [ROUND], next, prev, round K or end")
        show(session, cursor)

    return [
        Command(key="review", group="game", german="nachspielen", usage="/review N [ROUND] | next | prev | round K | end",
                summary="step through a finished game, all hands open",
                help="/review N [ROUND] shows finished game N (its number is in /history and in its"
                " GAME OVER line) from the deal of ROUND (default 1): every hand open, then one trick"
                " at a time with /review next and /review prev; /review round K jumps to round K,"
                " /review end stops. The texts are the ones spectators read in live play. A game"
                " still running cannot be reviewed, nor a private table's game but by its players.",
                handler=review),
    ]


def _round_in(game: ReviewedGame, round_number: int) -> int:
    if not 1 <= round_number <= len(game.rounds):
        raise Refusal("no_such_round", f"game {game.number} has rounds 1-{len(game.rounds)}")
    return round_number
