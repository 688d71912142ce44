"""Stopping the server with notice: an admin's ``/shutdown [MINUTES] [REASON]`` and its countdown.

Everyone online is told when the stop is set and again as it comes closer; meanwhile
no new game starts (`TableHall.closing`), games in play go on. At the end ``stop``
(the service's: its goodbye, then the reactor stops, the process exits 0) is called;
every game in play is in the database and comes back at the next start.

Only an admin (`Moderation.role_of`: an account the operator claimed) may set it; the command
is `bswtichu.server.commands.shutdown`'s.
"""

from __future__ import annotations

from collections.abc import Callable

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

from bswtichu.server.text.i18n import _
from bswtichu.server.text import messages
from bswtichu.server.people.directory import NameIndex
from bswtichu.server.text.messages import Refusal
from bswtichu.server.tables.hall import TableHall

#: seconds before the stop at which everyone is told again (those within the countdown)
REMINDERS = (1800, 600, 300, 120, 60, 30, 10)


class Shutdown:
    """The one pending stop, if any: its reason, its countdown's timers."""

    log = Logger()

    def __init__(self, clock: IReactorTime, index: NameIndex, tables: TableHall,
                 stop: Callable[[str], None]) -> None:
        self._clock = clock
        self._index = index
        self._tables = tables
        self._stop = stop
        self._timers: list[IDelayedCall] = []

    @property
    def pending(self) -> bool:
        return bool(self._timers)

    def schedule(self, seconds: float, reason: str, by: str) -> None:
        """Stop in ``seconds`` (replacing a stop already set), telling everyone now and again."""
        self.cancel_timers()
        self._tables.closing = reason
        self.log.info("shutdown set by {by} in {seconds} s: {reason}", by=by, seconds=seconds, reason=reason,
                      event="shutdown_set")
        self._tell(messages.shutdown_soon(seconds, reason, by))
        for left in REMINDERS:
            if left < seconds:
                self._timers.append(self._clock.callLater(seconds - left, self._remind, left, reason, by))
        self._timers.append(self._clock.callLater(seconds, self._now, reason))

    def cancel(self, by: str) -> None:
        """The pending stop is called off; everyone is told, games may start again."""
        if not self.pending:
            raise Refusal("no_shutdown", _('no shutdown is set; /shutdown [MINUTES] [REASON] sets one'))
        self.cancel_timers()
        self._tables.closing = None
        self.log.info("shutdown called off by {by}", by=by, event="shutdown_cancelled")
        self._tell(messages.shutdown_cancelled(by))

    def cancel_timers(self) -> None:
        for timer in self._timers:
            if timer.active():
                timer.cancel()
        self._timers = []

    def _remind(self, left: int, reason: str, by: str) -> None:
        self._tell(messages.shutdown_soon(left, reason, by))

    def _now(self, reason: str) -> None:
        self._timers = []
        self._stop(reason)

    def _tell(self, message: messages.Message) -> None:
        for session in self._index.online():
            session.send(message)
