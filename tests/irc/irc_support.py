"""Helpers for the IRC bridge tests: IRC servers (twisted.words in process, ngircd),
the real game service on loopback, IRC users that wait for what they are told.

(Not named conftest: tests/server has one, and a plain import would find either.)"""

from __future__ import annotations

import os
import re
import shutil
import socket
from collections.abc import Callable

import pytest
from twisted.cred.checkers import ICredentialsChecker
from twisted.cred.credentials import IUsernamePassword
from twisted.cred.portal import Portal
from twisted.internet import defer
from twisted.internet.defer import Deferred
from twisted.internet.endpoints import TCP4ClientEndpoint, TCP4ServerEndpoint, connectProtocol
from twisted.internet.protocol import ProcessProtocol
from twisted.protocols.basic import LineReceiver
from twisted.words.protocols import irc
from twisted.words.service import InMemoryWordsRealm, IRCFactory, IRCUser
from zope.interface import implementer

from bswtichu.config import Listener, ServerConfig
from bswtichu.irc.bridge import start_bridge, stop_bridge
from bswtichu.irc.config import IrcConfig
from bswtichu.service import makeService

TIMEOUT = 10
LOOPBACK = "tcp:0:interface=127.0.0.1"
PASSWORD = "secret"  # the server password (PASS) both test IRC servers ask for
CARD_TOKEN = re.compile(r"(?<![\w-])(?:[2-9TJQKA][jspr]|MJ|DG|PH|DR)(?![\w-])")  # not inside a resume token
PLAYED = re.compile(r" played(?: out of turn)?: (?:single (\S+)|.*?\[([^\]]*)\])")  # a single: its card


def reactor():
    from twisted.internet import reactor as installed

    return installed


def card_tokens(text: str) -> set[str]:
    return set(CARD_TOKEN.findall(text))


def timed(deferred: Deferred, seconds: float = TIMEOUT) -> Deferred:
    return deferred.addTimeout(seconds, reactor())


# ---------------------------------------------------------------- game server


class GameServer:
    """The real bswtichu service on loopback ports, with bots that act at once."""

    def __init__(self, tmp_path, *more: Listener, line: str = LOOPBACK, **settings: object) -> None:
        """``more``: listeners besides a telnet and a line port (``ports["line-2"]``: a second line port);
        ``line``: the line port's endpoint (a fixed port, for a server that restarts);
        ``settings``: more of the server's settings."""
        self.config = ServerConfig(
            listeners=(Listener("telnet", LOOPBACK), Listener("line", line), *more),
            log_folder=str(tmp_path / "logs"),
            database=str(tmp_path / "bswtichu.sqlite3"),
            line_flood_rate=100000.0, line_flood_burst=100000, bot_delay=0.0, **settings)
        self.service = makeService(self.config, reactor())

    async def start(self) -> GameServer:
        self.service.startService()
        self.ports = await timed(self.service.whenListening())
        return self

    @property
    def line_address(self) -> str:
        return f"127.0.0.1:{self.ports['line'].getHost().port}"

    async def stop(self) -> None:
        await timed(self.service.stopService())


class GameClient(LineReceiver):
    """Someone on the game server's line port directly (not through IRC)."""

    delimiter = b"\r\n"

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.named: Deferred = Deferred()
        self.lost: Deferred = Deferred()
        self._waiting: list[tuple[str, Deferred]] = []

    def lineReceived(self, line: bytes) -> None:
        text = line.decode("utf-8")
        self.lines.append(text)
        if text.startswith("You are now") and not self.named.called:
            self.named.callback(self)
        for waiting in [w for w in self._waiting if text.startswith(w[0])]:
            self._waiting.remove(waiting)
            waiting[1].callback(text)

    def until(self, start: str) -> Deferred:
        """Fires with the next line that starts so."""
        waiting = (start, Deferred())
        self._waiting.append(waiting)
        return timed(waiting[1])

    def connectionLost(self, reason=None) -> None:
        self.lost.callback(None)

    @classmethod
    async def connect(cls, game: GameServer, nick: str) -> GameClient:
        port = game.ports["line"].getHost().port
        client = await timed(connectProtocol(TCP4ClientEndpoint(reactor(), "127.0.0.1", port), cls()))
        client.sendLine(f"/nick {nick}".encode())
        return await timed(client.named)

    async def close(self) -> None:
        self.transport.loseConnection()
        await timed(self.lost)


