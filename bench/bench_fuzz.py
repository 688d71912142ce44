"""Fuzz the real server: hostile lines and raw bytes on both ports, then play a game.

    python bench/bench_fuzz.py [--lines 1000000] [--connections 40] [--seed 1] [--old DIR]

Starts the server in a subprocess on free ports, opens ``--connections``
connections (half telnet, half bot port) that send hostile lines as fast as the
server takes them: every registered command with hostile arguments, telnet
sequences, raw bytes, overlong and empty lines. The input budgets are raised for
the run (the subject is what the server does with the lines, not how it slows
them). Afterwards one person with three /bot plays a round-1 game to the end.

Reports: lines and bytes sent, ``internal`` errors received (must be 0),
tracebacks in the server's log (must be 0), the server's memory before and after.
tests/net/test_net_hostile_fuzz.py runs a small version.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from table_clients import HOST, ServerProcess, rss_kib  # noqa: E402

OLD_SETTINGS = {  # what a server before the input budgets understands
    "flood_rate": 10**6, "flood_burst": 10**6, "line_flood_rate": 10**6, "line_flood_burst": 10**6,
}
FUZZ_SETTINGS = {
    **OLD_SETTINGS, "byte_rate": 10**9, "byte_burst": 10**9, "line_byte_rate": 10**9, "line_byte_burst": 10**9,
    "connections_per_address": 1000, "tables_per_person": 3,
}
IAC = 0xFF
ARGUMENTS = ["", "1", "2 3", "²", "1 ³", "٣", "１", "-1", "+2", "0", "99999999999999999999", "9" * 5000,
             "1e3", "x" * 600, "\u202e1", "1\u200f", "\u2066A\u2069", "on", "off", "7j 7s", "MJ wish 7",
             "PH=9", "DR", "round 3", "turnier on", "basic", "random", "none", "Ann", "%s%n{}", "\\"]


def command_names() -> list[str]:
    """Every name of every registered command, from the registry itself."""
    from twisted.internet.task import Clock

    from bswtichu.config import ServerConfig
    from bswtichu.server.games.logs import GameLogStore
    from bswtichu.service import build_lobby

    config = ServerConfig()
    lobby = build_lobby(Clock(), config, lambda table: None, GameLogStore(config.log_folder))
    return sorted({name for command in lobby.commands for name in command.names} - {"quit", "ende", "exit", "bye"})


def hostile_line(rng: random.Random, names: list[str], telnet: bool) -> bytes:
    """One line (with its line end) of a hostile client."""
    kind = rng.random()
    if kind < 0.55:
        text = f"/{rng.choice(names)} {rng.choice(ARGUMENTS)}".rstrip()
        data = text.encode("utf-8")
    elif kind < 0.65:
        data = bytes(rng.randrange(255 if telnet else 256) for _ in range(rng.randrange(1, 40)))
        data = data.replace(b"\r", b"").replace(b"\n", b"")  # (telnet IAC comes below)
    elif kind < 0.75 and telnet:
        data = rng.choice([
            bytes([IAC, 0xFA, IAC, 0xF0]), bytes([IAC, 0x01]), bytes([IAC, 0xFB, 0x1F]),
            bytes([IAC, 0xFA, 0x1F]) + b"x" * rng.randrange(10, 6000) + bytes([IAC, 0xF0]),
            "é".encode()[:1] + bytes([IAC, 0xF1]) + "é".encode()[1:], bytes([IAC]),
        ])
    elif kind < 0.8:
        data = b"y" * rng.randrange(400, 3000)
    elif kind < 0.9:
        data = rng.choice(["hello", "//slash", "", "\x1b[2J\x07", "\u202ertl", "a" * 500]).encode()
    else:
        data = rng.choice([b"/", b"//", b"/ ", b"/\xff\xfe", b"/join\x00", b"\t/who"])
    return data + rng.choice([b"\r\n", b"\n", b"\r", b"\r\0"] if telnet else [b"\r\n", b"\n", b"\r"])


@dataclass
class FuzzReport:
    lines: int = 0
    bytes: int = 0
    internal: int = 0
    received_lines: int = 0
    reconnects: int = 0
    game_over: bool = False
    seconds: float = 0.0
    rss_before_kib: int = 0
    rss_after_kib: int = 0
    tracebacks: int = 0
    unhandled: int = 0

    def summary(self) -> str:
        return (f"{self.lines} lines ({self.bytes / 2**20:.1f} MiB) in {self.seconds:.1f} s;"
                f" {self.received_lines} lines back; internal errors: {self.internal};"
                f" tracebacks logged: {self.tracebacks}; unhandled errors: {self.unhandled};"
                f" reconnects: {self.reconnects}; game after the fuzz finished: {self.game_over};"
                f" server memory {self.rss_before_kib / 1024:.1f} -> {self.rss_after_kib / 1024:.1f} MiB")


def is_internal(line: bytes) -> bool:
    return b'"code":"internal"' in line or b"error: internal error" in line


async def fuzz_connection(port: int, telnet: bool, number: int, quota: int, seed: int,
                          names: list[str], report: FuzzReport) -> None:
    """Send ``quota`` hostile lines, then a marker, and read until the marker's answer."""
    rng = random.Random(seed * 1000 + number)
    sent = 0
    while sent < quota:
        reader, writer = await asyncio.open_connection(HOST, port)
        marker = f"zzmarker{number}x{rng.randrange(10**9)}".encode()

        async def read_all() -> None:
            while line := await reader.readline():
                report.received_lines += 1
                report.internal += is_internal(line)
                if marker in line:
                    return

        reading = asyncio.create_task(read_all())
        if rng.random() < 0.5:
            writer.write(b"/mode machine\r\n")
        writer.write(f"/nick Fz{number}x{rng.randrange(1000)}\r\n".encode())
        try:
            while sent < quota:
                batch = [hostile_line(rng, names, telnet) for _ in range(min(200, quota - sent))]
                data = b"".join(batch)
                writer.write(data)
                await writer.drain()
                sent += len(batch)
                report.lines += len(batch)
                report.bytes += len(data)
            writer.write(b"\r\n/help " + marker + b"\r\n")  # answered once all before it was
            await writer.drain()
            await reading
        except ConnectionError:
            report.reconnects += 1
        writer.close()
        reading.cancel()
        await asyncio.gather(reading, return_exceptions=True)

