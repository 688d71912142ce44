"""Who may use a name: registered accounts, guests' resume tokens, and slowing down guessers.

A registered name belongs to its account alone: ``/nick NAME PASSWORD`` logs in (the
password is checked away from the reactor, `bswtichu.server.people.hashing`).
A guest plays under any free name and gets a resume token at ``/nick``; while a
seat is held for a guest's name, only ``/resume TOKEN`` gives that name back.
Failed logins and resumes are slowed down per connection and per name, on the
injected clock.  No password or token is ever echoed or logged.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from dataclasses import dataclass

from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IReactorTime

from bswtichu.server.text.i18n import _
from bswtichu.config import ServerConfig
from bswtichu import names
from bswtichu.server.people.hashing import PasswordHashing, RecentAttempts
from bswtichu.server.text.messages import Message, Refusal
from bswtichu.server.tables.hall import TableHall
from bswtichu.storage import AccountStore

#: After the n-th counted failure in a row, the next try waits 2**(n-1) seconds, at most this long.
MAX_LOCKOUT = 300.0
#: A name starts to wait only after this many failures, so one stranger's guess does not lock its owner out.
FREE_NAME_FAILURES = 3


@dataclass
class _Failures:
    count: int = 0
    until: float = 0.0


class LoginThrottle:
    """Failed attempts per key (a connection, a name); each failure doubles the wait before the next try."""

    def __init__(self, clock: IReactorTime, max_lockout: float = MAX_LOCKOUT, free: int = 0):
        """``free``: failures of a key that cost no wait yet."""
        self.clock = clock
        self.max_lockout = max_lockout
        self.free = free
        self._failures: dict[object, _Failures] = {}

    def check(self, *keys: object) -> None:
        """Refuse while any of the keys must still wait."""
        now = self.clock.seconds()
        wait = max((f.until - now for k in keys if (f := self._failures.get(k)) is not None), default=0.0)
        if wait > 0:
            raise Refusal("login_throttled", _('too many failed attempts; try again in %(max)s s', max=max(1, math.ceil(wait))))

    def failed(self, *keys: object) -> None:
        now = self.clock.seconds()
        for key in keys:
            failures = self._failures.setdefault(key, _Failures())
            failures.count += 1
            counted = failures.count - self.free
            if counted > 0:
                failures.until = now + min(2.0 ** (counted - 1), self.max_lockout)

    def succeeded(self, *keys: object) -> None:
        for key in keys:
            self._failures.pop(key, None)

    def forget(self, key: object) -> None:
        """A connection is gone; its count goes with it (a name's stays)."""
        self._failures.pop(key, None)


class RegistrationLimit:
    """At most ``per_hour`` new registrations from one address in any hour (on the injected clock);
    the ``spared`` addresses (the IRC bridge's, which all its users share) are not counted."""

    HOUR = 3600.0

    def __init__(self, clock: IReactorTime, per_hour: int, spared: frozenset[str] = frozenset()):
        self.per_hour = per_hour
        self.spared = spared
        self._recent = RecentAttempts(clock, per_hour, self.HOUR)

    def check(self, address: str) -> None:
        """Refuse while ``address`` has made ``per_hour`` registrations in the last hour."""
        if not address or address in self.spared:
            return
        wait = self._recent.wait(address)
        if wait > 0:
            raise Refusal("registration_limit", _('%(per_hour)s names were registered from your address within the hour; try again in '
                                                  '%(max)s s', per_hour=self.per_hour, max=max(1, math.ceil(wait))))

    def registered(self, address: str) -> None:
        if address and address not in self.spared:
            self._recent.add(address)


def resume_token_message(name: str, token: str) -> Message:
    return Message("RESUME_TOKEN", {"nick": name, "token": token},
                   _('Your resume token for %(name)s is %(token)s. Keep it: if your connection drops during a '
                     'game, /resume %(token)s gives you this name and your seat back. /register PASSWORD '
                     'keeps the name for good.', name=name, token=token))


class NameGuard:
    """The lobby asks it before a session takes a name, and tells it after."""

    def __init__(self, accounts: AccountStore, hall: TableHall, clock: IReactorTime, hashing: PasswordHashing,
                 token_lifetime: float = ServerConfig.guest_token_lifetime,
                 in_use: Callable[[str], bool] = lambda name: False):
        """``hashing`` checks passwords away from the reactor, within its limits. A guest's resume
        token older than ``token_lifetime`` seconds goes, unless a seat is held for its name or
        someone holds the name now (``in_use``): only then is it of use."""
        self.accounts = accounts
        self.hall = hall
        self.hashing = hashing
        self.clock = clock
        self.token_lifetime = token_lifetime
        self.in_use = in_use
        #: registered names by their look, as of the accounts' ``names_written``
        self._looks_of: dict[str, list[str]] | None = None
        self._looks_written = -1
        self.connections = LoginThrottle(clock)
        self.names = LoginThrottle(clock, free=FREE_NAME_FAILURES)

    def claim(self, name: str) -> str:
        """Check that the unregistered ``name`` may be taken (without a password)."""
        held = self.hall.held_seat(name)
        if held is not None:
            table, seat = held
            raise Refusal("name_held", _('seat %(seat)s at table %(table)s is held for %(nick_at)s; if that is you, /resume TOKEN '
                                         '(the token you got with your name)', seat=seat, table=table.number, nick_at=table.nick_at(seat)))
        return name

    def verify(self, session, name: str, password: str) -> Deferred:
        """A Deferred of the registered spelling of ``name`` if ``password`` is its password,
        else of None (a failure counted against the connection and the name).

        Refused at once while the connection or the name must wait after failures, or past the
        hashing's limits; refused later if the password changed while this one was checked.
        """
        record = self.accounts.login_record(name)
        if record is None:
            raise Refusal("not_registered", _('%(name)s is not registered; /register PASSWORD', name=name))
        spelled, stored = record
        self.check(session, name)

        def checked(right: bool) -> str | None:
            if self.accounts.login_record(name) != record:
                raise Refusal("account_changed", _('the password of %(name)s changed meanwhile; try again', name=name))
            if not right:
                self.failed(session, name)
                return None
            self.succeeded(session, name)
            return spelled

        return self.hashing.check(session, name, password, stored).addCallback(checked)

    def check_look(self, name: str, online: Iterable[str]) -> None:
        """Refuse a name that looks like another one in use (``online``) or registered.

        The same name (case, composition) is no clash: it is the name itself.
        """
        look, key = names.look(name), names.key(name)
        for others, where in ((online, "in use"), (self._registered_looking(look), "registered")):
            for other in others:
                if names.key(other) != key and names.look(other) == look:
                    raise Refusal("nick_lookalike", _('the name %(name)s looks like %(other)s, which is %(where)s; choose another', name=name, other=other, where=where))

    def _registered_looking(self, look: str) -> list[str]:
        """The registered names whose look is ``look``: every name's look is worked out once per
        change of the accounts, not at each /nick (ten thousand accounts would cost tens of ms)."""
        if self._looks_of is None or self._looks_written != self.accounts.names_written:
            self._looks_written = self.accounts.names_written
            self._looks_of = {}
            for registered in self.accounts.names():
                self._looks_of.setdefault(names.look(registered), []).append(registered)
        return self._looks_of.get(look, [])

    def claimed(self, session, name: str) -> Message | None:
        """The session took a guest name: its resume token (a new one each /nick); the tokens
        that have expired meanwhile go."""
        if self.accounts.is_registered(name):
            return None
        self.accounts.expire_tokens(self.clock.seconds() - self.token_lifetime, self._token_kept)
        return resume_token_message(name, self.accounts.issue_token(name))

    def renamed(self, session, previous: str | None) -> None:
        """The session left ``previous`` for another name: that name's token goes, unless a
        seat is still held for it (he left a started game: /resume TOKEN brings him back)."""
        if previous is not None and self.hall.held_seat(previous) is None:
            self.accounts.drop_token(previous)

    def _token_kept(self, name: str) -> bool:
        return self.in_use(name) or self.hall.held_seat(name) is not None

    def resume(self, session, token: str, online: Callable[[str], str | None]) -> str:
        """The guest name ``token`` gives back (its seat must still be held, or the name be
        held by another connection, ``online`` giving its spelling), or a refusal."""
        self.connections.check(id(session))
        owner = self.accounts.token_owner(token)
        if owner is None or self.accounts.is_registered(owner):
            self.connections.failed(id(session))
            raise Refusal("bad_token", _('no such resume token; it came with /nick (a newer /nick replaces it)'))
        self.connections.succeeded(id(session))
        held = self.hall.held_seat(owner)
        if held is None:
            spelling = online(owner)
            if spelling is not None:
                return spelling
            raise Refusal("nothing_held", _('no seat is held for that name now; just choose a name with /nick'))
        table, seat = held
        return table.nick_at(seat)  # type: ignore[return-value]  # a held seat names its holder

    # -- slowing down guessers: per connection at once, per name after a few failures

    def check(self, session, name: str) -> None:
        self.connections.check(id(session))
        self.names.check(name.casefold())

    def failed(self, session, name: str) -> None:
        self.connections.failed(id(session))
        self.names.failed(name.casefold())

    def succeeded(self, session, name: str) -> None:
        self.connections.succeeded(id(session))
        self.names.succeeded(name.casefold())

    def forget(self, session) -> None:
        self.connections.forget(id(session))
