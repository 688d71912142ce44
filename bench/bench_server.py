"""Server speed: game actions per server CPU-second, latency, memory, against a bare echo server.

    python bench/bench_server.py [--tables 50] [--seconds 15] [--compare REV] [--profile FILE]
                                 [--kinds line,tls,websocket]

Starts the real server (a subprocess on free loopback ports, flood limits raised,
storage on as by default: an SQLite file in the server's folder) and lets
``--tables`` tables of four bot-port clients play random legal moves
(`table_clients.play_tables`). It reports accepted game actions per second,
p50/p99 latency (a request to its answer), the server's CPU seconds per action
and its memory. A bare Twisted line echo server is measured by the same
kind of client (as many connections, each sending a line and waiting for it
back) for the ratio "server CPU per game action / echo CPU per line".

``--compare REV`` runs the same for another git revision side by side, in the
same run (a temporary ``git worktree`` of REV, removed afterwards); the two are
measured alternately ``--repeat`` times, so load from other jobs hits both.
``--profile FILE`` runs this checkout's server under cProfile and writes its
stats (read them with ``python -m pstats FILE``). ``--kinds`` measures the same
players reaching the server on each of the given kinds of port, alternately in one
run: ``line`` (the plain bot port), ``tls`` (the bot port over TLS) and ``websocket``
(the WebSocket port's ``bswtichu.machine`` subprotocol); every server then listens on
all of them, so only the clients' way in differs. ``--against-postgres URL`` measures this
checkout on its SQLite file and on PostgreSQL alternately (a new database on URL's server
for each measurement, dropped after it), then PostgreSQL's CPU per action and p99 beside
SQLite's.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import ssl

from table_clients import (HOST, KINDS, ROOT, ServerProcess, Stats, Worktree, cpu_seconds, free_port,
                           play_tables, rss_kib)

SETTINGS = {"line_flood_rate": 100000, "line_flood_burst": 100000,
            "line_byte_rate": 10**8, "line_byte_burst": 10**8, "connections_per_address": 100000}

ECHO_SERVER = """
import sys
from twisted.internet import reactor
from twisted.internet.endpoints import serverFromString
from twisted.internet.protocol import Factory
from twisted.protocols.basic import LineReceiver

class Echo(LineReceiver):
    def lineReceived(self, line):
        self.sendLine(line)

serverFromString(reactor, sys.argv[1]).listen(Factory.forProtocol(Echo))
reactor.run()
"""


class EchoProcess:
    """A bare Twisted line echo server in a subprocess: the floor any line server stands on."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process = subprocess.Popen([sys.executable, "-c", ECHO_SERVER,
                                         f"tcp:{self.port}:interface={HOST}"])
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                asyncio.run(asyncio.wait_for(asyncio.open_connection(HOST, self.port), 1))
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("echo server did not start")

    def cpu_seconds(self) -> float:
        return cpu_seconds(self.pid)

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


async def echo_clients(port: int, connections: int, seconds: float, cpu, warmup: float = 1.0) -> Stats:
    """``connections`` clients, each sending a line and waiting for it back, for ``seconds``."""
    stats = Stats()
    counting = False

    async def client() -> None:
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            while True:
                sent = time.perf_counter()
                writer.write(b"/play R5 G5\r\n")
                await reader.readline()
                if counting:
                    stats.actions += 1
                    stats.latencies.append(time.perf_counter() - sent)
        finally:
            writer.close()

    tasks = [asyncio.create_task(client()) for _ in range(connections)]
    await asyncio.sleep(warmup)
    counting = True
    before, started = cpu(), time.perf_counter()
    await asyncio.sleep(seconds)
    stats.seconds, stats.cpu_seconds = time.perf_counter() - started, cpu() - before
    counting = False
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats


def per_cpu(stats: Stats) -> float:
    """Actions (or echoed lines) per server CPU-second."""
    return stats.actions / stats.cpu_seconds if stats.cpu_seconds else float("nan")


def report(label: str, stats: Stats, rss: int) -> str:
    micros = 1e6 * stats.cpu_seconds / stats.actions if stats.actions else float("nan")
    clients = (f"; clients {1e6 * stats.client_cpu_seconds / stats.actions:.0f} us/action"
               if stats.client_cpu_seconds and stats.actions else "")
    return (f"{label:>10}: {stats.summary()}\n{'':>10}  server CPU {stats.cpu_seconds:.2f} s"
            f" = {micros:.0f} us/action, {per_cpu(stats):.0f} actions per CPU-second, RSS {rss / 1024:.1f} MiB"
            f"{clients}")


def _client_process(port: int, pid: int, tables: int, seconds: float, seed: int, warmup: float,
                    push: bool, think: float, kind: str = "line", cafile: str | None = None) -> Stats:
    tls = ssl.create_default_context(cafile=cafile) if kind == "tls" else None
    return asyncio.run(play_tables(port, tables=tables, seconds=seconds, seed=seed, warmup=warmup,
                                   cpu=partial(cpu_seconds, pid), push=push, think=think, kind=kind, tls=tls))


