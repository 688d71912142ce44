"""The IRC side of the bridge: a twisted.words IRCClient in one channel.

In the channel, lines starting with ``!`` are commands; in a private message
every line is one (with or without ``/`` or ``!``). Replies and private game
messages go to the user as NOTICEs (which clients never answer automatically),
table events to the channel as PRIVMSGs. Every outgoing line passes the `Outbox`
(flood limit) and fits in 512 bytes with our prefix.
"""

from __future__ import annotations

from functools import partial

from twisted.internet import task
from twisted.internet.defer import Deferred, succeed
from twisted.internet.interfaces import IAddress
from twisted.internet.protocol import ReconnectingClientFactory, connectionDone
from twisted.logger import Logger
from twisted.python.failure import Failure
from twisted.words.protocols import irc

from bswtichu import __version__
from bswtichu.irc.config import IrcConfig
from bswtichu.irc.gameside import client_tls, open_link
from bswtichu.irc.outbox import Outbox
from bswtichu.irc.routing import Bridge, irc_key
from bswtichu.irc.text import split_text, text_budget

MAX_MESSAGE_LINES = 40  # more (a /log) is cut: IRC is no place for a whole game log
MAX_QUEUED_PER_USER = 60  # pieces waiting for one user; more are dropped (see Outbox.message)
CTCP_QUEUE_LIMIT = 10  # CTCP queries go unanswered while this many lines wait
COMMAND_PREFIX = "!"


def as_command(text: str, private: bool) -> str | None:
    """The server command a line from IRC means, or None when it is not meant for us."""
    text = text.strip()
    if text.startswith(COMMAND_PREFIX):
        return "/" + text[len(COMMAND_PREFIX):]
    if not private or not text:
        return None
    return text if text.startswith("/") else "/" + text


class BridgeClient(irc.IRCClient):
    """One connection to the IRC server; the `Bridge` outlives it across reconnects."""

    log = Logger()
    versionName = "bswtichu-irc"  # type: ignore[assignment]  # IRCClient declares it None; a str is what it takes
    versionNum = __version__  # type: ignore[assignment]  # IRCClient declares it None; a str is what it takes
    lineRate = None  # the Outbox paces us

    def __init__(self, bridge: Bridge, config: IrcConfig, clock):
        self.bridge = bridge
        self.config = config
        self.clock = clock
        self.nickname = config.nick
        self.realname = "bswtichu IRC bridge"  # type: ignore[assignment]  # IRCClient declares it None; a str is what it takes
        self.password = config.password or None  # type: ignore[assignment]  # IRCClient declares it None; a str is what it takes
        self.outbox = Outbox(clock, self._reallySendLine, config.burst, config.line_interval)
        self.factory: BridgeFactory | None = None
        self.gone: Deferred = Deferred()  # fires when the connection has closed

    # ---------------------------------------------------------------- wire

    def lineReceived(self, line: bytes) -> None:
        # IRCClient decodes strictly; a client in Latin-1 must not break the bridge
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            text = line.decode("latin-1")
        super().lineReceived(text)

    def sendLine(self, line: str) -> None:
        self.outbox.protocol_line(line)

    def _createHeartbeat(self) -> task.LoopingCall:
        heartbeat = super()._createHeartbeat()
        heartbeat.clock = self.clock
        return heartbeat

    def to_channel(self, text: str) -> None:
        self._send("PRIVMSG", self.config.channel, text, None)

    def to_user(self, nick: str, text: str) -> None:
        self._send("NOTICE", nick, text, MAX_QUEUED_PER_USER)

    def _send(self, command: str, target: str, text: str, limit: int | None) -> None:
        lines = text.splitlines() or [""]
        if len(lines) > MAX_MESSAGE_LINES:
            more = len(lines) - MAX_MESSAGE_LINES
            lines = lines[:MAX_MESSAGE_LINES] + [f"... and {more} more lines (the telnet port shows all)"]
        budget = text_budget(self.nickname, command, target)
        for line in lines:
            for piece in split_text(line, budget):
                self.outbox.message(command, target, piece, budget, limit)

    # ---------------------------------------------------------------- events

    def signedOn(self) -> None:
        self.log.info("signed on to IRC as {nick}; joining {channel}",
                      nick=self.nickname, channel=self.config.channel)
        if self.factory is not None:
            self.factory.resetDelay()
        self.join(self.config.channel)
        self.bridge.attach(self)

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        self.outbox.stop()
        if self.bridge.irc is self:
            self.bridge.detach()
        super().connectionLost(reason)
        self.gone.callback(None)

    def privmsg(self, user: str, channel: str, message: str) -> None:
        nick = user.split("!", 1)[0]
        private = irc_key(channel) == irc_key(self.nickname)
        if not private and irc_key(channel) != irc_key(self.config.channel):
            return
        line = as_command(message, private)
        if line is not None and line != "/":
            self.bridge.command(nick, line, private)
        elif line == "/":
            self.to_user(nick, "Commands start with ! in the channel (!join, !play 7j 7s);"
                               " in a private message any line is one. !help lists them.")

    def ctcpQuery(self, user: str, channel: str, messages) -> None:
        """Answer CTCP (VERSION, PING, ...) only while little waits: a CTCP flood must not
        fill the queue ahead of the game."""
        if len(self.outbox) < CTCP_QUEUE_LIMIT:
            super().ctcpQuery(user, channel, messages)

    def userRenamed(self, oldname: str, newname: str) -> None:
        self.bridge.renamed(oldname, newname)

    def userQuit(self, user: str, quitMessage: str) -> None:
        self.bridge.quit(user.split("!", 1)[0])

    def irc_ERR_NOSUCHNICK(self, prefix: str, params: list[str]) -> None:
        # we wrote to someone who is gone (his QUIT may have passed us by): he quit
        if len(params) > 1:
            self.bridge.quit(params[1])

    def kickedFrom(self, channel: str, kicker: str, message: str) -> None:
        self.log.warn("kicked from {channel} by {kicker}: {message}",
                      channel=channel, kicker=kicker, message=message)

    def alterCollidedNick(self, nickname: str) -> str:
        """tichubot, then tichubot1, tichubot2, ... within the server's nick length."""
        base = self.config.nick
        tail = nickname[len(base):] if nickname.startswith(base) else ""
        number = int(tail) + 1 if tail.isascii() and tail.isdigit() else 1
        limit = self.supported.getFeature("NICKLEN") or 9
        return base[: max(1, limit - len(str(number)))] + str(number)


