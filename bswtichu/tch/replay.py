"""Replay `.tch` logs through the rules engine: is every action legal, does the result agree?

A logged round becomes engine actions: the Grand Tichu decisions, the
exchange, then the play section.  BSW's conventions are translated here:
the trick winner's own ``passt.`` collects the trick (no engine action), a
missing ``Wunsch`` line is "no wish", a repeated call line is ignored, and
the Phoenix in a play that can be read two ways (``G8 S8 Ph B7 S7``) is tried
both ways, keeping the reading under which the rest of the round replays.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..engine import (
    CallGrand, CallTichu, DeclineGrand, Exchange, GiveDragon, IllegalActionError, MakeWish,
    Pass, Play, Round, TichuError, readings,
)
from ..engine.combos import ComboType
from ..engine.cards import PHOENIX_CARD
from ..engine.deal import FIRST_CARDS, LAST_CARDS, deal_from_hands
from ..engine.round import OVER, partner_of, team_of
from . import model
from .errors import TchFormatError
from .reader import read_tch_file
from .report import LineFailure, RoundReport
from .variant_log import is_variant_log_file, read_variant_log_file
from .variant_replay import replay_variant_log

BONUS = {"tichu": 100, "grand": 200}



def deal_of(rlog: model.RoundLog) -> list:
    """The engine deal that gives each seat its logged 8 cards, then the rest of its 14."""
    rests = []
    for seat in range(4):
        first, full = rlog.grand_hands[seat], rlog.start_hands[seat]
        rest = [c for c in full if c not in first]
        if len(rest) != LAST_CARDS or len(first) != FIRST_CARDS:
            raise LineFailure(None, f"seat {seat}'s 8 Grand Tichu cards are not all in its 14 cards")
        rests.append(rest)
    deal = deal_from_hands(rlog.grand_hands, rests)
    if len(set(deal)) != 56:
        raise LineFailure(None, "the four 14-card hands do not hold 56 different cards")
    return deal


def replay_round(rlog: model.RoundLog, number: int, source: str = "") -> RoundReport:
    """Replay one logged round and compare its result with the logged ``Ergebnis``."""
    report = RoundReport(source, number, ok=False, complete=rlog.is_complete)
    if rlog.result is not None:
        report.logged = [rlog.result.team_0_2, rlog.result.team_1_3]
    try:
        rnd = Round(deal_of(rlog))
        for seat in range(4):
            rnd.apply(CallGrand(seat) if seat in rlog.grand_tichu_callers else DeclineGrand(seat))
        if len(rlog.grand_tichu_calls) > len(rlog.grand_tichu_callers):
            report.notes.append("repeated Grosses Tichu line (counted once)")
        for seat in range(4):
            rnd.apply(Exchange(seat, tuple(rlog.exchanges[seat])))
    except (LineFailure, TichuError) as exc:
        report.error = exc.text() if isinstance(exc, LineFailure) else f"deal or exchange: {exc}"
        return report
    entries = [e for e in rlog.entries if not isinstance(e, model.Result)]
    try:
        rnd = _replay_entries(rnd, entries, 0, report.notes)
    except LineFailure as failure:
        report.error = failure.text()
        return report
    report.actions = list(rnd.history)
    if not rlog.is_complete:
        report.ok = True
        report.notes.append("incomplete round: the log ends before its Ergebnis")
        return report
    if rnd.phase != OVER and rnd.gift_pending_seat is not None:
        rnd = _infer_final_gift(rnd, report)
    assert rlog.result is not None  # a complete round has its Ergebnis
    if rnd.result is None:  # the round is not over
        report.error = f"line {rlog.result.line}: Ergebnis, but by the rules the round is not over"
        return report
    report.result = list(rnd.result.score)
    report.ok = _compare(rnd, report)
    return report


def _infer_final_gift(rnd: Round, report: RoundReport) -> Round:
    """A round ended on a Dragon with no Drache line: give it where the Ergebnis says."""
    giver = rnd.gift_pending_seat
    assert giver is not None  # the caller saw the gift pending
    options = []
    for to in ((giver + 1) % 4, (giver + 3) % 4):
        attempt = rnd.copy()
        attempt.apply(GiveDragon(giver, to))
        options.append((attempt.result is not None and list(attempt.result.score) == report.logged, to, attempt))
    options.sort(key=lambda o: not o[0])
    matched, to, chosen = options[0]
    report.notes.append(f"no Drache line for the last trick: given to seat {to}"
                        + (" (the one that matches the Ergebnis)" if matched else ""))
    report.actions = list(chosen.history)
    return chosen


def _replay_entries(rnd: Round, entries: list, start: int, notes: list[str]) -> Round:
    """Apply ``entries[start:]``; branch on two-way Phoenix plays.  Returns the final round."""
    for index in range(start, len(entries)):
        entry = entries[index]
        line = entry.line
        if rnd.phase == OVER:
            notes.append(f"line {line}: a line after the round ended by the rules (ignored)")
            continue
        waits_for_wish = not isinstance(entry, (model.Wish, model.TichuCall))
        if rnd.wish_pending_seat is not None and waits_for_wish:  # a Tichu may come between
            _apply(rnd, MakeWish(rnd.wish_pending_seat, None), line)
        if isinstance(entry, model.Wish):
            if rnd.wish_pending_seat is None:
                raise LineFailure(line, "a Wunsch line, but no Mahjong was just played")
            _apply(rnd, MakeWish(rnd.wish_pending_seat, entry.rank), line)
        elif isinstance(entry, model.TichuCall):
            if rnd.calls[entry.seat]:
                notes.append(f"line {line}: repeated call line for seat {entry.seat} (ignored)")
            else:
                _apply(rnd, CallTichu(entry.seat), line)
        elif isinstance(entry, model.Pass):
            if _is_collection(rnd, entry.seat):
                continue  # the winner's "passt." takes the trick
            _apply(rnd, Pass(entry.seat), line)
        elif isinstance(entry, model.DragonGift):
            if rnd.gift_pending_seat is None:
                raise LineFailure(line, "a Drache line, but no Dragon trick is waiting to be given")
            else:
                _apply(rnd, GiveDragon(rnd.gift_pending_seat, entry.seat), line)
        elif isinstance(entry, model.Play):
            options = _play_options(entry)
            if len(options) == 1:
                _apply(rnd, options[0], line)
                continue
            return _branch(rnd, entries, index, options, notes)
    if rnd.wish_pending_seat is not None:
        _apply(rnd, MakeWish(rnd.wish_pending_seat, None), None)
    return rnd


def _branch(rnd: Round, entries: list, index: int, options: list[Play], notes: list[str]) -> Round:
    """Try each reading of a two-way Phoenix play; keep the first under which the rest replays."""
    failures = []
    for option in options:
        attempt = rnd.copy()
        attempt_notes: list[str] = []
        try:
            _apply(attempt, option, entries[index].line)
            final = _replay_entries(attempt, entries, index + 1, attempt_notes)
        except LineFailure as failure:
            failures.append(failure)
            continue
        notes.extend(attempt_notes)
        return final
    raise max(failures, key=lambda f: f.line or 0)


def _play_options(entry: model.Play) -> list[Play]:
    """The engine plays a logged play can mean: one per Phoenix reading, the file's own first."""
    found = readings(entry.cards)
    if not found:
        return [Play(entry.seat, entry.cards)]  # the engine will say why it is no combination
    hinted = _phoenix_position_rank(entry.cards, found[0].type)
    found.sort(key=lambda c: c.phoenix_as != hinted)
    return [Play(entry.seat, c.cards, c.phoenix_as) for c in found]


