"""The ``metrics`` listener kind: Prometheus's text format at /metrics, a health check at /healthz.

An HTTP site (twisted.web) for the operator's scraper, off unless listed
(``--listen metrics=tcp:9420:interface=127.0.0.1``). The numbers are the realm's
(`Realm.counters`, `Realm.table_states`, `Realm.online`) and the reactor's lag, which
this port measures itself. prometheus_client's Twisted resource formats them in the
reactor's thread pool, so each scrape first takes a snapshot in the reactor's thread
(the domain is only ever read there) and the pool formats that. docs/operating.md
says what each metric means.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TypedDict

from prometheus_client import CollectorRegistry, PlatformCollector, ProcessCollector
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.twisted import MetricsResource
from twisted.internet.interfaces import IReactorTime
from twisted.internet.task import LoopingCall
from twisted.web.resource import Resource
from twisted.web.server import Site

from bswtichu.config import ServerConfig
from bswtichu.net.accept import TimedRequest
from bswtichu.counters import Timings
from bswtichu.realm import Realm

#: how often the reactor's lag is measured, in seconds
LAG_INTERVAL = 0.5
#: a lag above this, in seconds, makes /healthz answer 503
LAG_LIMIT = 1.0
#: the states a table is counted in (each is reported, also at 0)
TABLE_STATES = ("open", "full", "started", "finished")
PREFIX = "bswtichu_"


class ReactorLag:
    """How late the reactor runs a call due every `LAG_INTERVAL` seconds (0 when it is on time)."""

    def __init__(self, clock: IReactorTime) -> None:
        self.clock = clock
        self.seconds = 0.0
        self._due = 0.0
        self._loop = LoopingCall(self._tick)
        self._loop.clock = clock

    def start(self) -> None:
        self._due = self.clock.seconds()
        self._loop.start(LAG_INTERVAL, now=True)

    def stop(self) -> None:
        if self._loop.running:
            self._loop.stop()

    def _tick(self) -> None:
        now = self.clock.seconds()
        self.seconds = max(0.0, now - self._due)
        self._due = now + LAG_INTERVAL


class Counts(TypedDict):
    """The counters as a snapshot copies them (`RealmCollector.take`)."""

    actions: dict[str, int]
    refusals: dict[str, int]
    decisions: dict[str, _Timings]
    commits: _Timings
    connections: dict[str, int]
    open: dict[str, int]
    output: dict[str, int]
    skipped: int
    started: int
    ended: int


@dataclass(frozen=True)
class Snapshot:
    """The realm's numbers at one moment, taken in the reactor's thread."""

    counters: Counts
    tables: dict[str, int]
    people: int
    lag: float


def _histogram(name: str, documentation: str, label: str | None,
               timings: Mapping[str, _Timings]) -> HistogramMetricFamily:
    family = HistogramMetricFamily(name, documentation, labels=[label] if label else None)
    for value, seen in sorted(timings.items()):
        buckets, running = [], 0
        for bound, count in zip((*seen.bounds, float("inf")), seen.counts):
            running += count
            buckets.append((repr(bound) if bound != float("inf") else "+Inf", running))
        family.add_metric([value] if label else [], buckets, seen.total)
    return family


def _by(name: str, documentation: str, label: str, values: Mapping[str, int],
        family=CounterMetricFamily):
    metric = family(name, documentation, labels=[label])
    for value, count in sorted(values.items()):
        metric.add_metric([value], count)
    return metric


class RealmCollector:
    """The realm's numbers as Prometheus metric families (from the latest `Snapshot`)."""

    def __init__(self, realm: Realm, lag: ReactorLag) -> None:
        self.realm = realm
        self.lag = lag
        self.snapshot: Snapshot | None = None

    def take(self) -> None:
        """Copy what the scrape reports (in the reactor's thread, before the pool formats it)."""
        counters = self.realm.counters
        self.snapshot = Snapshot(
            counters={
                "actions": dict(counters.actions), "refusals": dict(counters.refusals),
                "decisions": {level: _copy(t) for level, t in counters.decisions.items()},
                "commits": _copy(counters.commits),
                "connections": dict(counters.connections), "open": dict(counters.open_connections),
                "output": dict(counters.output_bytes), "skipped": counters.skipped_lines,
                "started": counters.games_started, "ended": counters.games_ended,
            },
            tables={state: 0 for state in TABLE_STATES} | dict(self.realm.table_states()),
            people=len(self.realm.online()),
            lag=self.lag.seconds,
        )

    def collect(self) -> Iterator:
        snap = self.snapshot
        if snap is None:
            return
        c = snap.counters
        yield _by(PREFIX + "connections", "Connections accepted, by listener kind", "kind", c["connections"])
        yield _by(PREFIX + "connections_open", "Connections open now, by listener kind", "kind", c["open"],
                  GaugeMetricFamily)
        yield GaugeMetricFamily(PREFIX + "people_online", "People with a name, connected now",
                                value=snap.people)
        yield _by(PREFIX + "tables", "Tables now, by state", "state", snap.tables, GaugeMetricFamily)
        yield GaugeMetricFamily(PREFIX + "games_running", "Games being played now",
                                value=snap.tables.get("started", 0))
        yield CounterMetricFamily(PREFIX + "games_started", "Games started", value=c["started"])
        yield CounterMetricFamily(PREFIX + "games_ended", "Games ended (over, or stopped with their table)",
                                  value=c["ended"])
        yield _by(PREFIX + "game_actions", "Game actions applied, by source (person or the bot's level)",
                  "source", c["actions"])
        yield _by(PREFIX + "refusals", "Requests refused, by error code", "code", c["refusals"])
        yield _histogram(PREFIX + "bot_decision_seconds", "Time a bot took to choose, by level",
                         "level", c["decisions"])
        yield _histogram(PREFIX + "storage_commit_seconds", "Time a storage commit took", None,
                         {"": c["commits"]})
        yield _by(PREFIX + "output_bytes", "Bytes sent to clients, by listener kind", "kind", c["output"])
        yield CounterMetricFamily(PREFIX + "skipped_lines", "Chat lines skipped for clients that did not read",
                                  value=c["skipped"])
        yield GaugeMetricFamily(PREFIX + "reactor_lag_seconds",
                                f"How late the reactor ran a call due every {LAG_INTERVAL} s", value=snap.lag)


