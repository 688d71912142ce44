"""Slash commands: the command value, the registry that picks one, and how a handler is written.

A handler is a method of a `CommandGroup` marked with `command`, which sets the command's
metadata (name, usage, help, group) beside the handler, as twisted.words' ``irc_<COMMAND>``
methods carry their command in their name. A group holds the domain parts its commands work
on, so a handler can be tested with those parts alone. A handler receives the session and
the raw argument text, and raises ``Refusal`` to report bad input before changing state.
The wiring (``bswtichu.service``) registers every group's commands, in one list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from twisted.internet.defer import Deferred

from bswtichu.server.text.i18n import Text, Wordable, _
from bswtichu.server.text.messages import Refusal
from bswtichu.server.session import Session

#: A handler returns None when it is done, or a Deferred when it waits for a password's
#: hash (`bswtichu.server.people.hashing`): the lobby holds the session's next lines until it fires.
Handler = Callable[[Session, str], Deferred | None]

#: The groups /help shows the commands in, in this order, each with what it is for.
GROUPS = {
    "lobby": _("who is here, messages, leaving"),
    "table": _("sitting down, options, bots, starting"),
    "game": _("playing a round and looking at it"),
    "account": _("names, passwords, history"),
    "display": _("how messages look"),
    "social": _("ignoring, friends, away, actions, the ladder"),
    "moderation": _("admins and moderators: roles, kick, mute, ban, announce, audit"),
    "events": _("events across tables: entering, rounds, standings"),
}

#: Names other servers and MUDs use for a command that has another name here.
ELSEWHERE = {
    "whisper": "msg", "w": "msg", "t": "msg", "pm": "msg", "query": "msg",
    "page": "msg", "send": "msg",
    "users": "who", "online": "who", "list": "tables", "rooms": "tables",
    "sit": "join", "stand": "leave", "part": "leave", "observe": "watch",
    "look": "table", "l": "table", "board": "table",
    "inventory": "hand", "i": "hand", "inv": "hand",
    "login": "nick", "passwd": "password", "logout": "quit",
    "commands": "help", "begin": "start", "deal": "start", "ready": "start",
    "points": "score", "bet": "tichu", "trade": "exchange", "swap": "exchange",
    "hint": "legal", "set": "option", "colors": "color",
    "colours": "color", "cols": "width",
    "emote": "me", "afk": "away", "buddy": "friend", "buddies": "friends", "silence": "ignore",
    "wall": "announce", "broadcast": "announce", "gag": "mute",
}


@dataclass(frozen=True)
class Command:
    """One slash command.

    ``key`` is the English name, ``german`` the BSW name where it differs,
    ``aliases`` further names. ``usage`` is shown on wrong use (a usage with
    no arguments makes the registry refuse any); ``summary`` in
    /help; ``help`` in /help COMMAND; ``group`` (one of `GROUPS`) is where /help
    lists it. Commands with ``needs_nick`` refuse clients that have not chosen a
    name yet.
    """

    key: str
    usage: str
    summary: str
    help: str
    handler: Handler
    group: str
    german: str | None = None
    aliases: tuple[str, ...] = ()
    needs_nick: bool = True
    #: a command a person also gives for his second hand (``/dummy COMMAND``, ``/second COMMAND``)
    hand: bool = False

    def __post_init__(self) -> None:
        if self.group not in GROUPS:
            raise ValueError(f"/{self.key}: no help group {self.group!r}; one of {', '.join(GROUPS)}")

    @property
    def takes_arguments(self) -> bool:
        """A usage without arguments ("/tables") means none are accepted."""
        return " " in self.usage.strip()

    @property
    def names(self) -> tuple[str, ...]:
        extra = (self.german,) if self.german else ()
        return (self.key, *extra, *self.aliases)

    def run(self, session: Session, args: str) -> Deferred | None:
        """Call the handler (what it returns: None, or the Deferred it waits for); its
        `wrong_use` refusal gets this command's usage added (the one place a usage is written)."""
        try:
            return self.handler(session, args)
        except UsageRefusal as refusal:
            raise usage_error(self.usage, refusal.detail_sentence) from None


def command(key: str, *, usage: str, summary: Wordable, help: Wordable, group: str, german: str | None = None,
            aliases: tuple[str, ...] = (), needs_nick: bool = True, hand: bool = False
            ) -> Callable[[Callable[..., Deferred | None]], Callable[..., Deferred | None]]:
    """Marks a `CommandGroup` method as the handler of the slash command ``key`` (the fields
    are `Command`'s)."""
    metadata = dict(key=key, usage=usage, summary=summary, help=help, group=group, german=german,
                    aliases=aliases, needs_nick=needs_nick, hand=hand)

    def mark(handler: Callable[..., Deferred | None]) -> Callable[..., Deferred | None]:
        handler.command_metadata = metadata  # type: ignore[attr-defined]  # read by CommandGroup.commands
        return handler

    return mark


