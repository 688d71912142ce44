"""Roles and moderation: admins (claimed by the operator), moderators (kept), bans, mutes, the audit log.

An admin is an account the operator claimed with ``bswtichu admin add NAME`` (`operator_desk`;
kept in the database): a session holding it has proved it with the password. A name in
``[admin] admins`` that is not claimed yet is kept for the operator: nobody may take it (nor
a look-alike), so nobody can register it first. Admins appoint moderators (``/op``); both
may kick, mute, ban and announce, each act told to its target with the reason (and end
time) and written to the audit log. A moderator cannot act on an admin or another
moderator; an admin can act on moderators, never on another admin. Guests and players have no power over anyone.

A ban is by name (any connection that takes the name) or by address range (IPv4 or IPv6,
``ADDRESS/PREFIX``; matched against a connection's peer address at connect and at
``/nick``). The IRC bridge is one address for all its users (an address in
``uncapped_addresses``): a range holding it is refused, and its users are banned by name.
Sanctions are kept in the database and read once at start; an expired one is ignored.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable

from twisted.internet.interfaces import IReactorTime

from bswtichu.server.text import messages

from bswtichu import names
from bswtichu.server.commands.registry import Command, is_number, wrong_use
from bswtichu.server.connections import Connections
from bswtichu.server.people.directory import NameDirectory
from bswtichu.server.text.messages import Message, Refusal
from bswtichu.server.session import Session
from bswtichu.server.tables.hall import TableHall
from bswtichu.storage import AccountStore, AdminStore
from bswtichu.storage.community import BAN, MUTE, AuditEntry, CommunityStore, Sanction

ADMIN, MODERATOR = "admin", "moderator"
#: the longest mute or ban with an end, in minutes (a year); without MINUTES it lasts until lifted
MAX_MINUTES = 525_600
AUDIT_LENGTH = 20
NO_REASON = "no reason given"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def when(until: float | None) -> str:
    """An end time as people read it: the UTC minute, or "until lifted"."""
    if until is None:
        return "until lifted"
    return "until " + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(until))


def as_network(word: str) -> Network | None:
    """``word`` as an address range (a bare address is a range of one), or None for a name.

    A name never holds ``.`` or ``:``, an address always does.
    """
    if "." not in word and ":" not in word:
        return None
    try:
        return ipaddress.ip_network(word, strict=False)
    except ValueError:
        raise Refusal("bad_address", f"{word[:60]!r} is neither a name nor an address range such as"
                                     " 192.0.2.7, 192.0.2.0/24 or 2001:db8::/32") from None


class Moderation:
    """Who holds which role, and the sanctions in force (cached from the store, written through)."""

    def __init__(self, store: CommunityStore, accounts: AccountStore, claims: AdminStore,
                 clock: IReactorTime, admins: tuple[str, ...], bridge_addresses: frozenset[str],
                 reserved: tuple[str, ...] = ()) -> None:
        """``admins``: the names in ``[admin] admins``, kept for the operator until he claims
        them (``claims``); ``bridge_addresses``: the IRC bridge's (``uncapped_addresses``),
        never banned, and the only ones whose observers (the bridge's table watchers) may take
        a ``reserved`` name."""
        self.store = store
        self.accounts = accounts
        self.claims = claims
        self.clock = clock
        #: the names listed in the config, by key
        self._listed = {names.key(name): name for name in admins}
        #: the claimed admins by key: the account's name as registered
        self._claimed = {names.key(name): name for name in claims.names()}
        self._moderators = {names.key(key): name for key, name in store.moderators().items()}
        self._bridge_addresses = bridge_addresses
        self._bridges = [ipaddress.ip_address(a) for a in bridge_addresses]
        #: the reserved names; an admin's own name is never reserved
        self._reserved = [name for name in reserved if not self.is_admin_name(name)]
        self._sanctions: dict[tuple[str, str], Sanction] = {}
        for sanction in store.sanctions(clock.seconds()):
            self._sanctions[(sanction.kind, sanction.target)] = sanction

    # -- roles --------------------------------------------------------------

    def role_of(self, name: str | None) -> str | None:
        """"admin", "moderator" or None; only a registered name holds a role, and only the very
        account the operator claimed is an admin (not a look-alike of the same key)."""
        if name is None:
            return None
        key = names.key(name)
        claimed = self._claimed.get(key)
        if claimed is not None and self.accounts.spelling(name) == claimed:
            return ADMIN
        if key in self._moderators and self.accounts.is_registered(name):
            return MODERATOR
        return None

    def is_admin_name(self, name: str) -> bool:
        """Whether ``name`` is (or would be) an admin's: listed in the config or claimed."""
        return names.key(name) in self._listed or names.key(name) in self._claimed

    def unclaimed(self) -> list[str]:
        """The names in ``[admin] admins`` the operator has not claimed yet."""
        return [name for key, name in self._listed.items() if key not in self._claimed]

    def claimed(self) -> list[str]:
        """The claimed admins' names, as registered."""
        return list(self._claimed.values())

    def claim(self, name: str, stored_password: str) -> str:
        """The operator makes ``name`` an admin (`AdminStore.claim`); the name as registered."""
        spelled = self.claims.claim(claimable_name(name), stored_password)
        self._claimed[names.key(spelled)] = spelled
        return spelled

    def unclaim(self, name: str) -> str:
        """``name`` is an admin no more (its account stays); the name as it was claimed."""
        claimed = self._claimed.pop(names.key(_name(name)), None)
        if claimed is None:
            raise Refusal("no_role", f"{name} is not a claimed admin")
        self.claims.release(claimed)
        return claimed

    def require_moderator(self, session: Session) -> str:
        """The session's role if it moderates, else the refusal (a guest's says so)."""
        role = self.role_of(session.nick)
        if role is not None:
            return role
        if not self.accounts.is_registered(session.nick):
            raise Refusal("guest", "a guest has no moderation powers; only admins and moderators"
                                   " (registered names) do")
        raise Refusal("not_moderator", "only admins and moderators may do that")

    def require_power_over(self, session: Session, target: str) -> None:
        """Refuse acting on oneself, on an admin, or (unless an admin) on a moderator."""
        if names.key(target) == names.key(session.nick):
            raise Refusal("self", "you cannot do that to yourself")
        actor, theirs = self.role_of(session.nick), self.role_of(target)
        if theirs == ADMIN:
            raise Refusal("protected", f"{target} is an admin; nobody moderates an admin")
        if theirs == MODERATOR and actor != ADMIN:
            raise Refusal("protected", f"{target} is a moderator; only an admin acts on a moderator")

    def appoint(self, name: str, by: str) -> None:
        self.store.appoint(name, by, self.clock.seconds())
        self._moderators[names.key(name)] = name

    def dismiss(self, name: str) -> bool:
        if self._moderators.pop(names.key(name), None) is None:
            return False
        self.store.dismiss(name)
        return True

    # -- sanctions ----------------------------------------------------------

    def in_force(self, kind: str, target: str) -> Sanction | None:
        sanction = self._sanctions.get((kind, target))
        if sanction is not None and sanction.until is not None and sanction.until <= self.clock.seconds():
            del self._sanctions[(kind, target)]
            return None
        return sanction

    def impose(self, kind: str, target: str, shown: str, minutes: int | None, reason: str,
               by: str) -> Sanction:
        now = self.clock.seconds()
        until = None if minutes is None else now + 60 * minutes
        sanction = self.store.impose(kind, target, shown, until, reason, by, now)
        self._sanctions[(kind, target)] = sanction
        return sanction

    def lift(self, kind: str, target: str) -> bool:
        self._sanctions.pop((kind, target), None)
        return self.store.lift(kind, target)

    def address_ban(self, address: str) -> Sanction | None:
        """The ban of a range holding ``address``, if any (the bridge's address is never banned)."""
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return None
        if ip.version == 6 and ip.ipv4_mapped is not None:  # an IPv4 peer on a dual-stack port
            ip = ip.ipv4_mapped
        for (kind, target) in list(self._sanctions):
            if kind == BAN and "/" in target and ip in ipaddress.ip_network(target):
                sanction = self.in_force(kind, target)
                if sanction is not None:
                    return sanction
        return None

    def check_range(self, network: Network) -> None:
        """A range holding the bridge's address would ban everyone behind it: refused."""
        if any(address in network for address in self._bridges):
            raise Refusal("bridge_address", f"{network} holds the IRC bridge's address, which all its users"
                                            " share; ban the names behind it instead")

    def barred(self, address: str) -> Message | None:
        """The goodbye at connect to an address in a banned range, or None (`Connections`)."""
        ban = self.address_ban(address)
        return None if ban is None else banned_bye(ban)

    def admit(self, session: Session, name: str, observer: bool = False) -> None:
        """Refuse taking ``name`` while it, or the session's address, is banned, or if it is
        reserved (or looks like a reserved name, or starts with one and ``-``), unless the
        session is an ``observer`` (`/observer`, which may not chat) from a bridge address:
        the bridge's table watchers (`NameDirectory`); or if it is an admin's name (or looks
        like one) the operator has not claimed yet. A person behind the bridge is held to the
        reserved names as anyone is."""
        look, key = names.look(name), names.key(name)
        for listed in self.unclaimed():
            if key == names.key(listed) or look == names.look(listed):
                raise Refusal("nick_reserved", f"the name {name} is kept for an admin until the operator"
                                               f" claims it (bswtichu admin add {listed}); choose another")
        if not (observer and session.address in self._bridge_addresses):
            self._check_not_reserved(name)
        ban = self.in_force(BAN, names.key(name)) or (self.address_ban(session.address) if session.address else None)
        if ban is not None:
            raise Refusal("banned", banned_text(ban))

    def _check_not_reserved(self, name: str) -> None:
        """Refuse a reserved name, one that looks like it, or one that looks as if it started
        with it and ``-``, naming the reserved name."""
        for reserved in self._reserved:
            if names.starts_like(name, reserved + "-"):
                raise Refusal("nick_reserved", f"the name {name} looks like {reserved}-…: names starting"
                                               f" with {reserved}- are reserved for the server; choose another")
            if names.look(name) == names.look(reserved):
                said = "is" if names.key(name) == names.key(reserved) else f"looks like {reserved}, which is"
                raise Refusal("nick_reserved", f"the name {name} {said} reserved for the server; choose another")

    def check_may_speak(self, session: Session) -> None:
        """Refuse chat, private messages, /me, /kibitz, /away TEXT and /invite from a muted name (`Chat`)."""
        mute = self.in_force(MUTE, names.key(session.nick)) if session.nick is not None else None
        if mute is not None:
            raise Refusal("muted", f"you are muted {when(mute.until)} ({mute.reason}); you may still play")

    def record(self, actor: str, action: str, target: str, minutes: int | None, reason: str) -> None:
        self.store.record(AuditEntry(self.clock.seconds(), actor, action, target, minutes, reason))


def operator_desk(moderation: Moderation, directory: NameDirectory | None = None
                  ) -> Callable[[dict], str]:
    """What ``bswtichu admin`` asks, answered (one copy of the rules whether the server runs or
    not; `storage.admins`): ``{"action": "add", "name": N, "password": HASH}``, ``"remove"``
    or ``"list"``; the answer is the operator's line, a refusal raises `Refusal`. A claimed
    name's present holder (a guest, or whoever knew the old password) is told why and closed."""

    def answer(request: dict) -> str:
        action, word = request.get("action"), str(request.get("name", ""))
        if action == "add":
            name = moderation.claim(word, str(request["password"]))
            holder = directory.find(name) if directory is not None else None
            if holder is not None:
                hang_up(directory, holder, messages.bye(
                    "taken_over", f"The operator claimed the name {name} for an admin; this connection"
                                  " is closed."))
            return f"{name} is an admin now: /nick {name} PASSWORD logs in"
        if action == "remove":
            name = moderation.unclaim(word)
            kept = " (still in [admin] admins: kept for an admin until claimed again)" \
                if names.key(name) in map(names.key, moderation.unclaimed()) else ""
            return f"{name} is an admin no more; the account stays{kept}"
        if action == "list":
            lines = [f"{name}: admin" for name in moderation.claimed()]
            lines += [f"{name}: in [admin] admins, not claimed yet (nobody may take the name;"
                      f" bswtichu admin add {name})" for name in moderation.unclaimed()]
            return "\n".join(lines) or "no admins: bswtichu admin add NAME makes one"
        raise Refusal("usage", f"unknown request {action!r}; add, remove or list")

    return answer


def banned_text(ban: Sanction) -> str:
    return f"{ban.shown} is banned {when(ban.until)} by {ban.by}: {ban.reason}"


def banned_bye(ban: Sanction) -> Message:
    return Message("BYE", {"reason": "banned", "by": ban.by, "why": ban.reason, "until": ban.until},
                   f"You are banned {when(ban.until)} by {ban.by}: {ban.reason}. Goodbye.")


def sanctioned(action: str, by: str, reason: str, until: float | None = None, minutes: int | None = None) -> Message:
    """What the target of a moderator's act is told (kick, mute, unmute)."""
    texts = {"kick": f"You are kicked by {by}: {reason}.",
             "mute": f"You are muted by {by} {when(until)}: {reason}. You may still play, but not chat.",
             "unmute": f"{by} lifted your mute: you may chat again."}
    return Message("MODERATED", {"action": action, "by": by, "reason": reason, "until": until,
                                 "minutes": minutes}, texts[action])


def _split(args: str, takes_minutes: bool) -> tuple[str, int | None, str]:
    """NAME [MINUTES] [REASON] (or NAME [REASON]) as (target, minutes, reason)."""
    target, _, rest = args.strip().partition(" ")
    if not target:
        raise wrong_use("whom?")
    rest = rest.strip()
    minutes = None
    if takes_minutes:
        first, _, after = rest.partition(" ")
        if is_number(first):
            minutes = int(first)
            if not 1 <= minutes <= MAX_MINUTES:
                raise wrong_use(f"MINUTES is 1-{MAX_MINUTES}; leave it out for no end")
            rest = after.strip()
    return target, minutes, rest or NO_REASON


def _name(word: str) -> str:
    name = names.normalize(word)
    if not names.is_valid(name):
        raise Refusal("nick_invalid", f"{name[:40]!r} is not a name; a name is {names.NAME_RULE}")
    return name


def claimable_name(word: str) -> str:
    """``word`` as a name the operator may claim for an admin (a person's, not a bot's)."""
    name = _name(word)
    if names.is_bot_name(name):
        raise Refusal("nick_invalid", f"names starting with {names.BOT_PREFIX} are kept for bots")
    return name


def hang_up(directory: NameDirectory, target: Session, bye: Message) -> None:
    """Close the target's connection; his seat is held as for any drop."""
    target.send(bye)
    target.close()
    directory.leave(target)


def person_kicker(moderation: Moderation, directory: NameDirectory) -> Callable[[Session, str], None]:
    """``/kick NAME [REASON]`` (the table's /kick hands over whatever is not a seat number)."""

    def kick(session: Session, args: str) -> None:
        moderation.require_moderator(session)
        name, _, reason = _split(args, takes_minutes=False)
        name = _name(name)
        target = directory.find(name)
        if target is None:
            raise Refusal("no_such_user", f"nobody called {name} is online; /who lists who is")
        moderation.require_power_over(session, target.nick)
        moderation.record(session.nick, "kick", target.nick, None, reason)
        hang_up(directory, target, Message("BYE", {"reason": "kicked", "by": session.nick, "why": reason},
                                           f"You are kicked by {session.nick}: {reason}."))
        session.send(Message("MODERATION", {"action": "kick", "target": target.nick, "until": None,
                                            "reason": reason}, f"{target.nick} is kicked: {reason}."))

    return kick


def moderation_commands(moderation: Moderation, directory: NameDirectory, connections: Connections,
                        tables: TableHall) -> list[Command]:
    """/op /deop /mute /unmute /ban /unban /announce /audit /close (/kick NAME: `person_kicker`)."""
    accounts = moderation.accounts

    def confirm(session: Session, action: str, target: str, until: float | None, reason: str,
                text: str) -> None:
        session.send(Message("MODERATION", {"action": action, "target": target, "until": until,
                                            "reason": reason}, text))

    def stand_in(name: str) -> None:
        """A banned player's seat, held for him, goes to a stand-in for good."""
        held = tables.held_seat(name)
        if held is not None:
            table, seat = held
            table.give_up_seat(seat)

    def op(session: Session, args: str) -> None:
        if moderation.require_moderator(session) != ADMIN:
            raise Refusal("not_admin", "only an admin appoints moderators")
        if len(args.split()) != 1:
            raise wrong_use("one name")
        name = _name(args)
        if not accounts.is_registered(name):
            raise Refusal("not_registered", f"{name} is not registered; only registered names hold a role")
        if moderation.is_admin_name(name):
            raise Refusal("has_role", f"{name} is an admin's name; the operator makes admins"
                                      " (docs/moderation.md)")
        if moderation.role_of(name) is not None:
            raise Refusal("has_role", f"{name} is {moderation.role_of(name)} already")
        moderation.appoint(name, session.nick)
        moderation.record(session.nick, "op", name, None, NO_REASON)
        role = Message("ROLE", {"nick": name, "role": MODERATOR, "by": session.nick},
                       f"{name} is a moderator now (appointed by {session.nick}).")
        session.send(role)
        target = directory.find(name)
        if target is not None and target is not session:
            target.send(role)

    def deop(session: Session, args: str) -> None:
        if moderation.require_moderator(session) != ADMIN:
            raise Refusal("not_admin", "only an admin removes moderators")
        if len(args.split()) != 1:
            raise wrong_use("one name")
        name = _name(args)
        if moderation.role_of(name) == ADMIN:
            raise Refusal("protected", f"{name} is an admin (claimed by the operator); /deop removes moderators")
        if not moderation.dismiss(name):
            raise Refusal("no_role", f"{name} is not a moderator")
        moderation.record(session.nick, "deop", name, None, NO_REASON)
        role = Message("ROLE", {"nick": name, "role": None, "by": session.nick},
                       f"{name} is no longer a moderator (by {session.nick}).")
        session.send(role)
        target = directory.find(name)
        if target is not None:
            target.send(role)

    def mute(session: Session, args: str) -> None:
        moderation.require_moderator(session)
        name, minutes, reason = _split(args, takes_minutes=True)
        name = _name(name)
        moderation.require_power_over(session, name)
        sanction = moderation.impose(MUTE, names.key(name), name, minutes, reason, session.nick)
        moderation.record(session.nick, "mute", name, minutes, reason)
        target = directory.find(name)
        if target is not None:
            target.send(sanctioned("mute", session.nick, reason, sanction.until, minutes))
        confirm(session, "mute", name, sanction.until, reason, f"{name} is muted {when(sanction.until)}: {reason}.")

    def unmute(session: Session, args: str) -> None:
        moderation.require_moderator(session)
        name, _, reason = _split(args, takes_minutes=False)
        name = _name(name)
        moderation.require_power_over(session, name)
        if not moderation.lift(MUTE, names.key(name)):
            raise Refusal("not_muted", f"{name} is not muted")
        moderation.record(session.nick, "unmute", name, None, reason)
        target = directory.find(name)
        if target is not None:
            target.send(sanctioned("unmute", session.nick, reason))
        confirm(session, "unmute", name, None, reason, f"{name} may chat again.")

    def ban(session: Session, args: str) -> None:
        moderation.require_moderator(session)
        word, minutes, reason = _split(args, takes_minutes=True)
        network = as_network(word)
        if network is None:
            name = _name(word)
            moderation.require_power_over(session, name)
            target, shown, hit = names.key(name), name, [directory.find(name)]
        else:
            moderation.check_range(network)
            target = shown = str(network)
            hit = [s for s in connections if s.address and ipaddress.ip_address(s.address) in network]
        for other in hit:
            if other is not None and moderation.role_of(other.nick) is not None:
                raise Refusal("protected", f"{shown} would ban {other.nick}, who is {moderation.role_of(other.nick)}")
        sanction = moderation.impose(BAN, target, shown, minutes, reason, session.nick)
        moderation.record(session.nick, "ban", shown, minutes, reason)
        for other in hit:
            if other is not None and other is not session:
                name_held = other.nick
                hang_up(directory, other, banned_bye(sanction))
                if name_held is not None:
                    stand_in(name_held)
        if network is None:
            stand_in(shown)
        confirm(session, "ban", shown, sanction.until, reason, f"{shown} is banned {when(sanction.until)}: {reason}.")

    def unban(session: Session, args: str) -> None:
        moderation.require_moderator(session)
        word, _, reason = _split(args, takes_minutes=False)
        network = as_network(word)
        target = names.key(_name(word)) if network is None else str(network)
        shown = word if network is None else target
        if not moderation.lift(BAN, target):
            raise Refusal("not_banned", f"{shown} is not banned")
        moderation.record(session.nick, "unban", shown, None, reason)
        confirm(session, "unban", shown, None, reason, f"{shown} is no longer banned.")

    def announce(session: Session, args: str) -> None:
        moderation.require_moderator(session)
        if not args:
            raise wrong_use("say what")
        moderation.record(session.nick, "announce", "", None, args)
        message = Message("ANNOUNCE", {"from": "server", "by": session.nick, "text": args},
                          f"*** [server] {args}")
        for other in connections:
            other.send(message)

    def audit(session: Session, args: str) -> None:
        moderation.require_moderator(session)
        if len(args.split()) > 1:
            raise wrong_use("one name at most")
        name = _name(args) if args else None
        entries = moderation.store.audit(AUDIT_LENGTH, name)
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

    def close(session: Session, args: str) -> None:
        if moderation.require_moderator(session) != ADMIN:
            raise Refusal("not_admin", "only an admin closes a table")
        word, _, reason = args.strip().partition(" ")
        if not is_number(word):
            raise wrong_use("which table? /tables lists them")
        table = tables.get(int(word))
        if table is None:
            raise Refusal("no_such_table", f"there is no table {word}; /tables lists them")
        reason = reason.strip() or NO_REASON
        moderation.record(session.nick, "close", f"table {table.number}", None, reason)
        for name in table.shut(session.nick, reason):
            there = directory.find(name)
            if there is not None and there.table is table:
                there.table = None
        confirm(session, "close", f"table {table.number}", None, reason,
                f"Table {table.number} is closed: {reason}.")

    def command(key: str, usage: str, summary: str, help: str, handler: Callable[[Session, str], None],
                german: str | None = None) -> Command:
        return Command(key=key, group="moderation", usage=usage, summary=summary, help=help,
                       handler=handler, german=german)

    return [
        command("op", "/op NAME", "an admin makes a registered player a moderator",
                "Admins only. NAME must be registered; the role is kept across restarts.", op),
        command("deop", "/deop NAME", "an admin removes a moderator",
                "Admins only. Admins themselves are made by the operator (bswtichu admin add).", deop),
        command("mute", "/mute NAME [MINUTES] [REASON]", "no chat or messages from NAME",
                "Moderators and admins: NAME's lobby, table and private chat, /me, /kibitz, /away TEXT"
                " and /invite are refused (and an /away text he set is not shown)"
                f" for MINUTES (1-{MAX_MINUTES}), or until /unmute. He may still play.", mute),
        command("unmute", "/unmute NAME [REASON]", "lift a mute", "Moderators and admins.", unmute),
        command("ban", "/ban NAME|ADDRESS[/PREFIX] [MINUTES] [REASON]", "keep a name or addresses out",
                "Moderators and admins: a banned name is refused at /nick, a banned address range"
                " (IPv4 or IPv6) at connect, with the reason and end time; online connections go at"
                " once and a held seat goes to a stand-in. Kept across restarts. The IRC bridge's"
                " address cannot be banned: ban its users' names.", ban),
        command("unban", "/unban NAME|ADDRESS[/PREFIX] [REASON]", "lift a ban", "Moderators and admins.", unban),
        command("announce", "/announce TEXT", "a line to everyone, from the server",
                "Moderators and admins: TEXT reaches every connection, marked as from the server.", announce),
        command("close", "/close TABLE [REASON]", "an admin closes a table, its game unfinished",
                "Admins only. Everyone at TABLE is told and back in the lobby; a running game ends"
                " unfinished for good (a restart does not bring it back). Audited.", close),
        command("audit", "/audit [NAME]", "the latest moderation acts",
                f"Moderators and admins: the last {AUDIT_LENGTH} acts (of or about NAME): who, what, whom,"
                " how long, why.", audit),
    ]
