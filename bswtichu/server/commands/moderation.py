"""The moderators' and admins' commands: /op /deop /mute /unmute /ban /unban /announce /close
/audit, and kicking a person (the table's /kick hands over whatever is not a seat number).

Who holds which role, the sanctions in force and the audit log are
`bswtichu.server.people.moderation`'s (`Moderation`); these commands check the actor's role
there first, then act, tell the target and write the act to the audit log.
"""

from __future__ import annotations

import functools
import ipaddress
import time
from collections.abc import Callable

from bswtichu import names
from bswtichu.server.text.i18n import _
from bswtichu.server.commands.registry import CommandGroup, command, wrong_use
from bswtichu.server.numbers import is_number
from bswtichu.server.connections import Connections
from bswtichu.server.people.directory import NameDirectory
from bswtichu.server.people.moderation import (
    ADMIN, MODERATOR, Moderation, Network, as_name, as_network, banned_bye, hang_up, sanctioned, when,
)
from bswtichu.server.session import Session
from bswtichu.server.tables.hall import TableHall
from bswtichu.server.text.messages import Message, Refusal
from bswtichu.storage.community import BAN, MUTE

#: the longest mute or ban with an end, in minutes (a year); without MINUTES it lasts until lifted
MAX_MINUTES = 525_600
AUDIT_LENGTH = 20
NO_REASON = "no reason given"


