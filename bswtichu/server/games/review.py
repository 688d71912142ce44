"""Looking back at a finished game: its rounds replayed through the engine, one trick at a time.

A finished game's log (`GameLogStore`) is read and each round's actions replayed
through the engine: a 4-player game's `.tch` (`bswtichu.tch.replay`), another
variant's `.tvl` (`bswtichu.tch.variant_replay`, with the logged variant and each
round's seating and dealer), so a review shows what the engine says, in the
words spectators read in live play (`GameTexts`, a spectator's view), with every
hand open.  A round's steps: the deal (Grand Tichu, the exchange), then each
trick until it is taken, then the round's result.  A running game is not
reviewed: nobody may see more of it than he saw; nor a private table's game but by its
players and admins (`GameReaders`).  Each step is one ``REVIEW`` message; the command that
steps through them is ``/review`` (`bswtichu.server.commands.review`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bswtichu.server.text.i18n import _
from bswtichu.engine import DUMMY, Exchange, Round, Variant, card_points, sort_cards
from bswtichu.engine import events as ev
from bswtichu.engine.deal import deal_from_hands
from bswtichu.engine.round import OVER
from bswtichu.server.text.game_messages import GameTexts
from bswtichu.server.text.messages import Message, Refusal
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
        raise Refusal("no_such_log", _('the log of game %(number)s does not read: %(exc)s', number=number, exc=exc)) from None
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
        raise Refusal("no_such_log", _('%(where)s does not replay: %(error)s', where=where, error=report.error))
    return report


def _steps(rnd: Round, actions: list, names: tuple[str, ...]) -> tuple[Step, ...]:
    """The deal (the whole hands before the exchange), each trick (hands as it begins: a trick is
    collected by the action that leads the next one), and the last trick with the score."""
    texts = GameTexts(None, names, lambda: card_points(c for _unused, combo in rnd.trick for c in combo.cards),
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
