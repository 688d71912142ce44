"""Debian's telnet (package telnet) against the real server: the offers are answered by
telnet itself and the person sees clean text, wrapped at the window's width.

telnet runs in a pseudo-terminal (as a person starts it); the test types into it
and reads the screen's bytes.
"""

from __future__ import annotations

import os
import re
import shutil
from contextlib import asynccontextmanager

import pytest
import pytest_twisted
from twisted.internet.defer import Deferred
from twisted.internet.protocol import ProcessProtocol

from test_net_network import RunningServer, reactor

TELNET = shutil.which("telnet")
#: telnet is a process of its own and a password check runs scrypt: on a loaded 2-core
#: machine a step has taken over 5 s, so the guard against a hang is longer here
SCREEN_TIMEOUT = 30


class Terminal(ProcessProtocol):
    """What telnet shows; ``until`` fires once the screen holds a pattern."""

    def __init__(self) -> None:
        self.screen = b""
        self.ended: Deferred = Deferred()
        self._waiting: list[tuple[re.Pattern, Deferred]] = []

    def outReceived(self, data: bytes) -> None:
        self.screen += data
        for pattern, waiter in list(self._waiting):
            if pattern.search(self.screen):
                self._waiting.remove((pattern, waiter))
                waiter.callback(None)

    def until(self, pattern: bytes) -> Deferred:
        waiter: Deferred = Deferred()
        self._waiting.append((re.compile(pattern), waiter))
        self.outReceived(b"")
        return waiter.addTimeout(SCREEN_TIMEOUT, reactor())

    def processEnded(self, reason: object) -> None:
        self.ended.callback(None)


@asynccontextmanager
async def telnet_session(server: RunningServer):
    """Debian telnet in a pseudo-terminal, connected to ``server``'s telnet port and past
    the greeting: yields (process, screen); leaving waits for telnet to end (the test
    says /quit), or kills it if the test failed."""
    port = server.ports["telnet"].getHost().port
    screen = Terminal()
    process = reactor().spawnProcess(screen, TELNET, [TELNET, "127.0.0.1", str(port)],
                                     env={**os.environ, "TERM": "xterm"}, usePTY=True)
    try:
        await screen.until(rb"Limits: [^\r\n]*\r\n")
        yield process, screen
        await screen.ended.addTimeout(SCREEN_TIMEOUT, reactor())
    except BaseException:
        process.signalProcess("KILL")
        print(screen.screen)  # shown with the failure
        raise


@pytest.mark.skipif(TELNET is None, reason="needs telnet (Debian package telnet)")
@pytest_twisted.ensureDeferred
async def test_debian_telnet_sees_plain_text(tmp_path):
    async with RunningServer(log_folder=str(tmp_path / "logs")) as server:
        async with telnet_session(server) as (process, screen):
            process.write(b"/nick Ann\r\n")
            await screen.until(rb"You are now Ann\.")
            ann = server.service.lobby.names.find("Ann")
            assert ann.default_width == 80 and not ann.default_colour  # agreed to NAWS and TTYPE
            process.write(b"/quit\r\n")
            await screen.until(rb"Goodbye\.")
    shown = screen.screen
    assert b"\xff" not in shown and b"\x1b[" not in shown  # no telnet bytes, no colour
    text = shown.decode("utf-8")
    assert "Welcome to bswtichu" in text and "Your turn" not in text
    assert re.search(r"\r\nYou are now Ann\.\r\n", text)


@pytest.mark.skipif(TELNET is None, reason="needs telnet (Debian package telnet)")
@pytest_twisted.ensureDeferred
async def test_debian_telnet_does_not_show_a_password_as_it_is_typed(tmp_path):
    password = b"pw-not-on-screen-42"
    async with RunningServer(log_folder=str(tmp_path / "logs")) as server:
        server.service.lobby.names.guard.accounts.register("Ann", password.decode())
        async with telnet_session(server) as (process, screen):
            process.write(b"/nick Ann\r")  # Enter, as a keyboard sends it
            await screen.until(rb"Password \(not shown; an empty line gives up\):\r\n")
            process.write(password + b"\r")
            await screen.until(rb"You are now Ann\.")
            process.write(b"/who\r")  # typing shows again: the terminal echoes this line
            await screen.until(rb"/who\r\n[^\r]*Online")
            process.write(b"/quit\r")
            await screen.until(rb"Goodbye\.")
    assert password not in screen.screen
    assert b"/nick Ann" in screen.screen  # what was typed before the password was shown
