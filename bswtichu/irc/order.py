"""The game's order per IRC user, across the bridge's two connections to one table.

An IRC user at a table reads the table's events in the channel, from the table's
watcher connection, and his own messages (his turn, replies, errors) privately,
from his own connection: two TCP streams, whose lines reach the bridge in either
order. His own connection carries the table's events too, in the server's order
among his messages, so it says where each of his messages belongs: after the
channel lines of the events it saw before it, and before those of the events it
saw after it. `TableOrder` holds each side until the other has caught up, matching
the two copies of an event by keyword and fields (the sentence aside, which is
worded for its reader).

Nothing waits longer than `HOLD_LIMIT`: an event one side never gets (a player's
connection a moment behind when he sits down, say) must not stop the table.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from twisted.internet.interfaces import IDelayedCall, IReactorTime

HOLD_LIMIT = 2.0  # seconds an item waits at most for the other connection
AHEAD_KEPT = 50  # channel events a user's connection may still bring, remembered per user
READER_FIELDS = {"STARTED": ("seat",)}  # fields that differ between a player's copy and the watcher's


def event_key(keyword: str, fields: dict) -> str:
    """What the player's copy and the watcher's copy of one event have in common."""
    skip = READER_FIELDS.get(keyword, ())
    same = {name: value for name, value in fields.items() if name != "human" and name not in skip}
    return keyword + " " + json.dumps(same, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class _Told:
    text: str  # a private message, for the lane's user


@dataclass(frozen=True)
class _Seen:
    key: str  # a table event the user's connection received
    at: float


class _Lane:
    """One user's messages and the table events between them, in his connection's order."""

    def __init__(self, tell: Callable[[str], None]):
        self.tell = tell
        self.items: deque[_Told | _Seen] = deque()
        self.synced = False  # an event of his has been matched: the channel now waits for him
        # events the channel showed while he did not have them (his connection a moment behind)
        self.ahead: deque[str] = deque(maxlen=AHEAD_KEPT)

    def caught_up(self, key: str) -> bool:
        """True if ``key`` is one the channel already showed, his connection now in step with it."""
        if self.items or key not in self.ahead:
            return False
        while self.ahead.popleft() != key:
            pass
        self.synced = True
        return True

    def release(self) -> bool:
        """Tell the private messages at the head; True if any went."""
        went = False
        while self.items and isinstance(self.items[0], _Told):
            self.tell(self.items.popleft().text)  # type: ignore[union-attr]  # the head, a _Told
            went = True
        return went

    def find(self, key: str) -> int | None:
        for index, item in enumerate(self.items):
            if isinstance(item, _Seen) and item.key == key:
                return index
        return None

    def consume_through(self, index: int) -> None:
        """The event at ``index`` is in the channel: what came before it goes (events the
        watcher never saw are dropped), the event itself too."""
        for _ in range(index + 1):
            item = self.items.popleft()
            if isinstance(item, _Told):
                self.tell(item.text)
        self.synced = True

    def has_events(self) -> bool:
        return any(isinstance(item, _Seen) for item in self.items)

    def flush(self) -> None:
        for item in self.items:
            if isinstance(item, _Told):
                self.tell(item.text)
        self.items.clear()


class TableOrder:
    """Merges one watched table's channel lines with its IRC users' private messages."""

    def __init__(self, clock: IReactorTime, announce: Callable[[str], None]):
        self._clock = clock
        self._announce = announce
        self._channel: deque[tuple[str, str | None, float]] = deque()  # key, line (None: quiet), when
        self._lanes: dict[object, _Lane] = {}
        self._timer: IDelayedCall | None = None

    def join(self, who: object, tell: Callable[[str], None]) -> None:
        """``who`` is at the table now; ``tell`` tells him a private message."""
        if who not in self._lanes:
            self._lanes[who] = _Lane(tell)

    def leave(self, who: object) -> None:
        """``who`` left the table (or the bridge): what waits for him goes now."""
        lane = self._lanes.pop(who, None)
        if lane is not None:
            lane.flush()
            self._pump()

    def __contains__(self, who: object) -> bool:
        return who in self._lanes

    def told(self, who: object, text: str) -> None:
        """A private message from ``who``'s connection."""
        self._lanes[who].items.append(_Told(text))
        self._pump()

    def seen(self, who: object, key: str) -> None:
        """A table event on ``who``'s connection."""
        lane = self._lanes[who]
        if not lane.caught_up(key):
            lane.items.append(_Seen(key, self._clock.seconds()))
            self._pump()

    def channel(self, key: str, line: str | None) -> None:
        """A table event on the watcher's connection, and its channel line (None: not shown)."""
        self._channel.append((key, line, self._clock.seconds()))
        self._pump()

    def close(self) -> None:
        """The watcher is gone: everything waiting goes, in order as far as known."""
        self._cancel()
        for lane in self._lanes.values():
            lane.release()
        while self._channel:
            line = self._channel.popleft()[1]
            if line is not None:
                self._announce(line)
        for lane in self._lanes.values():
            lane.flush()
        self._lanes.clear()

    # ---------------------------------------------------------------- inside

    def _pump(self) -> None:
        moved = True
        while moved:
            now = self._clock.seconds()
            moved = False
            for lane in self._lanes.values():
                moved |= lane.release()
            if self._channel and self._channel_head_may_go(now):
                key, line, _ = self._channel.popleft()
                for lane in self._lanes.values():
                    index = lane.find(key)
                    if index is not None:
                        lane.consume_through(index)
                    else:
                        lane.ahead.append(key)
                if line is not None:
                    self._announce(line)
                moved = True
            for lane in self._lanes.values():
                head = lane.items[0] if lane.items else None
                if isinstance(head, _Seen) and now - head.at >= HOLD_LIMIT:
                    lane.items.popleft()  # the watcher never saw it
                    moved = True
        self._schedule()

    def _channel_head_may_go(self, now: float) -> bool:
        """The head waits only for a user who is in step and has not received it yet."""
        key, _, at = self._channel[0]
        if now - at >= HOLD_LIMIT:
            return True
        return not any(lane.synced and not lane.has_events() and lane.find(key) is None
                       for lane in self._lanes.values())

    def _schedule(self) -> None:
        self._cancel()
        waits = [at for _, _, at in list(self._channel)[:1]]
        waits += [lane.items[0].at for lane in self._lanes.values()
                  if lane.items and isinstance(lane.items[0], _Seen)]
        if waits:
            delay = max(min(waits) + HOLD_LIMIT - self._clock.seconds(), 0.0)
            self._timer = self._clock.callLater(delay, self._pump)

    def _cancel(self) -> None:
        if self._timer is not None and self._timer.active():
            self._timer.cancel()
        self._timer = None