@dataclass
class _Timings:
    bounds: tuple[float, ...]
    counts: list[int]
    total: float
    count: int


def _copy(timings: Timings) -> _Timings:
    return _Timings(timings.bounds, list(timings.counts), timings.total, timings.count)


class MetricsPage(Resource):
    """/metrics: a snapshot now, formatted by prometheus_client's Twisted resource."""

    isLeaf = True

    def __init__(self, collector: RealmCollector, registry: CollectorRegistry) -> None:
        super().__init__()
        self.collector = collector
        self.formatter = MetricsResource(registry)

    def render(self, request):
        self.collector.take()
        return self.formatter.render(request)


class HealthPage(Resource):
    """/healthz: 200 while the last commit succeeded and the reactor keeps time, else 503 and why."""

    isLeaf = True

    def __init__(self, realm: Realm, lag: ReactorLag) -> None:
        super().__init__()
        self.realm = realm
        self.lag = lag

    def render_GET(self, request) -> bytes:
        problems = []
        if self.realm.counters.commit_failed:
            problems.append("storage: the last commit failed")
        if self.lag.seconds > LAG_LIMIT:
            problems.append(f"reactor: {self.lag.seconds:.2f} s late (limit {LAG_LIMIT} s)")
        request.setHeader(b"content-type", b"text/plain; charset=utf-8")
        request.setResponseCode(503 if problems else 200)
        return ("\n".join(problems or ["ok"]) + "\n").encode("utf-8")


class MetricsSite(Site):
    """The metrics port's HTTP site; its lag timer runs while it listens."""

    noisy = False
    requestFactory = TimedRequest

    def __init__(self, realm: Realm, config: ServerConfig, clock: IReactorTime) -> None:
        self.lag = ReactorLag(clock)
        registry = CollectorRegistry()
        self.collector = RealmCollector(realm, self.lag)
        registry.register(self.collector)
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        root = Resource()
        root.putChild(b"metrics", MetricsPage(self.collector, registry))
        root.putChild(b"healthz", HealthPage(realm, self.lag))
        super().__init__(root)

    def startFactory(self) -> None:
        super().startFactory()
        self.lag.start()

    def stopFactory(self) -> None:
        self.lag.stop()
        super().stopFactory()

    def log(self, request) -> None:
        """No access log: a scraper's requests every few seconds are not news."""
