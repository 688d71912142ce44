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


@pytest_twisted.ensureDeferred
async def test_the_bridge_reaches_the_game_server_over_tls_with_its_certificate(tmp_path):
    """The game server's own certificate (made as the server makes its self-signed pair) is the
    one the bridge trusts; a link over TLS logs in (it gets to the nick login)."""
    from twisted.internet.defer import Deferred

    from bswtichu.config import Listener, ServerConfig
    from bswtichu.irc.config import parse_irc_config
    from bswtichu.irc.gameside import client_tls
    from bswtichu.net.tls import make_self_signed
    from bswtichu.service import makeService

    certificate, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    make_self_signed(certificate, key)
    config = ServerConfig(listeners=(Listener("line", "ssl:0:interface=127.0.0.1"),), database=":memory:",
                          log_folder=str(tmp_path / "logs"), tls_certificate=str(certificate),
                          tls_key=str(key))
    service = makeService(config, reactor)
    service.startService()
    try:
        ports = await service.whenListening().addTimeout(10, reactor)
        address = ("127.0.0.1", ports["line"].getHost().port)
        bridge = parse_irc_config(f"[irc]\ngame = 127.0.0.1:{address[1]}\ngame_tls = yes\n"
                                  f"game_ca = {certificate}\n")
        assert bridge.game_tls and bridge.game_ca == str(certificate)
        named: Deferred = Deferred()

        class Login(NickLogin):
            def start(self, link):
                named.callback(link)

        link = GameLink(Owner(), Login(["Ann"]))
        await open_link(reactor, bridge.game_address, link, client_tls("127.0.0.1", bridge.game_ca)
                        ).addTimeout(10, reactor)
        assert (await named.addTimeout(10, reactor)) is link  # the relay mode's MODE came, decrypted
        link.hang_up()
    finally:
        await service.stopService().addTimeout(10, reactor)


def test_the_tls_switches_are_yes_or_no():
    import pytest

    from bswtichu.config import ConfigError
    from bswtichu.irc.config import parse_irc_config

    assert parse_irc_config("[irc]\nserver_tls = on\n").server_tls is True
    assert parse_irc_config("[irc]\n").game_tls is False
    with pytest.raises(ConfigError, match="yes or no"):
        parse_irc_config("[irc]\ngame_tls = maybe\n")
