"""The board of events: every event by number; creating, entering and withdrawing; starting
on time; each round seated at the hall's tables, its games watched, its results recorded.

An event's tables are ordinary tables (`Table.start_fixed`: the pairing's seats, the event's
turn clock, a game of exactly its deals per round) marked with the event and round; when
every table of a round is over the standings are told and the next round is seated. Every
change is written whole (`EventStore`), so a restart finds each event where it was and takes
back its tables' restored games (`restore`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from random import Random, SystemRandom
from typing import Protocol

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

from bswtichu.server.text.i18n import _
from bswtichu.engine import Event, Game, GameOptions
from bswtichu.events.duplicate import Deal
from bswtichu.events.scoring import DealScore
from bswtichu.play import GameDriver, SubstituteStarted
from bswtichu.play.calls import cancel_call
from bswtichu.server.events import messages
from bswtichu.server.events.record import (CANCELLED, FINISHED, OPEN, RUNNING, EventRecord, RoundRecord,
                                           TableRecord)
from bswtichu.server.session import Session
from bswtichu.server.tables.hall import TableHall
from bswtichu.server.tables.table import Table
from bswtichu.server.tables.table_game import TableGame
from bswtichu.server.text.messages import Message, Refusal


class StoredEvents(Protocol):
    """Where events are kept (the storage's `EventStore`)."""

    def save(self, number: int, data: dict, finished: bool) -> None: ...

    def all(self) -> list[tuple[int, dict]]: ...


class GameRecords(Protocol):
    """The stored games, whose readers a duplicate round closes and opens (`GameStore`)."""

    def make_private(self, game_id: int) -> None: ...

    def make_public(self, game_id: int) -> None: ...


class StandInWatch:
    """A game subscriber that marks, in its table's record, each player a bot played for."""

    def __init__(self, board: EventBoard, event: EventRecord, table: TableRecord) -> None:
        self.board, self.event, self.table = board, event, table

    def round_dealt(self, driver: GameDriver) -> None:
        """Nothing to mark when a round is dealt."""

    def happened(self, driver: GameDriver, events: Sequence[Event]) -> None:
        for event in events:
            if type(event) is SubstituteStarted and event.player not in self.table.stood_in:
                self.table.stood_in.add(str(event.player))
                self.board.save(self.event)


class EventBoard:
    """Every event by number, and what runs them: the hall's tables, the clock, the store.

    ``find(name)`` is a name's online session; ``seeds()`` gives a new event its seed (the
    pairing's lot is drawn from it, round by round)."""

    log = Logger()

    def __init__(self, hall: TableHall, clock: IReactorTime, store: StoredEvents | None,
                 find: Callable[[str], Session | None],
                 seeds: Callable[[], int] = lambda: SystemRandom().getrandbits(63),
                 games: GameRecords | None = None) -> None:
        """``games``: the stored games (a duplicate round's are closed to others until it ends)."""
        self.hall = hall
        self.games = games
        self.clock = clock
        self.store = store
        self.find = find
        self.seeds = seeds
        self.events: dict[int, EventRecord] = {}
        self._timers: dict[int, IDelayedCall] = {}

    # -- looking ------------------------------------------------------------

    def get(self, number: int) -> EventRecord:
        event = self.events.get(number)
        if event is None:
            raise Refusal("no_such_event", _('there is no event %(number)s; /events lists them', number=number))
        return event

    def latest_for(self, nick: str) -> EventRecord | None:
        """The newest event ``nick`` entered, else the newest event, if any."""
        mine = [e for e in self.events.values() if e.unit_of(nick) is not None]
        chosen = mine or list(self.events.values())
        return max(chosen, key=lambda e: e.number, default=None)

    # -- before the start ---------------------------------------------------

    def create(self, event: EventRecord) -> EventRecord:
        """Keep a new event (its number is the next free one) and wait for its start."""
        event.number = max(self.events, default=0) + 1
        event.seed = self.seeds()
        self.events[event.number] = event
        self.save(event)
        self._wait_for_start(event)
        self.log.info("event {number} created by {creator}: {name}", number=event.number,
                      creator=event.creator, name=event.name, event="event_created")
        return event

    def enter(self, event: EventRecord, nick: str, partner: str | None) -> Message:
        """``nick`` enters (a pairs event: with ``partner``, who confirms by entering with him)."""
        if event.unit_of(nick) is not None:
            raise Refusal("already_entered", _('you are entered in event %(event)s; /withdraw %(event)s to leave', event=event.number))
        if event.unit_size == 1:
            event.entrants.append((nick,))
            message = messages.entered(event.number, nick, len(event.entrants))
        else:
            assert partner is not None
            if event.unit_of(partner) is not None:
                raise Refusal("already_entered", _('%(partner)s is entered in event %(event)s already', partner=partner, event=event.number))
            first = event.offer_from(partner)
            if first is not None and event.offers[first].casefold() == nick.casefold():
                del event.offers[first]  # the pair as its players spell their names
                event.entrants.append((first, nick))
                message = messages.entered(event.number, event.unit_name((first, nick)), len(event.entrants))
                self._tell([first], message)
            else:
                mine = event.offer_from(nick)
                if mine is not None:  # a new offer replaces his earlier one
                    del event.offers[mine]
                event.offers[nick] = partner
                message = messages.offered(event.number, nick, partner)
                self._tell([partner], message)
        self.save(event)
        return message

    def withdraw(self, event: EventRecord, nick: str) -> Message:
        """``nick`` leaves the event: before the start his entry (or his offer) goes; after it no
        later round seats him (or his pair), his current game plays on."""
        unit = event.unit_of(nick)
        if unit is None:
            offer = event.offer_from(nick)
            if offer is not None and event.state == OPEN:
                del event.offers[offer]
                self.save(event)
                return messages.withdrawn(event.number, nick, len(event.entrants))
            raise Refusal("not_entered", _('you are not entered in event %(event)s', event=event.number))
        name = event.unit_name(unit)
        if event.state == OPEN:
            event.entrants.remove(unit)
        elif event.state == RUNNING:
            if name in event.withdrawn:
                raise Refusal("event_over", _('you withdrew from event %(event)s already', event=event.number))
            event.withdrawn.append(name)
        else:
            raise Refusal("event_over", _('event %(event)s is %(state)s', event=event.number, state=event.state))
        self.save(event)
        message = messages.withdrawn(event.number, name, len(event.entrants) - len(event.withdrawn))
        self._tell([n for n in unit if n.casefold() != nick.casefold()], message)
        return message

    def _wait_for_start(self, event: EventRecord) -> None:
        delay = max(0.0, event.start - self.clock.seconds())
        self._timers[event.number] = self.clock.callLater(delay, self._start, event)

    def _start(self, event: EventRecord) -> None:
        """The start time: the entrants present play (a pair, if one of its players is); the
        absent are no longer entered; too few for a round cancel the event."""
        self._timers.pop(event.number, None)
        absent = [u for u in event.entrants if not any(self.find(n) is not None for n in u)]
        for unit in absent:
            event.entrants.remove(unit)
        event.offers.clear()
        minimum = event.rules().minimum
        if len(event.entrants) < minimum:
            event.state = CANCELLED
            self.save(event)
            self._tell(event.players() + [u for a in absent for u in a] + [event.creator], messages.cancelled(
                event.number, f"{len(event.entrants)} entrants present at the start, {minimum} needed", None))
            return
        event.state = RUNNING
        self.log.info("event {number} starts with {count} entrants", number=event.number,
                      count=len(event.entrants), event="event_start")
        self._seat_round(event)

    # -- rounds ---------------------------------------------------------------

    def _seat_round(self, event: EventRecord) -> None:
        """Seat the next round: the format's plan for those staying, a table for each of its
        tables, started at once; everyone is told where he plays."""
        standings = {s.name: float(s.victory_points) for s in event.standings()}
        number = len(event.played) + 1
        plan = event.rules().seat(event.staying(), standings, [r.plan for r in event.played],
                                  Random(f"{event.seed}:{number}"))
        current = RoundRecord(plan, [])
        event.played.append(current)
        options = GameOptions(round_limit=event.deals, clock=event.clock, exact_rounds=True)
        rules = event.rules()
        for index, seats in enumerate(plan.tables):
            current.tables.append(self._open_table(event, number, seats, options,
                                                   rules.table_deals(number, index)))
        self.save(event)
        tables = [{"table": t.table, "seats": list(t.seats), "log": t.log} for t in current.tables]
        self._tell(event.players(), messages.round_seated(event.number, number, tables, plan.byes))
        for record in current.tables:
            for seat, name in enumerate(record.seats, 1):
                self._tell([name], messages.seat(event.number, number, record.table, seat, name in record.stood_in))

    def _open_table(self, event: EventRecord, number: int, seats: tuple[str, str, str, str],
                    options: GameOptions, deals: tuple[Deal, ...] | None) -> TableRecord:
        """One table of the round, started (with its format's preset ``deals``, if any); a
        player not free to sit (offline, or seated at another table) has his seat held and is
        marked (a stand-in plays until he comes)."""
        table = self.hall.open()
        table.preset_deals = deals
        absent = {name for name in seats if not self._sit_down(name, table)}
        record = TableRecord(table.number, seats, stood_in=absent)
        table.start_fixed(seats, options, event.label(number), absent)
        self._attach(event, record, table)
        if self.games is not None and record.game is not None and deals is not None:
            self.games.make_private(record.game)  # its deals are still played elsewhere
        return record

    def _sit_down(self, name: str, table: Table) -> bool:
        """Bring ``name``'s session to ``table`` (leaving a table he only watched); False if he
        is offline or plays at another table."""
        session = self.find(name)
        if session is None:
            return False
        here = session.table
        if here is not None:
            if here.seat_of(name) is not None:
                return False
            here.leave(name)
        session.table = table
        return True

    def _attach(self, event: EventRecord, record: TableRecord, table: Table) -> None:
        """Watch the table's game: who a bot plays for, and its end."""
        game = table.game
        if isinstance(game, TableGame):
            record.log = game.log_number
            record.game = None if game.record is None else game.record.game_id
            game.driver.subscribe(StandInWatch(self, event, record))
        table.on_game_over = lambda over: self._table_over(event, record, over)
        table.on_shut = lambda shut: self._table_shut(event, record, shut)
        if event.format == "duplicate":
            table.watch_check = lambda nick: self._check_watcher(event, nick)

    @staticmethod
    def _check_watcher(event: EventRecord, nick: str) -> None:
        """A duplicate round's players may not watch its other tables: they hold their deals."""
        if event.plays_now(nick):
            raise Refusal("round_player", _('you play in this round of event %(event)s; its other tables hold your deals: watch them '
                                            'once the round is over', event=event.number))

    def _table_over(self, event: EventRecord, record: TableRecord, table: Table) -> None:
        """A table's game is over: its deals are recorded; the rest waits for the turn's end."""
        game = table.last_game
        record.deals = deal_scores(game.game) if isinstance(game, TableGame) else []
        self.save(event)
        self.clock.callLater(0, self._table_gone, event, table)

    def _table_shut(self, event: EventRecord, record: TableRecord, table: Table) -> None:
        """An admin closed a running table of the event (``/close``): the deals it finished
        count, the rest are not played (docs/rules.md items 53 and 65); the round goes on."""
        if event.state != RUNNING:  # the event's own cancel closes its tables
            return
        game = table.game
        record.deals = deal_scores(game.game) if isinstance(game, TableGame) else []
        self.save(event)
        self.clock.callLater(0, self._table_gone, event, table)

    def _table_gone(self, event: EventRecord, table: Table) -> None:
        """The finished table goes; the round ends once every one of its tables has."""
        there = self.hall.retire(table) if self.hall.get(table.number) is table else []
        for name in event.players() + there:
            session = self.find(name)
            if session is not None and session.table is table:
                session.table = None
        if event.played and event.played[-1].done and event.state == RUNNING:
            self._round_over(event)

    def _round_over(self, event: EventRecord) -> None:
        """Every table of the round is done: the standings are told; the next round is seated,
        or the event ends (its last round played, or too few left for another)."""
        number = len(event.played)
        final = number >= event.rounds or len(event.staying()) < event.rules().minimum
        if event.format == "duplicate" and self.games is not None:
            for table in event.played[-1].tables:  # every table has played the deals: open to all
                if table.game is not None:
                    self.games.make_public(table.game)
        if final:
            event.state = FINISHED
        self.save(event)
        message = messages.standings_message(event, final)
        self._tell(event.players() + [event.creator], message)
        if not final:
            self._seat_round(event)

    # -- cancelling -------------------------------------------------------------

    def cancel(self, event: EventRecord, by: str, reason: str) -> None:
        """``by`` (an admin or its creator) cancels an event not over: no start waits any more,
        the games of its current round end unfinished (their tables close, as ``/close`` closes
        one), it is kept as cancelled; its entrants, its creator and whoever was at its tables
        are told, and ``by``."""
        if event.state not in (OPEN, RUNNING):
            raise Refusal("event_over", f"event {event.number} is {event.state}")
        timer = self._timers.pop(event.number, None)
        if timer is not None:
            cancel_call(timer)
        event.state = CANCELLED
        there = self._close_tables(event, by, reason)
        self.save(event)
        self.log.info("event {number} cancelled by {by}: {reason}", number=event.number, by=by,
                      reason=reason, event="event_cancelled")
        message = messages.cancelled(event.number, reason, by)
        self._tell([by] + event.players() + list(event.offers) + [event.creator] + there, message)

    def _close_tables(self, event: EventRecord, by: str, reason: str) -> list[str]:
        """Close the running tables of the event's current round; the names that were at them."""
        if not event.played:
            return []
        label, there = event.label(len(event.played)), []
        for record in event.played[-1].tables:
            table = self.hall.get(record.table)
            if table is None or table.event != label:
                continue
            for name in table.shut(by, reason):
                session = self.find(name)
                if session is not None and session.table is table:
                    session.table = None
                there.append(name)
        return there

    # -- keeping ----------------------------------------------------------------

    def save(self, event: EventRecord) -> None:
        if self.store is not None:
            self.store.save(event.number, event.to_data(), event.state in (FINISHED, CANCELLED))

    def restore(self, over: Mapping[int, Game] | None = None) -> None:
        """After a restart: every stored event; an open one waits for its start again, a running
        one takes back its tables' restored games. ``over``: the games the restore found over
        (by log number: the server stopped between their last step and their result), whose
        deals are read from them; a table whose game did not come back at all counts no deals
        (said in the log)."""
        if self.store is None:
            return
        for number, data in self.store.all():
            event = EventRecord.from_data(data)
            self.events[number] = event
            if event.state == OPEN:
                self._wait_for_start(event)
            elif event.state == RUNNING:
                self._take_back(event, over or {})

    def _take_back(self, event: EventRecord, over: Mapping[int, Game]) -> None:
        current = event.played[-1] if event.played else None
        if current is None:
            self.clock.callLater(0, self._seat_round, event)
            return
        label = event.label(len(event.played))
        for record in current.tables:
            table = self.hall.get(record.table)
            if record.done:
                continue
            if table is not None and table.event == label and table.game is not None:
                self._attach(event, record, table)
                continue
            if record.log is not None and record.log in over:
                record.deals = deal_scores(over[record.log])
                continue
            self.log.warn("event {number}: the game of table {table} did not come back; it counts no deals",
                          number=event.number, table=record.table)
            record.deals = []
        self.save(event)
        if current.done:
            self.clock.callLater(0, self._round_over, event)

    def stop(self) -> None:
        """The server stops: no start waits any more (the stored events wait for the restart)."""
        for timer in self._timers.values():
            cancel_call(timer)
        self._timers.clear()

    def _tell(self, names: Iterable[str], message: Message) -> None:
        told: set[str] = set()
        for name in names:
            session = self.find(name)
            if session is not None and name.casefold() not in told:
                told.add(name.casefold())
                session.send(message)


def deal_scores(game: Game) -> list[DealScore]:
    """The scores of a game's deals, in order."""
    return [DealScore.of(played.result) for played in game.rounds if played.result is not None]


__all__ = ["EventBoard", "StandInWatch", "deal_scores"]
