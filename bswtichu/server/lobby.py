"""The lobby: who is online, names, chat, private messages, and the command set.

``Lobby`` is the server's domain root (the realm, in twisted.words terms). The
net layer calls ``connect``, ``receive`` and ``disconnect``; everything a client
is told goes out as ``Message`` values through its ``Session``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from bswtichu import __version__
from bswtichu.config import ServerConfig
from bswtichu.server import messages, names
from bswtichu.server.commands import (
    SECRET_COMMANDS, Command, CommandRegistry, help_command, is_number, usage_error,
)
from bswtichu.server.messages import Message, Refusal
from bswtichu.server.render import MODES
from bswtichu.server.session import Connection, Outbox, Session
from bswtichu.server.table import GameFactory, TableHall
from bswtichu.server.display_commands import display_commands
from bswtichu.server.game_commands import game_commands
from bswtichu.server.gamelogs import GameLogStore
from bswtichu.server.table_commands import table_commands
from bswtichu.server.account_commands import account_commands
from bswtichu.server.accounts import NameGuard
from bswtichu.storage import Storage

SERVER_NAME = "bswtichu"

#: What an observer (`/observer`) may still do: look, never take part.
OBSERVER_COMMANDS = frozenset({"watch", "leave", "table", "tables", "who", "help", "mode", "quit", "observer"})


def loggable(line: str) -> str:
    """The line as a log may show it: a command that carries a secret loses its arguments."""
    word = line[1:].split(" ", 1)[0].lower() if line.startswith("/") else ""
    return f"/{word} [arguments hidden]" if word in SECRET_COMMANDS else line


class Lobby:
    """Everyone connected, the tables, and the commands they may use."""

    log = Logger()

    def __init__(
        self,
        clock: IReactorTime,
        config: ServerConfig,
        game_factory: GameFactory,
        logs: GameLogStore,
        storage: Storage | None = None,
        later: Callable[[Callable[[], None]], object] | None = None,
    ) -> None:
        """``game_factory`` builds a started table's game; ``logs`` is where games write theirs.

        ``storage`` keeps accounts, history and ratings (without one, an in-memory database).
        ``later`` calls a function at the end of the current reactor turn: given, what a
        turn's input lines and bot steps cause is committed (the games' journal steps, in
        one transaction) and then written (one write per client) once, at its end.
        """
        self.clock = clock
        self.config = config
        self._sessions: set[Session] = set()
        self._by_nick: dict[str, Session] = {}
        #: the same sessions by their names exactly as taken: the tables name players so,
        #: and several times per game step (no normalising and casefolding each time)
        self._by_exact_nick: dict[str, Session] = {}
        #: connections that only watch (a bridge's watcher, `/observer`): not people online
        self._observers: set[Session] = set()
        self._per_address: Counter[str] = Counter()
        self._uncapped = config.uncapped
        self._address_of: dict[Session, str] = {}
        self.logs = logs
        self.storage = storage if storage is not None else Storage.open()
        self.storage.games.batched = later is not None
        self.outbox = Outbox(self._commit, later)
        self.tables = TableHall(self.find, clock, self.config.reconnect_grace, game_factory,
                                self.config.abandon_after, self.outbox)
        self.guard = NameGuard(self.storage.accounts, self.tables, clock)
        self.commands = CommandRegistry()
        self.commands.register(help_command(self.commands))
        for command in self._lobby_commands():
            self.commands.register(command)
        for command in table_commands(self.tables, self.config):
            self.commands.register(command)
        for command in game_commands(self.tables, self.logs):
            self.commands.register(command)
        for command in account_commands(self, self.storage):
            self.commands.register(command)
        for command in display_commands():
            self.commands.register(command)

    # -- the net layer's entry points ---------------------------------------

    def connect(
        self,
        connection: Connection,
        peer: str = "",
        limits: ServerConfig | None = None,
        address: str = "",
    ) -> Session:
        """A new client; ``limits`` are its port's settings, for the greeting.

        ``address`` (the peer's IP, if known) counts against
        ``connections_per_address`` (unless it is one of ``uncapped_addresses``); one
        connection too many is told so and hung up.
        """
        session = Session(connection, peer, self.outbox)
        if address and address not in self._uncapped and \
                self._per_address[address] >= self.config.connections_per_address:
            session.send(messages.bye(
                "too_many_connections",
                f"At most {self.config.connections_per_address} connections from one address;"
                " close another one first.",
            ))
            session.close()
            return session
        if address:
            self._per_address[address] += 1
            self._address_of[session] = address
        self._sessions.add(session)
        config = limits or self.config
        session.send(
            messages.welcome(
                SERVER_NAME,
                __version__,
                config.max_line_length,
                config.flood_rate,
                config.flood_burst,
                config.idle_timeout,
            )
        )
        return session

    def receive(self, session: Session, line: str) -> None:
        """Handle one input line: a command, chat, or a password asked for. Never raises."""
        line = line.strip()
        if session not in self._sessions:
            return
        if session.secret_answer is not None:
            with self.outbox:
                self._answer_secret(session, line)
            return
        if not line:
            return
        with self.outbox:  # what this line causes reaches each client in one write
            self._handle(session, line)

    def _answer_secret(self, session: Session, line: str) -> None:
        """The line after ``Session.ask_secret``: the password (an empty line gives up).

        A refused password is told and asked for again, still hidden: the line after
        it is the password retyped, never chat.  The echo comes back before the reply.
        """
        answer = session.secret_answer
        again = session.answer_secret(line)
        try:
            if not line:
                session.send(messages.gave_up())
                return
            try:
                answer(line)  # it may ask for another
            except Refusal as refusal:
                session.keep_hidden()
                session.send(messages.refused(refusal))
                again()
            except Exception:
                self.log.failure("error handling a password from {session!r}", session=session)
                session.send(messages.error("internal", "internal error; the server logged it, please try again"))
        finally:
            session.give_echo_back()

    def _handle(self, session: Session, line: str) -> None:
        self._guarded(session, lambda: self._dispatch(session, line), lambda: loggable(line))

    def _dispatch(self, session: Session, line: str) -> None:
        if session in self._observers:
            self._check_observer_may(line)
        if line.startswith("//"):
            self.chat(session, line[1:])
        elif line.startswith("/"):
            self.commands.dispatch(session, line)
        else:
            self.chat(session, line)

    def _guarded(self, session: Session, work: Callable[[], None], shown: Callable[[], str]) -> None:
        """Do what a line asks: a refusal is told, an internal error logged (the line as
        ``shown()`` gives it, secrets hidden: made only then) and told as such; nothing escapes."""
        try:
            work()
        except Refusal as refusal:
            session.send(messages.refused(refusal))
        except Exception:
            self.log.failure("error handling {line!r} from {session!r}", line=shown(), session=session)
            session.send(
                messages.error("internal", "internal error; the server logged it, please try again")
            )

    def _commit(self) -> None:
        """The outbox's settle: the games' pending journal steps are committed before anyone hears of them."""
        try:
            self.storage.commit()
        except Exception:
            self.log.failure("cannot commit the games' latest steps; those games play on but will not"
                             " survive a restart")

    def disconnect(self, session: Session) -> None:
        """The client is gone: free his name, hold his seat, drop him as spectator."""
        if session not in self._sessions:
            return
        self._sessions.remove(session)
        session.closed = True
        self.guard.forget(session)
        self._observers.discard(session)
        address = self._address_of.pop(session, None)
        if address is not None:
            self._per_address[address] -= 1
            if not self._per_address[address]:
                del self._per_address[address]
        if session.nick is None:
            return
        del self._by_nick[names.key(session.nick)]
        del self._by_exact_nick[session.nick]
        if session.table is not None:
            table, session.table = session.table, None
            table.disconnect(session.nick)

    def shutdown(self, reason: str) -> None:
        """Say goodbye to everyone and hang up (the server is stopping).

        Sessions are forgotten first, so the hang-ups that follow start no grace timers.
        """
        self.outbox.flush()  # what the last turn caused goes first
        sessions, self._sessions = self._sessions, set()
        self._by_nick.clear()
        self._by_exact_nick.clear()
        self._observers.clear()
        self._per_address.clear()
        self._address_of.clear()
        for session in sessions:
            session.send(messages.bye("shutdown", f"The server is stopping: {reason}."))
            session.close()
        self.tables.close_all()

    # -- finding and telling people -----------------------------------------

    def find(self, nick: str) -> Session | None:
        session = self._by_exact_nick.get(nick)
        return session if session is not None else self._by_nick.get(names.key(nick))

    def online(self) -> list[Session]:
        """Named sessions of people (observers left out), by name."""
        return sorted((s for s in self._by_nick.values() if s not in self._observers),
                      key=lambda s: s.nick.casefold())

    def observers(self) -> list[Session]:
        """Named sessions that only watch (`/observer`), by name."""
        return sorted((s for s in self._observers if s.nick is not None), key=lambda s: s.nick.casefold())

    def _check_observer_may(self, line: str) -> None:
        """An observer only looks: he cannot chat, sit or message anyone (so hiding from the
        count of people by ``/observer`` costs a person everything he came for)."""
        word = line[1:].split(" ", 1)[0] if line.startswith("/") and not line.startswith("//") else ""
        command = self.commands.lookup(word) if word else None
        if command is None and word:
            return  # the registry says what is unknown
        if command is None or command.key not in OBSERVER_COMMANDS:
            what = f"/{word}" if command is not None else "chat"
            raise Refusal("observer", f"an observer only watches: no {what}; he may use "
                                      + ", ".join(f"/{key}" for key in sorted(OBSERVER_COMMANDS)))

    def chat(self, session: Session, text: str) -> None:
        """Chat goes to the room the speaker is in: his table, or the lobby."""
        if session.nick is None:
            raise Refusal("nick_required", "choose a name with /nick NAME before you chat")
        self._check_length(text)
        table = session.table
        if table is not None:
            table.tell_all(messages.chat(table.number, session.nick, text))
            return
        message = messages.chat(None, session.nick, text)
        for listener in self.online():
            if listener.table is None:
                listener.send(message, droppable=True)

    def _check_length(self, text: str) -> None:
        limit = self.config.max_chat_length
        if len(text) > limit:
            raise Refusal("chat_too_long", f"chat lines may be at most {limit} characters,"
                                           f" this one has {len(text)}; say it in parts")

    # -- lobby commands -----------------------------------------------------

    def _lobby_commands(self) -> list[Command]:
        return [
            Command(
                key="nick", group="account",
                german="name",
                usage="/nick NAME [PASSWORD]",
                summary="choose your name (a registered one with its password)",
                help=f"Sets your name: {names.NAME_RULE}; letters of any alphabet. Names are"
                " unique, ignoring case."
                " You cannot change it while you sit at or watch a table. A registered name"
                " needs its password (at a terminal, /nick NAME asks for it, not shown; /register"
                " keeps a name for good); a guest gets a resume"
                " token that gives his name and held seat back after a dropped connection.",
                handler=self._nick,
                needs_nick=False,
            ),
            Command(
                key="who", group="lobby",
                german="wer",
                usage="/who [PAGE]",
                summary="who is online, and where",
                help="Lists everyone with a name: in the lobby, at a table (seat), or watching."
                f" {self.config.who_page_size} names a page, by name; /who 2 shows the second.",
                handler=self._who,
            ),
            Command(
                key="msg", group="lobby",
                aliases=("tell",),
                usage="/msg NAME TEXT",
                summary="a private message to one person",
                help="Sends TEXT to NAME only, wherever they are; you get an echo.",
                handler=self._msg,
            ),
            Command(
                key="observer", group="lobby",
                usage="/observer",
                summary="this connection only watches (for bridges and displays)",
                help="Marks this connection as an observer for as long as it lasts: it may watch"
                " tables (/watch, /table, /tables, /who, /help, /mode, /leave, /quit) but never"
                " sit down, chat or send messages. /who lists observers apart from the people"
                " online, and the player count leaves them out. The IRC bridge's watchers use it.",
                handler=self._observer,
            ),
            Command(
                key="mode", group="display",
                german="modus",
                usage="/mode [human|machine|relay]",
                summary="readable text, or one JSON line per message",
                help="human (the default): sentences for people. machine: every message is"
                " exactly one line KEYWORD {json}, documented in docs/PROTOCOL.md. relay: the"
                " machine line with the sentence added as its human field (for bridges)."
                " Without an argument, shows the current mode.",
                handler=self._mode,
                needs_nick=False,
            ),
            Command(
                key="quit", group="lobby",
                german="ende",
                aliases=("exit", "bye"),
                usage="/quit",
                summary="disconnect (a seat at a table stays held for you)",
                help="Says goodbye and hangs up. Your seat stays held: come back with the same"
                " name (/nick NAME PASSWORD, or a guest's /resume TOKEN) and you sit in it again.",
                handler=self._quit,
                needs_nick=False,
            ),
        ]

    def _nick(self, session: Session, args: str) -> None:
        words = args.split()
        if not 1 <= len(words) <= 2:
            raise usage_error("/nick NAME [PASSWORD]", f"a name is {names.NAME_RULE}")
        name = names.normalize(words[0])
        password = words[1] if len(words) == 2 else None
        if not names.is_valid(name):
            raise Refusal("nick_invalid", f"{name!r} is not a valid name; a name is {names.NAME_RULE}")
        if names.is_bot_name(name):
            raise Refusal("nick_invalid", f"names starting with {names.BOT_PREFIX} are kept for bots")
        if session.table is not None:
            raise Refusal(
                "at_table", f"you are at table {session.table.number}; /leave it before renaming"
            )
        holder = self.find(name)
        registered = self.guard.accounts.is_registered(name)
        if holder is not None and holder is not session and not registered:
            raise Refusal("nick_taken", f"the name {holder.nick} is taken; choose another")
        self.guard.check_look(name, (other.nick for other in self._by_nick.values() if other is not session))
        if password is None and registered and session.ask_secret(
                messages.password_wanted(name, f"{name} is registered. Password (not shown;"
                                               " an empty line gives up):"),
                lambda typed: self._nick(session, f"{name} {typed}")):
            return
        name = self.guard.claim(session, name, password)
        self.take_over(session, name)
        self.take_name(session, name)
        token = self.guard.claimed(session, name)
        if token is not None:
            session.send(token)

    def take_over(self, session: Session, name: str) -> None:
        """The owner proved the name is his (password, token): an old connection holding it
        (a ghost, say a half-open one) is told why and closed, its seat held for the owner."""
        ghost = self.find(name)
        if ghost is None or ghost is session:
            return
        ghost.send(messages.bye("taken_over", f"{ghost.nick} logged in from another connection;"
                                              " this one is closed."))
        ghost.close()
        self.disconnect(ghost)

    def take_name(self, session: Session, name: str) -> None:
        """Give ``session`` the name (checked by the caller); a seat held for it is taken back at
        once, as ``/join TABLE SEAT`` would: coming back is one step."""
        held = self.tables.held_seat(name)
        if held is not None:
            table, seat = held
            name = table.nick_at(seat)  # shown as it was first written, whatever the case now
        previous = session.nick
        if previous is not None:
            del self._by_nick[names.key(previous)]
            del self._by_exact_nick[previous]
        session.nick = name
        self._by_nick[names.key(name)] = session
        self._by_exact_nick[name] = session
        session.send(messages.nick(name, previous))
        if held is not None:
            session.send(messages.seat_held(table.number, seat))
            table.sit(name, seat)  # tells the table, and him the game and what it waits for
            session.table = table

    def _who(self, session: Session, args: str) -> None:
        usage = "/who [PAGE]"
        if args and not is_number(args):
            raise usage_error(usage, f"PAGE must be a number, not {args!r}")
        online = self.online()
        size = self.config.who_page_size
        pages = max(1, -(-len(online) // size))
        page = int(args) if args else 1
        if not 1 <= page <= pages:
            raise usage_error(usage, f"there {'is' if pages == 1 else 'are'} {pages} page(s)")
        users = []
        for other in online[(page - 1) * size : page * size]:
            table = other.table
            seat = table.seat_of(other.nick) if table is not None else None
            users.append(
                {
                    "nick": other.nick,
                    "table": table.number if table is not None else None,
                    "seat": seat,
                    "watching": table is not None and seat is None,
                }
            )
        observers = [{"nick": o.nick, "table": o.table.number if o.table is not None else None}
                     for o in self.observers()]
        session.send(messages.who(users, page, pages, len(online), observers))

    def _msg(self, session: Session, args: str) -> None:
        name, _, text = args.partition(" ")
        text = text.strip()
        if not name or not text:
            raise usage_error("/msg NAME TEXT")
        self._check_length(text)
        recipient = self.find(name)
        if recipient is None:
            raise Refusal("no_such_user", f"nobody called {name} is online; /who lists who is")
        recipient.send(messages.private(session.nick, recipient.nick, text, echo=False))
        if recipient is not session:
            session.send(messages.private(session.nick, recipient.nick, text, echo=True))

    def _observer(self, session: Session, args: str) -> None:
        if session.table is not None and session.table.seat_of(session.nick) is not None:
            raise Refusal("at_table", f"you sit at table {session.table.number}; an observer cannot"
                                      " play: /leave first")
        self._observers.add(session)
        session.send(Message("OBSERVER", {"nick": session.nick},
                             f"{session.nick} only watches now: /who lists this connection apart,"
                             " and it cannot sit down, chat or send messages."))

    def _mode(self, session: Session, args: str) -> None:
        if args and args.lower() not in MODES:
            raise usage_error(f"/mode [{'|'.join(MODES)}]", f"no mode {args!r}")
        if args:
            session.mode = args.lower()
        session.send(messages.mode(session.mode))

    def _quit(self, session: Session, args: str) -> None:
        session.send(messages.bye("quit", "Goodbye."))
        session.close()