def _phoenix_position_rank(cards, kind: ComboType) -> int | None:
    """The rank the listing puts the Phoenix at: a hint, tried first (both are tried)."""
    cards = list(cards)
    if PHOENIX_CARD not in cards:
        return None
    i = cards.index(PHOENIX_CARD)
    if kind is ComboType.STAIRS:
        return cards[i ^ 1].rank  # listed pair by pair: the Phoenix's pair-mate
    if kind is ComboType.STRAIGHT:
        return cards[i - 1].rank - 1 if i > 0 else cards[1].rank + 1
    if kind is ComboType.FULL_HOUSE:  # our writer lists the triple first; BSW's files agree mostly
        return cards[1 if i == 0 else 0].rank if i < 3 else cards[7 - i].rank
    return None


def _is_collection(rnd: Round, seat: int) -> bool:
    """Whether ``seat``'s "passt." is BSW's way of taking a won trick."""
    if not rnd.trick_won:
        return False
    return seat == rnd.top_seat or seat == rnd.leader


def _apply(rnd: Round, action, line: int | None) -> None:
    try:
        rnd.apply(action)
    except IllegalActionError as exc:
        raise LineFailure(line, f"{action.notation()} by seat {action.seat}: {exc}") from None
    except TichuError as exc:
        raise LineFailure(line, str(exc)) from None


