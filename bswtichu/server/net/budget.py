"""Budgets for one connection's input and output, so no client can cost the others.

Input: ``TokenBucket`` counts bytes (before any parsing) and lines; a client over
its budget is not read and not dropped: ``ReadThrottle`` pauses its transport
until the clock says the budget has refilled, so a flooder's bytes wait in the
kernel (and in his own send buffer) at no cost to us.

Output: ``OutputQueue`` is registered as the transport's streaming producer.
While the kernel buffer is full, what is sent waits in the queue; past a soft
limit droppable messages (lobby chat) are skipped with one notice, past a hard
limit the connection is given up.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from twisted.internet.interfaces import IDelayedCall, IPushProducer, IReactorTime
from zope.interface import implementer


# Token sums drift in floating point; a unit short by less than this is a unit.
EPSILON = 1e-9
# The shortest hold: a wake-up so soon that the clock cannot tell it from now would spin.
MIN_HOLD = 0.001


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
        """Seconds until one whole unit is there (0: now)."""
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


@implementer(IPushProducer)
class OutputQueue:
    """Output for one connection that waits while the transport's buffer is full.

    ``write`` hands bytes to the transport. ``skipped()`` gives the one notice a
    client gets when droppable output starts being skipped; ``overflow()`` is
    called (once) when the queue passes ``hard_limit`` bytes.
    """

    def __init__(
        self,
        write: Callable[[bytes], None],
        soft_limit: int,
        hard_limit: int,
        skipped: Callable[[], bytes],
        overflow: Callable[[], None],
    ) -> None:
        self._write = write
        self.soft_limit = soft_limit
        self.hard_limit = hard_limit
        self._skipped = skipped
        self._overflow = overflow
        self._queue: deque[bytes] = deque()
        self.queued = 0
        self._transport_full = False
        self._skipping = False
        self._given_up = False

    def send(self, data: bytes, droppable: bool = False) -> None:
        if self._given_up:
            return
        if not self._transport_full and not self._queue:
            self._write(data)
            return
        if droppable and self.queued + len(data) > self.soft_limit:
            if not self._skipping:
                self._skipping = True
                self._enqueue(self._skipped())
            return
        self._enqueue(data)

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

    # -- IPushProducer: the transport says when its buffer is full or drained --

    def pauseProducing(self) -> None:
        self._transport_full = True

    def resumeProducing(self) -> None:
        self._transport_full = False
        while self._queue and not self._transport_full:
            data = self._queue.popleft()
            self.queued -= len(data)
            self._write(data)
        if not self._queue:
            self._skipping = False

    def stopProducing(self) -> None:
        self._given_up = True
        self._queue.clear()
        self.queued = 0
