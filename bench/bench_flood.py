"""Does one flooder starve everyone? 10 tables of random players, without and with
one telnet connection sending lines as fast as it can.

    python bench/bench_flood.py [--seconds 15] [--tables 10] [--old DIR]

Goal (issue 10): with the flooder the tables keep >= 80% of their throughput and at
most 2x their p99 latency. ``--old DIR`` runs the same against another revision's
source folder (``git archive main | tar -x -C DIR``) side by side. The table
clients get a wide line budget (they are the load, not the subject); the flooder
meets the telnet port's defaults.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import socket
import threading
import time
from pathlib import Path

from table_clients import HOST, ROOT, ServerProcess, play_tables

TABLE_SETTINGS = {"line_flood_rate": 100000, "line_flood_burst": 100000}
NEW_SETTINGS = {**TABLE_SETTINGS, "connections_per_address": 1000,
                "line_byte_rate": 10**8, "line_byte_burst": 10**8}


def flood(port: int, stop) -> None:
    """Send chat and commands on the telnet port as fast as the socket takes them."""
    with socket.create_connection((HOST, port)) as sock:
        def drain() -> None:
            try:
                while sock.recv(65536):
                    pass
            except OSError:
                pass

        threading.Thread(target=drain, daemon=True).start()
        sock.sendall(b"/nick Flooder\r\n")
        chunk = b"flood flood flood flood flood flood\r\n/tables\r\n/who\r\n" * 400
        try:
            while not stop.is_set():
                sock.sendall(chunk)
        except OSError:
            pass


def measure(server: ServerProcess, tables: int, seconds: float, flooding: bool):
    stop = multiprocessing.Event()
    flooder = None
    if flooding:
        flooder = multiprocessing.Process(target=flood, args=(server.telnet_port, stop))
        flooder.start()
        time.sleep(0.5)
    try:
        return asyncio.run(play_tables(server.line_port, tables=tables, seconds=seconds,
                                       seed=int(time.time())))
    finally:
        stop.set()
        if flooder is not None:
            flooder.join(5)
            if flooder.is_alive():
                flooder.terminate()


def run(label: str, source: Path, settings: dict, tables: int, seconds: float) -> tuple:
    server = ServerProcess(settings, source).start()
    try:
        calm = measure(server, tables, seconds, flooding=False)
        print(f"{label:>4} calm:    {calm.summary()}", flush=True)
        stormy = measure(server, tables, seconds, flooding=True)
        print(f"{label:>4} flooded: {stormy.summary()}", flush=True)
    finally:
        server.stop()
    kept = stormy.throughput / calm.throughput
    p99 = stormy.percentile(99) / calm.percentile(99)
    print(f"{label:>4}: throughput kept {kept:.0%}, p99 x{p99:.2f}"
          f" (goal: >= 80%, <= 2x)", flush=True)
    return kept, p99


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--old", type=Path, help="another revision's source folder, run side by side")
    args = parser.parse_args()
    print(f"{args.tables} tables x 4 random players, {args.seconds:g} s per measurement")
    run("new", ROOT, NEW_SETTINGS, args.tables, args.seconds)
    if args.old:
        run("old", args.old, TABLE_SETTINGS, args.tables, args.seconds)


if __name__ == "__main__":
    main()
