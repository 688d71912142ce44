"""The lobby's commands: /nick, /who, /msg, /observer, /mode, /quit.

Also what an observer may still do (`OBSERVER_COMMANDS`), which the lobby checks before it
dispatches a line.
"""

from __future__ import annotations

from twisted.internet.defer import Deferred

from bswtichu.config import LiveConfig
from bswtichu.server.text import messages
from bswtichu import names
from bswtichu.server.people.chat import Chat
from bswtichu.server.text.i18n import _
from bswtichu.server.commands.registry import CommandGroup, command, wrong_use
from bswtichu.server.numbers import is_number
from bswtichu.server.people.directory import NameDirectory
from bswtichu.server.text.messages import Message, Refusal
from bswtichu.server.text.render import MODES
from bswtichu.server.session import Session

#: What an observer (`/observer`) may still do: look, never take part.
#: /nick too, for a name only (no renaming): the bridge's watchers say /observer first, so that
#: only an observer (who cannot chat) takes the bridge's reserved names (`Moderation.admit`).
OBSERVER_COMMANDS = frozenset({"watch", "leave", "table", "tables", "who", "help", "mode", "quit", "observer",
                               "nick"})


class LobbyCommands(CommandGroup):
    """Commands about who is here and how one is here: they share the name directory (names,
    and accounts through its guard), the chat and the live config (the /who page size)."""

    def __init__(self, directory: NameDirectory, chat: Chat, config: LiveConfig) -> None:
        self.directory = directory
        self.guard = directory.guard
        self.index = directory.index
        self.chat = chat
        self.config = config

    @command("nick", group="account", german="name", usage="/nick NAME [PASSWORD]",
             summary=_("choose your name (a registered one with its password)"),
             help=_('Sets your name: %(names)s; letters of any alphabet. Names are unique, ignoring '
                     'case. You cannot change it while you sit at or watch a table. A registered name '
                     'needs its password (at a terminal, /nick NAME asks for it, not shown; /register '
                     'keeps a name for good); a guest gets a resume token that gives his name and held '
                     'seat back after a dropped connection.',
                    names=names.NAME_RULE),
             needs_nick=False)
    def nick(self, session: Session, args: str) -> Deferred | None:
        words = args.split()
        if not 1 <= len(words) <= 2:
            raise wrong_use(_('a name is %(name_rule)s', name_rule=names.NAME_RULE))
        name = names.normalize(words[0])
        password = words[1] if len(words) == 2 else None
        self._check_may_take(session, name)
        registered = self.guard.accounts.is_registered(name)
        if password is None and registered and session.ask_secret(
                messages.password_wanted(name, f"{name} is registered. Password (not shown;"
                                               " an empty line gives up):"),
                lambda typed: self.command_of(self.nick).run(session, f"{name} {typed}")):
            return None
        if registered and password is not None:
            return self.guard.verify(session, name, password).addCallback(self._logged_in, session, name)
        if registered:
            raise Refusal("name_registered", _('%(name)s is registered; log in with /nick %(name)s PASSWORD', name=name))
        if password is not None:
            raise Refusal("not_registered",
                          _('%(name)s is not registered: /nick %(name)s without a password, then /register PASSWORD', name=name))
        self._take(session, self.guard.claim(name))
        return None

    def _check_may_take(self, session: Session, name: str) -> None:
        """Refuse a name that is no name, a bot's, taken by a guest online, or too like another
        one in use; and any new name while at a table, or for an observer that has one."""
        if not names.is_valid(name):
            raise Refusal("nick_invalid", _('%(name)r is not a valid name; a name is %(name_rule)s', name=name, name_rule=names.NAME_RULE))
        if names.looks_like_bot(name):
            said = "" if names.is_bot_name(name) else f"the name {name} looks like a bot's: "
            raise Refusal("nick_invalid", _('%(said)snames starting with %(bot_prefix)s are kept for bots', said=said, bot_prefix=names.BOT_PREFIX))
        if session.table is not None:
            raise Refusal(
                "at_table", _('you are at table %(table)s; /leave it before renaming', table=session.table.number)
            )
        if session.nick is not None and self.index.is_observer(session):
            raise Refusal("observer", _('an observer keeps its name (%(nick)s); /quit and connect again to take another', nick=session.nick))
        holder = self.directory.find(name)
        if holder is not None and holder is not session and not self.guard.accounts.is_registered(name):
            raise Refusal("nick_taken", _('the name %(nick)s is taken; choose another', nick=holder.nick))
        self.guard.check_look(name, self.index.names_but(session))

    def _logged_in(self, spelled: str | None, session: Session, name: str) -> None:
        """The password is checked (off the reactor; the connection is still there, and the
        password the same, `NameGuard.verify` says): the name is his."""
        if spelled is None:
            raise Refusal("bad_password", _('wrong password for %(name)s', name=name))
        self._take(session, spelled)
        session.password_travelled()

    def _take(self, session: Session, name: str) -> None:
        """The name is ``session``'s now (a ghost holding it is closed); a guest gets his token."""
        self.directory.take_over(session, name)
        self.directory.take_name(session, name)
        token = self.guard.claimed(session, name)
        if token is not None:
            session.send(token)

    @command("who", group="lobby", german="wer", usage="/who [PAGE]",
             summary=_("who is online, and where"),
             help=_("Lists everyone with a name: in the lobby, at a table (seat), or watching."
             " A page holds the server's who_page_size names (50 unless configured), by name;"
             " /who 2 shows the second."))
    def who(self, session: Session, args: str) -> None:
        if args and not is_number(args):
            raise wrong_use(_('PAGE must be a number, not %(args)r', args=args))
        online = self.directory.online()
        who_page_size = self.config.current.who_page_size
        pages = max(1, -(-len(online) // who_page_size))
        page = int(args) if args else 1
        if not 1 <= page <= pages:
            raise wrong_use(f"there {'is' if pages == 1 else 'are'} {pages} page(s)")
        users = [self._who_entry(other, session.nick)
                 for other in online[(page - 1) * who_page_size : page * who_page_size]]
        observers = [{"nick": o.nick, "table": o.table.number if o.table is not None else None}
                     for o in self.directory.observers()]
        session.send(messages.who(users, page, pages, len(online), observers))

    def _who_entry(self, other: Session, reader: str | None) -> dict:
        """One person's line in /who, as ``reader`` may see it (his away text, if it reaches him)."""
        table = other.table
        seat = table.seat_of(other.name) if table is not None else None
        return {
            "nick": other.nick,
            "table": table.number if table is not None else None,
            "seat": seat,
            "watching": table is not None and seat is None,
            "away": self.chat.away_of(other, reader),
        }

    @command("msg", group="lobby", aliases=("tell",), usage="/msg NAME TEXT",
             summary=_("a private message to one person"),
             help=_("Sends TEXT to NAME only, wherever they are; you get an echo."))
    def msg(self, session: Session, args: str) -> None:
        name, _sep, text = args.partition(" ")
        text = text.strip()
        if not name or not text:
            raise wrong_use()
        self.chat.private(session, name, text)

    @command("observer", group="lobby", usage="/observer",
             summary=_("this connection only watches (for bridges and displays)"),
             help=_("Marks this connection as an observer for as long as it lasts: it may watch"
             " tables (/watch, /table, /tables, /who, /help, /mode, /leave, /quit; /nick for a"
             " name, not to rename) but never"
             " sit down, chat or send messages. /who lists observers apart from the people"
             " online, and the player count leaves them out. It may come before /nick."
             " The IRC bridge's watchers use it."),
             needs_nick=False)
    def observer(self, session: Session, args: str) -> None:
        if session.table is not None and session.table.seat_of(session.name) is not None:
            raise Refusal("at_table", _('you sit at table %(table)s; an observer cannot play: /leave first', table=session.table.number))
        self.index.observe(session)
        session.send(Message("OBSERVER", {"nick": session.nick},
                             f"{session.nick or 'This connection'} only watches now: /who lists this"
                             " connection apart, and it cannot sit down, chat or send messages."))

    @command("mode", group="display", german="modus", usage=f"/mode [{'|'.join(MODES)}]",
             summary=_("readable text, or one JSON line per message"),
             help=_("human (the default): sentences for people. machine: every message is"
             " exactly one line KEYWORD {json}, documented in docs/PROTOCOL.md. relay: the"
             " machine line with the sentence added as its human field (for bridges)."
             " Without an argument, shows the current mode."),
             needs_nick=False)
    def mode(self, session: Session, args: str) -> None:
        if args and args.lower() not in MODES:
            raise wrong_use(_('no mode %(args)r', args=args))
        if args:
            session.mode = args.lower()
        session.send(messages.mode(session.mode))

    @command("quit", group="lobby", german="ende", aliases=("exit", "bye"), usage="/quit",
             summary=_("disconnect (a seat at a table stays held for you)"),
             help=_("Says goodbye and hangs up. Your seat stays held: come back with the same"
             " name (/nick NAME PASSWORD, or a guest's /resume TOKEN) and you sit in it again."),
             needs_nick=False)
    def quit_(self, session: Session, args: str) -> None:
        session.send(messages.bye("quit", _('Goodbye.')))
        session.close()