async def play_one_game(port: int, timeout: float = 120.0) -> bool:
    """One person and three /bot play round 1 to the end, choosing from /legal."""
    reader, writer = await asyncio.open_connection(HOST, port)
    rng = random.Random(7)

    def send(line: str) -> None:
        writer.write(line.encode() + b"\r\n")

    send("/mode machine")
    send("/nick Survivor")
    send("/join")
    for _ in range(3):
        send("/bot")
    send("/round 1")
    send("/start")
    hand: set[str] = set()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            line = await asyncio.wait_for(reader.readline(), deadline - time.monotonic())
            keyword, _, payload = line.decode().strip().partition(" ")
            fields = json.loads(payload) if payload.startswith("{") else {}
            if keyword == "GAME_OVER":
                return True
            if keyword == "DEALT":
                hand |= set(fields["cards"])
            elif keyword in ("PHASE", "TURN", "ERROR") and (keyword != "TURN" or fields["player"] == "Survivor"):
                send("/legal")
            elif keyword == "LEGAL" and fields["commands"]:
                if fields["exchange"]:
                    send("/schupf " + " ".join(rng.sample(sorted(hand), 3)))
                else:
                    send(rng.choice(fields["commands"]))
        return False
    finally:
        writer.close()


def count_in_log(text: str) -> tuple[int, int]:
    return text.count("Traceback (most recent call last)"), text.count("Unhandled Error")


async def fuzz(server: ServerProcess, lines: int, connections: int, seed: int) -> FuzzReport:
    names = command_names()
    report = FuzzReport()
    report.rss_before_kib = rss_kib(server.pid)
    quota = -(-lines // connections)
    started = time.perf_counter()
    await asyncio.gather(*(
        fuzz_connection(server.telnet_port if n % 2 == 0 else server.line_port, n % 2 == 0, n,
                        quota, seed, names, report)
        for n in range(connections)
    ))
    report.seconds = time.perf_counter() - started
    report.game_over = await play_one_game(server.line_port)
    report.rss_after_kib = rss_kib(server.pid)
    report.tracebacks, report.unhandled = count_in_log(server.log_text())
    return report


def run_fuzz(lines: int, connections: int, seed: int = 1, source: Path | None = None) -> FuzzReport:
    """The fuzz against this checkout, or (``source``) an older revision's source folder."""
    server = (ServerProcess(FUZZ_SETTINGS) if source is None
              else ServerProcess(OLD_SETTINGS, source)).start()
    try:
        return asyncio.run(fuzz(server, lines, connections, seed))
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--connections", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--old", type=Path, help="also fuzz another revision's source folder")
    args = parser.parse_args()
    if args.old:
        print("old:", run_fuzz(args.lines, args.connections, args.seed, args.old).summary(), flush=True)
    report = run_fuzz(args.lines, args.connections, args.seed)
    print("new:", report.summary())
    ok = report.internal == 0 and report.tracebacks == 0 and report.unhandled == 0 and report.game_over
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
