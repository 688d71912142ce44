"""Tables: seats (four, or as many as the variant's people), spectators, options, the start.

Domain only: a table speaks in nicks, seats and ``Message`` values, and reaches
clients through the lookup it was given (a nick to its online ``Reader``, the
lobby's ``find``). Its state
is plain data (``Table.view``), ready to be stored later.

Seats are numbered 1-N as players see them (N: the variant's people, 4 for the
4-player game, where partners sit opposite, 1+3 and 2+4). Seats fill in join order. With ``tichujoin`` the first two joiners are partners:
they take seats 1 and 2, and ``start`` swaps seats 2 and 3 (rules.md §13.2).

What runs on a table's clock is in parts the table owns: `Presence` (who is away, the
grace, a game nobody is at), `Votes`, `VotedPause` and `QuickFill`; `TableHall`
(hall.py) holds all tables.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from contextlib import AbstractContextManager
from typing import Protocol

from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from bswtichu.server.text.i18n import _
from bswtichu.engine import NANJING, Card, GameOptions, Variant, seats_from_join_order, variant_named
from bswtichu.engine.game import COUNT_WORDS, OPTION_NAMES as GAME_OPTION_NAMES
from bswtichu.server.text import messages
from bswtichu.server.text.messages import Message, Refusal
from bswtichu.server.text.render import MACHINE
from bswtichu.server.tables.pause import VotedPause
from bswtichu.server.tables.presence import Presence
from bswtichu.server.tables.quickfill import BotName, QuickFill
from bswtichu.server.tables.votes import Votes

#: the table's options: the game's, and the variant (which sets the number of seats)
OPTION_NAMES = (*GAME_OPTION_NAMES, "variant")
MAX_ROUNDS = 100
#: the turn clock's limits (seconds per decision)
CLOCK_RANGE = range(1, 3601)


class Reader(Protocol):
    """An online client as a table tells him things (the lobby's `Session`)."""

    #: how he reads messages ("machine" shows fields only: no sentence is made for him)
    mode: str
    #: he asked for his legal actions whenever the round waits for him (``/legal push on``)
    legal_push: bool
    #: his ``/away`` text, or None while he is here
    away: str | None

    def send(self, message: Message) -> None:
        """One message."""

    def send_all(self, messages: list[Message]) -> None:
        """Several messages in order, in one call (a game step's)."""


#: The online client called ``nick``, or None; the lobby knows.
FindReader = Callable[[str], "Reader | None"]
#: A player's /away text as a viewer (a nick, or None for a spectator) reads it (`Chat.away_of`).
AwayOf = Callable[["Reader", "str | None"], "str | None"]


class RunningGame(Protocol):
    """What a started table needs from its game (the game wiring's `TableGame`)."""

    def start(self) -> None:
        """Deal the first round; the table has announced the seating."""

    def player_away(self, nick: str) -> None:
        """The player left the started table or lost his connection."""

    def player_back(self, nick: str) -> None:
        """The player took his held seat again."""

    def player_active(self, nick: str) -> None:
        """The seated player typed something (a stand-in the turn clock gave him stands aside)."""

    def stop(self) -> None:
        """The table closes before the game ended (or the server stops; a stored game comes back)."""

    def pause(self) -> None:
        """Nobody is present at the started table: bots wait."""

    def resume(self) -> None:
        """A seated person is back: the game goes on."""

    def abandon(self) -> None:
        """Nobody came back within ``abandon_after``: the game ends unfinished, for good."""

    def stand_in(self, nick: str) -> None:
        """The player will not come back (banned): a stand-in plays his seat from now on."""

    def replace(self, nick: str) -> str:
        """A bot plays the player's seat to the end of the game (a vote); returns its level."""

    def hand_over(self, nick: str, to: str) -> None:
        """The person ``to`` plays the player's seat, as him, to the end of the game (a vote)."""

    def partners(self, nick: str) -> list[object]:
        """Who plays the player's partner seats this round (his own further hands left out)."""

    def show_state(self, nick: str) -> None:
        """Tell ``nick`` the game as his seat sees it: score, table, hand, what is asked of him."""

    def made_private(self) -> None:
        """The table went private while the game runs: the game stays private for good."""


GameFactory = Callable[["Table"], "RunningGame | None"]


@dataclass(frozen=True)
class TableSettings:
    """What every table of a hall shares: how it reaches people, its clock, how long it waits.

    ``reader`` finds the online client of a name (what a table tells goes to him);
    ``away_of`` is how a player's /away text reads to a viewer (mutes and ignores count);
    ``clock_default`` is a new table's turn clock (the server's default); a vote not decided
    within ``vote_timeout`` seconds is refused; a voted pause lasts at most ``pause_limit``
    seconds; a seat is held ``reconnect_grace`` seconds before the start; a game nobody is at
    is abandoned after ``abandon_after`` seconds (a bots' game nobody watches after
    ``bot_game_after``); ``closing()`` is the reason the server stops soon, if it does (no
    game starts then); ``outbox`` gathers what is told at once into one write per client;
    ``hand_commands`` are the commands a second hand's sentences name as that hand's
    (`messages.hand_command_pattern`). The defaults are the hall's (`TableHall`), which makes them.
    """

    reader: FindReader
    clock: IReactorTime
    reconnect_grace: float
    game_factory: GameFactory | None
    abandon_after: float
    outbox: AbstractContextManager
    clock_default: int | None
    vote_timeout: float
    pause_limit: float
    bot_game_after: float
    away_of: AwayOf
    closing: Callable[[], str | None]
    hand_commands: re.Pattern[str]


class Table:
    """One table: who sits where, who watches, the options, whether it started.

    ``settings.game_factory(table)`` is called once by ``start`` after the final seating
    is announced; it is where the game wiring builds the engine's game and keeps it in
    ``table.game``. Without one, a started table only holds its seats.  Who is away and
    the timers waiting for people (`Presence`), the votes (`Votes`), the voted pause
    (`VotedPause`) and quick play's wait (`QuickFill`) are objects of their own that the
    table owns and that call back on it for what changes its seats.
    """

    log = Logger()

    def __init__(self, number: int, settings: TableSettings,
                 on_abandoned: Callable[[Table], None] = lambda table: None) -> None:
        """``on_abandoned(table)`` is told once the table closes by itself (nobody is left)."""
        self.number = number
        self.settings = settings
        self._reader = settings.reader
        self.away_of = settings.away_of
        #: ``with table.outbox:`` gathers what is told at once into one write per client
        #: (the lobby's `Outbox`; the game uses it for the steps bots take on the clock)
        self.outbox = settings.outbox
        self._on_abandoned = on_abandoned
        #: the form of the game (`/variant`): how many seats, the rules the game is built with
        self.variant: Variant = NANJING
        self.seats: list[str | None] = [None] * NANJING.players
        self.spectators: list[str] = []
        self.options = GameOptions(clock=settings.clock_default)
        self._clock_chosen = False  # a player set the clock: going private leaves it as set
        self.started = False
        self.game: RunningGame | None = None
        self.last_game: RunningGame | None = None  # the finished game, shown until the next start
        #: the deals its next game plays in order instead of shuffled ones (a duplicate event's
        #: round: `bswtichu.events.duplicate`), as many as its ``round`` option at least; the game
        #: wiring takes them when the game starts (None again then) and keeps them with the
        #: game, so a restored game deals them too
        self.preset_deals: tuple[tuple[Card, ...], ...] | None = None
        self.bots: dict[int, tuple[str, str]] = {}  # seat -> (bot name, level)
        #: ``/private on``: only those invited (names casefolded) may sit down or watch
        self.private = False
        self.invited: set[str] = set()
        #: seats a bot plays by vote until the game ends; their player no longer sits there
        self.replaced: set[int] = set()
        #: an event's table (`start_fixed`): what it is, e.g. "event 2 round 3"; None for others
        self.event: str | None = None
        #: called with the table once its game is over, before it opens again (an event's)
        self.on_game_over: Callable[[Table], None] | None = None
        #: called with the table when an admin closes it, its game still running (an event's)
        self.on_shut: Callable[[Table], None] | None = None
        #: raises `Refusal` for a name that may not watch (a duplicate round's other players)
        self.watch_check: Callable[[str], None] | None = None
        clock = settings.clock
        #: when the table opened: quick play seats a person at the open table waiting longest
        self.waiting_since = clock.seconds()
        self.presence = Presence(self, clock, settings.reconnect_grace, settings.abandon_after,
                                 settings.bot_game_after)
        self.votes = Votes(self, clock, settings.vote_timeout)
        self.pause = VotedPause(self, clock, settings.pause_limit)
        self.quick = QuickFill(self, clock)

    def __repr__(self) -> str:
        return f"<Table {self.number} {self.state} {self.seats}>"

    # -- who is here --------------------------------------------------------

    @property
    def seat_numbers(self) -> range:
        """The seats as people count them: 1..N."""
        return range(1, len(self.seats) + 1)

    def option_data(self) -> dict[str, object]:
        """The options as plain data; ``variant`` only where it is not the 4-player game
        (a 4-player table's fields are what they always were)."""
        data = self.options.as_data()
        if self.variant is not NANJING:
            data["variant"] = self.variant.name
        if self.event is not None:  # an event's table: what it is, and its games' exact length
            data["event"] = self.event
            data["exact_rounds"] = self.options.exact_rounds
        return data

    @property
    def state(self) -> str:
        """"open" (free seats), "full" (every seat taken, not started), "started", or "finished"
        (every seat taken, its game over and shown by /table and /score until the next /start)."""
        if self.started:
            return "started"
        if None in self.seats:
            return "open"
        return "full" if self.last_game is None else "finished"

    def seat_of(self, nick: str) -> int | None:
        """The seat ``nick`` plays (None for a player whose seat a bot took by vote)."""
        if nick in self.seats:  # as seated: the common case, no casefolding
            seat = self.seats.index(nick) + 1
            return None if seat in self.replaced else seat
        key = nick.casefold()
        for seat, sitting in zip(self.seat_numbers, self.seats):
            if sitting is not None and sitting.casefold() == key and seat not in self.replaced:
                return seat
        return None

    def nick_at(self, seat: int) -> str | None:
        return self.seats[seat - 1]

    def is_away(self, seat: int) -> bool:
        """The player of ``seat`` is away: his seat is held for him."""
        return seat in self.presence.away

    def is_watching(self, nick: str) -> bool:
        return nick.casefold() in (s.casefold() for s in self.spectators)

    def players(self) -> list[tuple[int, str]]:
        """(seat, nick) for every taken seat, away players included."""
        return [(seat, nick) for seat, nick in zip(self.seat_numbers, self.seats) if nick is not None]

    def view(self) -> dict[str, object]:
        """The table as plain data: what /tables shows and what a store would keep."""
        return {
            "table": self.number,
            "state": self.state,
            "seats": list(self.seats),
            "away": sorted(self.presence.away),
            "spectators": list(self.spectators),
            "options": self.option_data(),
            "bots": {str(seat): level for seat, (_unused, level) in sorted(self.bots.items())},
            "private": self.private,
        }

    # -- telling people -----------------------------------------------------

    def present_at(self, seat: int) -> str | None:
        """The player in ``seat`` if he is there to be told: not away, not replaced by a vote
        (he watches then, and hears what spectators hear)."""
        nick = self.seats[seat - 1]
        return None if seat in self.presence.away or seat in self.replaced else nick

    def tell_seat(self, seat: int, message: Message) -> None:
        """Tell the player in ``seat``, if he is there (away players miss it)."""
        nick = self.present_at(seat)
        if nick is not None:
            self._deliver(nick, message)

    def reader_at(self, seat: int) -> Reader | None:
        """The online client of the player in ``seat``, if he is there (away players miss steps)."""
        nick = self.present_at(seat)
        return None if nick is None else self._reader(nick)

    def tell_spectators_all(self, messages: list[Message], unsaid: Sequence[Message] = ()) -> None:
        """``messages`` to every spectator; ``unsaid`` of them to programs only (machine mode)."""
        if messages:
            said = [m for m in messages if not any(m is u for u in unsaid)] if unsaid else messages
            for nick in self.spectators:
                reader = self._reader(nick)
                if reader is not None:
                    reader.send_all(messages if reader.mode == MACHINE else said)

    def reader(self, nick: str) -> Reader | None:
        """The online client called ``nick``, if any."""
        return self._reader(nick)

    def _deliver(self, nick: str, message: Message) -> None:
        reader = self._reader(nick)
        if reader is not None:
            reader.send(message)

    def tell_players(self, message: Message) -> None:
        for seat in self.seat_numbers:
            self.tell_seat(seat, message)

    def tell_spectators(self, message: Message) -> None:
        for nick in self.spectators:
            self._deliver(nick, message)

    def tell_all(self, message: Message) -> None:
        """Tell everyone at the table: present players and spectators."""
        self.tell_players(message)
        self.tell_spectators(message)

    def tell_all_but(self, message: Message, skipped: Callable[[str], bool],
                     spectators_only: bool = False) -> None:
        """Chat: to everyone present (only the spectators, if so) whose nick ``skipped`` spares."""
        players = [] if spectators_only else [self.present_at(seat) for seat in self.seat_numbers]
        for nick in [nick for nick in players if nick is not None] + self.spectators:
            if not skipped(nick):
                self._deliver(nick, message)

    # -- changes ------------------------------------------------------------

    def sit(self, nick: str, seat: int | None = None) -> int:
        """Seat ``nick`` (the next free seat if none is named) or bring him back to his seat."""
        own = self.seat_of(nick)
        if own is not None:
            if own not in self.presence.away:
                raise Refusal("already_seated", _('you already sit at table %(self)s, seat %(own)s', self=self.number, own=own))
            if seat is not None and seat != own:
                raise Refusal(
                    "seat_mismatch", _('your seat at table %(self)s is %(own)s: /join %(self)s %(own)s', self=self.number, own=own)
                )
            self._come_back(nick, own)
            return own
        if self.started:
            raise Refusal(
                "table_started", _('table %(self)s has started; /watch %(self)s to watch it', self=self.number)
            )
        self._require_invitation(nick, "sit down")
        free = [s for s in self.seat_numbers if self.seats[s - 1] is None]
        if seat is None:
            if not free:
                raise Refusal(
                    "table_full",
                    _('table %(self)s is full; /watch %(self)s to watch, or /join alone to open a new table', self=self.number),
                )
            seat = free[0]
        elif seat not in self.seat_numbers:
            raise Refusal("bad_seat", _('seat %(seat)s does not exist; seats are 1-%(count)s', seat=seat, count=len(self.seats)))
        elif seat not in free:
            taken_by = self.seats[seat - 1]
            held = " (away, seat held)" if seat in self.presence.away else ""
            offer = f"free seats: {', '.join(map(str, free))}" if free else "no seat is free"
            raise Refusal("seat_taken", _('seat %(seat)s is taken by %(taken_by)s%(held)s; %(offer)s', seat=seat, taken_by=taken_by, held=held, offer=offer))
        self._drop_spectator(nick)
        self.seats[seat - 1] = nick
        self.tell_all(messages.joined(self.view(), seat, nick))
        return seat

    def watch(self, nick: str) -> None:
        seat = self.seat_of(nick)
        if seat is not None:
            if seat in self.presence.away:  # he left a started game: his seat waits for him
                raise Refusal("already_seated", _('your seat %(seat)s at table %(self)s is held for you (players cannot also watch): /join '
                                                  '%(self)s takes it back', seat=seat, self=self.number))
            raise Refusal("already_seated", _('you sit at table %(self)s; players cannot also watch', self=self.number))
        if self.is_watching(nick):
            raise Refusal("already_watching", _('you already watch table %(self)s', self=self.number))
        self._require_invitation(nick, "watch")
        if self.watch_check is not None:
            self.watch_check(nick)
        self.spectators.append(nick)
        self.tell_all(messages.spectator_joined(self.view(), nick))
        if self.game is not None:
            self.presence.wait_for_people()  # a watched game nobody plays waits the long time

    def leave(self, nick: str) -> None:
        """``nick`` goes back to the lobby: a seat before the start is freed, after it held."""
        seat = self.seat_of(nick)
        if seat is None:
            self._stop_watching(nick)
        elif self.started:
            self._deliver(nick, self._go_away(seat, grace=False))
        else:
            self._free(seat, "left")
        self._close_if_abandoned()

    def disconnect(self, nick: str) -> None:
        """``nick`` lost his connection: his seat is held for him, a spectator just goes."""
        seat = self.seat_of(nick)
        if seat is None:
            self._stop_watching(nick)
        else:
            self._go_away(seat, grace=True)
        self._close_if_abandoned()

    def set_option(self, nick: str, name: str, value: int | bool | str | None) -> None:
        """Set an option before the start; ``value`` None toggles tichujoin/turnier."""
        self._require_present_player(nick, f"change options at table {self.number}")
        if self.started:
            raise Refusal("table_started", _('table %(self)s has started; options are fixed', self=self.number))
        if name == "variant":
            self._set_variant(nick, value)
            return
        if name == "round":
            if value is not None and not (isinstance(value, int) and 1 <= value <= MAX_ROUNDS):
                raise Refusal("bad_option", _('round must be 1-%(max_rounds)s or off', max_rounds=MAX_ROUNDS))
            self._check_rounds(self.variant, value)
        elif name == "clock":
            if value is not None and not (isinstance(value, int) and value in CLOCK_RANGE):
                raise Refusal("bad_option", _('clock must be %(clock_range)s-%(clock_range2)s seconds or off', clock_range=CLOCK_RANGE[0], clock_range2=CLOCK_RANGE[-1]))
        elif name in ("tichujoin", "turnier"):
            if value is None:
                value = not self.option_data()[name]
            elif not isinstance(value, bool):
                raise Refusal("bad_option", _('%(name)s is on or off', name=name))
            if value and not self.variant.bsw_options:
                raise Refusal("bad_option", _('%(name)s is for the 4-player game, not %(title)s', name=name, title=self.variant.title))
        else:
            raise Refusal("bad_option", _('unknown option %(name)s; options: %(option_names)s', name=name, option_names=', '.join(OPTION_NAMES)))
        self.options = self.options.with_option(name, value)
        if name == "clock":
            self._clock_chosen = True
        self.tell_all(messages.option_set(self.number, name, value, nick, self.option_data()))

    def _set_variant(self, nick: str, name: object) -> None:
        """``/variant NAME``: the table gets the variant's number of seats; refused while a
        seat it would not have is taken, or while an option it has not is set."""
        try:
            variant = variant_named(str(name))
        except ValueError as error:
            raise Refusal("bad_option", str(error)) from None
        count = variant.players
        beyond = [(seat, who) for seat, who in zip(self.seat_numbers, self.seats) if seat > count and who]
        if beyond:
            taken = ", ".join(f"seat {seat} ({who})" for seat, who in beyond)
            raise Refusal("seats_taken", _('%(title)s has %(count)s seats, but %(taken)s is taken; free it first (/kick SEAT for a '
                                           'bot)', title=variant.title, count=count, taken=taken))
        if not variant.bsw_options:
            on = [option for option in ("tichujoin", "turnier") if self.options.as_data()[option]]
            if on:
                raise Refusal("bad_option", f"{' and '.join(on)} is for the 4-player game;"
                                            f" turn it off before /variant {variant.name}")
        self._check_rounds(variant, self.options.round_limit)
        self.variant = variant
        self.seats = (self.seats + [None] * count)[:count]
        self.tell_all(messages.option_set(self.number, "variant", variant.name, nick, self.option_data()))

    @staticmethod
    def _check_rounds(variant: Variant, rounds: int | None) -> None:
        """A game of a fixed number of rounds (Trichu) is a multiple of its people's number."""
        if variant.game_rounds is not None and rounds is not None and rounds % variant.players:
            raise Refusal("bad_option", _('a game of %(title)s is a multiple of %(players)s rounds (everyone deals equally often); '
                                          '%(rounds)s is not', title=variant.title, players=variant.players, rounds=rounds))

    def start(self, nick: str) -> None:
        """Fix the seating (the engine's tichujoin rule), announce it, then build and start the game."""
        self._require_present_player(nick, f"start table {self.number}")
        if self.started:
            raise Refusal("table_started", _('table %(self)s has already started', self=self.number))
        closing = self.settings.closing()
        if closing is not None:
            raise Refusal("shutting_down", _('the server stops soon (%(closing)s): no new game starts', closing=closing))
        seated = sum(1 for n in self.seats if n is not None)
        if seated < len(self.seats):
            raise Refusal(
                "not_enough_players",
                _('table %(self)s has %(seated)s of %(count)s players; /start needs %(get)s', self=self.number, seated=seated, count=len(self.seats), get=COUNT_WORDS.get(len(self.seats), len(self.seats))),
            )
        if self.presence.anyone_away:
            names = ", ".join(f"{self.seats[s - 1]} (seat {s})" for s in sorted(self.presence.away))
            raise Refusal("player_away", _('cannot start while %(names)s is away', names=names))
        self.quick.cancel()
        # the seats in the engine's order (generic over who plays, it gives back the names it is given)
        joined = seats_from_join_order(self.seats, self.options.tichujoin, self.variant)
        seating: list[str | None] = list(joined)  # type: ignore[arg-type]  # the seats, reordered
        swapped = seating != self.seats
        self.bots = {seating.index(name) + 1: (name, level) for name, level in self.bots.values()}
        self.seats = seating
        self._begin(swapped)

    def start_fixed(self, seats: Sequence[str], options: GameOptions, event: str,
                    absent: Collection[str]) -> None:
        """An event's table starts at once with ``seats`` as its pairing gave them (no
        tichujoin) and ``options``; the seats of the ``absent`` players are held for them (their
        stand-ins come after the game's grace, and they take their seats back with /join)."""
        self.seats = list(seats)
        self.options = options
        self.event = event
        self._begin(False)
        if self.game is None:
            return
        for seat, nick in self.players():
            if nick in absent:
                self.presence.hold(seat, timed=False)
                self.game.player_away(nick)

    def _begin(self, swapped: bool) -> None:
        """Announce the final seating, then build and start the game."""
        seating = self.seats
        self.started = True
        view = self.view()
        for seat in self.seat_numbers:
            self.tell_seat(seat, messages.started(view, swapped, seat, self.variant))
        self.tell_spectators(messages.started(view, swapped, None, self.variant))
        self.last_game = None
        self.log.info("table {table} starts: {seats}", table=self.number, seats=", ".join(seating),  # type: ignore[arg-type]  # all taken
                      event="table_start", bots={name: level for name, level in self.bots.values()})
        if self.settings.game_factory is not None:
            self.game = self.settings.game_factory(self)
            if self.game is not None:
                self.game.start()

    def add_bot(self, nick: str | None, seat: int | None, level: str, name: str) -> int:
        """Seat a computer player called ``name`` (a free seat if none is named) for the seated
        ``nick``, or for the server (None: quick play's bots)."""
        if nick is not None:
            self._require_present_player(nick, f"seat a bot at table {self.number}")
        if self.started:
            raise Refusal("table_started", _('table %(self)s has started; bots join before /start', self=self.number))
        free = [s for s in self.seat_numbers if self.seats[s - 1] is None]
        if seat is None:
            if not free:
                raise Refusal("table_full", _('table %(self)s is full', self=self.number))
            seat = free[0]
        elif seat not in free:
            raise Refusal("seat_taken", f"seat {seat} is taken; free seats: {', '.join(map(str, free)) or 'none'}")
        self.seats[seat - 1] = name
        self.bots[seat] = (name, level)
        self.tell_all(messages.bot_joined(self.view(), seat, name, level, nick))
        return seat

    def kick(self, nick: str, seat: int) -> None:
        """Remove the bot in ``seat`` before the start."""
        self._require_present_player(nick, f"remove a bot at table {self.number}")
        if self.started:
            raise Refusal("table_started", _('table %(self)s has started; bots stay until the end', self=self.number))
        if seat not in self.bots:
            who = self.seats[seat - 1] if seat in self.seat_numbers else None
            raise Refusal("not_a_bot", f"seat {seat} holds {'no bot' if who is None else who + ', not a bot'};"
                                       " /kick removes bots only")
        name, _unused = self.bots.pop(seat)
        self.seats[seat - 1] = None
        self.log.info("table {table}: {by} kicked the bot {name} from seat {seat}", table=self.number,
                      by=nick, name=name, seat=seat, event="kick")
        self.tell_all(messages.left(self.view(), seat, name, "kicked"))

    def give_up_seat(self, seat: int) -> None:
        """The held ``seat``'s player may not come back (banned): before the start the seat is
        freed; in a game a stand-in plays it at once, to the end."""
        nick = self.seats[seat - 1]
        if nick is None or seat not in self.presence.away:
            return
        if self.game is None:
            self._free(seat, "kicked")
            self._close_if_abandoned()
        else:
            self.game.stand_in(nick)

    def set_private(self, nick: str, private: bool | None) -> None:
        """``/private on|off`` (None toggles): a seated player closes or opens the table."""
        self._require_present_player(nick, f"make table {self.number} private")
        self.private = not self.private if private is None else private
        if self.private and self.game is not None:
            self.game.made_private()
        self.tell_all(messages.private_table(self.number, self.private, nick))
        default = self.settings.clock_default
        if not self.started and not self._clock_chosen and default is not None:
            # the server's default clock is for public tables; friends among themselves set one
            clock = None if self.private else default
            if clock != self.options.clock:
                self.options = self.options.with_option("clock", clock)
                self.tell_all(messages.option_set(self.number, "clock", clock, nick, self.option_data()))

    def invite(self, nick: str, guest: str) -> None:
        """A seated player lets ``guest`` sit down or watch (needed while the table is private)."""
        self._require_present_player(nick, f"invite to table {self.number}")
        if guest.casefold() in self.invited:
            raise Refusal("already_invited", _('%(guest)s is invited to table %(self)s already', guest=guest, self=self.number))
        self.invited.add(guest.casefold())
        self.tell_all(messages.invited(self.number, guest, nick))

    def _require_invitation(self, nick: str, what: str) -> None:
        if self.private and nick.casefold() not in self.invited:
            raise Refusal("private_table", _('table %(self)s is private: only invited players may %(what)s; ask a player there to '
                                             '/invite you', self=self.number, what=what))

    def is_bot(self, seat: int) -> bool:
        return seat in self.bots

    def restore(self, options: GameOptions, seats: list[str], bots: dict[int, tuple[str, str]],
                game: RunningGame, replaced: dict[str, str] | None = None,
                variant: Variant = NANJING) -> None:
        """A stored started table after a restart: every person's seat is held for him, the game
        waits; ``replaced`` (name -> level) are the players whose seat a bot took by vote."""
        self.options = options
        self.variant = variant
        self.seats = list(seats)
        self.bots = dict(bots)
        for name, level in (replaced or {}).items():
            seat = self.seats.index(name) + 1
            self.bots[seat] = (name, level)
            self.replaced.add(seat)
        self.started = True
        self.game = game
        for seat, nick in self.players():
            if seat not in self.bots:
                self.presence.hold(seat, timed=False)
                game.player_away(nick)
        self._close_if_abandoned()

    def shut(self, by: str, reason: str) -> list[str]:
        """An admin closes the table at once (``/close``): a running game ends unfinished for
        good (a restart does not bring it back), everyone at the table is told; returns the
        names that were there (present players, spectators), in the lobby now."""
        there = [nick for nick in map(self.present_at, self.seat_numbers) if nick is not None]
        there += self.spectators
        closed = messages.table_closed(self.number, by, reason)
        self.tell_all(closed)
        for seat in self.presence.away:  # players online elsewhere lose the seat held for them
            self._deliver(self.seats[seat - 1], closed)  # type: ignore[arg-type]  # a held seat is its player's
        self.log.info("table {table} closes: the admin {by} closed it ({reason})", table=self.number,
                      by=by, reason=reason, event="table_end")
        if self.game is not None and self.on_shut is not None:
            self.on_shut(self)
        if self.game is not None:
            self.game.abandon()
        self.close()
        self._on_abandoned(self)
        return there

    def end_game(self) -> None:
        """The game is over: the table is open for options and a new /start.

        A player still away whose grace ran out (or who left the started table) loses
        his seat now, as he would before a start; one still within the grace keeps it
        until the grace ends.
        """
        self.started = False
        self.last_game, self.game = self.game, None
        if self.on_game_over is not None:
            self.on_game_over(self)
        self.presence.stop_waiting()
        self.votes.cancel()
        self.pause.cancel()
        for seat in sorted(self.replaced):  # the bot that took the seat by vote goes with the game
            self.bots.pop(seat, None)
            self.seats[seat - 1] = None
        self.replaced.clear()
        self.tell_all(messages.table_reopened(self.view()))
        for seat in self.presence.grace_ran_out():
            self._free(seat, "timeout")
        self._close_if_abandoned()

    def close(self) -> None:
        """Cancel pending timers; the hall forgets the table."""
        if self.game is not None:
            self.game.stop()
        self.presence.cancel()
        self.quick.cancel()
        self.pause.cancel()
        self.votes.cancel()

    # -- quick play (`QuickFill`) ---------------------------------------------

    def fill_after(self, level: str, seconds: float, bot_name: BotName) -> None:
        """Quick play: after ``seconds`` bots of ``level`` fill the table (`QuickFill.fill_after`)."""
        self.quick.fill_after(level, seconds, bot_name)

    def start_if_full(self, nick: str) -> bool:
        """A quick-play table that ``nick`` just filled starts at once; True if it did."""
        return self.quick.start_if_full(nick)

    # -- votes (`Votes`, `VotedPause`) ------------------------------------------

    def ask_replace(self, nick: str, seat: int, to: str | None = None) -> None:
        """``/replace SEAT [NAME]``: ``nick`` asks to hand an away player's seat on (`Votes.ask_replace`)."""
        self.votes.ask_replace(nick, seat, to)

    def ask_pause(self, nick: str) -> None:
        """``/pause``: ``nick`` asks the table to pause the game."""
        self.votes.ask_pause(nick)

    def ask_continue(self, nick: str) -> None:
        """``/continue``: ``nick`` ends the voted pause, or asks the table to (`Votes.ask_continue`)."""
        self.votes.ask_continue(nick)

    def answer_vote(self, nick: str, yes: bool) -> None:
        """``/accept`` or ``/refuse``: ``nick`` answers the open vote."""
        self.votes.answer(nick, yes)

    def give_seat(self, seat: int, to: str | None) -> None:
        """A passed vote: the away player of ``seat`` loses it for the rest of the game, to the
        spectator ``to`` or to a bot (None); a vote the game has moved past does nothing."""
        player = self.seats[seat - 1]
        assert player is not None and self.game is not None
        if seat not in self.presence.away or self._reader(player) is not None:
            return  # he came back (or is online again) while the vote ran
        if to is not None and (not self.is_watching(to) or self._reader(to) is None):
            to = None  # he went while the vote ran: the seat goes to a bot
        self.presence.release(seat)
        if to is not None:
            self._hand_over(seat, player, to)
            return
        level = self.game.replace(player)
        self.bots[seat] = (player, level)
        self.replaced.add(seat)
        if self._reader(player) is not None:  # he is still here: he watches now
            self.spectators.append(player)
        self.tell_all(messages.replaced(self.view(), seat, player, level))
        self._close_if_abandoned()

    def _hand_over(self, seat: int, player: str, to: str) -> None:
        """``to`` leaves the spectators and plays the seat; ``player``, if online, watches."""
        assert self.game is not None
        self._drop_spectator(to)
        self.game.hand_over(player, to)
        self.seats[seat - 1] = to
        if self._reader(player) is not None:
            self.spectators.append(player)
        self.tell_all(messages.handed_over(self.view(), seat, player, to))
        self.game.show_state(to)
        self._close_if_abandoned()

    # -- internals ----------------------------------------------------------

    def _require_present_player(self, nick: str, what: str) -> None:
        if self.seat_of(nick) is None:
            raise Refusal("not_seated", _('only players seated at table %(self)s can %(what)s', self=self.number, what=what))

    def _go_away(self, seat: int, grace: bool) -> Message:
        """Hold ``seat`` for its player and say so; before the start only for ``reconnect_grace``."""
        nick = self.seats[seat - 1]
        assert nick is not None
        self.presence.hold(seat, timed=grace or not self.started)
        message = messages.away(self.number, seat, nick, None if self.started else self.presence.grace)
        self.tell_all(message)
        if self.game is not None:
            self.game.player_away(nick)
        return message

    def grace_ended(self, seat: int) -> None:
        """`Presence`: the grace of the player away from ``seat`` ran out; before the start he
        loses the seat."""
        if not self.started:
            self._free(seat, "timeout")
        self._close_if_abandoned()

    def _come_back(self, nick: str, seat: int) -> None:
        self.presence.release(seat)
        self._drop_spectator(nick)
        self.seats[seat - 1] = nick
        self.tell_all(messages.returned(self.view(), seat, nick))
        if self.game is not None:
            self.game.player_back(nick)
            if self.presence.stop_waiting() and not self.pause.on:
                self.game.resume()

    def _free(self, seat: int, reason: str) -> None:
        nick = self.seats[seat - 1]
        assert nick is not None
        self.presence.release(seat)
        self.seats[seat - 1] = None
        message = messages.left(self.view(), seat, nick, reason)
        self.tell_all(message)
        if reason == "left":
            self._deliver(nick, message)

    def _stop_watching(self, nick: str) -> None:
        if self._drop_spectator(nick):
            message = messages.spectator_left(self.number, nick)
            self.tell_all(message)
            self._deliver(nick, message)

    def _drop_spectator(self, nick: str) -> bool:
        key = nick.casefold()
        for index, spectator in enumerate(self.spectators):
            if spectator.casefold() == key:
                del self.spectators[index]
                return True
        return False

    @property
    def bots_game(self) -> bool:
        """Bots hold every seat but one person's at most: a game nobody else plays with him."""
        return sum(1 for seat, _unused in self.players() if seat not in self.bots) <= 1

    def _close_if_abandoned(self) -> None:
        """An unstarted table closes once empty; a started one once nobody is left or expected.

        A running game is not closed but paused while no seated person is present,
        and abandoned only after ``abandon_after`` (`Presence.wait_for_people`).
        """
        if self.started and self.game is not None:
            if self.event is None:  # an event's game goes on with stand-ins: its round waits for it
                self.presence.wait_for_people()
            return
        if self.spectators:
            return
        if self.started:
            if self.presence.people_present() or self.presence.within_grace:
                return
        elif any(s not in self.bots for s, _unused in self.players()):
            return
        self.log.info("table {table} closes: nobody is left", table=self.number, event="table_end")
        self.close()
        self._on_abandoned(self)

    def nobody_came_back(self) -> None:
        """`Presence`: the running game waited in vain; it ends unfinished, the table closes."""
        self.log.info("table {table} closes: nobody came back to its game", table=self.number,
                      event="table_end")
        if self.game is not None:
            self.game.abandon()
        self.close()
        self._on_abandoned(self)
