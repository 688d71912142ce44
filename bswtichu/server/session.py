"""One connected client as the domain sees it: a name, a render mode, a place.

A `Session` is the client object a port talks to (``bswtichu.realm.Client``);
`Connection` (``bswtichu.realm``, the one contract both sides import) is what the
domain needs of the port's end.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from bswtichu.server.text.i18n import _
from bswtichu.realm import Connection, Told
from bswtichu.server.text import messages
from bswtichu.server.text import i18n
from bswtichu.server.text.i18n import Language
from bswtichu.server.text.messages import Message
from bswtichu.server.text.render import HUMAN, MACHINE, MAX_WIDTH, MIN_WIDTH, machine_line, render

if TYPE_CHECKING:
    from twisted.internet.defer import Deferred

    from bswtichu.server.tables.table import Table


class Outbox:
    """Holds what sessions are sent while input is handled, then writes it once per session.

    A game action tells each player at the table several messages; gathered,
    they reach each connection in one write.  ``with outbox:`` nests; the
    outermost exit flushes, or, given ``later`` (which calls a function at the
    end of the current reactor turn), schedules one flush for everything the
    turn's lines and steps caused.  Each session's lines keep their order.
    ``settle`` runs before anything held or sent at once is written: the
    storage's commit, so nothing is told that would not survive a crash.  It may
    return a Deferred (PostgreSQL's commit, made off the reactor): what it was to
    write then waits in a queue until it fires, and every later write (a flush, a
    line sent at once, a hang-up) queues behind while anything waits, so each
    session's lines keep their order and nobody hears of an uncommitted step.
    """

    def __init__(self, settle: Callable[[], Deferred | None] | None = None,
                 later: Callable[[Callable[[], None]], object] | None = None) -> None:
        self._depth = 0
        #: whether what sessions are sent is held now (inside ``with`` or until a due flush)
        self.holding = False
        self._held: dict[Session, list[str]] = {}
        #: each session's prompt (its connection writes it): due after everything else held
        self._prompts: dict[Session, Callable[[], None]] = {}
        self._settle = settle
        self._later = later
        self._flush_due = False
        #: writes waiting for a commit, in order: [the commit's Deferred (None once fired), write]
        self._queue: deque[list] = deque()

    def hold(self, session: Session, lines: list[str]) -> None:
        self._held.setdefault(session, []).extend(lines)

    def release(self, session: Session) -> list[str]:
        """What is held for ``session`` (it writes it itself: it sends something else, or closes)."""
        return self._held.pop(session, [])

    def prompt_last(self, session: Session, send: Callable[[], None] | None) -> None:
        """``send`` writes ``session``'s prompt once the flush wrote the rest (None: no prompt)."""
        if send is None:
            self._prompts.pop(session, None)
        else:
            self._prompts[session] = send

    def drop(self) -> None:
        """Forget everything held, lines and prompts: the server lost its database (`settle`
        found it fenced), so what it holds, or queues behind a commit, was never committed
        and must not be told."""
        self._held.clear()
        self._prompts.clear()
        for entry in self._queue:
            entry[1] = _nothing

    def settle(self) -> Deferred | None:
        """Before writing: make durable what is about to be told (a Deferred: not yet)."""
        return self._settle() if self._settle is not None else None

    def after_settle(self, write: Callable[[], None]) -> None:
        """Run ``write`` once what is about to be told is durable: at once if it is and nothing
        waits, else behind every write that waits (in order, each once its commit fired)."""
        waiting = self.settle()
        if waiting is None and not self._queue:
            write()
        else:
            self.wait_for(waiting, write)

    def wait_for(self, waiting: Deferred | None, write: Callable[[], None]) -> None:
        """Queue ``write`` behind every write that waits, to run once ``waiting`` (a commit) fired."""
        entry = [waiting, write]
        self._queue.append(entry)
        if waiting is None:
            self._drain()
        else:
            waiting.addBoth(self._fired, entry)

    @property
    def waiting(self) -> bool:
        """Whether writes wait for a commit."""
        return bool(self._queue)

    def _fired(self, result: object, entry: list) -> None:
        entry[0] = None
        self._drain()

    def _drain(self) -> None:
        queue = self._queue
        while queue and queue[0][0] is None:
            queue.popleft()[1]()

    def flush(self) -> None:
        """Write everything held, one write per session, after `settle`."""
        self._flush_due = False
        self.holding = self._depth > 0
        waiting = self.settle()  # first: a fenced one drops what is held (`drop`)
        held, self._held = self._held, {}
        prompts, self._prompts = self._prompts, {}
        if waiting is None and not self._queue:
            _write_held(held, prompts)
        else:
            self.wait_for(waiting, lambda: _write_held(held, prompts))

    def __enter__(self) -> Outbox:
        self._depth += 1
        self.holding = True
        return self

    def __exit__(self, *exc) -> None:
        self._depth -= 1
        if self._depth:
            return
        if self._later is None:
            self.flush()
        elif not self._flush_due:
            self._flush_due = True
            self._later(self.flush)
        self.holding = self._flush_due


def _nothing() -> None:
    """A dropped write (`Outbox.drop`)."""


def _write_held(held: dict[Session, list[str]], prompts: dict[Session, Callable[[], None]]) -> None:
    """A flush's writes: each session's held lines in one write, then the prompts."""
    for session, lines in held.items():
        session.write(lines)
    for session, send in prompts.items():
        if not session.closed:
            send()


class Session:
    """A client between connect and disconnect.

    ``nick`` is None until the client has chosen a name; ``table`` is the table
    the client sits at or watches (None in the lobby).

    How human text looks on this connection: ``width`` wraps it and ``colour``
    colours its cards; each is the client's own choice (``/width``, ``/color``)
    or, while that is None, the default its connection learned from the client
    (``default_width``, ``default_colour``). ``also_sent``, if set by the
    connection, is called after every message with it and ``droppable`` (GMCP, prompts).
    """

    #: the widths human text can be wrapped to (``/width``; a telnet client's own report)
    widths = range(MIN_WIDTH, MAX_WIDTH + 1)

    def __init__(self, connection: Connection, peer: str = "", outbox: Outbox | None = None) -> None:
        self._connection = connection
        self._outbox = outbox
        self.peer = peer
        #: the peer's IP address, if known (what a ban by address matches; "" for none)
        self.address = ""
        self.nick: str | None = None
        #: ``/away TEXT``: why he does not answer (None: he is here); any other line ends it
        self.away: str | None = None
        self.mode = HUMAN
        self.table: Table | None = None
        self.closed = False
        self.width: int | None = None
        self.colour: bool | None = None
        self.default_width: int | None = None
        self.default_colour = False
        self.also_sent: Callable[[Told, bool], None] | None = None
        # Set by a connection that can ask its client not to show what is typed (telnet:
        # IAC WILL ECHO); ``secret_answer`` takes the next line once ``ask_secret`` asked.
        self.hide_input: Callable[[bool], None] | None = None
        self.secret_answer: Callable[[str], Deferred | None] | None = None
        #: asks the last question again after a refused answer (set with ``secret_answer``)
        self.secret_again: Callable[[], bool] | None = None
        # The echo is given back before the first reply to a secret line (not before a new question).
        self._echo_owed = False
        #: set by the port for a plain connection from another machine: its kind's TLS port (0:
        #: none); the first password over it is followed by a warning
        self.unencrypted: int | None = None
        #: ``/legal push on``: the client's LEGAL comes by itself whenever the round waits for it
        self.legal_push = False
        #: closed, but lines waiting for a commit are still written before the hang-up
        self._closing = False
        #: the language human text is worded in (None: English, the source): ``/lang``, the
        #: account's, the client's hint, else the server's default (set by `Connections.open`)
        self.language: Language | None = None
        #: whether the person chose it himself (``/lang`` or his account's): a client's hint
        #: that arrives later does not overrule him
        self.language_chosen = False

    def __repr__(self) -> str:
        return f"<Session {self.nick or '(no name)'} {self.peer}>"

    @property
    def name(self) -> str:
        """``nick`` where only a named client gets: a command with ``needs_nick`` (the registry
        refuses it to the others), a seat or a place at a table. Unnamed there is a bug."""
        nick = self.nick
        if nick is None:
            raise RuntimeError(f"{self!r}: only a named client gets here")
        return nick

    @property
    def seated(self) -> bool:
        """Whether the client has a seat at its table (not only watching)."""
        return self.table is not None and self.table.seat_of(self.nick) is not None  # type: ignore[arg-type]  # at a table: named

    # -- what a port tells of its own (realm.Client): it names the limit, the words are ours --

    def too_many_lines(self, rate: float, burst: int) -> None:
        self.send(messages.error("flood", _('too many lines: at most %(rate)g per second (bursts of %(burst)s); the rest are read as '
                                            'the limit allows', rate=rate, burst=burst)))

    def line_too_long(self, limit: int) -> None:
        self.send(messages.error("line_too_long", _('line dropped: lines may be at most %(limit)s bytes', limit=limit)))

    def skipped_lines(self) -> list[str]:
        return render(messages.output_skipped(), self.mode)

    def not_reading(self) -> list[str]:
        self.closed = True
        return render(messages.bye("output", _('You do not read what the server sends; goodbye.')), self.mode)

    def idle(self, seconds: float) -> None:
        self.send(messages.bye("idle", _('No input for %(seconds)g seconds; goodbye.', seconds=seconds)))
        self.close()

    def password_travelled(self) -> None:
        """A password of this client's was taken: over a plain connection from another machine
        the client is told, once, that it went unencrypted and where the TLS port is."""
        if self.unencrypted is not None:
            tls_port, self.unencrypted = self.unencrypted, None
            self.send(messages.unencrypted(tls_port or None))

    def ask_secret(self, question: Message, answer: Callable[[str], Deferred | None],
                   again: Callable[[], bool] | None = None) -> bool:
        """Ask a person for a password on the next line, which his client does not show.

        False (nothing asked) unless the connection can hide input and the client
        reads human text: bots and machine mode give passwords as arguments.
        ``again`` asks after a refused answer (by default this same question), so a
        retyped password is never taken for chat.
        """
        if self.hide_input is None or self.mode != HUMAN or self.closed:
            return False
        self._echo_owed = False
        self.hide_input(True)
        self.send(question)
        self.secret_answer = answer
        self.secret_again = again or (lambda: self.ask_secret(question, answer))
        return True

    def answer_secret(self, line: str) -> Callable[[], bool]:
        """The answer to ``ask_secret`` came: what asks again if it is refused.

        The question is no longer pending; the echo comes back before anything else
        is told, unless the answer asks again or another question follows.
        """
        again = self.secret_again
        self.secret_answer = self.secret_again = None
        self._echo_owed = True
        return again  # type: ignore[return-value]  # set with the answer, pending when this is called

    def drop_secret(self) -> None:
        """A command came instead of the answer: the question is dropped, the echo comes back."""
        self.answer_secret("")
        self.give_echo_back()

    def keep_hidden(self) -> None:
        """The answer is refused: the echo stays off (the question is asked again)."""
        self._echo_owed = False

    def give_echo_back(self) -> None:
        """No question is pending after a secret line: the client shows what is typed again."""
        if self._echo_owed:
            self._echo_owed = False
            if self.hide_input is not None and not self.closed:
                self.hide_input(False)

    def send(self, message: Message, droppable: bool = False) -> None:
        """``droppable``: may be skipped for a client that does not read (lobby chat)."""
        if self.closed:
            return
        self.give_echo_back()
        lines = self._render(message)
        outbox = self._outbox
        if outbox is not None:
            if outbox.holding and not droppable and self.also_sent is None:  # GMCP and prompts
                outbox.hold(self, lines)  # follow each message at once: those are not held
                return
            earlier = outbox.release(self)  # what came before goes first
            waiting = outbox.settle()
            if waiting is not None or outbox.waiting:  # behind a commit in flight
                outbox.wait_for(waiting, lambda: self._send_now(earlier, lines, message, droppable))
                return
            self.write(earlier)
        self._send_now([], lines, message, droppable)

    def _send_now(self, earlier: list[str], lines: list[str], message: Message, droppable: bool) -> None:
        if self.closed and not self._closing:
            return
        self.write(earlier)
        self._connection.send_lines(lines, droppable)
        if self.also_sent is not None:
            self.also_sent(message, droppable)

    def prompt_last(self, send: Callable[[], None] | None) -> None:
        """The connection's prompt (``send`` writes it): the last thing before the client types,
        so while the outbox holds a step's messages it waits for the flush; None takes back
        one not yet written."""
        outbox = self._outbox
        if outbox is not None and outbox.holding:
            outbox.prompt_last(self, send)
        elif send is not None:
            send()

    def send_all(self, messages: list[Message]) -> None:
        """Several messages in order: while the outbox holds, rendered and held in one go."""
        if self.closed:
            return
        self.give_echo_back()
        outbox = self._outbox
        if outbox is None or not outbox.holding or self.also_sent is not None:
            for message in messages:
                self.send(message)
            return
        if self.mode == MACHINE:  # each message's line is usually made already, for another reader
            lines = [message.rendered.get(MACHINE) or machine_line(message) for message in messages]
        else:
            lines = [line for message in messages for line in self._render(message)]
        outbox.hold(self, lines)

    def _render(self, message: Message) -> list[str]:
        if self.mode == HUMAN:
            colour = self.default_colour if self.colour is None else self.colour
            return render(message, HUMAN, self.wrap_width(), colour, self.language)
        return render(message, self.mode, language=self.language)

    def language_hint(self, hint: str) -> None:
        """The client said which language its user reads (telnet's NEW-ENVIRON ``LANG``, a MUD
        client's GMCP hello, the web page): taken unless the person chose one himself."""
        code = i18n.from_hint(hint)
        if code is not None and not self.language_chosen:
            self.language = None if code == i18n.SOURCE else i18n.language(code)

    def write(self, lines: list[str]) -> None:
        """Rendered lines, none droppable (the outbox's flush)."""
        if lines and (not self.closed or self._closing):
            self._connection.send_lines(lines)

    def wrap_width(self) -> int | None:
        """The width human text is wrapped to (None: not wrapped; /width off stores 0)."""
        width = self.default_width if self.width is None else self.width
        return width or None

    def close(self) -> None:
        """Hang up; the lobby hears of it through the connection's loss."""
        if self.closed:
            return
        outbox = self._outbox
        if outbox is None:
            self.closed = True
            self._connection.close()
            return
        earlier = outbox.release(self)
        self.closed = self._closing = True  # what waits for a commit is still written, then the hang-up
        outbox.after_settle(lambda: self._hang_up(earlier))

    def _hang_up(self, last: list[str]) -> None:
        self.write(last)
        self._closing = False
        self._connection.close()
