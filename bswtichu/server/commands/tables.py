"""The commands around tables: list, join, leave, watch, options, votes, start.

They parse arguments and keep ``Session.table`` in step; the rules about seats, options and
votes live in ``Table``.
"""

from __future__ import annotations

from bswtichu import names
from bswtichu.bots import LEVELS
from bswtichu.config import LiveConfig
from bswtichu.engine import VARIANTS
from bswtichu.server.commands.common import OFF_WORDS, current_table, switch
from bswtichu.server.text.i18n import _
from bswtichu.server.commands.registry import CommandGroup, command, wrong_use
from bswtichu.server.numbers import is_number
from bswtichu.server.people.chat import Chat
from bswtichu.server.session import Session
from bswtichu.server.tables.hall import TableHall
from bswtichu.server.tables.table import CLOCK_RANGE, MAX_ROUNDS, OPTION_NAMES, Table
from bswtichu.server.text import messages
from bswtichu.server.text.messages import Refusal

#: The options /option takes, as a refusal names them.
OPTION_FORMS = ("options: round X|off, tichujoin [on|off], turnier [on|off], clock SECONDS|off,"
                f" variant {'|'.join(VARIANTS)}")
#: /option's other names for an option
OPTION_ALIASES = {"tournament": "turnier", "rounds": "round", "zeit": "clock"}


def _numbers(args: str, called: tuple[str, ...]) -> list[int]:
    """The numbers ``args`` gives, at most one for each of ``called`` (what the usage calls them)."""
    words = args.split()
    if len(words) > len(called):
        raise wrong_use(_('too many arguments'))
    numbers = []
    for name, word in zip(called, words):
        if not is_number(word):
            raise wrong_use(_('%(name)s must be a number, not %(word)r', name=name, word=word))
        numbers.append(int(word))
    return numbers


def _round_value(word: str) -> int | None:
    if word.lower() in OFF_WORDS:
        return None
    if not is_number(word) or not 1 <= int(word) <= MAX_ROUNDS:
        raise wrong_use(_('X is a number of hands from 1 to %(max_rounds)s, or off', max_rounds=MAX_ROUNDS))
    return int(word)


def _clock_value(word: str) -> int | None:
    if word.lower() in OFF_WORDS:
        return None
    if not is_number(word) or int(word) not in CLOCK_RANGE:
        raise wrong_use(_('SECONDS is a number from %(clock_range)s to %(clock_range2)s, or off', clock_range=CLOCK_RANGE[0], clock_range2=CLOCK_RANGE[-1]))
    return int(word)


def _listed(tables: list[Table]) -> str:
    return ", ".join(str(t.number) for t in sorted(tables, key=lambda t: t.number))


def _refuse_held_seat(hall: TableHall, session: Session, unless: int | None = None) -> None:
    """Refused while the person's seat at a started table (other than table ``unless``) is
    held for him: he goes back to it."""
    held = hall.held_seat(session.name)
    if held is not None and (unless is None or held[0].number != unless):
        table, own = held
        raise Refusal("seat_held", _('your seat %(own)s at table %(table)s is held for you: /join %(table)s %(own)s', own=own, table=table.number))


