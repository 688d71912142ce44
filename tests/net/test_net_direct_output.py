"""Output straight into the socket (`OutputQueue` with ``send_now``, the bot port): bytes
reach the client complete and in the order sent, whatever the kernel takes at a time."""

from __future__ import annotations

import socket

import pytest_twisted

from bswtichu.net.budget import OutputQueue

from test_net_network import RunningServer, sleeper_and_talker


class Wire:
    """The connection as the queue sees it: a kernel that takes at most ``room`` bytes at a
    time (a full socket buffer takes none) and a transport that holds what it is given
    until ``drain`` (the transport sending it, then asking its pull producer for more)."""

    def __init__(self, room: int) -> None:
        self.room = room
        self.sent = b""  # on the wire, in order
        self.held: list[bytes] = []  # in the transport

    def send(self, data: bytes) -> int:
        taken = min(self.room, len(data))
        self.room -= taken
        self.sent += data[:taken]
        return taken

    def write(self, data: bytes) -> None:
        self.held.append(data)

    def drain(self, queue: OutputQueue, room: int) -> None:
        self.sent += b"".join(self.held)
        self.held.clear()
        self.room = room
        queue.resumeProducing()


def direct_queue(wire: Wire, soft_limit: int = 1000, hard_limit: int = 10**6, overflow=lambda: None) -> OutputQueue:
    return OutputQueue(wire.write, soft_limit, hard_limit, lambda: b"SKIPPED\r\n", overflow, wire.send)


def test_what_the_kernel_takes_goes_straight_in_the_rest_through_the_transport_then_the_queue():
    wire = Wire(room=5)
    queue = direct_queue(wire)
    assert not queue.streaming
    queue.send(b"abc")
    assert wire.sent == b"abc" and wire.held == []
    queue.send(b"defgh")  # the kernel takes two bytes: the transport holds the rest
    assert wire.sent == b"abcde" and wire.held == [b"fgh"]
    queue.send(b"ijk")  # the transport still holds bytes: these wait, nothing overtakes them
    queue.send(b"lmn")
    assert wire.sent == b"abcde" and wire.held == [b"fgh"] and queue.queued == 6
    wire.drain(queue, room=4)
    assert wire.sent == b"abcdefghijkl" and wire.held == [b"mn"] and queue.queued == 0
    queue.send(b"opq")  # behind what the transport holds
    assert wire.held == [b"mn"] and queue.queued == 3
    wire.drain(queue, room=100)
    assert wire.sent == b"abcdefghijklmnopq" and wire.held == [] and queue.queued == 0
    queue.send(b"rs")  # all drained: straight in again
    assert wire.sent.endswith(b"qrs")


def test_a_send_that_fails_leaves_the_bytes_to_the_transport():
    wire = Wire(room=0)  # EAGAIN, or a broken connection the transport will meet itself
    queue = direct_queue(wire)
    queue.send(b"hello\r\n")
    assert wire.held == [b"hello\r\n"] and wire.sent == b""


def test_a_send_that_raises_leaves_the_bytes_to_the_transport():
    held = []

    def broken(data: bytes) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    queue = OutputQueue(held.append, 1000, 10**6, lambda: b"", lambda: None, broken)
    queue.send(b"bye\r\n")
    assert held == [b"bye\r\n"]  # the transport meets the error itself and closes


def test_limits_count_what_waits_behind_the_transport():
    given_up = []
    wire = Wire(room=0)
    queue = direct_queue(wire, soft_limit=10, hard_limit=20, overflow=lambda: given_up.append(True))
    queue.send(b"x" * 15)  # to the transport
    queue.send(b"y" * 8)
    queue.send(b"c" * 5, droppable=True)  # past the soft limit: skipped, with one notice
    assert queue.queued == 8 + len(b"SKIPPED\r\n") and not given_up
    queue.send(b"z" * 15)
    assert given_up == [True]


@pytest_twisted.ensureDeferred
async def test_a_bot_that_pauses_reading_gets_every_line_in_order_once_it_reads_again():
    """Enough table chat to fill the kernel's buffers while the bot reads nothing: once it
    reads again, every line is there, once, in order (the bot port writes to the socket)."""
    async with RunningServer(output_soft_limit=1 << 22, output_hard_limit=1 << 24, line_flood_rate=1e6,
                             line_flood_burst=1000000, line_byte_rate=1e9, line_byte_burst=10 ** 9) as server:
        sleepy, loud = await sleeper_and_talker(server)
        sleepy.transport.pauseProducing()
        # a small kernel buffer, so the kernel soon takes only part of a write, then nothing
        connection = server.service.lobby.names.find("Sleepy")._connection  # the server's end
        connection.transport.getHandle().setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        chunks = 60
        for chunk in range(chunks):  # 60 x 100 lines of 400 bytes: 2.4 MB
            loud.transport.write(b"".join(b"%d-%d %s\r\n" % (chunk, n, b"z" * 380) for n in range(100)))
            await loud.wait_for(lambda line, c=chunk: f'"text":"{c}-99 ' in line)
        assert connection._output.queued > 0  # the case at stake: lines waited behind the transport
        sleepy.transport.resumeProducing()
        await sleepy.wait_for(lambda line: f'"text":"{chunks - 1}-99 ' in line)
        said = [line.partition('"text":"')[2].split(" ")[0] for line in sleepy.raw.decode().split("\r\n")
                if line.startswith("CHAT ")]
        assert said == [f"{c}-{n}" for c in range(chunks) for n in range(100)]
        assert not server.service.lobby.names.find("Sleepy").closed


def test_each_backlog_gets_its_own_skip_notice():
    wire = Wire(room=0)
    queue = direct_queue(wire, soft_limit=10)
    queue.send(b"x" * 15)  # the transport holds it: what follows waits in the queue
    queue.send(b"y" * 8)
    queue.send(b"c" * 5, droppable=True)
    wire.drain(queue, room=0)  # the kernel takes none again: the queue goes to the transport
    wire.drain(queue, room=100)  # all sent: the backlog is over
    assert queue.queued == 0 and wire.sent.count(b"SKIPPED") == 1
    wire.room = 0  # the kernel's buffer fills again: a second backlog
    queue.send(b"x" * 15)
    queue.send(b"y" * 8)
    queue.send(b"c" * 5, droppable=True)
    wire.drain(queue, room=100)
    assert wire.sent.count(b"SKIPPED") == 2 and b"c" not in wire.sent
