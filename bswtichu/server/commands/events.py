"""The events' commands: /newevent, /enter, /withdraw, /events, /event, /standings, /cancelevent.

Each reads its words, refuses bad ones with one line (what was wrong, the usage), and asks
the `EventBoard` (server/events) in domain terms. Who may create an event is an admin, or
any registered player when ``[events] players_create`` says so; who may cancel one, an admin
or its creator.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bswtichu import names
from bswtichu.config import LiveConfig
from bswtichu.events.formats import FORMAT_NAMES
from bswtichu.server.text.i18n import _
from bswtichu.server.commands.registry import CommandGroup, command, wrong_use
from bswtichu.server.events import messages
from bswtichu.server.events.board import EventBoard
from bswtichu.server.events.record import OPEN, RUNNING, EventRecord
from bswtichu.server.numbers import is_number
from bswtichu.server.session import Session
from bswtichu.server.text.messages import Refusal

#: an event's limits: rounds, deals per round, the turn clock's seconds, its name's length
ROUNDS, DEALS, CLOCK, NAME_LENGTH = range(1, 31), range(1, 21), range(5, 3601), 60
#: a start time: in minutes (+M) or an hour of the day, UTC (HH:MM)
IN_MINUTES, AT_TIME = re.compile(r"\+([0-9]{1,4})"), re.compile(r"([0-9]{1,2}):([0-9]{2})")
DAY = 24 * 3600.0


def start_time(word: str, now: float) -> float:
    """``+M``: M minutes from now; ``HH:MM``: the next such time of day (UTC)."""
    minutes = IN_MINUTES.fullmatch(word)
    if minutes:
        return now + 60.0 * int(minutes.group(1))
    clock = AT_TIME.fullmatch(word)
    if clock and int(clock.group(1)) < 24 and int(clock.group(2)) < 60:
        wanted = int(clock.group(1)) * 3600 + int(clock.group(2)) * 60
        start = now - now % DAY + wanted
        return start if start > now else start + DAY
    raise wrong_use(_('the start is +MINUTES or HH:MM (UTC), not %(word)r', word=word))


def _number_in(word: str, allowed: range, what: str) -> int:
    if not is_number(word) or int(word) not in allowed:
        raise wrong_use(_('%(what)s must be %(allowed)s-%(allowed2)s, not %(word)r', what=what, allowed=allowed[0], allowed2=allowed[-1], word=word))
    return int(word)


class EventCommands(CommandGroup):
    """The commands over the ``board`` of events; ``may_create(name)`` says who opens one."""

    def __init__(self, board: EventBoard, may_create: Callable[[str], bool],
                 is_registered: Callable[[str], bool], live: LiveConfig,
                 score: Callable[..., object], is_admin: Callable[[str], bool] = lambda name: False) -> None:
        """``score``: /score, which /standings alone at a table is (as it always was);
        ``is_admin(name)``: whether name is an admin's (who may cancel any event)."""
        self.board = board
        self.is_admin = is_admin
        self.score = score
        self.may_create = may_create
        self.is_registered = is_registered
        self.live = live

    def _event(self, word: str) -> EventRecord:
        if not is_number(word):
            raise wrong_use(_("an event's number (/events lists them), not %(word)r", word=word))
        return self.board.get(int(word))

    @command("newevent", group="events", usage="/newevent FORMAT ROUNDS DEALS CLOCK START [registered] NAME",
             summary=_("open an event across tables (admins)"),
             help=_("Opens an event: FORMAT individual, pairs or duplicate; ROUNDS (1-30) rounds of DEALS (1-20)"
             " deals each; CLOCK the turn clock in seconds (5-3600, required); START +MINUTES from"
             " now or HH:MM (UTC); 'registered' lets only registered players enter (else"
             " everyone); NAME the rest of the line. Players enter with /enter until the start;"
             " then the event seats every round itself. Admins only, unless the server lets"
             " registered players open events too."))
    def newevent(self, session: Session, args: str) -> None:
        words = args.split()
        if len(words) < 6:
            raise wrong_use(_('format, rounds, deals, clock, start and a name'))
        if not self.may_create(session.name):
            raise Refusal("not_allowed", "only admins open events here" if not self.live.current.players_create_events
                          else "only registered players and admins open events")
        kind = words[0].lower()
        if kind not in FORMAT_NAMES:
            raise wrong_use(f"the format is {' or '.join(FORMAT_NAMES)}, not {words[0]!r}")
        rounds = _number_in(words[1], ROUNDS, "rounds")
        deals = _number_in(words[2], DEALS, "deals per round")
        clock = _number_in(words[3], CLOCK, "the clock")
        start = start_time(words[4], self.board.clock.seconds())
        entry = "registered" if words[5].lower() == "registered" else "everyone"
        name = " ".join(words[6:] if entry == "registered" else words[5:])
        if not name or len(name) > NAME_LENGTH:
            raise wrong_use(_('the name is 1-%(name_length)s characters', name_length=NAME_LENGTH))
        event = self.board.create(EventRecord(0, name, kind, start, rounds, deals, clock, entry,
                                              session.name, 0))
        session.send(messages.created(event.summary()))

    @command("enter", group="events", usage="/enter EVENT [with PARTNER]",
             summary=_("enter an event before its start (pairs: with your partner)"),
             help=_("/enter EVENT enters you in an individual event. A pair enters a pairs event"
             " together: each types /enter EVENT with PARTNER, naming the other (the second"
             " confirms the first). Entries close at the start; the event then seats you itself."))
    def enter(self, session: Session, args: str) -> None:
        words = args.split()
        if not words or len(words) not in (1, 3) or (len(words) == 3 and words[1].lower() != "with"):
            raise wrong_use(_("an event's number, and for a pairs event 'with PARTNER'"))
        event = self._event(words[0])
        if event.state != OPEN:
            raise Refusal("event_started", _('event %(event)s is %(state)s: entries are closed', event=event.number, state=event.state))
        partner = words[2] if len(words) == 3 else None
        if event.unit_size == 2 and partner is None:
            raise wrong_use(_('event %(event)s is for pairs: /enter %(event)s with PARTNER', event=event.number))
        if event.unit_size == 1 and partner is not None:
            raise wrong_use(_('event %(event)s is individual: /enter %(event)s alone', event=event.number))
        if partner is not None:
            self._check_partner(session.name, partner)
        for who in [session.name] + ([partner] if partner else []):
            if event.entry == "registered" and not self.is_registered(who):
                raise Refusal("not_registered", _('event %(event)s is for registered players; %(who)s is not', event=event.number, who=who))
        session.send(self.board.enter(event, session.name, partner))

    @staticmethod
    def _check_partner(nick: str, partner: str) -> None:
        if not names.is_valid(names.normalize(partner)):
            raise wrong_use(_('%(partner)r is no name (%(name_rule)s)', partner=partner, name_rule=names.NAME_RULE))
        if partner.casefold() == nick.casefold():
            raise wrong_use(_('your partner is another player'))

    @command("withdraw", group="events", usage="/withdraw EVENT",
             summary=_("leave an event (before its start: your entry goes)"),
             help=_("Before the start your entry (or your pair's, or your offer) goes. Once the event"
             " runs, no later round seats you (nor your pair); your current game plays on."))
    def withdraw(self, session: Session, args: str) -> None:
        if not args or " " in args:
            raise wrong_use(_("an event's number"))
        session.send(self.board.withdraw(self._event(args), session.name))

    @command("events", group="events", usage="/events", summary=_("list the events"),
             help=_("One line per event: number, state (open, running, finished, cancelled), name,"
             " format, rounds, deals, clock, how many entered."))
    def events(self, session: Session, args: str) -> None:
        session.send(messages.listing([e.summary() for e in sorted(self.board.events.values(),
                                                                   key=lambda e: e.number)]))

    @command("event", group="events", usage="/event EVENT", summary=_("an event's whole record"),
             help=_("The event's settings, entrants, every round's tables with their games' numbers"
             " (/review N replays a finished one) and byes, and the standings so far."))
    def event(self, session: Session, args: str) -> None:
        if not args or " " in args:
            raise wrong_use(_("an event's number"))
        event = self._event(args)
        session.send(messages.record(event))

    @command("standings", group="events", usage="/standings [EVENT]",
             summary=_("an event's standings (at a table alone: /score)"),
             help=_("The standings after the rounds played: place, victory points, points (the"
             " tie-break), and how many games a stand-in played part of. Without a number: at a"
             " table, its score (/score); elsewhere the latest event you entered, else the latest event."))
    def standings(self, session: Session, args: str) -> None:
        if " " in args:
            raise wrong_use(_("one event's number"))
        if not args and session.table is not None:
            self.score(session, args)
            return
        event = self._event(args) if args else self.board.latest_for(session.name)
        if event is None:
            raise Refusal("no_such_event", _('there are no events; /events lists them'))
        session.send(messages.standings_message(event, event.state not in (OPEN, RUNNING)))

    @command("cancelevent", group="events", usage="/cancelevent EVENT [REASON]",
             summary="cancel an event before it ends (admins, its creator)",
             help="Cancels an event that is open or running: its current round's games end"
                  " unfinished (their tables close), no later round is seated, and everyone entered"
                  " is told, with REASON. Kept as cancelled: /event shows the rounds played. Admins,"
                  " and the event's creator.")
    def cancelevent(self, session: Session, args: str) -> None:
        word, _, reason = args.strip().partition(" ")
        if not word:
            raise wrong_use("an event's number, and a reason if you like")
        event = self._event(word)
        creator = event.creator.casefold() == session.name.casefold() and self.is_registered(session.name)
        if not creator and not self.is_admin(session.name):
            raise Refusal("not_allowed", f"only an admin or its creator ({event.creator}) cancels event {event.number}")
        self.board.cancel(event, session.name, reason.strip() or "no reason given")


__all__ = ["EventCommands", "start_time"]
