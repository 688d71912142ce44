"""The events' messages: keyword, plain-data fields and the sentence a person reads
(docs/PROTOCOL.md, "Events")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bswtichu.server.text.i18n import _
from bswtichu.events.scoring import Standing, plain
from bswtichu.server.events.record import EventRecord
from bswtichu.server.text.messages import Message


def _when(summary: dict[str, Any]) -> str:
    return f"{summary['format']}, {summary['rounds']} rounds of {summary['deals']} deals, clock {summary['clock']} s"


def created(summary: dict[str, Any]) -> Message:
    return Message("EVENT_CREATED", {"event": summary},
                   f"Event {summary['event']} created: {summary['name']} ({_when(summary)}); /enter {summary['event']}")


def listing(summaries: Sequence[dict[str, Any]]) -> Message:
    lines = [f"{s['event']:>3}  {s['state']:<9} {s['name']} ({_when(s)}; {s['entrants']} entered)" for s in summaries]
    return Message("EVENTS", {"events": list(summaries)},
                   "\n".join(lines) if lines else "No events. An admin opens one with /newevent.")


def record(event: EventRecord) -> Message:
    """EVENT: the whole record as anyone may see it (`EventRecord.public_data`), its standings so far."""
    data, standings = event.public_data(), event.standings()
    lines = [f"Event {data['event']}: {data['name']} ({_when(data)}), {data['state']}",
             "Entered: " + (", ".join("+".join(u) for u in data["entrants"]) or "nobody yet")]
    for number, played in enumerate(data["played"], 1):
        for table in played["tables"]:
            log = f", game {table['log']}" if table["log"] is not None else ""
            lines.append(f"Round {number}, table {table['table']}{log}: {', '.join(table['seats'])}")
        if played["plan"]["byes"]:
            lines.append(f"Round {number}, sitting out: {', '.join(played['plan']['byes'])}")
    lines += _standing_lines(standings, event.format)
    return Message("EVENT", {"event": data, "standings": [s.to_data() for s in standings]}, "\n".join(lines))


def _standing_lines(standings: Sequence[Standing], kind: str) -> list[str]:
    """One line a standing: duplicate's match points and margin, else victory points and points."""
    score, tie = ("match points", "margin") if kind == "duplicate" else ("VP", "points")
    return [f"{s.place:>3}. {s.name}: {plain(s.victory_points)} {score}, {tie} {plain(s.points)}"
            + (f" ({s.stood_in} with a stand-in)" if s.stood_in else "") for s in standings]


def entered(number: int, name: str, count: int) -> Message:
    return Message("EVENT_ENTERED", {"event": number, "name": name, "entrants": count},
                   _('%(name)s entered event %(number)s (%(count)s entered)', name=name, number=number, count=count))


def offered(number: int, player: str, partner: str) -> Message:
    return Message("EVENT_OFFER", {"event": number, "player": player, "partner": partner},
                   _('%(player)s asks to enter event %(number)s with %(partner)s; %(partner)s confirms with '
                     '/enter %(number)s with %(player)s', player=player, number=number, partner=partner))


def withdrawn(number: int, name: str, count: int) -> Message:
    return Message("EVENT_WITHDRAWN", {"event": number, "name": name, "entrants": count},
                   _('%(name)s withdrew from event %(number)s (%(count)s entered)', name=name, number=number, count=count))


def cancelled(number: int, reason: str, by: str | None) -> Message:
    """EVENT_CANCELLED: ``by`` who cancelled it (/cancelevent), None when too few came to its start."""
    text = (_('Event %(number)s is cancelled: %(reason)s', number=number, reason=reason) if by is None
            else _('Event %(number)s is cancelled by %(by)s: %(reason)s', number=number, by=by, reason=reason))
    return Message("EVENT_CANCELLED", {"event": number, "reason": reason, "by": by}, text)


def round_seated(number: int, round_number: int, tables: Sequence[dict[str, Any]], byes: Sequence[str]) -> Message:
    lines = [f"Event {number}, round {round_number}:"]
    lines += [f"table {t['table']}: {', '.join(t['seats'])}" for t in tables]
    if byes:
        lines.append(f"sitting out: {', '.join(byes)}")
    return Message("EVENT_ROUND", {"event": number, "round": round_number, "tables": list(tables),
                                   "byes": list(byes)}, "\n".join(lines))


def seat(number: int, round_number: int, table: int, seat_number: int, held: bool) -> Message:
    text = f"Event {number}, round {round_number}: you play at table {table}, seat {seat_number}"
    if held:
        text += f"; your seat is held for you: /join {table} {seat_number}"
    return Message("EVENT_SEAT", {"event": number, "round": round_number, "table": table, "seat": seat_number,
                                  "held": held}, text)


def standings_message(event: EventRecord, final: bool) -> Message:
    """STANDINGS after the rounds whose every table is over."""
    done = sum(1 for played in event.played if played.done)
    standings = event.standings()
    when = "final standings" if final else f"standings after round {done} of {event.rounds}"
    return Message("STANDINGS", {"event": event.number, "name": event.name, "format": event.format,
                                 "round": done, "rounds": event.rounds, "final": final,
                                 "standings": [s.to_data() for s in standings]},
                   "\n".join([f"Event {event.number} ({event.name}): {when}",
                              *_standing_lines(standings, event.format)]))