class ModerationCommands(CommandGroup):
    """Commands that act on other people with a role's power: they share the roles and
    sanctions (``moderation``), the name directory (whom to tell, whom to close), every
    connection (an announcement, a ban by address) and the tables (a banned player's held
    seat, a table an admin closes)."""

    def __init__(self, moderation: Moderation, directory: NameDirectory, connections: Connections,
                 tables: TableHall) -> None:
        self.moderation = moderation
        self.accounts = moderation.accounts
        self.directory = directory
        self.connections = connections
        self.tables = tables

    @command("op", group="moderation", usage="/op NAME", summary=_("an admin makes a registered player a moderator"),
             help=_("Admins only. NAME must be registered; the role is kept across restarts."))
    def op(self, session: Session, args: str) -> None:
        if self.moderation.require_moderator(session) != ADMIN:
            raise Refusal("not_admin", _('only an admin appoints moderators'))
        if len(args.split()) != 1:
            raise wrong_use(_('one name'))
        name = as_name(args)
        if not self.accounts.is_registered(name):
            raise Refusal("not_registered", _('%(name)s is not registered; only registered names hold a role', name=name))
        if self.moderation.is_admin_name(name):
            raise Refusal("has_role", _("%(name)s is an admin's name; the operator makes admins (docs/moderation.md)", name=name))
        if self.moderation.role_of(name) is not None:
            raise Refusal("has_role", _('%(name)s is %(role_of)s already', name=name, role_of=self.moderation.role_of(name)))
        self.moderation.appoint(name, session.name)
        self.moderation.record(session.name, "op", name, None, NO_REASON)
        role = Message("ROLE", {"nick": name, "role": MODERATOR, "by": session.name},
                       _('%(name)s is a moderator now (appointed by %(name2)s).', name=name, name2=session.name))
        session.send(role)
        target = self.directory.find(name)
        if target is not None and target is not session:
            target.send(role)

    @command("deop", group="moderation", usage="/deop NAME", summary=_("an admin removes a moderator"),
             help=_("Admins only. Admins themselves are made by the operator (bswtichu admin add)."))
    def deop(self, session: Session, args: str) -> None:
        if self.moderation.require_moderator(session) != ADMIN:
            raise Refusal("not_admin", _('only an admin removes moderators'))
        if len(args.split()) != 1:
            raise wrong_use(_('one name'))
        name = as_name(args)
        if self.moderation.role_of(name) == ADMIN:
            raise Refusal("protected", _('%(name)s is an admin (claimed by the operator); /deop removes moderators', name=name))
        if not self.moderation.dismiss(name):
            raise Refusal("no_role", _('%(name)s is not a moderator', name=name))
        self.moderation.record(session.name, "deop", name, None, NO_REASON)
        role = Message("ROLE", {"nick": name, "role": None, "by": session.name},
                       _('%(name)s is no longer a moderator (by %(name2)s).', name=name, name2=session.name))
        session.send(role)
        target = self.directory.find(name)
        if target is not None:
            target.send(role)

    @command("mute", group="moderation", usage="/mute NAME [MINUTES] [REASON]", summary=_("no chat or messages from NAME"),
             help=_("Moderators and admins: NAME's lobby, table and private chat, /me, /kibitz, /away "
                     'TEXT and /invite are refused (and an /away text he set is not shown) for MINUTES '
                     '(1-%(max_minutes)s), or until /unmute. He may still play.',
                    max_minutes=MAX_MINUTES))
    def mute(self, session: Session, args: str) -> None:
        self.moderation.require_moderator(session)
        name, minutes, reason = _split(args, takes_minutes=True)
        name = as_name(name)
        self.moderation.require_power_over(session, name)
        sanction = self.moderation.impose(MUTE, names.key(name), name, minutes, reason, session.name)
        self.moderation.record(session.name, "mute", name, minutes, reason)
        target = self.directory.find(name)
        if target is not None:
            target.send(sanctioned("mute", session.name, reason, sanction.until, minutes))
        _confirm(session, "mute", name, sanction.until, reason, f"{name} is muted {when(sanction.until)}: {reason}.")

    @command("unmute", group="moderation", usage="/unmute NAME [REASON]", summary=_("lift a mute"),
             help=_("Moderators and admins."))
    def unmute(self, session: Session, args: str) -> None:
        self.moderation.require_moderator(session)
        name, _sep, reason = _split(args, takes_minutes=False)
        name = as_name(name)
        self.moderation.require_power_over(session, name)
        if not self.moderation.lift(MUTE, names.key(name)):
            raise Refusal("not_muted", _('%(name)s is not muted', name=name))
        self.moderation.record(session.name, "unmute", name, None, reason)
        target = self.directory.find(name)
        if target is not None:
            target.send(sanctioned("unmute", session.name, reason))
        _confirm(session, "unmute", name, None, reason, f"{name} may chat again.")

    @command("ban", group="moderation", usage="/ban NAME|ADDRESS[/PREFIX] [MINUTES] [REASON]",
             summary=_("keep a name or addresses out"),
             help=_("Moderators and admins: a banned name is refused at /nick, a banned address range"
             " (IPv4 or IPv6) at connect, with the reason and end time; online connections go at"
             " once and a held seat goes to a stand-in. Kept across restarts. The IRC bridge's"
             " address cannot be banned: ban its users' names."))
    def ban(self, session: Session, args: str) -> None:
        self.moderation.require_moderator(session)
        word, minutes, reason = _split(args, takes_minutes=True)
        network = as_network(word)
        target, shown, hit = self._ban_target(session, word, network)
        sanction = self.moderation.impose(BAN, target, shown, minutes, reason, session.name)
        self.moderation.record(session.name, "ban", shown, minutes, reason)
        for other in hit:
            if other is not None and other is not session:
                name_held = other.nick
                hang_up(self.directory, other, banned_bye(sanction))
                if name_held is not None:
                    self._stand_in(name_held)
        if network is None:
            self._stand_in(shown)
        _confirm(session, "ban", shown, sanction.until, reason, f"{shown} is banned {when(sanction.until)}: {reason}.")

    def _ban_target(self, session: Session, word: str, network: Network | None
                    ) -> tuple[str, str, list[Session | None]]:
        """What /ban WORD bans: (the sanction's target, as shown, the sessions it closes); refused
        if the actor has no power over the name, or a role holder would be banned with the range."""
        if network is None:
            name = as_name(word)
            self.moderation.require_power_over(session, name)
            target, shown, hit = names.key(name), name, [self.directory.find(name)]
        else:
            self.moderation.check_range(network)
            target = shown = str(network)
            # by name: which protected person a refusal names, and the order the hit are closed
            # in, must not depend on the order of a set
            in_range = [s for s in self.connections if s.address and ipaddress.ip_address(s.address) in network]
            in_range.sort(key=lambda s: (s.nick or "").casefold())
            hit = [*in_range]
        for other in hit:
            if other is not None and self.moderation.role_of(other.nick) is not None:
                raise Refusal("protected", _('%(shown)s would ban %(nick)s, who is %(role_of)s', shown=shown, nick=other.nick, role_of=self.moderation.role_of(other.nick)))
        return target, shown, hit

    def _stand_in(self, name: str) -> None:
        """A banned player's seat, held for him, goes to a stand-in for good."""
        held = self.tables.held_seat(name)
        if held is not None:
            table, seat = held
            table.give_up_seat(seat)

    @command("unban", group="moderation", usage="/unban NAME|ADDRESS[/PREFIX] [REASON]", summary=_("lift a ban"),
             help=_("Moderators and admins."))
    def unban(self, session: Session, args: str) -> None:
        self.moderation.require_moderator(session)
        word, _sep, reason = _split(args, takes_minutes=False)
        network = as_network(word)
        target = names.key(as_name(word)) if network is None else str(network)
        shown = word if network is None else target
        if not self.moderation.lift(BAN, target):
            raise Refusal("not_banned", _('%(shown)s is not banned', shown=shown))
        self.moderation.record(session.name, "unban", shown, None, reason)
        _confirm(session, "unban", shown, None, reason, f"{shown} is no longer banned.")

    @command("announce", group="moderation", usage="/announce TEXT", summary=_("a line to everyone, from the server"),
             help=_("Moderators and admins: TEXT reaches every connection, marked as from the server."))
    def announce(self, session: Session, args: str) -> None:
        self.moderation.require_moderator(session)
        if not args:
            raise wrong_use(_('say what'))
        self.moderation.record(session.name, "announce", "", None, args)
        message = Message("ANNOUNCE", {"from": "server", "by": session.name, "text": args},
                          _('*** [server] %(args)s', args=args))
        for other in self.connections:
            other.send(message)

    @command("close", group="moderation", usage="/close TABLE [REASON]",
             summary=_("an admin closes a table, its game unfinished"),
             help=_("Admins only. Everyone at TABLE is told and back in the lobby; a running game ends"
             " unfinished for good (a restart does not bring it back). Audited."))
    def close(self, session: Session, args: str) -> None:
        if self.moderation.require_moderator(session) != ADMIN:
            raise Refusal("not_admin", _('only an admin closes a table'))
        word, _sep, reason = args.strip().partition(" ")
        if not is_number(word):
            raise wrong_use(_('which table? /tables lists them'))
        table = self.tables.get(int(word))
        if table is None:
            raise Refusal("no_such_table", _('there is no table %(word)s; /tables lists them', word=word))
        reason = reason.strip() or NO_REASON
        self.moderation.record(session.name, "close", f"table {table.number}", None, reason)
        for name in table.shut(session.name, reason):
            there = self.directory.find(name)
            if there is not None and there.table is table:
                there.table = None
        _confirm(session, "close", f"table {table.number}", None, reason,
                 f"Table {table.number} is closed: {reason}.")

    @command("audit", group="moderation", usage="/audit [NAME]", summary=_("the latest moderation acts"),
             help=_('Moderators and admins: the last %(audit_length)s acts (of or about NAME): who, '
                     'what, whom, how long, why.',
                    audit_length=AUDIT_LENGTH))
    def audit(self, session: Session, args: str) -> None:
        self.moderation.require_moderator(session)
        if len(args.split()) > 1:
            raise wrong_use(_('one name at most'))
        name = as_name(args) if args else None
        entries = self.moderation.store.audit(AUDIT_LENGTH, name)
        rows = [{"at": e.at, "actor": e.actor, "action": e.action, "target": e.target,
                 "minutes": e.minutes, "reason": e.reason} for e in entries]
        lines = [f"The last {len(entries)} moderation acts{' about ' + name if name else ''}:" if entries
                 else f"No moderation acts{' about ' + name if name else ''} yet."]
        for e in entries:
            stamp = time.strftime("%Y-%m-%d %H:%M", time.gmtime(e.at))
            span = f" {e.minutes} min" if e.minutes is not None else ""
            act = " ".join(filter(None, (e.actor, e.action, e.target)))  # an announce has no target
            lines.append(f"  {stamp} UTC {act}{span}: {e.reason}")
        session.send(Message("AUDIT", {"nick": name, "entries": rows}, "\n".join(lines)))


