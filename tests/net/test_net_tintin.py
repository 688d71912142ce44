"""A whole game played from TinTin++ (tt++, Debian package tintin++) over loopback telnet.

tt++ runs a script non-interactively (``-H``): it accepts GMCP, names itself
TINTIN++ in TTYPE (so the server colours the cards), seats three bots, answers
the grand and exchange prompts, and on every "your turn" prompt (ended by IAC
EOR, which tt++ agrees to) asks /legal and plays the first command of the
``Tichu.Legal`` GMCP package. The test reads tt++'s raw session log.
"""

from __future__ import annotations

import os
import re
import shutil

import pytest
import pytest_twisted
from twisted.internet.defer import Deferred, TimeoutError
from twisted.internet.protocol import ProcessProtocol

from test_net_network import RunningServer, reactor

TT = shutil.which("tt++", path=os.environ.get("PATH", "") + os.pathsep + "/usr/games")
GAME_TIMEOUT = 60

SCRIPT = r"""
#config {LOG MODE} {RAW}
#variable pass {}
#event {SESSION CONNECTED} {#log {overwrite} {%(log)s}}
#event {IAC WILL GMCP} {#send {\xFF\xFD\xC9\}}
#event {IAC SB GMCP} {#variable gmcp {%%1};#if {"%%0" == "Tichu.Dealt"} {#variable pass {$gmcp[cards][1] $gmcp[cards][2] $gmcp[cards][3]}};#elseif {"%%0" == "Tichu.Legal" && "$gmcp[commands][1]" != ""} {#send {$gmcp[commands][1]}};#elseif {"%%0" == "Tichu.GameOver"} {#send {/quit}}}
#event {SESSION DISCONNECTED} {#end}
#action {^Limits:} {#send {/nick Ann}}
#action {^You are now Ann.} {#send {/join};#send {/round 1};#send {/bot};#send {/bot};#send {/bot};#send {/start}}
#action {^grand> } {#send {/nogrand}}
#action {^schupf> } {#send {/schupf $pass}}
#action {^lead> } {#send {/legal}}
#action {^follow> } {#send {/legal}}
#action {^wish> } {#send {/legal}}
#action {^give> } {#send {/legal}}
#session tichu 127.0.0.1 %(port)d
"""


class Finished(ProcessProtocol):
    """Fires ``ended`` when the process is gone."""

    def __init__(self) -> None:
        self.ended: Deferred = Deferred()
        self.output = b""

    def connectionMade(self) -> None:
        self.transport.closeStdin()

    def outReceived(self, data: bytes) -> None:
        self.output += data

    errReceived = outReceived

    def processEnded(self, reason: object) -> None:
        self.ended.callback(None)


def unexplained_errors(lines: list[str]) -> list[str]:
    """The error lines a correct client should not have caused.

    Bots act between a person's lines, so a bot's move (a bomb out of turn, say) may
    land between tt++'s /legal and its play, which is then refused as it would be for
    a person. An error after a bot acted since the last "Legal now" is explained; any
    other error is not.
    """
    errors, bot_acted = [], False
    for line in lines:
        if line.startswith("Legal now:"):
            bot_acted = False
        elif line.startswith(("bot-", "BOMB! bot-")):
            bot_acted = True
        elif line.startswith("error:") and not line.startswith("error: too many lines"):
            if not bot_acted:
                errors.append(line)
    return errors


@pytest.mark.skipif(TT is None, reason="needs tt++ (Debian package tintin++)")
@pytest_twisted.ensureDeferred
async def test_a_game_from_tintin_with_colour_prompts_and_gmcp(tmp_path):
    async with RunningServer(bot_delay=0.0, log_folder=str(tmp_path / "logs")) as server:
        log = tmp_path / "session.log"
        script = tmp_path / "game.tin"
        script.write_text((SCRIPT % {"log": log, "port": server.ports["telnet"].getHost().port}).lstrip())
        tt = Finished()
        process = reactor().spawnProcess(tt, TT, [TT, "-H", "-G", str(script)], env={**os.environ, "TERM": "xterm"},
                                         path=str(tmp_path), childFDs={0: "w", 1: "r", 2: "r"})
        try:
            await tt.ended.addTimeout(GAME_TIMEOUT, reactor())
        except TimeoutError:
            process.signalProcess("KILL")
            print(tt.output.decode("utf-8", "replace")[-3000:])  # shown with the failure
            raise
    text = log.read_bytes().decode("utf-8")
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
    assert "Game over at table 1" in plain and "Goodbye." in plain
    assert re.search(r"Your first 8 cards: (\x1b\[[0-9;]+m\w\w\x1b\[0m ?){8}\n", text)  # coloured
    assert re.search(r"^(lead|follow)> ", plain, re.M) and "Legal now:" in plain
    assert unexplained_errors(plain.splitlines()) == []
    assert len(os.listdir(tmp_path / "logs")) == 1  # the game's .tch log
