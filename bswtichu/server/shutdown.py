"""Stopping the server with notice: an admin's ``/shutdown [MINUTES] [REASON]`` and its countdown.

Everyone online is told when the stop is set and again as it comes closer; meanwhile
no new game starts (`TableHall.closing`), games in play go on. At the end ``stop``
(the service's: its goodbye, then the reactor stops, the process exits 0) is called;
every game in play is in the database and comes back at the next start.

Only an admin (`Moderation.role_of`: an account the operator claimed) may set it.
"""

from __future__ import annotations

from collections.abc import Callable

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

from bswtichu.server.text import messages
from bswtichu.server.commands.registry import Command, is_number, wrong_use
from bswtichu.server.people.directory import NameIndex
from bswtichu.server.text.messages import Refusal
from bswtichu.server.people.moderation import ADMIN
from bswtichu.server.session import Session
from bswtichu.server.tables.hall import TableHall

#: seconds before the stop at which everyone is told again (those within the countdown)
REMINDERS = (1800, 600, 300, 120, 60, 30, 10)
DEFAULT_MINUTES = 5
#: the longest countdown /shutdown takes, in minutes (a day)
MAX_MINUTES = 24 * 60


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
            raise Refusal("no_shutdown", "no shutdown is set; /shutdown [MINUTES] [REASON] sets one")
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


def shutdown_commands(shutdown: Shutdown, role_of: Callable[[str | None], str | None]) -> list[Command]:
    """/shutdown, for the admins (`Moderation.role_of`)."""

    def shutdown_(session: Session, args: str) -> None:
        if role_of(session.nick) != ADMIN:
            raise Refusal("not_admin", "only an admin may /shutdown the server")
        words = args.split(None, 1)
        if words and words[0].lower() == "cancel":
            shutdown.cancel(session.nick)
            return
        minutes = DEFAULT_MINUTES
        if words and is_number(words[0]):
            minutes = int(words[0])
            words = words[1:]
            if minutes > MAX_MINUTES:
                raise wrong_use(f"at most {MAX_MINUTES} minutes")
        reason = words[0].strip() if words else "maintenance"
        shutdown.schedule(minutes * 60, reason, session.nick)

    return [
        Command(
            key="shutdown", group="moderation",
            usage="/shutdown [MINUTES|cancel] [REASON]",
            summary="stop the server after a countdown (admins)",
            help=f"Stops the server in MINUTES (default {DEFAULT_MINUTES}; 0: now), saying REASON"
            " (default: maintenance) to everyone at once and again as the time comes closer."
            " Until then no new game starts; games in play go on, are kept and come back after"
            " the restart. /shutdown cancel calls it off. Admins only.",
            handler=shutdown_,
        ),
    ]
