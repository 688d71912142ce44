"""What the ports need from the domain, and what they offer it: the whole contract between them.

Defined once, below both sides: the ports (``bswtichu.net``) and the domain
(``bswtichu.server``) import it, and the net layer imports nothing from the domain
(setup.cfg's contracts check it). A port hands each connection to a `Realm` (the lobby) and talks
to the `Client` the realm gives back (the domain's ``Session``), as twisted.cred's
portals know a realm and an avatar's interface, not their classes. Every text a port
sends of its own (a flood, an overlong line, skipped output, a goodbye) is the
client's to word: the port names the limit, the client says it in its own mode.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from bswtichu.config import ServerConfig
from bswtichu.counters import Counters


#: Commands (every name they go by) whose arguments are secrets: logs show them
#: without arguments, and the IRC bridge never takes them from its channel.
SECRET_COMMANDS = frozenset({"nick", "name", "register", "password", "passwort", "resume"})

#: The names of the command that marks a line for a further hand a person plays (``/second play
#: 7j``): both work wherever one is played; a Duo player's second hand says the first, Trichu's
#: dealer, who plays the dummy's hand, the second. The web page reads them (and the secret
#: commands) from its listener, as the server names them.
SECOND_HAND_WORDS = ("second", "dummy")


class Told(Protocol):
    """A message the domain sent a client, as a port reads it (GMCP, prompts): its keyword
    and its machine fields (read only: the domain's message may keep them in a dict)."""

    @property
    def keyword(self) -> str:
        """The message's keyword (``TURN``, ``CHAT``...)."""

    @property
    def fields(self) -> Mapping[str, Any]:
        """The message's machine fields."""


class Connection(Protocol):
    """What a port's connection offers the domain: text lines out, hang up."""

    #: only people use this connection (the WebSocket's subprotocols for people, a browser's
    #: page): its greeting leaves out what is said to bots (`/mode machine`, the line limits)
    for_people: bool

    def send_lines(self, lines: list[str], droppable: bool = False) -> None:
        """Lines of text; ``droppable`` ones may be skipped for a client that does not read."""

    def close(self) -> None:
        """Hang up once what is queued has been sent."""


class Client(Protocol):
    """One connected client as the domain keeps it, as far as a port uses it."""

    nick: str | None
    #: set once the client is hung up or gone: nothing more is read from it
    closed: bool
    #: the widths the domain can wrap text to (a client's own report outside them is ignored)
    widths: range
    #: what the telnet port learned of the client: its width, whether it shows colour
    default_width: int | None
    default_colour: bool
    #: called after every message with it and whether it was droppable (GMCP, prompts)
    also_sent: Callable[[Told, bool], None] | None
    #: asks the client not to show what is typed (True: a password comes) or to show it again
    hide_input: Callable[[bool], None] | None
    #: set by the port on a plain connection from another machine: its kind's TLS port (0:
    #: it has none), so a password sent over it is followed by a warning; None: nothing to warn of
    unencrypted: int | None

    def language_hint(self, hint: str) -> None:
        """The client said its user's language (``de_DE.UTF-8``, ``fr``): the domain takes an
        offered one unless the person chose his own."""

    @property
    def seated(self) -> bool:
        """Whether the client has a seat at a table (it is asked what the seat does)."""

    def prompt_last(self, send: Callable[[], None] | None) -> None:
        """``send`` writes the client's prompt once the rest of the step is written (None takes
        back one not yet written): a prompt is the last thing before the client types."""

    def too_many_lines(self, rate: float, burst: int) -> None:
        """Tell it that its lines pass ``rate`` per second (bursts of ``burst``): the rest wait."""

    def line_too_long(self, limit: int) -> None:
        """Tell it that a line longer than ``limit`` bytes was dropped."""

    def skipped_lines(self) -> list[str]:
        """The notice that droppable output to it is being skipped, as text lines (the port
        queues them behind what waits)."""

    def not_reading(self) -> list[str]:
        """The goodbye to a client that reads too slowly, as text lines; the client is closed
        from now on (the port writes them past its queue and hangs up)."""

    def idle(self, seconds: float) -> None:
        """Say goodbye after ``seconds`` without input, and hang up."""


#: the realm's own class of client (the lobby's ``Session``)
ClientT = TypeVar("ClientT", bound=Client)


class Realm(Protocol[ClientT]):
    """What a port needs from the domain (the lobby): a client comes, talks, goes.

    It takes back only the clients it made (the lobby its own ``Session``), so it is generic
    in their class; a port, which hands each client back as it got it, holds a plain `Realm`.
    """

    def connect(self, connection: Connection, peer: str = "", limits: ServerConfig | None = None,
                address: str = "") -> ClientT:
        """A new client on a port whose settings are ``limits``, from IP ``address``; greets him."""

    def receive(self, client: ClientT, line: str) -> None:
        """One decoded input line from the client; never raises."""

    def disconnect(self, client: ClientT) -> None:
        """The client's connection is gone."""

    @property
    def counters(self) -> Counters:
        """What the server counts (the ports add connections and output to it)."""

    def online(self) -> list[ClientT]:
        """Named clients (for MSSP's player count)."""

    def table_states(self) -> Mapping[str, int]:
        """How many tables are in each state ("open", "full", "started", "finished")."""
