"""Server memory per idle connection, for each kind of port.

    python bench/bench_idle_memory.py [--connections 500]

For each kind (telnet, telnet over TLS, the line port, the line port over TLS, the
WebSocket port's terminal, gmcp and machine subprotocols) a fresh server
(`table_clients.ServerProcess`, listening on all kinds) is given ``--connections``
clients that connect, read the greeting and then stay silent; the server's resident
memory before and after, divided by the connections, is that kind's cost of an idle
connection (the session, its port's objects, the kernel-side buffers not counted).
"""

from __future__ import annotations

import argparse
import asyncio
import time

from table_clients import ServerProcess, WebSocketLines, rss_kib

SETTINGS = {"connections_per_address": 100000, "idle_timeout": 0}
#: (label, the port the server process names, how to connect, the WebSocket subprotocol)
KINDS = (
    ("telnet", "telnet_port", "tcp", None),
    ("telnet TLS", "telnet_tls_port", "tls", None),
    ("line", "line_port", "tcp", None),
    ("line TLS", "tls_port", "tls", None),
    ("ws terminal", "web_port", "websocket", "terminal.mudstandards.org"),
    ("ws gmcp", "web_port", "websocket", "gmcp.mudstandards.org"),
    ("ws machine", "web_port", "websocket", "bswtichu.machine"),
)


class Greeted(asyncio.Protocol):
    """A client that waits for the greeting's ``Limits:`` line and then says nothing."""

    def __init__(self) -> None:
        self.greeted = asyncio.get_running_loop().create_future()
        self.transport = None
        self._seen = b""

    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self._seen = (self._seen + data)[-4096:]
        if b"Limits:" in self._seen and not self.greeted.done():
            self.greeted.set_result(None)

    def connection_lost(self, exc) -> None:
        if not self.greeted.done():
            self.greeted.set_exception(ConnectionError("closed before the greeting"))


async def open_idle(server: ServerProcess, port_name: str, way: str, subprotocol: str | None,
                    connections: int) -> list:
    loop = asyncio.get_running_loop()
    port = getattr(server, port_name)
    clients = []
    for _ in range(connections):
        client = Greeted()
        if way == "tls":
            await loop.create_connection(lambda: client, "127.0.0.1", port, ssl=server.tls_context(),
                                         server_hostname="localhost")
        elif way == "websocket":
            frames = WebSocketLines(client, subprotocol)
            await loop.create_connection(lambda: frames, "127.0.0.1", port)
            await frames.opened
        else:
            await loop.create_connection(lambda: client, "127.0.0.1", port)
        await asyncio.wait_for(client.greeted, 30)
        clients.append(client)
    return clients


def measure(label: str, port_name: str, way: str, subprotocol: str | None, connections: int) -> float:
    server = ServerProcess(SETTINGS, all_kinds=True).start()
    try:
        async def run() -> float:
            # one connection first, so what every first connection loads (modules, TLS context) is in
            warm = await open_idle(server, port_name, way, subprotocol, 1)
            await asyncio.sleep(0.5)
            before = rss_kib(server.pid)
            clients = await open_idle(server, port_name, way, subprotocol, connections)
            await asyncio.sleep(1.0)
            after = rss_kib(server.pid)
            for client in warm + clients:
                client.transport.close()
            return (after - before) / connections

        per = asyncio.run(run())
    finally:
        server.stop()
    print(f"{label:>12}: {per:6.1f} KiB per idle connection", flush=True)
    return per


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=500, help="idle connections per kind (default 500)")
    args = parser.parse_args()
    started = time.monotonic()
    print(f"{args.connections} idle connections per kind, a fresh server for each")
    for label, port_name, way, subprotocol in KINDS:
        measure(label, port_name, way, subprotocol, args.connections)
    print(f"({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
