"""Does the server stay responsive with tables of computer players? (issue 14)

    python bench/bench_expert_server.py [--tables 50] [--seconds 30] [--levels basic expert]
        [--workers 0 2] [--repeat N]

For each level in turn, a real server (a subprocess, SQLite on, the default
``bot_delay`` of 1 s and the default expert budget) hosts ``--tables`` tables of one
person and three bots of that level, ``round 1``, restarted when they end. The person
is a bot-port client playing random legal moves (bench/table_clients.py); what is
measured is what he waits for: from his ``/legal`` or game command to its answer,
while every other table's bots think on the same server process. Printed per level:
the person's p50 and p99, his actions per second over all tables, and the server's
CPU share. With ``--workers 0 2`` each level runs with ``[bots] workers = 0`` (every
decision in the server's process) and then ``2`` (issue 23.4), one after the other,
``--repeat`` times; the workers' CPU share is printed beside the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import random

from table_clients import SETUP_TIMEOUT, ServerProcess, Stats, TableClient


async def seat_bot_table(port: int, name: str, level: str, stats: Stats,
                         rng: random.Random) -> TableClient:
    """A person who seats three bots of ``level`` at a new ``round 1`` table and starts."""
    person = TableClient(name, stats, rng)
    await person.connect(port)
    person.send("/join")
    await person.expect("JOINED")
    person.send("/round 1")
    await person.expect("OPTION")
    for _ in range(3):
        person.send(f"/bot {level}")
        await person.expect("JOINED")
    person.send("/start")
    return person


async def measure(port: int, level: str, tables: int, seconds: float, cpu, worker_cpu) -> tuple[Stats, float]:
    """The person's figures over ``seconds``, and the workers' CPU seconds meanwhile."""
    stats = Stats()
    rng = random.Random(7)
    people = [await asyncio.wait_for(seat_bot_table(port, f"{level[:3]}{n}", level, stats, rng),
                                     SETUP_TIMEOUT) for n in range(tables)]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(person.play(stop, starter=True)) for person in people]
    await asyncio.sleep(3.0)  # the first deals and bot decisions
    stats.actions, stats.games, stats.latencies[:] = 0, 0, []
    cpu_before, workers_before = cpu(), worker_cpu()
    started = asyncio.get_running_loop().time()
    await asyncio.sleep(seconds)
    measured = Stats(stats.actions, stats.errors, stats.internal, stats.games,
                     list(stats.latencies), asyncio.get_running_loop().time() - started,
                     cpu() - cpu_before)
    workers_used = worker_cpu() - workers_before
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for person in people:
        person.writer.close()
    return measured, workers_used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--levels", nargs="+", default=["basic", "expert"])
    parser.add_argument("--bot-delay", type=float, default=1.0)
    parser.add_argument("--workers", type=int, nargs="+", default=[0],
                        help="[bots] workers of each run (e.g. 0 2: in the server, then two"
                             " worker processes); runs alternate between them")
    parser.add_argument("--repeat", type=int, default=1, help="rounds of runs, interleaved")
    args = parser.parse_args()
    print(f"{args.tables} tables of one person and three bots, bot_delay {args.bot_delay} s,"
          f" {args.seconds:.0f} s each")
    for _ in range(args.repeat):
        for level in args.levels:
            for workers in args.workers:
                run(args, level, workers)


def run(args: argparse.Namespace, level: str, workers: int) -> None:
    server = ServerProcess(settings={"line_flood_rate": 1000, "line_flood_burst": 1000,
                                     "connections_per_address": 1000, "max_tables": 1000,
                                     "tables_per_person": 10},
                           game={"bot_delay": args.bot_delay}, bots={"workers": workers}).start()
    try:
        stats, workers_cpu = asyncio.run(measure(server.line_port, level, args.tables, args.seconds,
                                                 server.cpu_seconds, server.children_cpu_seconds))
    finally:
        server.stop()
    share = stats.cpu_seconds / stats.seconds if stats.seconds else 0.0
    worker_share = workers_cpu / stats.seconds if stats.seconds else 0.0
    print(f"  {level:<7} workers {workers}  person's requests p50 {stats.percentile(50) * 1000:7.1f} ms"
          f"  p99 {stats.percentile(99) * 1000:7.1f} ms  ({len(stats.latencies)} requests,"
          f" {stats.actions} actions, {stats.games} games, {stats.errors} errors)"
          f"  server CPU {share:.0%}, workers' CPU {worker_share:.0%} of one core", flush=True)


if __name__ == "__main__":
    main()
