"""Out of file descriptors: the real program logs it once, refuses meanwhile, and accepts again.

A ``bswtichu`` child process whose limit of open files is lowered (``prlimit``) to a few
above what it holds, then filled with line-port clients over loopback. Twisted's port
closes each client it cannot keep on a spare descriptor; the server says so once (not per
attempt) and once more when a connection is accepted again.
"""

from __future__ import annotations

import os
import resource
import signal
import socket
import time

import pytest
from twisted.internet.task import Clock
from twisted.logger import globalLogPublisher

from bswtichu.config import LiveConfig, ServerConfig
from bswtichu.net.accept import ACCEPT_RETRY, AcceptGuard
from test_cli_process import TIMEOUT, Server

#: descriptors left free for clients above what the idle server holds
SPARE_FOR_CLIENTS = 4


def connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)


def greeted(sock: socket.socket) -> bool:
    """Whether the server greets this connection (True) or closes it unread (False)."""
    received = b""
    try:
        while b"Limits:" not in received:
            data = sock.recv(65536)
            if not data:
                return False
            received += data
    except ConnectionResetError:
        return False
    return True


def hung_up(sock: socket.socket) -> None:
    """Say /quit and read until the server has closed (and so freed) its end."""
    sock.sendall(b"/quit\r\n")
    while sock.recv(65536):
        pass
    sock.close()


def log_line_with(server: Server, text: str) -> str:
    """The server's next log line holding ``text`` (reading its output as it comes)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        line = server._read_line(deadline)
        if text in line:
            return line


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd") or not hasattr(resource, "prlimit"),
                    reason="needs Linux's /proc and prlimit")
def test_out_of_descriptors_is_logged_once_and_accepting_resumes(tmp_path):
    server = Server(tmp_path, "--set", "limits.connections_per_address=1000", "--set", "bots.workers=0")
    clients: list[socket.socket] = []
    try:
        pid = server.process.pid
        hard = resource.prlimit(pid, resource.RLIMIT_NOFILE)[1]
        resource.prlimit(pid, resource.RLIMIT_NOFILE,
                         (len(os.listdir(f"/proc/{pid}/fd")) + SPARE_FOR_CLIENTS, hard))
        port = server.ports["line"]
        for _ in range(10 * SPARE_FOR_CLIENTS):
            sock = connect(port)
            if not greeted(sock):
                sock.close()
                break
            clients.append(sock)
        else:
            pytest.fail("the server never ran out of descriptors")
        assert clients, "not one client fitted"
        for _ in range(5):  # each attempt meanwhile: closed at once, and not logged again
            with connect(port) as sock:
                assert not greeted(sock)
        for sock in clients[:2]:
            hung_up(sock)
        with connect(port) as sock:
            assert greeted(sock)
            recovered = log_line_with(server, "accepting new connections again")
    finally:
        for sock in clients:
            sock.close()
        assert server.stop(signal.SIGTERM) == 0
    log = server.log_text()
    assert log.count("cannot accept new connections (EMFILE: out of file descriptors") == 1, log
    assert "(6 closed unaccepted meanwhile)" in recovered
    assert log.count("accepting new connections again") == 1
    assert "EMFILE encountered" not in log and "Closed socket" not in log  # Twisted's, per attempt
    assert "Traceback" not in log


class FakePort:
    """A listening port as the guard sees it: whether it reads, and whether it still listens."""

    connected = True
    reading = True

    def stopReading(self) -> None:
        self.reading = False

    def startReading(self) -> None:
        self.reading = True


def test_without_a_spare_descriptor_the_port_pauses_instead_of_spinning(tmp_path):
    """When Twisted's spare descriptor is gone, its port leaves the waiting clients queued and
    would try again in every turn of the reactor (logging each time): the guard pauses it."""
    clock = Clock()
    guard = AcceptGuard(LiveConfig(ServerConfig(log_folder=str(tmp_path))), clock)
    port = FakePort()
    seen: list[dict] = []
    globalLogPublisher.addObserver(seen.append)
    try:
        for _ in range(3):
            guard._accept_failed(port, {"acceptError": "EMFILE", "log_format": "Could not accept"})
            assert not port.reading
            clock.advance(ACCEPT_RETRY)
            assert port.reading
        guard.accepted()
    finally:
        globalLogPublisher.removeObserver(seen.append)
    assert [event["event"] for event in seen] == ["accept_failed", "accept_recovered"]
    assert port.reading and not clock.getDelayedCalls()
