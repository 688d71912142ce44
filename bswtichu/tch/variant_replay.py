"""Check a variant log (docs/variant-log.md) against the rules, as `bswtichu replay` checks a `.tch`.

The log's game is played again through the engine's `Game` with the logged
variant and options: every round's seating and dealer must be the game's, its
deal the variant's (56 different cards, each hand its size), every action
legal when it stands, the round's result and the game's totals the engine's,
and the ``end`` line there exactly when the game is over, naming its winners.
The first fault is reported with its line; the rounds after it are not checked
(a game's rounds build on each other).
"""

from __future__ import annotations

from ..engine import DUMMY, Game, GameOptions, IllegalActionError, TichuError, action_text
from ..engine.deal import deal_from_hands
from ..engine.round import OVER
from .report import LineFailure, RoundReport
from .variant_log import DUMMY_NAME, VariantGameLog, VariantRound



def replay_variant_log(log: VariantGameLog) -> list[RoundReport]:
    """One report per logged round; a fault in the game's end is reported on its last round."""
    variant = log.variant
    try:
        game = Game(tuple(range(variant.players)), GameOptions(log.round_limit, turnier=log.turnier),
                    variant=variant)
    except ValueError as exc:
        return [RoundReport(log.source, None, ok=False, complete=False,
                            error=f"line {log.lines.get('options')}: {exc}")]
    reports = []
    for r in log.rounds:
        report = RoundReport(log.source, r.number, ok=False, complete=r.is_complete)
        reports.append(report)
        if r.outcome is not None:
            report.logged = list(r.outcome.score)
        try:
            _check_round(game, log, r, report)
        except LineFailure as failure:
            report.error = failure.text()
            for later in log.rounds[r.number:]:
                reports.append(RoundReport(log.source, later.number, ok=False, complete=later.is_complete,
                                           error=f"not checked: round {r.number} failed"))
            return reports
    try:
        _check_end(game, log)
    except LineFailure as failure:
        if not reports:
            return [RoundReport(log.source, None, ok=False, complete=False, error=failure.text())]
        reports[-1].ok = False
        reports[-1].error = failure.text()
    return reports


def _names(log: VariantGameLog, players) -> tuple[str, ...]:
    return tuple(DUMMY_NAME if p is DUMMY else log.players[p] for p in players)


def _check_round(game: Game, log: VariantGameLog, r: VariantRound, report: RoundReport) -> None:
    variant = game.variant
    number = len(game.rounds)
    if game.over:
        raise LineFailure(r.lines.get("round"), f"round {r.number}, but the game was over after round {number}")
    seating = _names(log, game.seating_for(number))
    if r.seats != seating:
        raise LineFailure(r.lines.get("seats"), f"the seating of round {r.number} is {' '.join(seating)},"
                                             f" not {' '.join(r.seats)}")
    dealer = game.dealer_for(number)
    if r.dealer != dealer:
        raise LineFailure(r.lines.get("dealer"), f"seat {dealer + 1} deals round {r.number}, not seat {r.dealer + 1}")
    _check_deal(game, r, dealer)
    try:
        game.start_round(deal_from_hands(r.first_cards, r.last_cards, variant, dealer))
    except (TichuError, ValueError) as exc:
        raise LineFailure(r.lines.get("round"), f"the deal: {exc}") from None
    rnd = game.round
    assert rnd is not None  # just dealt
    for logged in r.actions:
        action = logged.action
        if rnd.phase == OVER:
            raise LineFailure(logged.line, f"{action_text(action)}, but the round is over")
        try:
            game.apply(action)
        except (IllegalActionError, TichuError) as exc:
            raise LineFailure(logged.line, f"{action_text(action)} is not legal here: {exc}") from None
    report.actions = list(rnd.history)
    outcome = r.outcome
    if outcome is None:
        if rnd.phase == OVER:
            last = r.actions[-1].line if r.actions else r.lines.get("round")
            raise LineFailure(last, "the round ends here, but its 'out', 'score' and 'totals' lines are missing")
        report.ok = True
        report.notes.append("incomplete round: the log ends before its result")
        return
    if rnd.phase != OVER:
        waiting = rnd.waiting_for
        raise LineFailure(outcome.line, "'out', but by the rules the round goes on"
                       + (f" (it waits for seat {waiting + 1})" if waiting is not None else ""))
    result = rnd.result
    assert result is not None  # an ended round has its result
    report.result = list(result.score)
    order = " ".join(str(s + 1) for s in result.finish_order) + (" sweep" if result.double_victory is not None else "")
    if (outcome.finish_order, outcome.sweep) != (result.finish_order, result.double_victory is not None):
        raise LineFailure(outcome.line, f"the seats went out as 'out {order}'")
    logged_points = (outcome.score, outcome.card_points, outcome.call_points)
    if logged_points != (result.score, result.card_points, result.call_points):
        raise LineFailure(outcome.score_line, "the round scores 'score {} {} cards {} {} calls {} {}'".format(
            *result.score, *result.card_points, *result.call_points))
    totals = game.scores()
    if r.totals != totals:
        raise LineFailure(r.lines.get("totals"), f"the game's totals after round {r.number} are"
                                              f" 'totals {' '.join(map(str, totals))}'")
    report.ok = True


def _check_deal(game: Game, r: VariantRound, dealer: int) -> None:
    """Each hand the variant's size, 56 different cards: said before the engine sees the deal."""
    variant = game.variant
    seen: dict = {}
    for seat, (head, tail) in enumerate(variant.deal_slices(dealer)):
        line = r.lines.get(f"hand {seat + 1}")
        first, last = r.first_cards[seat], r.last_cards[seat]
        want = (head.stop - head.start, tail.stop - tail.start)
        if (len(first), len(last)) != want:
            raise LineFailure(line, f"in {variant.title} seat {seat + 1} gets {want[0]} + {want[1]} cards"
                                 f" when seat {dealer + 1} deals, not {len(first)} + {len(last)}")
        for card in first + last:
            if card in seen:
                earlier = seen[card]
                raise LineFailure(line, f"{card.text} is dealt twice: to hand {earlier + 1} (line"
                                     f" {r.lines.get(f'hand {earlier + 1}')}) and to hand {seat + 1}")
            seen[card] = seat


def _check_end(game: Game, log: VariantGameLog) -> None:
    end = log.end
    if log.rounds and not log.rounds[-1].is_complete:
        if end is not None:
            raise LineFailure(end.line, "'end', but the last round is unfinished")
        return
    if end is None:
        if game.over:
            raise LineFailure(log.rounds[-1].lines.get("totals"),
                           "the game is over after this round, but the log has no 'end' line")
        return
    if not game.over:
        raise LineFailure(end.line, f"'end', but by the rules the game goes on after round {len(game.rounds)}")
    winners = _names(log, game.winners())
    if end.winners != winners:
        said = f"winners {' '.join(winners)}" if winners else "draw"
        raise LineFailure(end.line, f"the game ends 'end {said}'")
