"""The bridge's outgoing IRC lines, paced so the IRC server never drops it for flooding.

A token bucket as in RFC 1459 §8.10: ``burst`` lines may go at once, then one line
per ``interval`` seconds. Protocol lines (PONG, JOIN, NICK, ...) go before queued
messages. The targets take turns (round-robin, the earliest queued first in each
round), so one user's long reply does not hold up another's short one; but a
message to a user never overtakes a channel line queued before it, so he reads
the play before the turn notice that follows it. Queued messages to the same
target are joined with `` | `` into one line while they fit, so a busy table
costs few lines.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from twisted.internet.interfaces import IDelayedCall, IReactorTime

JOINER = " | "
EPSILON = 1e-9  # a token this close to whole is whole (float sums of elapsed time)
MIN_WAIT = 0.001  # never wait for less: a timer at "now" would find no new token
PREFIX = re.compile(r"\[[^\]]*\] ")  # "[table 6] ": said once at the head of a joined line
PRIVMSG = "PRIVMSG"  # the channel's lines; NOTICEs go to users
DROPPED_NOTE = "(more was dropped: too much at once for IRC; ask again in a moment)"


@dataclass
class _Message:
    command: str  # PRIVMSG or NOTICE
    target: str
    text: str
    budget: int  # most bytes the text may have

    def line(self) -> str:
        return f"{self.command} {self.target} :{self.text}"


class Outbox:
    """Queues lines and hands them to ``write`` no faster than the bucket allows."""

    def __init__(self, clock: IReactorTime, write: Callable[[str], object], burst: int, interval: float):
        self._clock = clock
        self._write = write
        self._burst = burst
        self._interval = interval
        self._tokens = float(burst)
        self._stamp = clock.seconds()
        self._protocol: deque[str] = deque()
        self._messages: deque[_Message] = deque()
        self._timer: IDelayedCall | None = None
        self._served: set[tuple[str, str]] = set()  # targets that had their turn in this round
        self._overflowed: set[tuple[str, str]] = set()  # targets told that pieces were dropped

    def __len__(self) -> int:
        return len(self._protocol) + len(self._messages)

    def protocol_line(self, line: str) -> None:
        self._protocol.append(line)
        self._pump()

    def message(self, command: str, target: str, text: str, budget: int, limit: int | None = None) -> None:
        """Queue one piece of text (already within ``budget`` bytes) for ``target``.

        With a ``limit``, a target that already has that many pieces waiting gets no
        more but one note that some were dropped: one user asking for much (say, a
        stream of /help) must not hold up everyone else for minutes.
        """
        key = (command, target)
        if limit is not None and sum(1 for m in self._messages if (m.command, m.target) == key) >= limit:
            if key not in self._overflowed:
                self._overflowed.add(key)
                self._messages.append(_Message(command, target, DROPPED_NOTE, budget))
        else:
            self._overflowed.discard(key)
            self._messages.append(_Message(command, target, text, budget))
        self._pump()

    def stop(self) -> None:
        """Forget everything queued (the connection is gone)."""
        self._protocol.clear()
        self._messages.clear()
        self._served.clear()
        self._overflowed.clear()
        if self._timer is not None and self._timer.active():
            self._timer.cancel()
        self._timer = None

    def _refill(self) -> None:
        now = self._clock.seconds()
        if self._interval <= 0:
            self._tokens = float(self._burst)
        else:
            self._tokens = min(float(self._burst), self._tokens + (now - self._stamp) / self._interval)
        self._stamp = now

    def _tick(self) -> None:
        self._timer = None
        self._pump()

    def _pump(self) -> None:
        self._refill()
        while len(self) and self._tokens >= 1 - EPSILON:
            self._tokens = max(self._tokens - 1, 0.0)
            self._write(self._protocol.popleft() if self._protocol else self._next_message())
        if len(self) and self._timer is None:
            wait = (1 - self._tokens) * self._interval
            self._timer = self._clock.callLater(max(wait, MIN_WAIT), self._tick)

    def _next_message(self) -> str:
        """The next target's first queued message, with its later ones joined on while they fit."""
        first = self._take_turn()
        key = (first.command, first.target)
        kept: deque[_Message] = deque()
        channel_before = False  # a channel line queued before: a notice may not be joined past it
        while self._messages:
            later = self._messages.popleft()
            if (later.command, later.target) != key:
                channel_before |= later.command == PRIVMSG
                kept.append(later)
                continue
            joined = first.text + JOINER + _without_prefix_of(first.text, later.text)
            if len(joined.encode()) > first.budget or (first.command != PRIVMSG and channel_before):
                kept.append(later)
                kept.extend(self._messages)  # keep that target's order: stop joining here
                self._messages.clear()
                break
            first.text = joined
        self._messages = kept
        return first.line()

    def _take_turn(self) -> _Message:
        """Remove and return the head of the next target in this round: the earliest queued
        among the targets not yet served, skipping a user whose head waits for a channel line."""
        seen: set[tuple[str, str]] = set()
        channel_before = False
        for index, message in enumerate(self._messages):
            key = (message.command, message.target)
            if key not in seen and key not in self._served and not (
                    message.command != PRIVMSG and channel_before):
                self._served.add(key)
                del self._messages[index]
                return message
            seen.add(key)
            channel_before |= message.command == PRIVMSG
        self._served.clear()  # everyone waiting had his turn: a new round, the earliest first
        first = self._messages.popleft()
        self._served.add((first.command, first.target))
        return first


def _without_prefix_of(first: str, later: str) -> str:
    """``later`` without the "[table N] " that ``first`` already starts with."""
    prefix = PREFIX.match(first)
    if prefix and later.startswith(prefix.group()):
        return later[prefix.end():]
    return later
