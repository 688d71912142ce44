"""Password hashing off the reactor, within limits: nobody waits for another's scrypt.

Each scrypt takes tens of milliseconds of CPU. Run in the reactor's thread, a burst of
password commands from one connection froze everyone (issue 30). So every hash and every
check goes through a `PasswordHashing`, which

- hands it to the injected ``hasher`` (`PoolHasher` in the server: a bounded thread
  pool; `hash_inline` where no reactor runs), whose answer is a Deferred;
- refuses past ``capacity`` hashes in flight or waiting server-wide (``password_busy``);
- and past a budget per name and per address (``password_budget``): at most so many
  password commands of each in any minute (`/nick NAME PASSWORD`, `/register`,
  `/password`, and the answers to their prompts), failed or not, on the injected clock. The ``spared``
  addresses (the IRC bridge's, which all its users share) have only the per-name budget.

The lobby holds a connection's further lines while a command of his waits for a hash
(`bswtichu.server.lobby`), so each connection has at most one in flight. The storage
keeps the pure functions (`hash_password`, `check_password`); the caller re-checks what
may have changed meanwhile once the answer comes: `ConnectionGone` ends the work of a
connection closed in between, quietly.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

from twisted.internet.defer import Deferred, maybeDeferred
from twisted.internet.interfaces import IReactorTime
from twisted.internet.threads import deferToThreadPool
from twisted.python.threadpool import ThreadPool

from bswtichu.server.text.i18n import _
from bswtichu import names
from bswtichu.server.text.messages import Refusal
from bswtichu.server.session import Outbox, Session
from bswtichu.storage.accounts import ScryptCost, check_password, hash_password

T = TypeVar("T")
#: ``hasher(work, *args)``: a Deferred of ``work(*args)``, computed away from the reactor
Hasher = Callable[..., Deferred]

MINUTE = 60.0


def hash_inline(work: Callable[..., T], *args: Any) -> Deferred:
    """Computes at once, in the caller's thread: for tools and tests without a running reactor."""
    return maybeDeferred(work, *args)


class PoolHasher:
    """A bounded pool of threads for the hashes (scrypt releases the GIL while it works);
    the service starts it and stops it."""

    def __init__(self, reactor: Any, threads: int) -> None:
        self.reactor = reactor
        self.pool = ThreadPool(minthreads=0, maxthreads=threads, name="password-hashing")

    def start(self) -> None:
        self.pool.start()

    def stop(self) -> None:
        """Waits for the hashes still running (each some tens of milliseconds)."""
        self.pool.stop()

    def __call__(self, work: Callable[..., T], *args: Any) -> Deferred:
        return deferToThreadPool(self.reactor, self.pool, work, *args)


class ConnectionGone(Exception):
    """The connection whose hash this was closed meanwhile: nothing more is done for it."""


class RecentAttempts:
    """When each key made its attempts within the last ``window`` seconds (on the injected clock)."""

    def __init__(self, clock: IReactorTime, allowed: int, window: float = MINUTE) -> None:
        self.clock = clock
        self.allowed = allowed
        self.window = window
        self._times: dict[object, list[float]] = {}
        self._next_sweep = 0.0

    def wait(self, key: object) -> float:
        """Seconds until ``key`` may make another attempt (0: now)."""
        now = self.clock.seconds()
        recent = [t for t in self._times.get(key, ()) if t > now - self.window]
        if recent:
            self._times[key] = recent
        else:
            self._times.pop(key, None)
        return recent[0] + self.window - now if len(recent) >= self.allowed else 0.0

    def add(self, key: object) -> None:
        now = self.clock.seconds()
        self._times.setdefault(key, []).append(now)
        if now >= self._next_sweep:  # keys with nothing recent go, once a window
            self._next_sweep = now + self.window
            for stale in [k for k, times in self._times.items() if times[-1] <= now - self.window]:
                del self._times[stale]


class PasswordHashing:
    """Every password hash and check of the domain: off the reactor, capped, budgeted."""

    def __init__(self, hasher: Hasher, clock: IReactorTime, capacity: int, per_name: int, per_address: int,
                 spared: frozenset[str] = frozenset(), outbox: Outbox | None = None) -> None:
        """``capacity``: hashes in flight or waiting server-wide; ``per_name``, ``per_address``:
        hashes a minute; ``spared``: addresses without the per-address budget; ``outbox``:
        what an answer causes reaches each client in one write."""
        self.hasher = hasher
        self.outbox = outbox if outbox is not None else Outbox()
        self.capacity = capacity
        self.spared = spared
        self.by_name = RecentAttempts(clock, per_name)
        self.by_address = RecentAttempts(clock, per_address)
        #: hashes handed to the hasher whose answer has not come yet
        self.in_flight = 0

    def hash(self, session: Session, name: str, password: str, cost: ScryptCost, charged: bool = True) -> Deferred:
        """A Deferred of the stored form of a new ``password`` for ``name``; not ``charged`` to
        the budgets when it follows the check of the present password in the same command."""
        return self._run(session, name, charged, hash_password, password, cost)

    def check(self, session: Session, name: str, password: str, stored: str) -> Deferred:
        """A Deferred of whether ``password`` matches ``name``'s ``stored`` hash."""
        return self._run(session, name, True, check_password, password, stored)

    def _run(self, session: Session, name: str, charged: bool, work: Callable[..., T], *args: Any) -> Deferred:
        if self.in_flight >= self.capacity:
            raise Refusal("password_busy", _('the server is busy checking passwords; try again in a few seconds'))
        if charged:
            self._charge(session, name)
        self.in_flight += 1
        answer: Deferred = Deferred()

        def done(result: object) -> None:
            """What waits for the answer runs now (within the outbox), unless he is gone."""
            self.in_flight -= 1
            with self.outbox:
                if session.closed:
                    answer.errback(ConnectionGone())
                else:
                    answer.callback(result)

        self.hasher(work, *args).addBoth(done)
        return answer

    def _charge(self, session: Session, name: str) -> None:
        """Refuse past the name's or the address's budget; else count the attempt."""
        address = session.address if session.address not in self.spared else ""
        key = names.key(name)
        for attempts, counted, whose in ((self.by_name, key, f"for {name}"),
                                         (self.by_address, address, "from your address")):
            wait = attempts.wait(counted) if counted else 0.0
            if wait > 0:
                raise Refusal("password_budget", _('too many password attempts %(whose)s: at most %(allowed)s a minute; try again in '
                                                   '%(max)s s', whose=whose, allowed=attempts.allowed, max=max(1, math.ceil(wait))))
        self.by_name.add(key)
        if address:
            self.by_address.add(address)
