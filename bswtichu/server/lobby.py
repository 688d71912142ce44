"""The lobby: the realm the net layer talks to, routing each line where it belongs.

``Lobby`` is the server's domain root (the realm, in twisted.words terms). The net layer
calls ``connect``, ``receive`` and ``disconnect``; a line goes to the secret asked for, a
command or chat, guarded: a refusal is one error line, an internal error is logged (secrets
hidden) and told as such. Its parts are built and wired by ``service.build_lobby``: the
connections (`connections.py`), the names (`people/directory.py`), chat (`people/chat.py`)
and the commands (`commands/registry.py`; the lobby's own in `commands/lobby.py`).
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable

from twisted.internet.defer import Deferred
from twisted.logger import Logger
from twisted.python.failure import Failure

from bswtichu.server.text.i18n import _
from bswtichu.config import LiveConfig, ServerConfig
from bswtichu.counters import Counters
from bswtichu.server.text import messages
from bswtichu.server.people.chat import Chat
from bswtichu.realm import SECRET_COMMANDS
from bswtichu.server.commands.registry import CommandRegistry
from bswtichu.server.connections import Connections
from bswtichu.server.events.board import EventBoard
from bswtichu.server.people.directory import NameDirectory
from bswtichu.server.people.hashing import ConnectionGone
from bswtichu.server.commands.lobby import OBSERVER_COMMANDS
from bswtichu.server.text.messages import Refusal
from bswtichu.realm import Connection
from bswtichu.server.session import Outbox, Session
from bswtichu.server.tables.hall import TableHall


def loggable(line: str) -> str:
    """The line as a log may show it: a command that carries a secret loses its arguments."""
    word = line[1:].split(" ", 1)[0].lower() if line.startswith("/") else ""
    return f"/{word} [arguments hidden]" if word in SECRET_COMMANDS else line


class Lobby:
    """Everyone connected, and where each of their lines goes."""

    log = Logger()

    def __init__(self, connections: Connections, names: NameDirectory, chat: Chat,
                 commands: CommandRegistry, tables: TableHall, outbox: Outbox,
                 counters: Counters | None = None, config: LiveConfig | None = None,
                 events: EventBoard | None = None) -> None:
        """``outbox`` gathers what one line causes into one write per client (and commits first);
        ``counters`` counts for the operator (refusals here; the ports and games add theirs);
        ``config`` is the settings its parts read their limits from (a reload replaces them);
        ``events`` the board of events across tables (restored by the service after the games)."""
        self.config = config if config is not None else LiveConfig(ServerConfig())
        self._counters = counters if counters is not None else Counters()
        self.connections = connections
        self.names = names
        self.chat = chat
        self.commands = commands
        self.tables = tables
        self.outbox = outbox
        self.events = events if events is not None else EventBoard(tables, tables.settings.clock, None,
                                                                    lambda name: None)
        #: the sessions whose command waits for a password's hash, each with the lines it has
        #: sent since (they run in order once the hash is done)
        self._held: dict[Session, deque[str]] = {}

    # -- the net layer's entry points ---------------------------------------

    def connect(self, connection: Connection, peer: str = "", limits: ServerConfig | None = None,
                address: str = "") -> Session:
        """A new client; ``limits`` are its port's settings, for the greeting; ``address`` is
        its IP (a banned one is sent away: `Connections.open`)."""
        return self.connections.open(connection, peer, limits, address)

    def receive(self, session: Session, line: str) -> None:
        """Handle one input line: a command, chat, or a password asked for. Never raises.

        While a command of his waits for a password's hash, his lines wait behind it (and
        then run in order): one hash in flight per connection, and nobody else waits."""
        line = line.strip()
        if session not in self.connections:
            return
        held = self._held.get(session)
        if held is not None:
            held.append(line)
            return
        self._take_lines(session, deque([line]))

    def _take_lines(self, session: Session, lines: deque[str]) -> None:
        """``session``'s lines in order, until one waits for a hash: the rest wait for it."""
        while lines and session in self.connections:
            waiting = self._take(session, lines.popleft())
            if waiting is not None and not waiting.called:
                self._held[session] = lines
                waiting.addBoth(self._hash_answered, session)
                return

    def _hash_answered(self, result: None, session: Session) -> None:
        lines = self._held.pop(session, None)
        if lines is not None:
            self._take_lines(session, lines)

    def _take(self, session: Session, line: str) -> Deferred | None:
        """One line: the password asked for, a command (which also ends a question: a line
        starting with / is never a password; chat's // is, so it never reaches chat), or
        chat. What it causes reaches each client in one write; a Deferred: it waits for a hash."""
        with self.outbox:
            answer = session.secret_answer
            if answer is not None and (not line.startswith("/") or line.startswith("//")):
                return self._answer_secret(session, answer, line)
            if not line:
                return None
            if answer is not None:
                session.drop_secret()
            waiting = self._guarded(session, lambda: self._dispatch(session, line), lambda: loggable(line))
            self._guarded(session, lambda: self._active_at_table(session), lambda: loggable(line))
            return waiting

    def _active_at_table(self, session: Session) -> None:
        """He typed something: if he plays a running game, its stand-in for a player whose
        turn clock ran out stands aside (after his line, which may be a move the stand-in
        would otherwise answer first)."""
        table = session.table
        if table is not None and table.game is not None:
            nick: str = session.nick  # type: ignore[assignment]  # one at a table has a name
            if table.seat_of(nick) is not None:
                table.game.player_active(nick)

    def disconnect(self, session: Session) -> None:
        """The client is gone: free his name, hold his seat, drop him as spectator."""
        self._held.pop(session, None)
        self.names.leave(session)

    def online(self) -> list[Session]:
        """Named sessions of people, by name (the net layer counts them for MSSP)."""
        return self.names.online()

    @property
    def counters(self) -> Counters:
        return self._counters

    def table_states(self) -> Counter[str]:
        return Counter(table.state for table in self.tables)

    def shutdown(self, reason: str) -> None:
        """Say goodbye to everyone and hang up (the server is stopping).

        Sessions are forgotten first, so the hang-ups that follow start no grace timers.
        """
        self.outbox.flush()  # what the last turn caused goes first
        sessions = self.connections.close_all()
        self.names.clear()
        for session in sessions:
            session.send(messages.bye("shutdown", _('The server is stopping: %(reason)s.', reason=reason)))
            session.close()
        self.events.stop()
        self.tables.close_all()

    # -- routing ------------------------------------------------------------

    def _answer_secret(self, session: Session, answer: Callable[[str], Deferred | None],
                       line: str) -> Deferred | None:
        """The line after ``Session.ask_secret``, for its ``answer``: the password (an empty line
        gives up).

        A refused password is told and asked for again, still hidden: the line after
        it is the password retyped, never chat.  The echo comes back before the reply.
        """
        again = session.answer_secret(line)
        if not line:
            session.send(messages.gave_up())
            return None

        def refused(session: Session, refusal: Refusal) -> None:
            session.keep_hidden()
            self._refuse(session, refusal)
            again()

        waiting = self._guarded(session, lambda: answer(line), lambda: "a password", refused)  # it may ask again
        if waiting is None:
            session.give_echo_back()
            return None
        return waiting.addBoth(lambda result: session.give_echo_back())

    def _dispatch(self, session: Session, line: str) -> Deferred | None:
        if self.names.index.is_observer(session):
            self._check_observer_may(line)
        if session.away is not None and not self._is_away_command(line):
            session.away = None
            session.send(messages.back(session.nick))  # type: ignore[arg-type]  # /away takes a name
        if line.startswith("//"):
            self.chat.say(session, line[1:])
        elif line.startswith("/"):
            return self.commands.dispatch(session, line)
        else:
            self.chat.say(session, line)
        return None

    def _is_away_command(self, line: str) -> bool:
        """Whether ``line`` is /away (which sets a new text rather than ending it)."""
        word = line[1:].split(" ", 1)[0] if line.startswith("/") and not line.startswith("//") else ""
        command = self.commands.lookup(word) if word else None
        return command is not None and command.key == "away"

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

    def _refuse(self, session: Session, refusal: Refusal) -> None:
        self._counters.refusals[refusal.code] += 1
        session.send(messages.refused(refusal))

    def _guarded(self, session: Session, work: Callable[[], Deferred | None], shown: Callable[[], str],
                 refused: Callable[[Session, Refusal], None] | None = None) -> Deferred | None:
        """Do what a line asks: a refusal is told (or handed to ``refused``), an internal error
        logged (the line as ``shown()`` gives it, secrets hidden: made only then) and told as
        such; nothing escapes. A Deferred ``work`` returns (it waits for a hash) gets the same
        when it fires, and is returned."""
        try:
            waiting = work()
        except Exception:
            self._failed(Failure(), session, shown, refused)
            return None
        if isinstance(waiting, Deferred):
            return waiting.addErrback(self._failed, session, shown, refused)
        return None

    def _failed(self, failure: Failure, session: Session, shown: Callable[[], str],
                refused: Callable[[Session, Refusal], None] | None) -> None:
        if failure.check(ConnectionGone):
            return
        if failure.check(Refusal):
            (refused or self._refuse)(session, failure.value)
            return
        self.log.failure("error handling {line!r} from {session!r}", failure, line=shown(), session=session,
                         event="internal_error")
        session.send(messages.error("internal", _('internal error; the server logged it, please try again')))
