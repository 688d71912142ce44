"""A game connection of the bridge over real loopback TCP: it logs nothing of its own."""

from __future__ import annotations

import pytest_twisted
from twisted.internet import reactor
from twisted.internet.protocol import Factory, Protocol
from twisted.logger import globalLogPublisher

from bswtichu.irc.gameside import GameLink, NickLogin, open_link


class Owner:
    def link_ready(self, link): pass

    def link_message(self, link, keyword, fields): pass

    def link_refused(self, link, reason): pass

    def link_lost(self, link): pass


@pytest_twisted.ensureDeferred
async def test_connecting_a_user_logs_no_factory_noise():
    port = reactor.listenTCP(0, Factory.forProtocol(Protocol), interface="127.0.0.1")
    events: list[dict] = []
    globalLogPublisher.addObserver(events.append)
    try:
        link = GameLink(Owner(), NickLogin(["Ann"]))
        d = open_link(reactor, ("127.0.0.1", port.getHost().port), link)
        d.addTimeout(10, reactor)
        await d
        link.hang_up()
    finally:
        globalLogPublisher.removeObserver(events.append)
        await port.stopListening()
    said = [e.get("log_format", "") or "" for e in events]
    assert not [s for s in said if "factory" in s.lower()], said
