"""Quick play at a table (``/quick``): after a wait, bots take the free seats and the game starts.

A quick table opened by ``/quick LEVEL`` waits ``quick_wait`` seconds on the injected clock
for people; whoever fills it starts it at once, and when the wait is over bots of LEVEL
fill what is left, if anyone is still there to play with them.  A table that starts
otherwise, or closes, drops the wait.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Callable, Protocol

from twisted.internet.interfaces import IDelayedCall, IReactorTime

from bswtichu.server.tables.presence import Presence

#: a new bot's name for its level (the hall's `TableHall.bot_name`: unique on the server)
BotName = Callable[[str], str]


class QuickTable(Protocol):
    """What quick play needs from its table (the `Table`)."""

    started: bool
    seats: list[str | None]
    outbox: AbstractContextManager
    presence: Presence

    @property
    def seat_numbers(self) -> range:
        """The seats 1..N."""

    def add_bot(self, nick: str | None, seat: int | None, level: str, name: str) -> int:
        """Seat a bot; ``nick`` None: for the server."""

    def start(self, nick: str) -> None:
        """``nick`` starts the table."""


class QuickFill:
    """The wait of one quick table, and the bots that end it."""

    def __init__(self, table: QuickTable, clock: IReactorTime) -> None:
        self.table = table
        self._clock = clock
        #: the level of the bots that fill the free seats when the wait is over (None: not quick)
        self.level: str | None = None
        self._timer: IDelayedCall | None = None

    def fill_after(self, level: str, seconds: float, bot_name: BotName) -> None:
        """After ``seconds``, unless people filled the table and it started, bots of ``level``
        (named by ``bot_name(level)``) take the free seats and the table starts."""
        self.level = level
        self._timer = self._clock.callLater(seconds, self._fill, bot_name)

    def start_if_full(self, nick: str) -> bool:
        """A quick table that ``nick`` just filled starts at once; True if it did."""
        table = self.table
        if self.level is None or table.started or None in table.seats or table.presence.anyone_away:
            return False
        table.start(nick)
        return True

    def _fill(self, bot_name: BotName) -> None:
        self._timer = None
        table = self.table
        if table.started:
            return
        present = table.presence.people_present()
        if not present:
            return  # nobody to play with: the table closes by itself
        level = self.level
        assert level is not None
        with table.outbox:  # a timer's step: one write per client
            for seat in table.seat_numbers:
                if table.seats[seat - 1] is None:
                    table.add_bot(None, seat, level, bot_name(level))
            if not table.presence.anyone_away:
                table.start(present[0])

    def cancel(self) -> None:
        """The table starts or closes: the wait is dropped."""
        timer, self._timer = self._timer, None
        if timer is not None and timer.active():
            timer.cancel()