class TableCommands(CommandGroup):
    """The table commands, working on the tables in ``hall``, within the current limits
    (``live``); the invitee of /invite is found as the tables find their readers, and told as
    ``chat`` lets a person reach another (not while muted, not one who ignores him)."""

    def __init__(self, hall: TableHall, live: LiveConfig, chat: Chat) -> None:
        self.hall = hall
        self.live = live
        self.chat = chat
        #: each table still open -> who opened it: his connection, his name then, its address
        self.opened: dict[Table, tuple[Session, str, str]] = {}

    def open_table(self, session: Session) -> Table:
        """A new table, unless the server, this person (his connection, or his name from
        another) or his address has as many as allowed: a new name is not a new person."""
        config = self.live.current
        if len(self.hall) >= config.max_tables:
            raise Refusal("too_many_tables", _('the server has its limit of %(max_tables)s tables; /tables lists them, /join TABLE sits '
                                               'down', max_tables=config.max_tables))
        for table in [t for t in self.opened if self.hall.get(t.number) is not t]:
            del self.opened[table]  # closed since
        key = names.key(session.nick)
        mine = [t for t, (by, name, _unused) in self.opened.items() if by is session or name == key]
        if len(mine) >= config.tables_per_person:
            raise Refusal("table_limit", _('you opened %(count)s tables that are still there (%(listed)s); at most '
                                           '%(tables_per_person)s', count=len(mine), listed=_listed(mine), tables_per_person=config.tables_per_person))
        address = session.address
        if address and address not in config.uncapped:  # the bridge's users: per connection only
            ours = [t for t, (_session, _name, by_address) in self.opened.items() if by_address == address]
            if len(ours) >= config.tables_per_address:
                raise Refusal("table_limit", _('%(count)s tables opened from your address are still there (%(listed)s); at most '
                                               '%(tables_per_address)s', count=len(ours), listed=_listed(ours), tables_per_address=config.tables_per_address))
        table = self.hall.open()
        self.opened[table] = (session, key, address)
        return table

    @command("tables", group="lobby", german="tische", usage="/tables",
             summary=_("list the tables: seats, options, state"),
             help=_("One line per table: number, state (open, full, started), who sits in"
             " seats 1-4 (1-6, 1-3 by /variant; away players keep their seat), options, spectators."))
    def list_tables(self, session: Session, args: str) -> None:
        session.send(messages.tables([table.view() for table in self.hall]))

    @command("join", group="table", usage="/join [TABLE] [SEAT]",
             summary=_("sit down (alone: open a new table)"),
             help=_("/join opens a new table and seats you. /join TABLE takes the next free seat"
             " there (seats fill in join order); /join TABLE SEAT takes seat 1-4 (1-6, 1-3 by"
             " /variant). Partners sit opposite: seats 1+3 and 2+4. If you lost your connection, /join TABLE SEAT with"
             " the same name puts you back in your seat."))
    def join(self, session: Session, args: str) -> None:
        numbers = _numbers(args, ("TABLE", "SEAT"))
        wanted = numbers[0] if numbers else None
        seat = numbers[1] if len(numbers) > 1 else None
        if seat is not None:
            asked = self.hall.get(numbers[0])  # a seat comes after its table
            count = len(asked.seats) if asked is not None else max(v.players for v in VARIANTS.values())
            if not 1 <= seat <= count:
                raise wrong_use(_('seats are 1-%(count)s', count=count))
        here = session.table
        if here is not None and here.number != wanted:
            raise Refusal("at_table", _('you are at table %(here)s; /leave it first', here=here.number))
        _refuse_held_seat(self.hall, session, unless=wanted)
        table: Table | None
        if wanted is None:
            table = self.open_table(session)
        else:
            table = self.hall.get(wanted)
            if table is None:
                raise Refusal(
                    "no_such_table",
                    _('there is no table %(wanted)s; /tables lists them, /join alone opens a new one', wanted=wanted),
                )
        table.sit(session.name, seat)
        session.table = table

    @command("quick", group="table", german="schnell", usage="/quick [LEVEL]",
             summary=_("sit down at once: the table waiting longest, or a new one with bots"),
             help=_('Seats you at the open table that has waited longest for a player. If none is '
                     'waiting, opens a table for you: after a short wait, unless people fill it, bots '
                     'of LEVEL (%(levels)s; default basic) take the free seats and it starts. A quick '
                     'table that people fill starts at once.',
                    levels=', '.join(LEVELS)))
    def quick(self, session: Session, args: str) -> None:
        level = args.strip().lower() or "basic"
        if level not in LEVELS or " " in level:
            raise wrong_use(_('levels: %(levels)s', levels=', '.join(LEVELS)))
        if session.table is not None:
            raise Refusal("at_table", _('you are at table %(table)s; /leave it first', table=session.table.number))
        _refuse_held_seat(self.hall, session)
        nick = session.name
        table = self.hall.longest_waiting()
        if table is not None:
            seat = table.sit(nick)
            session.table = table
            session.send(messages.quick(table.number, seat, None, None))
            table.start_if_full(nick)
            return
        table = self.open_table(session)
        seat = table.sit(nick)
        session.table = table
        wait = self.live.current.quick_wait
        table.fill_after(level, wait, self.hall.bot_name)
        session.send(messages.quick(table.number, seat, level, wait))

    @command("leave", group="table", german="verlassen", usage="/leave",
             summary=_("stand up or stop watching; back to the lobby"),
             help=_("Before the start your seat is freed. At a started table your seat stays"
             " held for you: /join TABLE SEAT returns."))
    def leave(self, session: Session, args: str) -> None:
        current_table(session).leave(session.name)
        session.table = None

    @command("watch", group="table", german="zuschauen", aliases=("spectate",), usage="/watch TABLE",
             summary=_("watch a table as a spectator"),
             help=_("You see the table's announcements and chat; /leave stops watching."))
    def watch(self, session: Session, args: str) -> None:
        numbers = _numbers(args, ("TABLE",))
        if not numbers:
            raise wrong_use(_('which table? /tables lists them'))
        table = self.hall.get(numbers[0])
        if table is None:
            raise Refusal("no_such_table", _('there is no table %(numbers)s; /tables lists them', numbers=numbers[0]))
        if session.table is not None:
            raise Refusal("at_table", _('you are at table %(table)s; /leave it first', table=session.table.number))
        table.watch(session.name)
        session.table = table

    @command("round", group="table", german="runden", aliases=("rounds",), usage="/round X|off",
             summary=_("option: end the game after X hands"),
             help=_('The game ends after X hands (1-%(max_rounds)s) even below 1000 points; off plays '
                     'to 1000. Ignored under turnier. Players only, before the start.',
                    max_rounds=MAX_ROUNDS))
    def set_round(self, session: Session, args: str) -> None:
        if not args or " " in args:
            raise wrong_use(_('how many hands?'))
        current_table(session).set_option(session.name, "round", _round_value(args))

    @command("tichujoin", group="table", usage="/tichujoin [on|off]",
             summary=_("option: the first two joiners are partners"),
             help=_("The first two joiners take seats 1 and 2; at /start seats 2 and 3 swap, so"
             " they sit opposite as partners. Without on/off it toggles."))
    def set_tichujoin(self, session: Session, args: str) -> None:
        current_table(session).set_option(session.name, "tichujoin", switch(args))

    @command("turnier", group="table", aliases=("tournament",), usage="/turnier [on|off]",
             summary=_("option: tournament of 9 hands"),
             help=_("Nine hands; everyone partners everyone three times; victory points decide,"
             " then Tichu points. No Grand Tichu. Without on/off it toggles."))
    def set_turnier(self, session: Session, args: str) -> None:
        current_table(session).set_option(session.name, "turnier", switch(args))

    @command("clock", group="table", german="zeit", usage="/clock [SECONDS|off]",
             summary=_("option: the turn clock, seconds per decision"),
             help=_('Each decision the game waits for from you (Grand Tichu, the exchange, your turn, '
                     'the Dragon gift, the wish) must come within SECONDS '
                     '(%(clock_range_low)s-%(clock_range_high)s); the prompt shows the time left, and '
                     '10 seconds before the end you are warned. When it runs out a bot makes that one '
                     'decision for you; after two in a row it plays for you until you type anything. '
                     'Bombs and Tichu calls out of turn are not timed. off: untimed. Alone, shows the '
                     "table's options. Players only, before the start.",
                    clock_range_low=CLOCK_RANGE[0], clock_range_high=CLOCK_RANGE[-1]))
    def set_clock(self, session: Session, args: str) -> None:
        table = current_table(session)
        if not args:
            session.send(messages.options(table.number, table.options.as_data()))
            return
        if " " in args:
            raise wrong_use(_('one number of seconds, or off'))
        table.set_option(session.name, "clock", _clock_value(args))

    @command("variant", group="table", usage=f"/variant [{'|'.join(VARIANTS)}]",
             summary=_("option: the form of the game (4-player, Tientsin for 6, Trichu for 3, Duo for 2)"),
             help=_("nanjing: the 4-player game. tientsin: six players in two teams of three"
             " (seats 1+3+5 against 2+4+6). trichu: three people, each round the dealer also"
             " plays the dummy's open hand opposite him (/dummy COMMAND). duo: two people, each"
             " playing both hands of a team (seats 1+3 against 2+4), the second with /second"
             " COMMAND. The table gets the"
             " variant's number of seats; refused while a seat it would not have is taken, or"
             " with tichujoin or turnier on (4-player only); Trichu's round X is a multiple of 3."
             " Alone, shows the table's options. Players only, before the start."))
    def set_variant(self, session: Session, args: str) -> None:
        table = current_table(session)
        if not args:
            session.send(messages.options(table.number, table.option_data()))
            return
        if " " in args:
            raise wrong_use(_('one variant: %(variants)s', variants=', '.join(VARIANTS)))
        table.set_option(session.name, "variant", args)

    @command("option", group="table", aliases=("options",), usage="/option [NAME [VALUE]]",
             summary=_("show the table's options, or set one"),
             help=_("Alone, shows the options of your table. /option round X|off,"
             " /option tichujoin [on|off], /option turnier [on|off] and /option clock"
             " SECONDS|off and /option variant NAME do the same as /round, /tichujoin, /turnier,"
             " /clock and /variant."))
    def option(self, session: Session, args: str) -> None:
        table = current_table(session)
        name, _sep, value = args.partition(" ")
        value = value.strip()
        name = OPTION_ALIASES.get(name.lower(), name.lower())
        if not name:
            session.send(messages.options(table.number, table.options.as_data()))
        elif name == "round":
            if not value:
                raise wrong_use(_('round needs X; %(option_forms)s', option_forms=OPTION_FORMS))
            table.set_option(session.name, "round", _round_value(value))
        elif name == "clock":
            if not value:
                raise wrong_use(_('clock needs SECONDS; %(option_forms)s', option_forms=OPTION_FORMS))
            table.set_option(session.name, "clock", _clock_value(value))
        elif name == "variant":
            if not value or " " in value:
                raise wrong_use(_('variant needs one NAME; %(option_forms)s', option_forms=OPTION_FORMS))
            table.set_option(session.name, "variant", value)
        elif name in OPTION_NAMES:
            table.set_option(session.name, name, switch(value))
        else:
            raise wrong_use(_('no option %(name)r; %(option_forms)s', name=name, option_forms=OPTION_FORMS))

    @command("replace", group="game", german="ersetzen", usage="/replace SEAT [NAME]",
             summary=_("vote: a waiting person or a bot plays an away player's seat to the end"),
             help=_("Asks the people seated at your table to hand SEAT for the rest of the game to"
             " NAME, a person watching the table, or without NAME to a bot: the seat of a player"
             " who is away and offline (an online player's seat is his to take back). NAME"
             " plays it as that player (his cards, calls and points). A majority of the people"
             " seated and present and the player asked about (he counts, here or not) decides"
             " with /accept or /refuse, and NAME also needs the yes of the player's partners;"
             " no answer in time counts as refused. The player may still /watch."))
    def replace_seat(self, session: Session, args: str) -> None:
        words = args.split()
        if not words or len(words) > 2 or not is_number(words[0]):
            raise wrong_use(_('which seat (1-N), and, if a person watching takes it, his name'))
        current_table(session).ask_replace(session.name, int(words[0]), words[1] if len(words) == 2 else None)

    @command("accept", group="game", german="annehmen", usage="/accept",
             summary=_("vote yes on the table's open vote"),
             help=_("Says yes to the vote open at your table (/replace, /pause, /continue)."))
    def accept(self, session: Session, args: str) -> None:
        current_table(session).answer_vote(session.name, True)

    @command("refuse", group="game", german="ablehnen", usage="/refuse",
             summary=_("vote no on the table's open vote"),
             help=_("Says no to the vote open at your table (/replace, /pause, /continue)."))
    def refuse(self, session: Session, args: str) -> None:
        current_table(session).answer_vote(session.name, False)

    @command("pause", group="game", german="anhalten", usage="/pause",
             summary=_("vote: pause the game"),
             help=_("Asks the people seated to pause the game: no bot moves and no turn clock"
             " runs until a /continue vote passes, or for at most a few minutes (the server's"
             " pause limit). A majority decides (/accept, /refuse)."))
    def pause(self, session: Session, args: str) -> None:
        current_table(session).ask_pause(session.name)

    @command("continue", group="game", german="weiter", usage="/continue",
             summary=_("vote: go on with a paused game"),
             help=_("Asks the people seated to go on with a game paused by vote; /resume alone"
             " at the table does the same. A majority decides (/accept, /refuse); but a player"
             " who did not vote for the pause ends it at once while everyone is present."))
    def go_on(self, session: Session, args: str) -> None:
        current_table(session).ask_continue(session.name)

    @command("start", group="table", usage="/start",
             summary=_("start the game once every seat is taken"),
             help=_("Any seated player may start once every seat of the table is taken (four; six,"
             " three or two at a Tientsin, Trichu or Duo table) and nobody is away. The final"
             " seating is announced: in the 4-player game partners are seats 1+3 and 2+4."))
    def start(self, session: Session, args: str) -> None:
        current_table(session).start(session.name)

    @command("private", group="table", german="privat", usage="/private [on|off]",
             summary=_("only invited players may sit down or watch"),
             help=_("A seated player makes the table private: from then on only players named"
             " with /invite may sit down or watch (those already there stay). Without on/off it"
             " toggles."))
    def private(self, session: Session, args: str) -> None:
        current_table(session).set_private(session.name, switch(args))

    @command("invite", group="table", german="einladen", usage="/invite NAME",
             summary=_("let NAME sit down or watch at your private table"),
             help=_("A seated player invites NAME (online): he is told (unless he ignores you), and"
             " may /join or /watch the table even while it is private. Not while you are muted."))
    def invite(self, session: Session, args: str) -> None:
        table = current_table(session)
        if len(args.split()) != 1:
            raise wrong_use(_('one name'))
        guest: Session | None = table.reader(names.normalize(args))  # type: ignore[assignment]  # readers: sessions
        if guest is None:
            raise Refusal("no_such_user", _('nobody called %(args)s is online; /who lists who is', args=args[:40]))
        self.chat.check_voice(session)
        nick = session.name
        table.invite(nick, guest.name)
        self.chat.tell(session, guest, messages.invitation(table.number, nick))
