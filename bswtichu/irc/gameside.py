"""Connections from the bridge to the game server's bot line port, in relay mode.

Each connection (`GameLink`) asks for ``/mode relay``, so every message arrives as
one line ``KEYWORD {json}`` whose ``human`` field is the sentence a person would
read; then it logs in (`NickLogin`) and hands each message to its owner.
"""

from __future__ import annotations

import json
from collections.abc import MutableMapping, Sequence
from pathlib import Path
from typing import Protocol as TypingProtocol

from twisted.internet import ssl
from twisted.internet.defer import Deferred
from twisted.internet.endpoints import HostnameEndpoint, wrapClientTLS
from twisted.internet.interfaces import IStreamClientEndpoint
from twisted.internet.protocol import Factory
from twisted.logger import Logger
from twisted.protocols.basic import LineReceiver
from twisted.python.failure import Failure

NAME_REFUSALS = ("nick_taken", "nick_invalid", "name_registered", "name_held", "nick_reserved")
#: a refusal of the user himself: no other candidate is tried (a ban of "Zed" is not dodged as "Zed2")
FINAL_REFUSALS = ("banned",)


class LinkOwner(TypingProtocol):
    """Who hears what a GameLink receives."""

    def link_ready(self, link: GameLink) -> None: ...

    def link_message(self, link: GameLink, keyword: str, fields: dict) -> None: ...

    def link_refused(self, link: GameLink, reason: str) -> None: ...

    def link_lost(self, link: GameLink) -> None: ...


class NickLogin:
    """Takes the first free name of ``candidates`` with ``/nick``, as a guest.

    The server gives a guest a resume token with his name; the bridge keeps it in
    ``tokens`` (shared by all its links, by name casefolded) and, when a name's seat
    is held (``name_held``: the same IRC user dropped and came back), takes the
    name back with ``/resume TOKEN``.  Registered names are not the bridge's to use:
    it notes them in ``registered`` and goes on; their owners log in themselves.
    ``first``: lines said once before the first ``/nick`` (a watcher's ``/observer``).
    """

    def __init__(self, candidates: Sequence[str], tokens: MutableMapping[str, str] | None = None,
                 first: Sequence[str] = ()):
        self._candidates = list(candidates)
        self.tokens = {} if tokens is None else tokens
        self.name: str | None = None
        self.registered: list[str] = []  # candidates refused as someone's registered name
        self._resuming = False
        self.resumed = False  # the name came back with /resume (and with it any seat held for it)
        self._first = list(first)

    def start(self, link: GameLink) -> None:
        while self._first:
            link.send(self._first.pop(0))
        link.send(f"/nick {self._candidates[0]}")

    def remember(self, fields: dict) -> None:
        """A RESUME_TOKEN for a name this bridge took."""
        self.tokens[fields["nick"].casefold()] = fields["token"]

    def handle(self, link: GameLink, keyword: str, fields: dict) -> bool | None:
        """True once logged in, False when no candidate is left (or the user is banned), None
        while trying."""
        if keyword == "NICK":
            self.name = fields["nick"]
            self.resumed = self._resuming
            return True
        if keyword == "ERROR" and fields.get("code") in FINAL_REFUSALS:
            return False
        if keyword != "ERROR" or fields.get("code") not in NAME_REFUSALS + ("bad_token",):
            return None
        token = self.tokens.get(self._candidates[0].casefold())
        if fields["code"] == "name_held" and token is not None and not self._resuming:
            self._resuming = True
            link.send(f"/resume {token}")
            return None
        self._resuming = False
        refused = self._candidates.pop(0)
        if fields["code"] == "name_registered":
            self.registered.append(refused)
        if not self._candidates:
            return False
        self.start(link)
        return None


class GameLink(LineReceiver):
    """One bridge-side client of the line port; ``name`` is its server name once ready."""

    delimiter = b"\r\n"
    MAX_LENGTH = 4 * 1024 * 1024  # a /log reply is one long line
    log = Logger()

    def __init__(self, owner: LinkOwner, login: NickLogin, language: str = "en"):
        """``language``: the server's sentences' (the channel's setting, `IrcConfig.language`)."""
        self.owner = owner
        self.login = login
        self.language = language
        self.name: str | None = None
        self.ready = False
        self.closing = False  # we hung up on purpose
        self._relaying = False

    def connectionMade(self) -> None:
        if self.closing:  # hung up while still connecting
            self.transport.loseConnection()  # type: ignore[union-attr]  # a made connection has its transport
            return
        if self.language != "en":  # asked in human mode: its answer is read as the greeting is
            self.send(f"/lang {self.language}")
        self.send("/mode relay")

    def send(self, line: str) -> None:
        if self.transport is not None and not self.closing:
            clean = line.replace("\r", " ").replace("\n", " ")
            self.transport.write(clean.encode("utf-8") + b"\r\n")

    def hang_up(self) -> None:
        """Say /quit and close; the server holds a seat as for anyone who leaves."""
        if self.transport is not None and not self.closing:
            self.send("/quit")
            self.closing = True
            self.transport.loseConnection()
        self.closing = True

    def lineReceived(self, data: bytes) -> None:
        line = data.decode("utf-8", "replace")
        if not self._relaying:
            if not line.startswith("MODE "):
                return  # the greeting, in human mode
            self._relaying = True
            self.login.start(self)
            return
        keyword, _, payload = line.partition(" ")
        try:
            fields = json.loads(payload)
        except ValueError:
            self.log.warn("game server sent a line that is not KEYWORD {{json}}: {line!r}", line=line)
            return
        if keyword == "RESUME_TOKEN":
            self.login.remember(fields)  # the bridge keeps it; its user never needs to type it
            return
        if self.ready and keyword == "NICK":
            self.name = fields["nick"]  # the user changed names (logged in to a registered one, say)
        if not self.ready:
            outcome = self.login.handle(self, keyword, fields)
            if outcome is True:
                self.name, self.ready = self.login.name, True
                self.owner.link_ready(self)
            elif outcome is False:
                self.owner.link_refused(self, fields.get("message", keyword))
                self.hang_up()
            return
        self.owner.link_message(self, keyword, fields)

    def connectionLost(self, reason: Failure | None = None) -> None:
        self.owner.link_lost(self)


def open_link(reactor, address: tuple[str, int], link: GameLink, tls=None) -> Deferred:
    """Connect ``link`` to the game server's line port (over TLS with the client options
    ``tls``, see `client_tls`); fires with it once connected."""
    host, port = address
    factory = Factory.forProtocol(lambda: link)
    factory.noisy = False  # one "Starting factory" log line per IRC user says nothing
    endpoint: IStreamClientEndpoint = HostnameEndpoint(reactor, host, port, timeout=10)
    if tls is not None:
        endpoint = wrapClientTLS(tls, endpoint)
    return endpoint.connect(factory)


def client_tls(host: str, trusted: str = ""):
    """TLS client options that check ``host``'s certificate against the PEM file ``trusted``
    (a self-signed server's own certificate, say), or without one the system's trusted roots."""
    root = ssl.Certificate.loadPEM(Path(trusted).read_bytes()) if trusted else None
    return ssl.optionsForClientTLS(host, trustRoot=root)
