"""A client that never reads, while lobby chat worth --megabytes is broadcast to it.

    python bench/bench_slow_reader.py [--megabytes 100] [--old DIR]

The server runs in a subprocess; one connection sits in the lobby and never reads
(a small receive buffer), two talkers on the bot port chat 400-character lines and
read everything they get. Reports the server's resident memory before and after,
and what happened to the sleeper. Goal (issue 10): growth < 20 MiB for 100 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from table_clients import HOST, ROOT, ServerProcess, rss_kib  # noqa: E402

OLD_SETTINGS = {"line_flood_rate": 10**6, "line_flood_burst": 10**6}
NEW_SETTINGS = {**OLD_SETTINGS, "line_byte_rate": 10**9, "line_byte_burst": 10**9}
CHAT = 380  # characters of one chat line (under the default max_chat_length)


async def talker(port: int, name: str, lines: int) -> None:
    reader, writer = await asyncio.open_connection(HOST, port)
    writer.write(f"/mode machine\r\n/nick {name}\r\n".encode())

    async def read_all() -> None:
        while await reader.readline():
            pass

    reading = asyncio.create_task(read_all())
    text = (name + " " + "z" * CHAT)[:CHAT]
    for start in range(0, lines, 100):
        writer.write((text + "\r\n").encode() * min(100, lines - start))
        await writer.drain()
    writer.write(b"/quit\r\n")
    await writer.drain()
    await reading


async def talk(port: int, lines: int) -> None:
    await asyncio.wait_for(asyncio.gather(talker(port, "TalkA", lines),
                                          talker(port, "TalkB", lines)), 600)


def sleeper(port: int) -> socket.socket:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((HOST, port))
    sock.sendall(b"/nick Sleepy\r\n")
    return sock


def run(label: str, source: Path, settings: dict, megabytes: float) -> None:
    server = ServerProcess(settings, source).start()
    try:
        sock = sleeper(server.line_port)
        time.sleep(0.5)
        before = rss_kib(server.pid)
        lines = int(megabytes * 1e6 / (CHAT + 60) / 2)  # per talker; ~60 bytes of framing a line
        started = time.perf_counter()
        asyncio.run(talk(server.line_port, lines))
        after = rss_kib(server.pid)
        sock.setblocking(False)
        try:
            alive = sock.recv(1, socket.MSG_PEEK) != b""
        except BlockingIOError:
            alive = True
        except OSError:
            alive = False
        sock.close()
        print(f"{label}: {2 * lines} chat lines (~{megabytes:g} MB to the sleeper) in"
              f" {time.perf_counter() - started:.1f} s; server memory {before / 1024:.1f} ->"
              f" {after / 1024:.1f} MiB (+{(after - before) / 1024:.1f} MiB);"
              f" sleeper still connected: {alive}", flush=True)
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=100.0)
    parser.add_argument("--old", type=Path, help="another revision's source folder, run side by side")
    args = parser.parse_args()
    run("new", ROOT, NEW_SETTINGS, args.megabytes)
    if args.old:
        run("old", args.old, OLD_SETTINGS, args.megabytes)


if __name__ == "__main__":
    main()
