"""/help: the command groups, one group's commands, or one command, read from the registry.

/help lists whatever the registry holds when it is asked, in registration order (the wiring's
one list, `bswtichu.service`), so it is registered first and still shows the commands after it.
"""

from __future__ import annotations

from bswtichu.server.text.i18n import _
from bswtichu.server.commands.registry import GROUPS, Command, CommandGroup, CommandRegistry, command
from bswtichu.server.session import Session
from bswtichu.server.text import messages
from bswtichu.server.text.messages import Refusal


class HelpCommands(CommandGroup):
    """The commands that describe the commands: they share the registry they read."""

    def __init__(self, registry: CommandRegistry) -> None:
        self.registry = registry

    @command("help", german="hilfe", aliases=("?",), usage="/help [GROUP|COMMAND]",
             summary=_("the command groups, one group's commands, or one command"),
             help=_("Without an argument, lists the groups (%(groups)s) and their commands. /help game"
                    " lists the game's commands; /help join explains /join.", groups=", ".join(GROUPS)),
             group="lobby", needs_nick=False)
    def help_(self, session: Session, args: str) -> None:
        word = args.split()[0].lstrip("/").casefold() if args else ""
        if not word:
            groups = [
                {"name": group, "about": str(about), "commands": [c.key for c in self.registry if c.group == group]}
                for group, about in GROUPS.items()
            ]
            session.send(messages.help_index([entry(c) for c in self.registry], groups,
                                             list(GROUPS.values())))
            return
        if word in GROUPS:
            members = [entry(c) for c in self.registry if c.group == word]
            session.send(messages.help_group(word, GROUPS[word], members,
                                             [c.summary for c in self.registry if c.group == word]))
            return
        found = self.registry.lookup(word)
        if found is None:
            raise Refusal("unknown_command", _("no command or group %(word)r; groups: %(groups)s;"
                                               " /help lists them", word=args.split()[0],
                                               groups=", ".join(GROUPS)))
        session.send(messages.help_entry(found.key, found.usage, found.help,
                                         list(found.names[1:]), found.group))


def entry(one: Command) -> dict:
    """A command as /help lists it (its machine fields)."""
    return {
        "name": one.key,
        "usage": one.usage,
        "summary": str(one.summary),
        "aliases": list(one.names[1:]),
        "group": one.group,
    }
