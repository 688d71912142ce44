"""Every listener kind over ``ssl:`` (a certificate the test makes) and over ``unix:``."""

from __future__ import annotations

import datetime

import pytest_twisted
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from twisted.internet import ssl
from twisted.internet.endpoints import SSL4ClientEndpoint, UNIXClientEndpoint, connectProtocol

from bswtichu.config import Listener
from test_net_network import LOOPBACK, TIMEOUT, LineClient, RunningServer, reactor


def self_signed(folder) -> tuple[str, bytes]:
    """A key and a certificate for ``localhost`` in ``folder``: (the endpoint's TLS options, the
    certificate's PEM for the client to trust)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .sign(key, hashes.SHA256())
    )
    key_file, cert_file = folder / "key.pem", folder / "cert.pem"
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    cert_pem = certificate.public_bytes(serialization.Encoding.PEM)
    cert_file.write_bytes(cert_pem)
    return f"privateKey={key_file}:certKey={cert_file}", cert_pem


def tls_listeners(tmp_path) -> tuple[tuple[Listener, ...], bytes]:
    options, cert_pem = self_signed(tmp_path)
    tls = f"ssl:0:{options}:interface=127.0.0.1"
    return (Listener("telnet", tls), Listener("line", tls)), cert_pem


async def connect_tls(server: RunningServer, port_name: str, cert_pem: bytes) -> LineClient:
    port = server.ports[port_name].getHost().port
    trusted = ssl.optionsForClientTLS("localhost", trustRoot=ssl.Certificate.loadPEM(cert_pem))
    endpoint = SSL4ClientEndpoint(reactor(), "127.0.0.1", port, trusted)
    client = await connectProtocol(endpoint, LineClient()).addTimeout(TIMEOUT, reactor())
    server.clients.append(client)
    await client.wait_for(lambda line: line.startswith("Limits:"))
    return client


@pytest_twisted.ensureDeferred
async def test_a_person_logs_in_over_tls_on_the_telnet_kind(tmp_path):
    listeners, cert_pem = tls_listeners(tmp_path)
    async with RunningServer(listeners=listeners) as server:
        person = await connect_tls(server, "telnet", cert_pem)
        person.send("/nick Ann")
        await person.wait_for(lambda line: line.endswith("You are now Ann."))


@pytest_twisted.ensureDeferred
async def test_a_bot_logs_in_over_tls_on_the_line_kind(tmp_path):
    """The line port writes straight into a plain socket; under TLS it must not (it wrote
    plaintext under the TLS layer, and the client failed with WRONG_VERSION_NUMBER)."""
    listeners, cert_pem = tls_listeners(tmp_path)
    async with RunningServer(listeners=listeners) as server:
        robo = await connect_tls(server, "line", cert_pem)
        robo.send("/mode machine")
        robo.send("/nick Robo")
        assert (await robo.message("NICK", nick="Robo"))["nick"] == "Robo"
        robo.send("/who")
        await robo.message("WHO")
        assert server.service.describe().startswith(
            f"people: telnet 127.0.0.1:{server.ports['telnet'].getHost().port} (TLS);"
            f" bots: 127.0.0.1:{server.ports['line'].getHost().port} (TLS);")


@pytest_twisted.ensureDeferred
async def test_a_bot_logs_in_over_a_unix_socket_beside_two_tcp_line_ports(tmp_path):
    path = tmp_path / "bots.sock"
    listeners = (Listener("telnet", LOOPBACK), Listener("line", LOOPBACK),
                 Listener("line", f"unix:{path}"), Listener("line", LOOPBACK))
    async with RunningServer(listeners=listeners) as server:
        assert sorted(server.ports) == ["line", "line-2", "line-3", "telnet"]
        client = await connectProtocol(UNIXClientEndpoint(reactor(), str(path)), LineClient()
                                       ).addTimeout(TIMEOUT, reactor())
        server.clients.append(client)
        await client.wait_for(lambda line: line.startswith("Limits:"))
        client.send("/nick Robo")
        await client.wait_for(lambda line: line.endswith("You are now Robo."))
        port = {name: server.ports[name].getHost().port for name in ("telnet", "line", "line-3")}
        assert server.service.describe() == (
            f"people: telnet 127.0.0.1:{port['telnet']}; bots: 127.0.0.1:{port['line']},"
            f" unix {path}, 127.0.0.1:{port['line-3']}; logs in {server.config.log_folder}/")


# -- TLS by default: the self-signed pair, MSSP, the warning on plain ports, a whole game --

PLAIN_AND_TLS = (Listener("telnet", LOOPBACK), Listener("telnet", "ssl:0:interface=127.0.0.1"),
                 Listener("line", LOOPBACK), Listener("line", "ssl:0:interface=127.0.0.1"))


@pytest_twisted.ensureDeferred
async def test_without_a_certificate_the_server_makes_a_self_signed_pair_once(tmp_path, monkeypatch,
                                                                             logged_errors):
    """The pair goes to the data folder (here ``data`` under the test's folder: the database is
    in memory); the key is the owner's only; both TLS kinds then work with that certificate."""
    from twisted.logger import globalLogPublisher

    monkeypatch.chdir(tmp_path)
    said: list[str] = []

    def observe(event: dict) -> None:
        if "self-signed" in str(event.get("log_format", "")):
            said.append(event["log_format"])

    globalLogPublisher.addObserver(observe)
    try:
        async with RunningServer(listeners=PLAIN_AND_TLS) as server:
            certificate, key = tmp_path / "data" / "tls-certificate.pem", tmp_path / "data" / "tls-key.pem"
            assert certificate.is_file() and key.is_file()
            assert key.stat().st_mode & 0o777 == 0o600
            cert_pem = certificate.read_bytes()
            person = await connect_tls(server, "telnet-2", cert_pem)
            person.send("/nick Ann")
            await person.wait_for(lambda line: line.endswith("You are now Ann."))
            robo = await connect_tls(server, "line-2", cert_pem)
            robo.send("/mode machine")
            robo.send("/nick Robo")
            await robo.message("NICK", nick="Robo")
        async with RunningServer(listeners=PLAIN_AND_TLS):
            assert certificate.read_bytes() == cert_pem  # kept, not made again
    finally:
        globalLogPublisher.removeObserver(observe)
    assert len(said) == 1 and "[tls]" in said[0]


