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

The commands (/op, /kick, /mute, /ban, ...) are `bswtichu.server.commands.moderation`'s: they
ask the rules kept here.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable

from twisted.internet.interfaces import IReactorTime

from bswtichu.server.text.i18n import _
from bswtichu.server.text import messages

from bswtichu import names
from bswtichu.server.people.directory import NameDirectory
from bswtichu.server.text.messages import Message, Refusal
from bswtichu.server.session import Session
from bswtichu.storage import AccountStore, AdminStore
from bswtichu.storage.community import BAN, MUTE, AuditEntry, CommunityStore, Sanction

ADMIN, MODERATOR = "admin", "moderator"

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
        raise Refusal("bad_address", _('%(word)r is neither a name nor an address range such as 192.0.2.7, 192.0.2.0/24 or '
                                       '2001:db8::/32', word=word[:60])) from None


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
        claimed = self._claimed.pop(names.key(as_name(name)), None)
        if claimed is None:
            raise Refusal("no_role", _('%(name)s is not a claimed admin', name=name))
        self.claims.release(claimed)
        return claimed

    def require_moderator(self, session: Session) -> str:
        """The session's role if it moderates, else the refusal (a guest's says so)."""
        role = self.role_of(session.nick)
        if role is not None:
            return role
        if not self.accounts.is_registered(session.nick):  # type: ignore[arg-type]  # commands take a name
            raise Refusal("guest", _('a guest has no moderation powers; only admins and moderators (registered names) do'))
        raise Refusal("not_moderator", _('only admins and moderators may do that'))

    def require_power_over(self, session: Session, target: str) -> None:
        """Refuse acting on oneself, on an admin, or (unless an admin) on a moderator."""
        if names.key(target) == names.key(session.nick):
            raise Refusal("self", _('you cannot do that to yourself'))
        actor, theirs = self.role_of(session.nick), self.role_of(target)
        if theirs == ADMIN:
            raise Refusal("protected", _('%(target)s is an admin; nobody moderates an admin', target=target))
        if theirs == MODERATOR and actor != ADMIN:
            raise Refusal("protected", _('%(target)s is a moderator; only an admin acts on a moderator', target=target))

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
            raise Refusal("bridge_address", _("%(network)s holds the IRC bridge's address, which all its users share; ban the names "
                                              'behind it instead', network=network))

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
                raise Refusal("nick_reserved", _('the name %(name)s is kept for an admin until the operator claims it (bswtichu admin add '
                                                 '%(listed)s); choose another', name=name, listed=listed))
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
                raise Refusal("nick_reserved", _('the name %(name)s looks like %(reserved)s-…: names starting with %(reserved)s- are '
                                                 'reserved for the server; choose another', name=name, reserved=reserved))
            if names.look(name) == names.look(reserved):
                said = "is" if names.key(name) == names.key(reserved) else f"looks like {reserved}, which is"
                raise Refusal("nick_reserved", _('the name %(name)s %(said)s reserved for the server; choose another', name=name, said=said))

    def check_may_speak(self, session: Session) -> None:
        """Refuse chat, private messages, /me, /kibitz, /away TEXT and /invite from a muted name (`Chat`)."""
        mute = self.in_force(MUTE, names.key(session.nick)) if session.nick is not None else None
        if mute is not None:
            raise Refusal("muted", _('you are muted %(when)s (%(reason)s); you may still play', when=when(mute.until), reason=mute.reason))

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
            if directory is not None:
                holder = directory.find(name)
                if holder is not None:
                    hang_up(directory, holder, messages.bye(
                        "taken_over", _('The operator claimed the name %(name)s for an admin; this connection is closed.', name=name)))
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
        raise Refusal("usage", _('unknown request %(action)r; add, remove or list', action=action))

    return answer


def banned_text(ban: Sanction) -> str:
    return f"{ban.shown} is banned {when(ban.until)} by {ban.by}: {ban.reason}"


def banned_bye(ban: Sanction) -> Message:
    return Message("BYE", {"reason": "banned", "by": ban.by, "why": ban.reason, "until": ban.until},
                   _('You are banned %(when)s by %(by)s: %(reason)s. Goodbye.', when=when(ban.until), by=ban.by, reason=ban.reason))


def sanctioned(action: str, by: str, reason: str, until: float | None = None, minutes: int | None = None) -> Message:
    """What the target of a moderator's act is told (kick, mute, unmute)."""
    texts = {"kick": f"You are kicked by {by}: {reason}.",
             "mute": f"You are muted by {by} {when(until)}: {reason}. You may still play, but not chat.",
             "unmute": f"{by} lifted your mute: you may chat again."}
    return Message("MODERATED", {"action": action, "by": by, "reason": reason, "until": until,
                                 "minutes": minutes}, texts[action])


def as_name(word: str) -> str:
    """``word`` as a name (normalized), or the refusal if it is none."""
    name = names.normalize(word)
    if not names.is_valid(name):
        raise Refusal("nick_invalid", _('%(name)r is not a name; a name is %(name_rule)s', name=name[:40], name_rule=names.NAME_RULE))
    return name


def claimable_name(word: str) -> str:
    """``word`` as a name the operator may claim for an admin (a person's, not a bot's)."""
    name = as_name(word)
    if names.is_bot_name(name):
        raise Refusal("nick_invalid", _('names starting with %(bot_prefix)s are kept for bots', bot_prefix=names.BOT_PREFIX))
    return name


def hang_up(directory: NameDirectory, target: Session, bye: Message) -> None:
    """Close the target's connection; his seat is held as for any drop."""
    target.send(bye)
    target.close()
    directory.leave(target)