def play_in_processes(server: ServerProcess, tables: int, seconds: float, processes: int,
                      push: bool, think: float, kind: str = "line") -> Stats:
    """The tables split over ``processes`` client processes (one asyncio loop is slower than the
    server at hundreds of connections); their measured seconds overlap, the server's CPU is
    the mean over them, scaled to the pooled actions."""
    seed = int(time.time())
    warmup = 2.0 + tables / 50  # every process's tables sit down before anyone measures
    shares = [tables // processes + (n < tables % processes) for n in range(processes)]
    with multiprocessing.Pool(processes) as pool:
        cafile = str(server.folder / "data" / "tls-certificate.pem") if kind == "tls" else None
        parts = pool.starmap(_client_process, [(server.port_of(kind), server.pid, share, seconds, seed + n,
                                                warmup, push, think, kind, cafile)
                                               for n, share in enumerate(shares)])
    pooled = _pooled(parts)
    pooled.errors = sum(part.errors for part in parts)
    pooled.internal = sum(part.internal for part in parts)
    pooled.games = sum(part.games for part in parts)
    pooled.seconds = statistics.mean(part.seconds for part in parts)
    pooled.cpu_seconds = statistics.mean(part.cpu_seconds for part in parts)
    pooled.pushed = all(part.pushed for part in parts)
    pooled.client_cpu_seconds = sum(part.client_cpu_seconds for part in parts)
    return pooled


def measure_server(label: str, source: Path, tables: int, seconds: float, profile: Path | None = None,
                   storage: dict | None = None, processes: int = 1, push: bool = True,
                   think: float = 0.0, kind: str = "line", all_kinds: bool = False) -> Stats:
    server = ServerProcess(SETTINGS, source, profile, storage, all_kinds=all_kinds).start()
    try:
        if processes > 1:
            stats = play_in_processes(server, tables, seconds, processes, push, think, kind)
        else:
            tls = server.tls_context() if kind == "tls" else None
            stats = asyncio.run(play_tables(server.port_of(kind), tables=tables, seconds=seconds,
                                            seed=int(time.time()), cpu=server.cpu_seconds, push=push,
                                            think=think, kind=kind, tls=tls))
        rss = rss_kib(server.pid)
        if stats.internal:
            print(f"{label}: {stats.internal} internal errors!\n{server.log_text()[-3000:]}")
    finally:
        if profile is not None and server.process.poll() is None:
            server.process.terminate()
            server.process.wait(60)
        server.stop()
    print(report(label, stats, rss), flush=True)
    return stats


def measure_echo(connections: int, seconds: float) -> Stats:
    echo = EchoProcess()
    try:
        stats = asyncio.run(echo_clients(echo.port, connections, seconds, echo.cpu_seconds))
        rss = rss_kib(echo.pid)
    finally:
        echo.stop()
    print(report("echo", stats, rss), flush=True)
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50, help="tables of four bot-port clients (default 50)")
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each measurement (default 15)")
    parser.add_argument("--compare", metavar="REV", help="another git revision, measured side by side")
    parser.add_argument("--repeat", type=int, default=1, help="alternating measurements of each")
    parser.add_argument("--profile", type=Path, help="write this checkout's server cProfile stats here")
    parser.add_argument("--no-echo", action="store_true", help="skip the echo server")
    parser.add_argument("--clients", type=int, default=1, metavar="N",
                        help="client processes sharing the tables (for hundreds of tables)")
    parser.add_argument("--no-push", action="store_true",
                        help="clients ask /legal before each move even where the server would push it")
    parser.add_argument("--database", help="the servers' database (default: a file in each server's"
                        " folder; ':memory:' leaves out the file's cost, for the storage's share)")
    parser.add_argument("--kinds", default="line", metavar="KIND,...",
                        help=f"the ports the players use, measured alternately: {', '.join(KINDS)}"
                             " (default line)")
    parser.add_argument("--against-postgres", metavar="URL",
                        help="measure SQLite and PostgreSQL alternately: a new database on URL's server per"
                             " measurement (URL: a database there the bench may create others from)")
    parser.add_argument("--think", type=float, default=0.0, metavar="MS",
                        help="each client waits this long before each move it starts (default 0: as fast as"
                             " possible); the tables then offer a load the server may keep up with")
    args = parser.parse_args()
    if args.think < 0:
        parser.error("--think is a wait in milliseconds: 0 or more")
    think = args.think / 1000
    kinds = args.kinds.split(",")
    if not kinds or any(kind not in KINDS for kind in kinds):
        parser.error(f"--kinds takes a comma-separated list of {', '.join(KINDS)}")
    if kinds != ["line"]:
        measure_kinds(args, kinds, think)
        return
    if args.against_postgres:
        measure_engines(args, think)
        return
    print(f"{args.tables} tables x 4 random bot-port players, {args.seconds:g} s per measurement")
    echo = None if args.no_echo else measure_echo(4 * args.tables, args.seconds)
    results: dict[str, list[Stats]] = {"new": [], "old": []}
    storage = {"database": args.database} if args.database else None

    def run(old: Path | None) -> None:
        for _ in range(args.repeat):
            results["new"].append(measure_server("new", ROOT, args.tables, args.seconds, args.profile, storage,
                                                  args.clients, not args.no_push, think))
            if old is not None:
                results["old"].append(measure_server(f"old {args.compare}", old, args.tables, args.seconds,
                                                     storage=storage, processes=args.clients,
                                                     push=not args.no_push, think=think))

    if args.compare:
        with Worktree(args.compare) as old:
            run(old)
    else:
        run(None)
    new = _pooled(results["new"])
    if echo is not None:
        print(f"echo / new server, per CPU-second: x{per_cpu(echo) / per_cpu(new):.1f}")
    if results["old"]:
        old = _pooled(results["old"])
        print(f"new / old: actions per CPU-second x{per_cpu(new) / per_cpu(old):.2f},"
              f" actions/s x{new.throughput / old.throughput:.2f},"
              f" p99 {new.percentile(99) * 1000:.1f} ms vs {old.percentile(99) * 1000:.1f} ms,"
              f" move p99 {new.percentile(99, new.moves) * 1000:.1f} ms"
              f" vs {old.percentile(99, old.moves) * 1000:.1f} ms")


