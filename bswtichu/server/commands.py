"""Slash commands: a registry of command objects and the parser that picks one.

Modules add their own commands with ``CommandRegistry.register`` (the lobby and
tables do; the game wiring will). A handler receives the session and the raw
argument text, and raises ``Refusal`` to report bad input before changing state.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass

from bswtichu.server import messages
from bswtichu.server.messages import Refusal
from bswtichu.server.session import Session

Handler = Callable[[Session, str], None]


@dataclass(frozen=True)
class Command:
    """One slash command.

    ``key`` is the English name, ``german`` the BSW name where it differs,
    ``aliases`` further names. ``usage`` is shown on wrong use (a usage with
    no arguments makes the registry refuse any); ``summary`` in
    /help; ``help`` in /help COMMAND. Commands with ``needs_nick`` refuse clients
    that have not chosen a name yet.
    """

    key: str
    usage: str
    summary: str
    help: str
    handler: Handler
    german: str | None = None
    aliases: tuple[str, ...] = ()
    needs_nick: bool = True

    @property
    def takes_arguments(self) -> bool:
        """A usage without arguments ("/tables") means none are accepted."""
        return " " in self.usage.strip()

    @property
    def names(self) -> tuple[str, ...]:
        extra = (self.german,) if self.german else ()
        return (self.key, *extra, *self.aliases)


class CommandRegistry:
    """All commands by every name (case-insensitive), in registration order."""

    def __init__(self) -> None:
        self._commands: list[Command] = []
        self._by_name: dict[str, Command] = {}

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

    def suggest(self, name: str) -> str:
        """A hint for a mistyped command: the nearest names, or /help."""
        close = difflib.get_close_matches(name.casefold(), self._by_name, n=2, cutoff=0.6)
        if not close:
            return "try /help"
        return "did you mean " + " or ".join(f"/{c}" for c in close) + "? (/help lists all)"

    def dispatch(self, session: Session, line: str) -> None:
        """Run the command in ``line`` (which starts with "/"), or raise Refusal."""
        name, _, args = line[1:].strip().partition(" ")
        if not name:
            raise Refusal("unknown_command", "empty command; try /help")
        command = self.lookup(name)
        if command is None:
            raise Refusal("unknown_command", f"unknown command /{name}; {self.suggest(name)}")
        if command.needs_nick and session.nick is None:
            raise Refusal(
                "nick_required",
                f"choose a name first with /nick NAME; /{name} needs one",
            )
        args = args.strip()
        if args and not command.takes_arguments:
            raise usage_error(command.usage, f"/{command.key} takes no arguments")
        command.handler(session, args)


#: Commands (every name they go by) whose arguments are secrets: logs show them
#: without arguments, and the IRC bridge never takes them from its channel.
SECRET_COMMANDS = frozenset({"nick", "name", "register", "password", "passwort", "resume"})


# ASCII digits only: str.isdigit() also accepts "²" or "٣", which int() rejects or reads
# differently. Nine digits keep every number far below int()'s digit limit.
NUMBER_PATTERN = re.compile(r"[0-9]{1,9}")


def is_number(word: str) -> bool:
    """Whether ``word`` is a plain decimal number (1-9 ASCII digits, no sign)."""
    return NUMBER_PATTERN.fullmatch(word) is not None


def usage_error(command_usage: str, detail: str = "") -> Refusal:
    """The standard refusal for wrong arguments: what was wrong, then the usage."""
    prefix = f"{detail}; " if detail else ""
    return Refusal("usage", f"{prefix}usage: {command_usage}")


def help_command(registry: CommandRegistry) -> Command:
    """/help and /help COMMAND over whatever ``registry`` holds at the time."""

    def handle(session: Session, args: str) -> None:
        if not args:
            session.send(
                messages.help_index(
                    [
                        {
                            "name": c.key,
                            "usage": c.usage,
                            "summary": c.summary,
                            "aliases": list(c.names[1:]),
                        }
                        for c in registry
                    ]
                )
            )
            return
        name = args.split()[0].lstrip("/")
        command = registry.lookup(name)
        if command is None:
            raise Refusal("unknown_command", f"no command /{name}; /help lists them all")
        session.send(
            messages.help_entry(command.key, command.usage, command.help, list(command.names[1:]))
        )

    return Command(
        key="help",
        german="hilfe",
        aliases=("?",),
        usage="/help [COMMAND]",
        summary="list the commands, or explain one",
        help="Without an argument, lists every command. /help join explains /join.",
        handler=handle,
        needs_nick=False,
    )