def test_a_configured_pair_is_used_and_one_half_alone_is_refused(tmp_path):
    from bswtichu.config import ConfigError, ServerConfig, parse_config
    from bswtichu.net.tls import with_certificate

    config = parse_config(f"[tls]\ncertificate = {tmp_path}/c.pem\nkey = {tmp_path}/k.pem\n")
    certificate, key, configured = config.tls_files()
    assert configured and certificate == tmp_path / "c.pem"
    assert with_certificate("ssl:4244:interface=127.0.0.1", certificate, key) == (
        f"ssl:4244:interface=127.0.0.1:privateKey={tmp_path}/k.pem:certKey={tmp_path}/c.pem")
    assert with_certificate("ssl:1:privateKey=a.pem:certKey=b.pem", certificate, key) == \
        "ssl:1:privateKey=a.pem:certKey=b.pem"
    assert with_certificate("tcp:4242", certificate, key) == "tcp:4242"
    try:
        ServerConfig(tls_certificate="c.pem")
    except ConfigError as refused:
        assert "go together" in str(refused)
    else:
        raise AssertionError("a certificate without a key was accepted")


def test_mssp_names_the_telnet_tls_port_as_mudlet_reads_it(tmp_path):
    from twisted.internet.task import Clock

    from bswtichu.config import ServerConfig
    from bswtichu.net.telnet import TelnetFactory
    from bswtichu.net.tls import tls_port

    shipped = ServerConfig()
    assert tls_port(shipped.endpoints_of("telnet")) == 4244
    assert tls_port(shipped.endpoints_of("line")) == 4245
    assert tls_port(("tcp:4242", "ssl:port=5000:interface=127.0.0.1")) == 5000
    assert tls_port(("tcp:4242", "ssl:0:interface=127.0.0.1")) is None
    factory = TelnetFactory(None, shipped, Clock())
    assert factory.tls_variables() == {"TLS": "4244", "SSL": "4244"}
    plain = shipped.listening("telnet", ("tcp:4242:interface=127.0.0.1",))
    assert TelnetFactory(None, plain, Clock()).tls_variables() == {}


