"""The voted pause: the game at a table stops because its players voted so (``/pause``).

It is not the pause of a game nobody is present at (`Presence`): that one ends when a
player comes back, this one only by a vote to go on (``/continue``), at once when a
player who did not vote for it asks while everyone is present (a team cannot hold the
others' game), or after ``pause_limit`` seconds on the injected clock.  The game goes on
only once neither pause holds it.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Iterable, Protocol

from twisted.internet.interfaces import IDelayedCall, IReactorTime

from bswtichu.server.tables.presence import Presence
from bswtichu.server.tables.votes import CONTINUE, Votes
from bswtichu.server.text import messages
from bswtichu.server.text.messages import Message


class PausedGame(Protocol):
    """The running game as the pause holds it (the table's `RunningGame`)."""

    def pause(self) -> None:
        """Bots and turn clocks wait."""

    def resume(self) -> None:
        """The game goes on."""


class PauseTable(Protocol):
    """What the voted pause needs from its table (the `Table`)."""

    number: int
    outbox: AbstractContextManager
    presence: Presence
    votes: Votes

    @property
    def game(self) -> PausedGame | None:
        """The running game, if any."""

    def tell_all(self, message: Message) -> None:
        """Tell everyone at the table."""


class VotedPause:
    """Whether the game at one table is paused by vote, who voted for it, and its limit."""

    def __init__(self, table: PauseTable, clock: IReactorTime, limit: float) -> None:
        self.table = table
        self._clock = clock
        self.limit = limit
        #: the game is paused by vote (it goes on by vote, not when someone returns)
        self.on = False
        #: who voted for the pause: the others may end it once everyone is here
        self._pausers: frozenset[str] = frozenset()
        self._timer: IDelayedCall | None = None

    def begin(self, pausers: Iterable[str]) -> None:
        """A vote to pause passed with the yes of ``pausers``: the game waits, at most ``limit``."""
        assert self.table.game is not None
        self.on = True
        self._pausers = frozenset(pausers)
        self.table.game.pause()
        self._timer = self._clock.callLater(self.limit, self._over)
        self.table.tell_all(messages.paused(self.table.number, self.limit))

    def may_end(self, nick: str) -> bool:
        """``nick`` ends the pause at once by asking: he did not vote for it and nobody is away."""
        return self.on and nick not in self._pausers and not self.table.presence.anyone_away

    def end(self, said: Message) -> None:
        """The pause is over: the game goes on (unless nobody is present to play it); an
        open vote to go on has nothing left to decide."""
        table = self.table
        table.votes.drop(CONTINUE)
        self.cancel()
        if table.game is not None and not table.presence.waiting_for_people:
            table.game.resume()
        table.tell_all(said)

    def _over(self) -> None:
        self._timer = None
        with self.table.outbox:  # a timer's step: one write per client
            self.end(messages.pause_ended(self.table.number, "limit", seconds=self.limit))

    def cancel(self) -> None:
        """No pause any more (or the game ended, the table closes): its limit is dropped."""
        self.on = False
        self._pausers = frozenset()
        timer, self._timer = self._timer, None
        if timer is not None and timer.active():
            timer.cancel()