class CommandGroup:
    """Commands that work on the same parts of the domain: each a method marked with `command`.

    An instance holds those parts (given to its constructor), so one command can be run, or
    tested, with just them."""

    @classmethod
    def hand_names(cls) -> frozenset[str]:
        """Every name of the group's commands marked ``hand`` (read from the class: the wiring
        hands them to the tables, whose second hands' sentences name them as that hand's)."""
        marked = [Command(handler=method, **method.command_metadata)
                  for method in vars(cls).values() if hasattr(method, "command_metadata")]
        return frozenset(name for one in marked if one.hand for name in one.names)

    def commands(self) -> list[Command]:
        """The group's commands, in the order their methods are written (the order /help lists)."""
        return [self.command_of(getattr(self, name))
                for name, method in vars(type(self)).items() if hasattr(method, "command_metadata")]

    def command_of(self, handler: Callable[..., Deferred | None]) -> Command:
        """The `Command` of one of this group's handlers (a bound method marked with `command`):
        a handler that runs itself again on a later line (a password typed unseen) runs it so,
        for its wrong use to be told with its usage (`Command.run`)."""
        return Command(handler=handler, **handler.command_metadata)  # type: ignore[attr-defined]  # set by command


class CommandRegistry:
    """All commands by every name (case-insensitive), in registration order."""

    def __init__(self) -> None:
        self._commands: list[Command] = []
        self._by_name: dict[str, Command] = {}

    def register_all(self, commands: Iterable[Command]) -> None:
        for one in commands:
            self.register(one)

    def register(self, command: Command) -> Command:
        clashes = [n for n in command.names if n.casefold() in self._by_name]
        if clashes:
            raise ValueError(f"command name already registered: {', '.join(clashes)}")
        self._commands.append(command)
        for name in command.names:
            self._by_name[name.casefold()] = command
        return command

    def lookup(self, name: str) -> Command | None:
        return self._by_name.get(name.casefold())

    def __iter__(self):
        return iter(self._commands)

    def suggest(self, name: str) -> Text:
        """A hint for an unknown command: what it is called here, else the names
        within a typo or two of it, else only /help (a far-off guess misleads)."""
        word = name.casefold()
        known = self.lookup(ELSEWHERE.get(word, ""))
        if known is not None:
            return _("here that is %(usage)s (/help %(command)s)", usage=known.usage, command=known.key)
        limit = 1 if len(word) <= 5 else 2
        scored = sorted(
            (distance, order, candidate)
            for order, candidate in enumerate(self._by_name)
            if (distance := typo_distance(word, candidate)) <= limit
        )
        close = [candidate for _distance, _order, candidate in scored[:2]]
        if not close:
            return _("/help lists the commands")
        if len(close) == 1:
            return _("did you mean /%(command)s? (/help lists all)", command=close[0])
        return _("did you mean /%(command)s or /%(other)s? (/help lists all)",
                 command=close[0], other=close[1])

    def dispatch(self, session: Session, line: str) -> Deferred | None:
        """Run the command in ``line`` (which starts with "/"), or raise Refusal; a Deferred:
        the command goes on when it fires."""
        name, _space, args = line[1:].strip().partition(" ")
        if not name:
            raise Refusal("unknown_command", _("empty command; try /help"))
        command = self.lookup(name)
        if command is None:
            raise Refusal("unknown_command", _("unknown command /%(command)s; %(suggestion)s",
                                               command=name, suggestion=self.suggest(name)))
        if command.needs_nick and session.nick is None:
            raise Refusal(
                "nick_required",
                _("choose a name first with /nick NAME; /%(command)s needs one", command=name),
            )
        args = args.strip()
        if args and not command.takes_arguments:
            raise usage_error(command.usage, _("/%(command)s takes no arguments", command=command.key))
        return command.run(session, args)


def typo_distance(a: str, b: str) -> int:
    """Edits from ``a`` to ``b``: a letter added, dropped, changed, or two swapped
    (optimal string alignment), the usual slips of a typing hand."""
    before: list[int] | None = None
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y))
            if before is not None and j > 1 and x == b[j - 2] and a[i - 2] == y:
                cost = min(cost, before[j - 2] + 1)
            current.append(cost)
        before, previous = previous, current
    return previous[-1]


def usage_error(command_usage: str, detail: Wordable = "") -> Refusal:
    """The standard refusal for wrong arguments: what was wrong, then the usage."""
    if detail:
        return Refusal("usage", _("%(detail)s; usage: %(usage)s", detail=detail, usage=command_usage))
    return Refusal("usage", _("usage: %(usage)s", usage=command_usage))


class UsageRefusal(Refusal):
    """Wrong arguments, said by a handler with only what was wrong (`wrong_use`);
    `Command.run` turns it into `usage_error` with the command's own usage."""

    def __init__(self, detail: Wordable = "") -> None:
        super().__init__("usage", detail)
        self.detail = str(detail)
        #: the detail to be worded in the reader's language
        self.detail_sentence = detail


def wrong_use(detail: Wordable = "") -> UsageRefusal:
    """The refusal a handler raises for wrong arguments: the detail only, no usage text."""
    return UsageRefusal(detail)
