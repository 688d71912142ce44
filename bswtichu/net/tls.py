"""TLS for the listeners: the certificate the ``ssl:`` endpoints use, and where the TLS port is.

An ``ssl:`` endpoint in ``[listen]`` may name its own ``privateKey=`` and ``certKey=``;
one that does not gets the pair of ``[tls] certificate`` and ``key``. With neither set,
the server makes a self-signed pair in its data folder on first start (the key readable
by its owner only), so the shipped config's TLS ports work out of the box.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import re
import socket
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from twisted.internet.interfaces import INegotiated, ISSLTransport

#: the self-signed certificate is valid this long
SELF_SIGNED_DAYS = 825
#: an endpoint string's fields are separated by colons that are not escaped with a backslash
_FIELD = re.compile(r"(?<!\\):")


def fields(endpoint: str) -> list[str]:
    """An endpoint string's fields (``ssl:4244:interface=...`` -> ``["ssl", "4244", ...]``)."""
    return _FIELD.split(endpoint)


def names_its_certificate(endpoint: str) -> bool:
    """Whether an ``ssl:`` endpoint names its own key (``privateKey=``)."""
    return any(field.startswith("privateKey=") for field in fields(endpoint)[1:])


def escaped(path: Path | str) -> str:
    """A path as an endpoint string's value (colons and backslashes escaped)."""
    return str(path).replace("\\", "\\\\").replace(":", "\\:").replace("=", "\\=")


def with_certificate(endpoint: str, certificate: Path, key: Path) -> str:
    """An ``ssl:`` endpoint that names no key, given ``key`` and ``certificate``; any other as it is."""
    if not endpoint.startswith("ssl:") or names_its_certificate(endpoint):
        return endpoint
    return f"{endpoint}:privateKey={escaped(key)}:certKey={escaped(certificate)}"


def tls_port(endpoints: tuple[str, ...]) -> int | None:
    """The port of the first ``ssl:`` endpoint that names one (not 0), or None."""
    for endpoint in endpoints:
        parts = fields(endpoint)
        if parts[0] != "ssl":
            continue
        for part in parts[1:]:
            value = part.partition("=")[2] if part.startswith("port=") else part
            if value.isdigit() and int(value):
                return int(value)
            if "=" not in part:
                break
    return None


def encrypted(transport: object) -> bool:
    """Whether a connection's transport is TLS."""
    return ISSLTransport.providedBy(transport) or INegotiated.providedBy(transport)


def local(address: str) -> bool:
    """Whether a peer address is this machine (loopback), or none (a UNIX socket)."""
    if not address:
        return True
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def make_self_signed(certificate: Path, key: Path) -> None:
    """A new EC key and a self-signed certificate for this machine's name, localhost and the
    loopback addresses; the key file is readable by its owner only (0600)."""
    private = ec.generate_private_key(ec.SECP256R1())
    hostname = socket.gethostname() or "localhost"
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, hostname)])
    now = datetime.datetime.now(datetime.timezone.utc)
    alternatives = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                    x509.IPAddress(ipaddress.ip_address("::1"))]
    if hostname != "localhost":
        alternatives.insert(0, x509.DNSName(hostname))
    signed = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(private.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=SELF_SIGNED_DAYS))
        .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .sign(private, hashes.SHA256())
    )
    key.parent.mkdir(parents=True, exist_ok=True)
    certificate.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                        serialization.NoEncryption()))
    os.chmod(key, 0o600)  # (a file that existed keeps its mode through O_CREAT)
    certificate.write_bytes(signed.public_bytes(serialization.Encoding.PEM))