def test_a_password_over_a_plain_port_from_afar_is_followed_by_one_warning(tmp_path):
    """At the port: a plain connection from another address is marked with its kind's TLS port,
    one from loopback is not; in the domain, the first password login over it is warned of."""
    from twisted.internet.address import IPv4Address
    from twisted.internet.task import Clock
    from twisted.internet.testing import StringTransport

    from bswtichu.config import ServerConfig
    from bswtichu.net.line import BotLineFactory
    from bswtichu.server.games.logs import GameLogStore
    from bswtichu.service import build_lobby

    config = ServerConfig(log_folder=str(tmp_path / "logs"), database=":memory:")
    lobby = build_lobby(Clock(), config, lambda table: None, GameLogStore(config.log_folder))
    sessions = {}
    for host in ("203.0.113.9", "127.0.0.1"):
        protocol = BotLineFactory(lobby, config, Clock()).buildProtocol(None)
        transport = StringTransport(peerAddress=IPv4Address("TCP", host, 50000))
        protocol.makeConnection(transport)
        sessions[host] = (protocol, transport)
    assert sessions["203.0.113.9"][0].session.unencrypted == 4245
    assert sessions["127.0.0.1"][0].session.unencrypted is None
    protocol, transport = sessions["203.0.113.9"]
    transport.clear()
    for line in (b"/mode machine", b"/nick Ann", b"/register hunter22", b"/password hunter22 hunter33"):
        protocol.dataReceived(line + b"\r\n")
    said = transport.value().decode().splitlines()
    warnings = [line for line in said if line.startswith("UNENCRYPTED ")]
    assert warnings == ['UNENCRYPTED {"tls_port":4245}'], said
    assert said.index(warnings[0]) > [i for i, l in enumerate(said) if l.startswith("REGISTERED")][0]
    protocol, transport = sessions["127.0.0.1"]
    transport.clear()
    for line in (b"/mode machine", b"/nick Bob", b"/register hunter22"):
        protocol.dataReceived(line + b"\r\n")
    assert "UNENCRYPTED" not in transport.value().decode()
    for protocol, _ in sessions.values():
        protocol.connectionLost(None)


@pytest_twisted.ensureDeferred
async def test_a_whole_game_over_the_tls_bot_port(tmp_path):
    """One program and three bots, option round 1, to GAME_OVER, every line over TLS."""
    import json

    listeners, cert_pem = tls_listeners(tmp_path)
    async with RunningServer(listeners=listeners, bot_delay=0.0) as server:
        ann = await connect_tls(server, "line", cert_pem)
        for line in ("/mode machine", "/nick Ann", "/join", "/round 1", "/bot", "/bot", "/bot", "/start",
                     "/legal push on"):
            ann.send(line)
        await ann.message("STARTED")
        for _ in range(2000):
            line = await ann.wait_for(lambda line: line.startswith(("LEGAL ", "GAME_OVER ", "ERROR ")))
            keyword, _, payload = line.partition(" ")
            fields = json.loads(payload)
            if keyword == "GAME_OVER":
                break
            if keyword == "ERROR":  # the step moved on under a stale LEGAL: ask again
                ann.send("/legal")
                continue
            if not fields["commands"]:
                continue
            command = fields["commands"][0]
            ann.send(command)
        else:
            raise AssertionError("the game did not end")
        assert "Ann" in [standing["player"] for standing in fields["standings"]]
        scores = [json.loads(l.partition(" ")[2]) for l in ann.lines if l.startswith("SCORE ")]
        assert scores and scores[-1]["rounds"] == 1
