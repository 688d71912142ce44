"""Bot decisions in worker processes: every core for the bots that think long (``[bots] workers``).

A decision is the bot itself (its state: what it saw, its generator), its seat's view
and the legal actions, pickled to a process of a standard-library pool; the worker
calls ``choose`` on that copy and sends back the action and the bot as it is after
choosing. The driver puts that bot in the old one's place, so the bot's state is
exactly what an in-process decision leaves: the same seed gives the same decisions
either way, and a restored game (which replays in-process) replays the same.

The server never waits for a worker: the answer comes as a Deferred, fired in the
reactor's thread. A worker that dies breaks its pool; the pool is replaced and the
decision asked again (each decision is a pure function of what was sent).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IReactorFromThreads
from twisted.logger import Logger

from bswtichu.bots import Bot
from bswtichu.engine import Action, RoundView

#: what a worker is sent: the bot, its seat's view, the legal actions
Work = tuple[Bot, RoundView, tuple[Action, ...]]
#: what a worker sends back: the bot's choice, and the bot as it is after choosing
Answer = tuple[Action, Bot]

#: a dead worker's decision is asked again at most this many times (then it is an error)
ATTEMPTS = 3


def _choose(bot: Bot, view: RoundView, legal: Sequence[Action]) -> Answer:
    """In the worker: the bot's choice, and the bot as it is after choosing."""
    return bot.choose(view, legal), bot


class BotWorkers:
    """A pool of ``count`` processes for the decisions of the bots of ``levels``."""

    log = Logger()

    def __init__(self, reactor: IReactorFromThreads, count: int, levels: frozenset[str]) -> None:
        """``reactor`` hands each answer back to its thread (``callFromThread``)."""
        self.reactor = reactor
        self.count = count
        self.levels = levels
        # spawn: a fork of a process with the reactor's threads could inherit a held lock
        self._context = multiprocessing.get_context("spawn")
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.count, mp_context=self._context)

    def takes(self, bot: Bot) -> bool:
        """Whether this bot's decisions go to a worker."""
        return bot.level in self.levels

    def choose(self, bot: Bot, view: RoundView, legal: Sequence[Action]) -> Deferred[Answer]:
        """Fires with (action, the bot after choosing), in the reactor's thread."""
        answer: Deferred[Answer] = Deferred()
        self._submit(answer, (bot, view, tuple(legal)), ATTEMPTS)
        return answer

    def _submit(self, answer: Deferred[Answer], work: Work, attempts: int) -> None:
        pool = self._pool
        try:
            future = pool.submit(_choose, *work)
        except BrokenProcessPool:
            self._replace(pool)
            pool = self._pool
            future = pool.submit(_choose, *work)
        future.add_done_callback(
            lambda done: self.reactor.callFromThread(self._done, done, pool, answer, work, attempts))

    def _done(self, future: Future[Answer], pool: ProcessPoolExecutor, answer: Deferred[Answer],
              work: Work, attempts: int) -> None:
        if future.cancelled():
            return  # the pool was shut down: the server stops
        error = future.exception()
        if isinstance(error, BrokenProcessPool) and attempts > 1:
            self._replace(pool)
            self._submit(answer, work, attempts - 1)
        elif error is not None:
            answer.errback(error)
        else:
            answer.callback(future.result())

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """A new pool in place of the broken one (once, whichever decision notices first)."""
        if self._pool is broken:
            self.log.warn("a bot worker died; a new pool asks its decisions again", event="worker_died")
            broken.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()

    def worker_pids(self) -> list[int]:
        """The process ids of the workers started so far (for the operator and the tests)."""
        return [process.pid for process in list(getattr(self._pool, "_processes", {}).values())]

    def close(self) -> None:
        """Stop the workers without waiting (the server stops); pending answers never fire."""
        self._pool.shutdown(wait=False, cancel_futures=True)
