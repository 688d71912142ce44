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
from test_server_network import LOOPBACK, TIMEOUT, LineClient, RunningServer, reactor


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
