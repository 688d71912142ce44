"""Budgets for one connection's input and output, so no client can cost the others.

Input: ``TokenBucket`` counts bytes (before any parsing) and lines; a client over
its budget is not read and not dropped: ``ReadThrottle`` pauses its transport
until the clock says the budget has refilled, so a flooder's bytes wait in the
kernel (and in his own send buffer) at no cost to us.

Output: ``OutputQueue`` is registered as the transport's producer. While the
kernel buffer is full, what is sent waits in the queue; past a soft limit
droppable messages (lobby chat) are skipped with one notice, past a hard limit
the connection is given up.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from twisted.internet.interfaces import (
    IDelayedCall, INegotiated, IPullProducer, IPushProducer, IReactorTime, IReadWriteDescriptor,
    ISystemHandle,
)
from zope.interface import implementer


# Token sums drift in floating point; a unit short by less than this is a unit.
EPSILON = 1e-9
# The shortest hold: a wake-up so soon that the clock cannot tell it from now would spin.
MIN_HOLD = 0.001
# Queued output is handed on in pieces of up to this many bytes.
SEND_CHUNK = 1 << 16


class TokenBucket:
    """``burst`` units at once, refilled at ``rate`` units per second; debt allowed."""

    def __init__(self, rate: float, burst: float, clock: IReactorTime) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._stamp = clock.seconds()

    def _refill(self) -> None:
        now = self._clock.seconds()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    def charge(self, amount: float) -> float:
        """Take ``amount`` (going into debt if need be); seconds until the debt is paid."""
        self._refill()
        self._tokens -= amount
        return max(0.0, -self._tokens / self.rate)

    def wait(self) -> float:
        """Seconds until one whole unit is there (0: now).

        While a whole unit is there no refill is needed: refilling only adds, and a
        refill put off to the next `charge` gives the same tokens (the cap included)."""
        if self._tokens >= 1 - EPSILON:
            return 0.0
        self._refill()
        missing = 1 - self._tokens
        return 0.0 if missing <= EPSILON else missing / self.rate


class ReadThrottle:
    """Stops reading from a transport until a time on the clock, then calls ``on_resume``.

    ``on_resume`` may call ``hold`` again; reading resumes only if it did not.
    """

    def __init__(
        self, producer: IPushProducer, clock: IReactorTime, on_resume: Callable[[], None]
    ) -> None:
        self._producer = producer
        self._clock = clock
        self._on_resume = on_resume
        self._wake_call: IDelayedCall | None = None

    def hold(self, seconds: float) -> None:
        """Read nothing for at least ``seconds`` (extends a running hold)."""
        if seconds <= 0:
            return
        seconds = max(seconds, MIN_HOLD)
        if self._wake_call is None:
            self._producer.pauseProducing()
            self._wake_call = self._clock.callLater(seconds, self._wake)
        elif self._clock.seconds() + seconds > self._wake_call.getTime():
            self._wake_call.reset(seconds)

    def _wake(self) -> None:
        self._wake_call = None
        self._on_resume()
        if self._wake_call is None:
            self._producer.resumeProducing()

    def stop(self) -> None:
        if self._wake_call is not None:
            self._wake_call.cancel()
            self._wake_call = None


@implementer(IPushProducer, IPullProducer)
class OutputQueue:
    """Output for one connection that waits while the transport's buffer is full.

    ``write`` hands bytes to the transport. ``skipped()`` gives the one notice a
    client gets when droppable output starts being skipped; ``overflow()`` is
    called (once) when the queue passes ``hard_limit`` bytes.

    Two ways to reach the socket. Without ``send_now`` every write goes through
    the transport, and the queue is its streaming producer: paused when the
    transport's buffer is full, resumed when it drained. With ``send_now`` (the
    socket's own non-blocking ``send``: a connection whose transport nobody else
    writes to) the queue is the transport's pull producer: while the transport
    holds nothing, bytes go straight into the kernel, which spares Twisted's
    buffer, its two ``epoll_ctl`` calls and the wait for the next poll on every
    write; only what the kernel does not take goes to the transport, and the
    queue holds the rest until the transport asks for more (``resumeProducing``:
    it has sent all it held), so the order on the wire stays as sent.
    """

    def __init__(
        self,
        write: Callable[[bytes], None],
        soft_limit: int,
        hard_limit: int,
        skipped: Callable[[], bytes],
        overflow: Callable[[], None],
        send_now: Callable[[bytes], int] | None = None,
    ) -> None:
        """``send_now(data)``: bytes the kernel took at once; OSError counts as none."""
        self._write = write
        self._send_now = send_now
        self._put = write if send_now is None else self._put_direct
        self.soft_limit = soft_limit
        self.hard_limit = hard_limit
        self._skipped = skipped
        self._overflow = overflow
        self._queue: deque[bytes] = deque()
        self.queued = 0
        self._transport_full = False  # with send_now: the transport holds bytes not yet sent
        self._skipping = False
        self._given_up = False

    @property
    def streaming(self) -> bool:
        """How to register it with the transport: a push producer, or (``send_now``) a pull one."""
        return self._send_now is None

    def _put_direct(self, data: bytes) -> None:
        try:
            sent = self._send_now(data)  # type: ignore[misc]  # _put is this only with a send_now
        except OSError:  # EAGAIN, EINTR, or a broken connection the transport will meet itself
            sent = 0
        if sent < len(data):
            self._transport_full = True  # until the transport has sent it and asks for more
            self._write(data[sent:])

    def send(self, data: bytes, droppable: bool = False) -> bool:
        """Write or queue ``data``; False if it was skipped (droppable, past the soft limit)."""
        if self._given_up:
            return True
        if not self._transport_full and not self._queue:
            self._put(data)
            return True
        if droppable and self.queued + len(data) > self.soft_limit:
            if not self._skipping:
                self._skipping = True
                self._enqueue(self._skipped())
            return False
        self._enqueue(data)
        return True

    def _enqueue(self, data: bytes) -> None:
        self._queue.append(data)
        self.queued += len(data)
        if self.queued > self.hard_limit:
            self._given_up = True
            self._queue.clear()
            self.queued = 0
            self._overflow()

    def flush(self) -> None:
        """Hand everything queued to the transport (before a clean hang-up)."""
        while self._queue:
            self._write(self._queue.popleft())
        self.queued = 0

    # -- IPushProducer / IPullProducer: the transport says when its buffer is full or drained --

    def pauseProducing(self) -> None:
        self._transport_full = True

    def resumeProducing(self) -> None:
        self._transport_full = False
        while self._queue and not self._transport_full:
            self._put(self._take(SEND_CHUNK))
        if not self._queue:
            self._skipping = False  # drained: a later backlog gets its own notice

    def _take(self, limit: int) -> bytes:
        """Queued bytes from the front, whole entries, at least one and up to ``limit`` bytes:
        one large send instead of many small segments."""
        queue = self._queue
        taken = [queue.popleft()]
        size = len(taken[0])
        while queue and size + len(queue[0]) <= limit:
            taken.append(queue.popleft())
            size += len(taken[-1])
        self.queued -= size
        return taken[0] if len(taken) == 1 else b"".join(taken)

    def stopProducing(self) -> None:
        self._given_up = True
        self._queue.clear()
        self.queued = 0


def socket_sender(transport: object) -> Callable[[bytes], int] | None:
    """The non-blocking ``send`` of a socket transport's own socket (`ISystemHandle.getHandle`),
    as ``OutputQueue``'s ``send_now`` (it may raise OSError: the queue then gives the bytes to
    the transport, which meets the error itself and closes).

    Only for a transport the reactor reads and writes itself (`IReadWriteDescriptor`: TCP,
    UNIX) and that does not negotiate a protocol of its own (`INegotiated`: TLS, whose
    bytes on the socket are not the ones written to it; it borrows its socket's interfaces,
    so those alone do not tell it apart). None for any other, and for tests' string
    transports: their output goes through ``transport.write``."""
    if not IReadWriteDescriptor.providedBy(transport) or INegotiated.providedBy(transport) \
            or not ISystemHandle.providedBy(transport):
        return None
    return getattr(transport.getHandle(), "send", None)