class BridgeFactory(ReconnectingClientFactory):
    """Builds BridgeClients and reconnects with growing back-off when the IRC server goes."""

    log = Logger()

    def __init__(self, bridge: Bridge, config: IrcConfig, clock):
        self.bridge = bridge
        self.config = config
        self.clock = clock  # ReconnectingClientFactory waits on this
        self.maxDelay = config.reconnect_max  # type: ignore[assignment]  # seconds: Twisted's delays are floats
        self.client: BridgeClient | None = None

    def buildProtocol(self, addr: IAddress | None) -> BridgeClient:  # type: ignore[override]  # its factory typed as ours, not any Factory
        client = BridgeClient(self.bridge, self.config, self.clock)
        client.factory = self
        self.client = client
        return client

    def clientConnectionLost(self, connector, reason) -> None:
        if self.continueTrying:
            self.log.warn("lost the IRC server ({reason}); reconnecting", reason=reason.getErrorMessage())
        super().clientConnectionLost(connector, reason)

    def clientConnectionFailed(self, connector, reason) -> None:
        self.log.warn("cannot reach the IRC server ({reason}); retrying", reason=reason.getErrorMessage())
        super().clientConnectionFailed(connector, reason)


def start_bridge(reactor, config: IrcConfig, clock=None) -> BridgeFactory:
    """Connect to the IRC server (and, per user, to the game server); returns the factory."""
    game_tls = client_tls(config.game_address[0], config.game_ca) if config.game_tls else None
    bridge = Bridge(reactor, config, partial(open_link, tls=game_tls))
    factory = BridgeFactory(bridge, config, clock or reactor)
    host, port = config.server_address
    if config.server_tls:
        reactor.connectSSL(host, port, factory, client_tls(host, config.server_ca))
    else:
        reactor.connectTCP(host, port, factory)
    return factory


def stop_bridge(factory: BridgeFactory) -> Deferred:
    """Stop reconnecting, leave IRC and the game server; fires once the IRC line is closed."""
    factory.stopTrying()
    client = factory.client
    factory.bridge.detach()
    if client is None or client.gone.called or client.transport is None:
        return succeed(None)
    client.quit("bswtichu bridge stopping")
    client.transport.loseConnection()
    return client.gone
