"""A reusable harness for server benchmarks: a real server in a subprocess, and
tables of bot-port clients that play random legal moves over real TCP.

    server = ServerProcess(settings={"line_flood_rate": 1000}).start()
    stats = asyncio.run(play_tables(server.line_port, tables=10, seconds=20))
    server.stop()

Each client speaks machine mode on the line port. On its ``TURN`` (or a ``grand``
or ``exchange`` phase) it asks ``/legal`` and sends one of the commands at random
(three random cards for the exchange). With ``push`` (bench_server.py's default) it first asks
the server to send its ``LEGAL`` by itself whenever the round waits for it
(``/legal push on``) and then never asks; a server that does not know the
setting refuses it and the client falls back to asking. Latency is the time from sending a request
to its answer: ``/legal`` to ``LEGAL``, a game command to the message that shows
it done (``PLAYED``, ``PASSED``, ...) or its ``ERROR``. Throughput is accepted game
actions per second over all tables. With ``think`` a client waits that many seconds
before each move it starts (before asking ``/legal``, or before answering a pushed
list), as a person would: the load is then what the tables offer, not all the machine
can do, and the latencies say how fast the server answers at that load. Games are ``round 1``; a finished table
starts again, so the load stays steady for the whole run.

Standard library only (asyncio), so it measures the server and nothing of Twisted
on the client side.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import base64
import shutil
import socket
import ssl
import struct
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
SETUP_TIMEOUT = 30.0  # seconds for four clients to connect, sit down and start
#: how a bench client reaches the server's bot protocol: the line port, the line port over TLS,
#: or the WebSocket port's machine subprotocol (ServerProcess(all_kinds=True) listens on all)
KINDS = ("line", "tls", "websocket")
# reactions to one's own game command (seat == own seat) that end the wait for it
ACTION_REPLIES = {"PLAYED", "PASSED", "TICHU", "GRAND_DECIDED", "EXCHANGE_SUBMITTED", "WISH",
                  "DRAGON_GIVEN", "ERROR"}
# what a playing client reads at all (the rest is skipped unparsed: the clients share the cores)
READ_WHILE_PLAYING = ACTION_REPLIES | {"LEGAL", "STARTED", "DEALT", "RECEIVED", "PHASE", "TURN",
                                      "GAME_OVER", "TABLE_OPEN"}
# of those, the ones a client reads only when they name it as "player" (others' moves and turns
# tell it nothing): skipped unparsed unless the payload holds its own "player" field
OWN_ONLY = {keyword.encode() for keyword in ACTION_REPLIES | {"TURN"}} - {b"DRAGON_GIVEN", b"ERROR"}
READ_BYTES = {keyword.encode() for keyword in READ_WHILE_PLAYING}


def follow_hand(hand: set[str], keyword: str, fields: dict, mine: bool) -> None:
    """Keep a client's hand from what it is told: cards dealt and received come in, its own
    plays go out (``mine``: the message names the client's seat)."""
    if keyword == "DEALT":
        hand |= set(fields["cards"])
    elif keyword == "RECEIVED":
        hand |= set(fields["cards"].values())
    elif keyword == "PLAYED" and mine:
        hand -= set(fields["combo"]["cards"])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def rss_kib(pid: int) -> int:
    """Resident memory of a process in KiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class ServerProcess:
    """``bswtichu`` in a subprocess on free loopback ports, with an ini of ``settings``.

    ``source`` is the folder whose ``bswtichu`` package runs (another revision's
    worktree for side-by-side runs); the default is this checkout.
    """

    def __init__(self, settings: dict[str, object] | None = None, source: Path = ROOT,
                 profile: Path | None = None, storage: dict[str, object] | None = None,
                 game: dict[str, object] | None = None, bots: dict[str, object] | None = None,
                 all_kinds: bool = False) -> None:
        """``profile``: run the server under cProfile and write its stats there when it stops;
        ``storage``: settings of the ini's [storage] section (e.g. another database);
        ``game``: settings of its [game] section (bots act at once unless ``bot_delay`` says);
        ``bots``: settings of its [bots] section (e.g. ``workers``);
        ``all_kinds``: also telnet and the line port over TLS (the server's self-signed pair,
        made in its folder) and a WebSocket port (a revision without them cannot start so)."""
        self.settings = dict(settings or {})
        self.bots = dict(bots or {})
        self.game = {"bot_delay": 0, **(game or {})}
        self.storage = dict(storage or {})
        self.source = Path(source)
        self.profile = profile
        self.telnet_port = free_port()
        self.line_port = free_port()
        self.all_kinds = all_kinds
        self.telnet_tls_port = free_port() if all_kinds else None
        self.tls_port = free_port() if all_kinds else None
        self.web_port = free_port() if all_kinds else None
        self.folder = Path(tempfile.mkdtemp(prefix="bswtichu-bench-"))
        self.output = self.folder / "server.log"
        self.process: subprocess.Popen | None = None

    def _ini(self) -> str:
        settings = dict(self.settings)
        if "tables_per_address" in (self.source / "bswtichu" / "config.py").read_text():
            # every bench client comes from one loopback address: the per-address table cap
            # (of a revision that has one) would stop the benches' tables at its few
            settings.setdefault("tables_per_address", 100000)
        limits = "\n".join(f"{key} = {value}" for key, value in settings.items())
        tls = (lambda port: f" ssl:{port}:interface={HOST}") if self.all_kinds else (lambda port: "")
        return (
            "[listen]\n"
            f"telnet = tcp:{self.telnet_port}:interface={HOST}{tls(self.telnet_tls_port)}\n"
            f"line = tcp:{self.line_port}:interface={HOST}{tls(self.tls_port)}\n"
            f"websocket = {f'tcp:{self.web_port}:interface={HOST}' if self.all_kinds else ''}\n"
            f"[limits]\n{limits}\n"
            f"[game]\nlog_folder = {self.folder / 'logs'}\n"
            + "".join(f"{key} = {value}\n" for key, value in self.game.items())
            + ("[bots]\n" if self.bots else "")
            + "".join(f"{key} = {value}\n" for key, value in self.bots.items())
            + ("[storage]\n" if self.storage else "")
            + "".join(f"{key} = {value}\n" for key, value in self.storage.items())
        )

    def start(self) -> ServerProcess:
        ini = self.folder / "bench.ini"
        ini.write_text(self._ini())
        env = {**os.environ, "PYTHONPATH": str(self.source)}
        code = "import sys; from bswtichu.cli import main; sys.exit(main())"
        if self.profile is not None:
            code = ("import sys, cProfile; from bswtichu.cli import main; profiler = cProfile.Profile()\n"
                    f"try: sys.exit(profiler.runcall(main))\nfinally: profiler.dump_stats({str(self.profile)!r})")
        self.process = subprocess.Popen(
            [sys.executable, "-c", code, "--config", str(ini)],
            cwd=self.folder, env=env, stdout=self.output.open("wb"), stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.output.read_text()}")
            try:
                socket.create_connection((HOST, self.line_port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not start listening")

    @property
    def pid(self) -> int:
        return self.process.pid

    def cpu_seconds(self) -> float:
        return cpu_seconds(self.pid)

    def port_of(self, kind: str) -> int:
        """The port a client of ``kind`` (`KINDS`) connects to."""
        return {"line": self.line_port, "tls": self.tls_port, "websocket": self.web_port}[kind]

    def tls_context(self) -> ssl.SSLContext:
        """A client context trusting the server's self-signed certificate (made at its start)."""
        return ssl.create_default_context(cafile=str(self.folder / "data" / "tls-certificate.pem"))

    def children_cpu_seconds(self) -> float:
        """The CPU time of the server's live child processes (its bot workers) so far."""
        total = 0.0
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                try:
                    total += cpu_seconds(int(child))
                except FileNotFoundError:  # ended meanwhile
                    pass
        return total

    def log_text(self) -> str:
        return self.output.read_text(errors="replace")

    def stop(self) -> None:
        """Stop the server and remove its folder (read ``log_text`` before)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


@dataclass
class Stats:
    """What the clients measured."""

    actions: int = 0
    errors: int = 0
    internal: int = 0
    games: int = 0
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # the server's, over the same time (if measured)
    pushed: bool = False  # the server pushed the clients' LEGAL lists (no /legal requests)
    client_cpu_seconds: float = 0.0  # the client processes' own, over the same time
    #: per accepted action, from the client starting its move (sending /legal, or its command
    #: when its list was pushed) to the reply that shows it done: comparable with and without push
    moves: list[float] = field(default_factory=list)

    @property
    def throughput(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def percentile(self, p: float, of: list[float] | None = None) -> float:
        values = self.latencies if of is None else of
        if not values:
            return float("nan")
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]

    def summary(self) -> str:
        moves = (f"  move p50 {self.percentile(50, self.moves) * 1000:.1f} ms"
                 f" p99 {self.percentile(99, self.moves) * 1000:.1f} ms" if self.moves else "")
        return (f"{self.throughput:8.1f} actions/s  p50 {self.percentile(50) * 1000:6.2f} ms"
                f"  p99 {self.percentile(99) * 1000:6.2f} ms{moves}  ({self.actions} actions,"
                f" {self.games} games, {self.errors} errors, {self.internal} internal"
                + (f", {'LEGAL pushed' if self.pushed else '/legal asked'}" if self.games else "") + ")")


class TableClient(asyncio.Protocol):
    """One bot-port connection, in machine mode, that plays random legal moves.

    An asyncio protocol: while playing it reacts to the lines as they arrive, in
    the event loop's callback, without a task or a stream reader to wake per
    read (the clients share the cores with the server, so they should cost
    little); before that (``connect``, ``expect``) lines wait to be read.
    """

    def __init__(self, nick: str, stats: Stats, rng: random.Random, push: bool = False,
                 think: float = 0.0) -> None:
        self.nick = nick
        self.push = push  # asks for pushed LEGAL lists; False once the server refuses
        self.think = think  # seconds before each move it starts
        self.stats = stats
        self.rng = rng
        self.seat: int | None = None
        self.hand: set[str] = set()
        self.asked_at: float | None = None  # when /legal went out, until LEGAL
        self.acted_at: float | None = None  # when a game command went out, until done
        self.move_started: float | None = None  # when this client began its current move
        self._thinking: asyncio.TimerHandle | None = None  # a move waiting for its think time
        self.transport: asyncio.Transport | None = None
        self._pending = b""  # an incomplete last line
        self._unread: deque[bytes] = deque()  # lines before playing, until read
        self._waiter: asyncio.Future | None = None
        self._lost = False
        self._playing = False
        self._starter = False
        # '"player":"nick"': the lines a client reads only when they name it
        self._own = b'"player":"' + json.dumps(nick, ensure_ascii=False)[1:].encode()

    # -- asyncio.Protocol ------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        *lines, self._pending = (self._pending + data).split(b"\r\n")
        if self._playing:
            self._react_lines(lines)
        else:
            self._unread.extend(lines)
            self._wake()

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost = True
        self._wake()

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    # -- setting up --------------------------------------------------------------

    @property
    def writer(self) -> asyncio.Transport:
        """What closes the connection (``writer.close()``), as with a stream."""
        return self.transport

    async def connect(self, port: int, kind: str = "line", tls: ssl.SSLContext | None = None) -> None:
        """To the line port (``kind`` "line"), over TLS ("tls", trusting ``tls``), or to the
        WebSocket port's machine subprotocol ("websocket")."""
        await open_kind(lambda: self, port, kind, tls)
        while not (await self._next_line()).startswith(b"Limits:"):
            pass
        self.send("/mode machine")
        self.send(f"/nick {self.nick}")
        await self.expect("NICK")
        if self.push:
            self.send("/legal push on")
            while True:
                keyword, _ = await self.read()
                if keyword in ("LEGAL_PUSH", "ERROR"):
                    self.push = keyword == "LEGAL_PUSH"
                    break

    def send(self, line: str) -> None:
        self.transport.write(line.encode() + b"\r\n")

    def after_thinking(self, move: Callable[..., None], *args: object) -> None:
        """Start a move: at once, or after ``think`` seconds (if still playing then)."""
        if not self.think:
            move(*args)
            return

        def thought() -> None:
            self._thinking = None
            if self._playing and not self._lost:
                move(*args)

        if self._thinking is not None:  # a newer list or turn: only the latest move is made
            self._thinking.cancel()
        self._thinking = asyncio.get_running_loop().call_later(self.think, thought)

    def ask_legal(self) -> None:
        self.asked_at = time.perf_counter()
        if self.move_started is None:
            self.move_started = self.asked_at
        self.send("/legal")

    async def expect(self, keyword: str) -> dict:
        while True:
            got, fields = await self.read()
            if got == keyword:
                return fields

    async def _next_line(self) -> bytes:
        while not self._unread:
            if self._lost:
                raise ConnectionError(f"{self.nick}: the server hung up")
            self._waiter = asyncio.get_running_loop().create_future()
            await self._waiter
        return self._unread.popleft()

    async def read(self) -> tuple[str, dict]:
        keyword, _, payload = (await self._next_line()).decode().partition(" ")
        return keyword, json.loads(payload) if payload.startswith("{") else {}

    # -- playing -----------------------------------------------------------------

    async def play(self, stop: asyncio.Event, starter: bool) -> None:
        """React to the game, line by line as they arrive, until ``stop`` is set."""
        self._starter = starter
        self._playing = True
        unread, self._unread = list(self._unread), deque()
        try:
            self._react_lines(unread)
            await stop.wait()
        finally:
            self._playing = False

    def _react_lines(self, lines: list[bytes]) -> None:
        own = self._own
        for line in lines:
            keyword, _, payload = line.partition(b" ")
            if keyword not in READ_BYTES or (keyword in OWN_ONLY and own not in payload):
                continue
            self.react(keyword.decode(), json.loads(payload) if payload.startswith(b"{") else {},
                       self._starter)

    def react(self, keyword: str, fields: dict, starter: bool) -> None:
        mine = fields.get("seat") == self.seat
        if keyword == "ERROR":
            self.stats.errors += 1
            self.stats.internal += fields.get("code") == "internal"
        if self.acted_at is not None and keyword in ACTION_REPLIES and (mine or keyword == "ERROR"):
            self.stats.latencies.append(time.perf_counter() - self.acted_at)
            self.acted_at = None
            if keyword != "ERROR":
                self.stats.actions += 1
                if self.move_started is not None:
                    self.stats.moves.append(time.perf_counter() - self.move_started)
                    self.move_started = None
            if keyword == "ERROR" or (keyword == "TICHU" and not self.push):
                self.ask_legal()  # still this player's move (pushed: its list comes by itself)
        if keyword == "LEGAL" and self.asked_at is not None:
            self.stats.latencies.append(time.perf_counter() - self.asked_at)
            self.asked_at = None
        follow_hand(self.hand, keyword, fields, mine)
        if keyword == "STARTED":
            self.seat = fields["seats"].index(self.nick) + 1
            self.hand.clear()
        elif keyword == "PHASE" and fields["phase"] in ("grand", "exchange") and not self.push:
            self.after_thinking(self.ask_legal)
        elif keyword == "TURN" and mine and not self.push:
            self.after_thinking(self.ask_legal)
        elif keyword == "LEGAL" and fields["commands"] and self.move_started is None:
            self.after_thinking(self.act, fields)  # pushed: the move starts here
        elif keyword == "LEGAL" and fields["commands"]:
            self.act(fields)  # the answer to its /legal: the move is under way
        elif keyword == "LEGAL":
            self.move_started = None  # nothing to do: no move
        elif keyword == "GAME_OVER":
            self.stats.games += starter
        elif keyword == "TABLE_OPEN" and starter:
            self.send("/start")

    def act(self, legal: dict) -> None:
        if legal["exchange"]:
            cards = self.rng.sample(sorted(self.hand), 3)
            self.hand -= set(cards)
            command = "/schupf " + " ".join(cards)
        else:
            command = self.rng.choice(legal["commands"])
        self.acted_at = time.perf_counter()
        if self.move_started is None:
            self.move_started = self.acted_at
        self.send(command)


async def open_kind(protocol: Callable[[], asyncio.Protocol], port: int, kind: str = "line",
                    tls: ssl.SSLContext | None = None) -> None:
    """Connect ``protocol()`` to a port of ``kind`` (`KINDS`); for "websocket" it sees the
    machine subprotocol's TEXT frames as CR LF lines and its lines go out as TEXT frames."""
    loop = asyncio.get_running_loop()
    if kind == "tls":
        await loop.create_connection(protocol, HOST, port, ssl=tls, server_hostname="localhost")
    elif kind == "websocket":
        frames = WebSocketLines(protocol())
        await loop.create_connection(lambda: frames, HOST, port)
        await frames.opened
    else:
        await loop.create_connection(protocol, HOST, port)


class WebSocketLines(asyncio.Protocol):
    """A minimal WebSocket client (RFC 6455) for the bench under a line protocol: the handshake
    with the subprotocol ``bswtichu.machine``, then each TEXT frame to it as a CR LF line and each
    line it writes as one masked TEXT frame (a zero mask: the server's unmasking costs the same)."""

    def __init__(self, inner: asyncio.Protocol, subprotocol: str = "bswtichu.machine") -> None:
        self.inner = inner
        self.subprotocol = subprotocol
        self.transport: asyncio.Transport | None = None
        self.opened: asyncio.Future = asyncio.get_running_loop().create_future()
        self._buffer = b""
        self._outgoing = b""

    def connection_made(self, transport: asyncio.Transport) -> None:
        self.transport = transport
        key = base64.b64encode(os.urandom(16)).decode()
        transport.write((f"GET /ws HTTP/1.1\r\nHost: {HOST}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                         f"Sec-WebSocket-Protocol: {self.subprotocol}\r\n\r\n").encode())

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if not self.opened.done():
            head, found, rest = self._buffer.partition(b"\r\n\r\n")
            if not found:
                return
            if not head.startswith(b"HTTP/1.1 101"):
                self.opened.set_exception(ConnectionError(head.decode(errors="replace")))
                return
            self._buffer = rest
            self.opened.set_result(None)
            self.inner.connection_made(self)
        lines = []
        buffer = self._buffer
        while len(buffer) >= 2:
            length, start = buffer[1] & 0x7F, 2
            if length == 126:
                if len(buffer) < 4:
                    break
                length, start = struct.unpack("!H", buffer[2:4])[0], 4
            elif length == 127:
                if len(buffer) < 10:
                    break
                length, start = struct.unpack("!Q", buffer[2:10])[0], 10
            if len(buffer) < start + length:
                break
            opcode = buffer[0] & 0x0F
            if opcode in (1, 2):  # TEXT or BINARY; control frames are not lines
                lines.append(buffer[start:start + length])
            elif opcode == 8:  # the server closes: the closing handshake's answer
                self.transport.write(b"\x88\x80\0\0\0\0")
            buffer = buffer[start + length:]
        self._buffer = buffer
        if lines:
            self.inner.data_received(b"".join(line + b"\r\n" for line in lines))

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError("closed during the handshake"))
        self.inner.connection_lost(exc)

    def write(self, data: bytes) -> None:
        """Lines (each ending in CR LF) as TEXT frames."""
        *lines, self._outgoing = (self._outgoing + data).split(b"\r\n")
        frames = []
        for line in lines:
            size = len(line)
            header = bytes([0x81, 0x80 | size]) if size < 126 else struct.pack("!BBH", 0x81, 0x80 | 126, size)
            frames.append(header + b"\0\0\0\0" + line)
        self.transport.write(b"".join(frames))

    def close(self) -> None:
        self.transport.write(b"\x88\x80\0\0\0\0")  # a close frame, then the socket
        self.transport.close()


async def seat_table(port: int, name: str, stats: Stats, rng: random.Random,
                     push: bool = False, think: float = 0.0, kind: str = "line",
                     tls: ssl.SSLContext | None = None) -> list[TableClient]:
    """Four clients at a new ``round 1`` table, started."""
    clients = [TableClient(f"{name}s{seat}", stats, rng, push, think) for seat in range(1, 5)]
    for client in clients:
        await client.connect(port, kind, tls)
    first = clients[0]
    first.send("/join")
    table = (await first.expect("JOINED"))["table"]
    first.send("/round 1")
    await first.expect("OPTION")
    for client in clients[1:]:
        client.send(f"/join {table}")
        await client.expect("JOINED")
    first.send("/start")
    return clients


async def play_tables(port: int, tables: int = 10, seconds: float = 20.0, seed: int = 1,
                      warmup: float = 2.0, cpu: Callable[[], float] | None = None,
                      push: bool = False, think: float = 0.0, kind: str = "line",
                      tls: ssl.SSLContext | None = None) -> Stats:
    """``tables`` tables of four random players for ``seconds`` (after ``warmup``).

    ``cpu`` gives the server's CPU seconds so far; with it the stats hold the
    server's CPU time over the measured seconds. ``push``: the clients ask for
    pushed LEGAL lists (`Stats.pushed` says whether the server gave them); ``think``: seconds
    each client waits before each move it starts.
    """
    stats = Stats()
    rng = random.Random(seed)
    run = f"R{rng.randrange(10**6)}"  # names of their own: an earlier run may still be leaving
    everyone = [await asyncio.wait_for(seat_table(port, f"{run}t{n}", stats, rng, push, think, kind, tls),
                                       SETUP_TIMEOUT)
                for n in range(tables)]
    stats.pushed = all(client.push for table in everyone for client in table)
    stop = asyncio.Event()
    tasks = [asyncio.create_task(client.play(stop, starter=i == 0))
             for table in everyone for i, client in enumerate(table)]
    await asyncio.sleep(warmup)
    stats.actions, stats.games, stats.latencies[:], stats.moves[:] = 0, 0, [], []
    cpu_before = cpu() if cpu else 0.0
    own_before = time.process_time()
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    stats.seconds = time.perf_counter() - started
    own = time.process_time() - own_before
    stop.set()
    measured = Stats(stats.actions, stats.errors, stats.internal, stats.games,
                     list(stats.latencies), stats.seconds, (cpu() - cpu_before) if cpu else 0.0,
                     stats.pushed, own, list(stats.moves))
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for table in everyone:
        for client in table:
            client.writer.close()
    return measured


class Worktree:
    """A temporary detached git worktree of ``rev``, removed on exit. Its optional compiled
    engine part, if it has one, is built in place as an install builds it: each revision
    is measured as it runs when installed."""

    def __init__(self, rev: str) -> None:
        self.rev = rev
        self.path = Path(tempfile.mkdtemp(prefix="bswtichu-compare-")) / "tree"

    def __enter__(self) -> Path:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(self.path), self.rev],
                       check=True, capture_output=True)
        build_extension(self.path)
        return self.path

    def __exit__(self, *exc) -> None:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(self.path)],
                       check=False, capture_output=True)
        shutil.rmtree(self.path.parent, ignore_errors=True)


def build_extension(tree: Path) -> None:
    """Compile ``tree``'s ``_combos_accel.c`` beside it (with -O2, as pyproject.toml asks);
    without a compiler that revision runs its pure engine, and this says so."""
    source = tree / "bswtichu" / "engine" / "_combos_accel.c"
    if not source.exists():
        return
    target = source.with_name("_combos_accel" + sysconfig.get_config_var("EXT_SUFFIX"))
    command = ["gcc", "-O2", "-shared", "-fPIC", "-I" + sysconfig.get_paths()["include"], str(source), "-o",
               str(target)]
    try:
        subprocess.run(command, check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"cannot build the compiled engine part of {tree} ({error}); it runs the pure engine",
              file=sys.stderr)
