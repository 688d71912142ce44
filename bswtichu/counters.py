"""What the server counts for its operator: plain numbers, read by the metrics listener.

One `Counters` per server, made by ``service.TichuService`` and handed to the parts that
count (the game drivers, the lobby, the ports, the commit). It knows nothing of
Prometheus: the ``metrics`` listener kind (``bswtichu.net.metrics``) turns it into the
text format when it is scraped, so counting costs a dictionary update and no lock.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter

#: upper bounds (seconds) of the duration buckets: from a basic bot's or a commit's
#: tenth of a millisecond to an expert's seconds
SECONDS_BUCKETS = (0.0001, 0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Timings:
    """Durations seen, by bucket (as a Prometheus histogram keeps them): counts per bucket
    (not cumulative; the last is above every bound), their sum and number."""

    def __init__(self, bounds: tuple[float, ...] = SECONDS_BUCKETS) -> None:
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)
        self.total = 0.0
        self.count = 0

    def observe(self, seconds: float) -> None:
        self.counts[bisect_left(self.bounds, seconds)] += 1
        self.total += seconds
        self.count += 1


class Counters:
    """The server's counters since it started."""

    def __init__(self) -> None:
        #: game actions applied, by source: "person" or the bot's level
        self.actions: Counter[str] = Counter()
        #: refusals told to clients, by error code
        self.refusals: Counter[str] = Counter()
        #: how long bots took to choose (`Bot.choose`), by level
        self.decisions: dict[str, Timings] = {}
        #: how long each storage commit took
        self.commits = Timings()
        #: whether the last storage commit failed (the health check says so)
        self.commit_failed = False
        #: connections accepted, and open now, by listener kind
        self.connections: Counter[str] = Counter()
        self.open_connections: Counter[str] = Counter()
        #: bytes written to clients, by listener kind
        self.output_bytes: Counter[str] = Counter()
        #: droppable lines (chat) skipped for clients that did not read
        self.skipped_lines = 0
        #: games started and ended (by the rules, or stopped), since the server started
        self.games_started = 0
        self.games_ended = 0

    def decided(self, level: str, seconds: float) -> None:
        timings = self.decisions.get(level)
        if timings is None:
            timings = self.decisions[level] = Timings()
        timings.observe(seconds)

    def connection_opened(self, kind: str) -> None:
        self.connections[kind] += 1
        self.open_connections[kind] += 1

    def connection_closed(self, kind: str) -> None:
        self.open_connections[kind] -= 1

    def sent(self, kind: str, size: int) -> None:
        self.output_bytes[kind] += size

    def skipped(self, lines: int) -> None:
        self.skipped_lines += lines