# ---------------------------------------------------------------- IRC servers


@implementer(ICredentialsChecker)
class AnyPassword:
    """Lets every nick log in to the in-process IRC server."""

    credentialInterfaces = (IUsernamePassword,)

    def requestAvatarId(self, credentials):
        return defer.succeed(credentials.username)


class NoticingIRCUser(IRCUser):
    """twisted.words' IRC user, which does not relay NOTICE: here it relays it as PRIVMSG."""

    def irc_NOTICE(self, prefix, params):
        self.irc_PRIVMSG(prefix, params)


class WordsServer:
    """twisted.words' own IRC server on a loopback port."""

    async def start(self) -> WordsServer:
        realm = InMemoryWordsRealm("words.test")
        realm.createGroupOnRequest = True
        factory = IRCFactory(realm, Portal(realm, [AnyPassword()]))
        factory.protocol = NoticingIRCUser
        self.port = await timed(TCP4ServerEndpoint(reactor(), 0, interface="127.0.0.1").listen(factory))
        self.address = f"127.0.0.1:{self.port.getHost().port}"
        return self

    async def stop(self) -> None:
        await timed(defer.maybeDeferred(self.port.stopListening))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class NgircdProcess(ProcessProtocol):
    """ngircd in the foreground (-n), its output watched for "Now listening"."""

    def __init__(self) -> None:
        self.output = b""
        self.listening: Deferred = Deferred()
        self.ended: Deferred = Deferred()

    def outReceived(self, data: bytes) -> None:
        self.output += data
        if b"Now listening on" in self.output and not self.listening.called:
            self.listening.callback(None)

    errReceived = outReceived

    def processEnded(self, reason) -> None:
        if not self.listening.called:
            self.listening.errback(RuntimeError(f"ngircd ended: {self.output.decode(errors='replace')}"))
        self.ended.callback(None)


NGIRCD_CONF = """\
[Global]
Name = irc.test
Info = bswtichu test server
Listen = 127.0.0.1
Ports = {port}
MotdPhrase = bswtichu tests
Password = {password}
[Limits]
MaxConnectionsIP = 0
MaxPenaltyTime = 0
MaxNickLength = 30
PingTimeout = 120
[Options]
DNS = no
Ident = no
PAM = no
"""


class Ngircd:
    """A real IRC server, ngircd, started with a generated config in a tmp dir."""

    def __init__(self, tmp_path) -> None:
        """Skips the test at once when ngircd is not installed."""
        self.binary = shutil.which("ngircd") or next(
            (p for p in ("/usr/sbin/ngircd", "/usr/local/sbin/ngircd") if os.path.exists(p)), None)
        if self.binary is None:
            pytest.skip("ngircd is not installed (Debian package ngircd: apt-get install -y ngircd)")
        self.folder = tmp_path / "ngircd"

    async def start(self, port: int | None = None) -> Ngircd:
        """Start it (again, on ``port``, to play a server coming back)."""
        self.folder.mkdir(exist_ok=True)
        self.folder.chmod(0o755)
        port = port or free_port()
        self.port = port
        conf = self.folder / "ngircd.conf"
        conf.write_text(NGIRCD_CONF.format(port=port, password=PASSWORD))
        conf.chmod(0o644)
        self.process = NgircdProcess()
        reactor().spawnProcess(self.process, self.binary, [self.binary, "-n", "-f", str(conf)],
                               env={}, path=str(self.folder))
        await timed(self.process.listening)
        self.address = f"127.0.0.1:{port}"
        return self

    async def stop(self) -> None:
        if self.process.ended.called:
            return
        self.process.transport.signalProcess("TERM")
        await timed(self.process.ended)


