"""Does one connection's password hashing freeze everyone? 10 tables of random players,
without and with one telnet connection sending ``/password OLD NEW`` as fast as its
budgets allow.

    python bench/bench_password.py [--seconds 12] [--tables 10] [--old DIR] [--unbudgeted]

Goal (issue 30 item 2): while the attacker sends, the tables keep >= 80% of their
throughput and at most 2x their p99 latency (the measure of bench_flood.py). The
attacker registers his name, then writes the command as fast as the socket takes it: the
telnet port's line budget (10 a second, bursts of 40) and the password budgets
(``[passwords]``, docs/operating.md) decide how many run. ``--unbudgeted`` adds a run
whose password budgets are out of reach, so every line the port reads is hashed: the
thread pool alone then keeps the reactor free. ``--old DIR`` runs the same against
another revision's source folder (e.g. a worktree of 7fac5b0, which hashed in the
reactor's thread) side by side.
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

#: the table clients' wide budgets (they are the load, not the subject); the attacker meets
#: the telnet port's defaults
TABLE_SETTINGS = {"line_flood_rate": 100000, "line_flood_burst": 100000, "connections_per_address": 1000,
                  "line_byte_rate": 10**8, "line_byte_burst": 10**8}
#: budgets the attacker never reaches (the --unbudgeted run)
UNBUDGETED = {"per_name": 10**6, "per_address": 10**6}
PASSWORD = "a-pw-123"
#: seconds the attacker waits before he sends (the tables sit down meanwhile: a server that
#: hashes in its reactor thread could not even seat them), and the tables' warm-up before
#: they are measured, which covers it
ATTACK_AFTER = 2.0
WARMUP = 3.0


class PasswordServer(ServerProcess):
    """The bench server with a ``[passwords]`` section of its own (none: the defaults)."""

    def __init__(self, settings: dict, source: Path, passwords: dict | None) -> None:
        super().__init__(settings, source)
        self.passwords = passwords

    def _ini(self) -> str:
        extra = "".join(f"{key} = {value}\n" for key, value in (self.passwords or {}).items())
        return super()._ini() + (f"[passwords]\n{extra}" if extra else "")


def attack(port: int, stop, counts) -> None:
    """Register a name, wait for the tables to sit down (`ATTACK_AFTER`), then send password
    changes on the telnet port as fast as it reads them; count the changes made and the
    refusals (shared ``counts``: changed, budget, busy)."""
    with socket.create_connection((HOST, port)) as sock:
        def drain() -> None:
            pending = b""
            try:
                while data := sock.recv(65536):
                    pending += data
                    *lines, pending = pending.split(b"\r\n")
                    for line in lines:
                        if b"The password of Mallory is changed" in line:
                            counts[0] += 1
                        elif b"too many password attempts" in line:
                            counts[1] += 1
                        elif b"busy checking passwords" in line:
                            counts[2] += 1
            except OSError:
                pass

        threading.Thread(target=drain, daemon=True).start()
        sock.sendall(f"/nick Mallory\r\n/register {PASSWORD}\r\n".encode())
        time.sleep(ATTACK_AFTER)
        chunk = f"/password {PASSWORD} {PASSWORD}\r\n".encode() * 100
        try:
            while not stop.is_set():
                sock.sendall(chunk)
        except OSError:
            pass


def measure(server: ServerProcess, tables: int, seconds: float, attacking: bool):
    stop = multiprocessing.Event()
    counts = multiprocessing.Array("i", 3)
    attacker = None
    if attacking:
        attacker = multiprocessing.Process(target=attack, args=(server.telnet_port, stop, counts))
        attacker.start()
    try:
        result = asyncio.run(play_tables(server.line_port, tables=tables, seconds=seconds,
                                         seed=int(time.time()), warmup=WARMUP))
    finally:
        stop.set()
        if attacker is not None:
            attacker.join(5)
            if attacker.is_alive():
                attacker.terminate()
    return result, tuple(counts)


def run(label: str, source: Path, settings: dict, passwords: dict | None, tables: int, seconds: float) -> tuple:
    server = PasswordServer(settings, source, passwords).start()
    try:
        calm, _ = measure(server, tables, seconds, attacking=False)
        print(f"{label:>10} calm:      {calm.summary()}", flush=True)
        attacked, (changed, budget, busy) = measure(server, tables, seconds, attacking=True)
        print(f"{label:>10} attacked:  {attacked.summary()}", flush=True)
        print(f"{label:>10} attacker:  {changed} passwords changed, {budget} refused by the budget,"
              f" {busy} as busy", flush=True)
    finally:
        server.stop()
    kept = attacked.throughput / calm.throughput
    p99 = attacked.percentile(99) / calm.percentile(99)
    print(f"{label:>10}: throughput kept {kept:.0%}, p99 x{p99:.2f} (goal: >= 80%, <= 2x)", flush=True)
    return kept, p99


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=12.0)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--old", type=Path, help="another revision's source folder, run side by side")
    parser.add_argument("--unbudgeted", action="store_true",
                        help="also a run whose password budgets the attacker never reaches")
    args = parser.parse_args()
    print(f"{args.tables} tables x 4 random players, {args.seconds:g} s per measurement")
    run("new", ROOT, TABLE_SETTINGS, None, args.tables, args.seconds)
    if args.unbudgeted:
        run("unbudgeted", ROOT, TABLE_SETTINGS, UNBUDGETED, args.tables, args.seconds)
    if args.old:
        run("old", args.old, TABLE_SETTINGS, None, args.tables, args.seconds)


if __name__ == "__main__":
    main()