def measure_kinds(args, kinds: list[str], think: float) -> None:
    """Each kind measured ``--repeat`` times, alternately, against servers that listen on all;
    then each kind's server CPU per action beside the plain line port's."""
    print(f"{args.tables} tables x 4 random players, {args.seconds:g} s per measurement, kinds {', '.join(kinds)}")
    storage = {"database": args.database} if args.database else None
    results: dict[str, list[Stats]] = {kind: [] for kind in kinds}
    for _ in range(args.repeat):
        for kind in kinds:
            results[kind].append(measure_server(kind, ROOT, args.tables, args.seconds, None, storage, args.clients,
                                                not args.no_push, think, kind, all_kinds=True))
    pooled = {kind: _pooled(runs) for kind, runs in results.items()}
    base = pooled.get("line") or pooled[kinds[0]]
    for kind, stats in pooled.items():
        micros = 1e6 * stats.cpu_seconds / stats.actions if stats.actions else float("nan")
        base_micros = 1e6 * base.cpu_seconds / base.actions if base.actions else float("nan")
        print(f"{kind:>10}: {micros:.0f} us server CPU per action (x{micros / base_micros:.2f} of"
              f" {'line' if 'line' in pooled else kinds[0]}), p50 {stats.percentile(50) * 1000:.1f} ms,"
              f" p99 {stats.percentile(99) * 1000:.1f} ms")


def measure_engines(args, think: float) -> None:
    """This checkout on its SQLite file and on a new PostgreSQL database, alternately
    ``--repeat`` times; then PostgreSQL's server CPU per action and p99 beside SQLite's."""
    import psycopg

    print(f"{args.tables} tables x 4 random bot-port players, {args.seconds:g} s per measurement,"
          " SQLite and PostgreSQL")
    results: dict[str, list[Stats]] = {"sqlite": [], "postgresql": []}
    for run in range(args.repeat):
        results["sqlite"].append(measure_server("sqlite", ROOT, args.tables, args.seconds, None, None,
                                                args.clients, not args.no_push, think))
        name = f"bswtichu_bench_{int(time.time())}_{run}"
        with psycopg.connect(args.against_postgres, autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        try:
            url = args.against_postgres.rsplit("/", 1)[0] + "/" + name
            results["postgresql"].append(measure_server("postgresql", ROOT, args.tables, args.seconds, None,
                                                        {"database": url}, args.clients, not args.no_push, think))
        finally:
            with psycopg.connect(args.against_postgres, autocommit=True) as admin:
                admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    lite, pg = _pooled(results["sqlite"]), _pooled(results["postgresql"])
    print(f"postgresql / sqlite: server CPU per action x{per_cpu(lite) / per_cpu(pg):.2f},"
          f" actions/s x{pg.throughput / lite.throughput:.2f},"
          f" p99 {pg.percentile(99) * 1000:.1f} ms vs {lite.percentile(99) * 1000:.1f} ms,"
          f" move p99 {pg.percentile(99, pg.moves) * 1000:.1f} ms vs {lite.percentile(99, lite.moves) * 1000:.1f} ms")


def _pooled(runs: list[Stats]) -> Stats:
    pooled = Stats()
    for stats in runs:
        pooled.actions += stats.actions
        pooled.seconds += stats.seconds
        pooled.cpu_seconds += stats.cpu_seconds
        pooled.latencies.extend(stats.latencies)
        pooled.moves.extend(stats.moves)
    return pooled


if __name__ == "__main__":
    main()