def _compare(rnd: Round, report: RoundReport) -> bool:
    """Agree, or differ by exactly BSW's known scoring quirk (reported as a note)."""
    if report.result == report.logged:
        return True
    result = rnd.result
    assert result is not None and report.result is not None and report.logged is not None  # both scored
    if result.double_victory is not None:
        tournament = list(result.score)
        tournament[result.double_victory] -= 100
        if tournament == report.logged:
            report.notes.append("scored as a tournament round: the double victory is worth 100")
            report.result = tournament
            return True
    if result.double_victory is None:
        first = result.finish_order[0]
        partner = partner_of(first)
        call = result.calls[partner]
        if call:
            team = team_of(partner)
            expected = list(report.result)
            expected[team] += BONUS[call]
            if expected == report.logged:
                report.notes.append(
                    f"BSW scoring quirk: the failed {call} of seat {partner} (partner of the first "
                    f"player out) was not charged in the log")
                return True
    report.error = f"result {report.result[0]} - {report.result[1]} differs from the logged " \
                   f"{report.logged[0]} - {report.logged[1]}"
    return False


def replay_file(path: str | Path) -> list[RoundReport]:
    """Replay every round of a file, a `.tch` or a variant log (docs/variant-log.md: known by
    its ``.tvl`` ending or its first line); a file that cannot be read gives one failed report."""
    path = Path(path)
    try:
        if is_variant_log_file(path):
            return replay_variant_log(read_variant_log_file(path))
        log = read_tch_file(path)
    except TchFormatError as exc:
        return [RoundReport(path.name, None, ok=False, complete=False, error=str(exc))]
    except OSError as exc:
        return [RoundReport(str(path), None, ok=False, complete=False,
                            error=f"cannot read: {exc.strerror}")]
    return [replay_round(r, i, path.name) for i, r in enumerate(log.rounds, start=1)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="bswtichu replay",
        description="Replay game logs through the rules engine and compare results: BrettspielWelt"
                    " .tch logs, and our variant logs (.tvl, docs/variant-log.md).")
    parser.add_argument("files", nargs="+", metavar="FILE", help=".tch or .tvl log files")
    parser.add_argument("--json", action="store_true", help="one JSON object per round")
    args = parser.parse_args(argv)
    reports = [r for f in args.files for r in replay_file(f)]
    for r in reports:
        if args.json:
            print(json.dumps(r.to_dict(), ensure_ascii=False))
        else:
            print(_human_line(r))
    unreadable = [r for r in reports if r.round is None]
    rounds = [r for r in reports if r.round is not None]
    complete = [r for r in rounds if r.complete]
    failed = [r for r in complete if not r.ok]
    if not args.json:
        summary = (f"{_count(len(rounds), 'round')} in {_count(len(args.files), 'file')}:"
                   f" {len(complete) - len(failed)} ok, {len(failed)} failed,"
                   f" {len(rounds) - len(complete)} incomplete")
        if unreadable:
            summary += f"; {_count(len(unreadable), 'file')} unreadable"
        print(summary)
    return 1 if failed or unreadable else 0


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _human_line(r: RoundReport) -> str:
    if r.round is None:
        return f"{r.file}: unreadable: {r.error}"
    where = f"{r.file} round {r.round}"
    if r.error:
        return f"{where}: FAIL {r.error}"
    if not r.complete:
        return f"{where}: incomplete (all {len(r.actions)} logged actions legal)"
    assert r.result is not None and r.logged is not None  # a complete round, replayed: both scored
    if r.result == r.logged:
        agrees = "the log agrees"
    else:
        agrees = f"the log says {r.logged[0]} : {r.logged[1]}"
    notes = f"; {'; '.join(r.notes)}" if r.notes else ""
    return f"{where}: ok, {r.result[0]} : {r.result[1]} ({agrees}{notes})"


if __name__ == "__main__":
    sys.exit(main())