def kick_person(moderation: Moderation, directory: NameDirectory, session: Session, args: str) -> None:
    """``/kick NAME [REASON]``: a moderator closes NAME's connection (his seat is held as for any drop)."""
    moderation.require_moderator(session)
    name, _sep, reason = _split(args, takes_minutes=False)
    name = as_name(name)
    target = directory.find(name)
    if target is None:
        raise Refusal("no_such_user", _('nobody called %(name)s is online; /who lists who is', name=name))
    moderation.require_power_over(session, target.name)
    moderation.record(session.name, "kick", target.name, None, reason)
    hang_up(directory, target, Message("BYE", {"reason": "kicked", "by": session.name, "why": reason},
                                       _('You are kicked by %(name)s: %(reason)s.', name=session.name, reason=reason)))
    session.send(Message("MODERATION", {"action": "kick", "target": target.name, "until": None,
                                        "reason": reason}, _('%(name)s is kicked: %(reason)s.', name=target.name, reason=reason)))


def person_kicker(moderation: Moderation, directory: NameDirectory) -> Callable[[Session, str], None]:
    """`kick_person` as the handler the table's /kick hands a name to."""
    return functools.partial(kick_person, moderation, directory)


def _confirm(session: Session, action: str, target: str, until: float | None, reason: str, text: str) -> None:
    """The actor hears what he did."""
    session.send(Message("MODERATION", {"action": action, "target": target, "until": until,
                                        "reason": reason}, text))


def _split(args: str, takes_minutes: bool) -> tuple[str, int | None, str]:
    """NAME [MINUTES] [REASON] (or NAME [REASON]) as (target, minutes, reason)."""
    target, _sep, rest = args.strip().partition(" ")
    if not target:
        raise wrong_use(_('whom?'))
    rest = rest.strip()
    minutes = None
    if takes_minutes:
        first, _sep, after = rest.partition(" ")
        if is_number(first):
            minutes = int(first)
            if not 1 <= minutes <= MAX_MINUTES:
                raise wrong_use(_('MINUTES is 1-%(max_minutes)s; leave it out for no end', max_minutes=MAX_MINUTES))
            rest = after.strip()
    return target, minutes, rest or NO_REASON