# ---------------------------------------------------------------- IRC users


class IrcUser(irc.IRCClient):
    """A person on IRC: keeps what he was told and lets a test wait for a line."""

    def __init__(self, nick: str) -> None:
        self.nickname = nick
        self.password = PASSWORD
        self.heard: list[tuple[str, str, str, str]] = []  # (kind, sender, target, text)
        self.signed_on: Deferred = Deferred()
        self.joined_channel: Deferred = Deferred()
        self.lost: Deferred = Deferred()
        self._waiters: list[tuple[Callable, Deferred]] = []
        self._read = 0  # self.heard[:_read] has been handed to waiters

    def signedOn(self) -> None:
        self.signed_on.callback(self)

    def joined(self, channel: str) -> None:
        if not self.joined_channel.called:
            self.joined_channel.callback(channel)

    def privmsg(self, user, channel, message) -> None:
        self._hear("PRIVMSG", user, channel, message)

    def noticed(self, user, channel, message) -> None:
        self._hear("NOTICE", user, channel, message)

    def userJoined(self, user, channel) -> None:
        self._hear("JOIN", user, channel, "")

    def userRenamed(self, oldname, newname) -> None:
        self._hear("NICK", oldname, "", newname)

    def userQuit(self, user, quitMessage) -> None:
        self._hear("QUIT", user, "", quitMessage)

    def connectionLost(self, reason) -> None:
        super().connectionLost(reason)
        if not self.lost.called:
            self.lost.callback(None)

    def told(self, sender: str) -> list[str]:
        """The texts of every message from ``sender``, in order."""
        return [h[3] for h in self.heard if h[1] == sender and h[0] in ("PRIVMSG", "NOTICE")]

    def _hear(self, kind, user, target, text) -> None:
        self.heard.append((kind, user.split("!", 1)[0], target, text))
        self._check()

    def from_(self, nick: str) -> list[tuple[str, str, str, str]]:
        return [h for h in self.heard if h[1] == nick]

    def wait(self, predicate: Callable[[tuple], bool], seconds: float = TIMEOUT) -> Deferred:
        """Fires with the first message not yet waited past for which ``predicate`` holds;
        later waits start after it."""
        waiter: Deferred = Deferred()
        self._waiters.append((predicate, waiter))
        self._check()
        return timed(waiter, seconds)

    def _check(self) -> None:
        for predicate, waiter in list(self._waiters):
            for index in range(self._read, len(self.heard)):
                if predicate(self.heard[index]):
                    self._waiters.remove((predicate, waiter))
                    self._read = index + 1
                    waiter.callback(self.heard[index])
                    break


async def irc_user(address: str, nick: str, channel: str | None = None) -> IrcUser:
    host, port = address.rsplit(":", 1)
    user = await timed(connectProtocol(TCP4ClientEndpoint(reactor(), host, int(port)), IrcUser(nick)))
    await timed(user.signed_on)
    if channel:
        user.join(channel)
        await timed(user.joined_channel)
    return user


async def leave(user: IrcUser) -> None:
    if not user.lost.called:
        user.quit("bye")
        user.transport.loseConnection()
        await timed(user.lost)


# ---------------------------------------------------------------- the bridge


class RunningBridge:
    """The bridge between an IRC server and the game server, as `bswtichu irc` runs it."""

    def __init__(self, irc_address: str, game_address: str, **settings) -> None:
        self.config = IrcConfig(server=irc_address, game=game_address, channel="#tichu",
                                nick="tichubot", password=PASSWORD, burst=1000,
                                line_interval=0.0, **settings)

    async def start(self, watcher: IrcUser | None = None) -> RunningBridge:
        self.factory = start_bridge(reactor(), self.config)
        self.bridge = self.factory.bridge
        if watcher is not None:  # someone in the channel sees the bridge arrive
            await watcher.wait(lambda h: h[0] == "JOIN" and h[1].startswith("tichubot"))
        return self

    async def stop(self) -> None:
        await timed(stop_bridge(self.factory))
