"""The bridge's settings: the ``[irc]`` section of the same ini file the server reads.

Parsed here rather than in bswtichu.config so the server and the bridge stay
apart; other sections of the file are the server's and are not looked at.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from bswtichu.config import LANGUAGE_CODES, ConfigError, boolean, convert_setting, read_config_file, read_ini

SECTION = "irc"


def parse_address(text: str, what: str) -> tuple[str, int]:
    """``HOST:PORT`` (an IPv6 host in brackets) as (host, port)."""
    host, sep, port = text.strip().rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not (port.isascii() and port.isdigit()) or not 0 < int(port) < 65536:
        raise ConfigError(f"{what} must be HOST:PORT, e.g. 127.0.0.1:6667 (got {text!r})")
    return host, int(port)


@dataclass(frozen=True)
class IrcConfig:
    """Where the bridge connects and how politely it talks."""

    server: str = "127.0.0.1:6667"  # the IRC server, HOST:PORT
    channel: str = "#tichu"
    nick: str = "tichubot"
    game: str = "127.0.0.1:4243"  # the game server's bot line port, HOST:PORT
    burst: int = 5  # lines sent at once before the rate applies (RFC 1459: 5)
    line_interval: float = 2.0  # seconds per line after the burst (RFC 1459: 2)
    reconnect_max: float = 300.0  # longest wait between reconnect attempts, seconds
    password: str = ""  # IRC server password (PASS), if the server needs one
    tokens_file: str = ""  # where guests' resume tokens survive a restart ("": memory only)
    server_tls: bool = False  # reach the IRC server over TLS
    server_ca: str = ""  # PEM certificate(s) to trust for it ("": the system's trusted ones)
    game_tls: bool = False  # reach the game server's line port over TLS (its ssl: listener)
    game_ca: str = ""  # PEM certificate(s) to trust for it, e.g. its self-signed tls-certificate.pem
    #: the language the game server's sentences come in to the channel (and to its users in
    #: private): en, de, fr, es or ro (/lang on each of the bridge's connections)
    language: str = "en"

    def __post_init__(self) -> None:
        problems = []
        for what in ("server", "game"):
            try:
                parse_address(getattr(self, what), what)
            except ConfigError as e:
                problems.append(str(e))
        if not self.channel or self.channel[0] not in "#&+!" or any(c in self.channel for c in " ,\x07"):
            problems.append(f"channel must start with # (or &, +, !) and hold no space or comma (got {self.channel!r})")
        if not self.nick or any(c in self.nick for c in " !@:#,"):
            problems.append(f"nick must be one word without !@:#, (got {self.nick!r})")
        if self.language not in LANGUAGE_CODES:
            problems.append(f"language must be one of {', '.join(LANGUAGE_CODES)} (got {self.language!r})")
        if self.burst < 1:
            problems.append("burst must be at least 1")
        if self.line_interval < 0:
            problems.append("line_interval must be 0 or more")
        if self.reconnect_max < 1:
            problems.append("reconnect_max must be at least 1")
        if problems:
            raise ConfigError("; ".join(problems))

    @property
    def server_address(self) -> tuple[str, int]:
        return parse_address(self.server, "server")

    @property
    def game_address(self) -> tuple[str, int]:
        return parse_address(self.game, "game")

    def replace(self, **changes: Any) -> IrcConfig:  # Any: each setting its own type, checked after
        return dataclasses.replace(self, **changes)


_PARSERS: dict[str, Callable[[str], object]] = {"int": int, "float": float, "bool": boolean}
_CONVERTERS = {field.name: _PARSERS.get(field.type, str)  # type: ignore[arg-type]  # postponed annotations: a field's type is its name
               for field in dataclasses.fields(IrcConfig)}


def irc_setting(key: str, raw: str, source: str) -> object:
    """One ``[irc]`` setting's value, or a ConfigError naming the known ones."""
    if key not in _CONVERTERS:
        raise ConfigError(f"{source}: unknown setting [{SECTION}] {key}; known: {', '.join(_CONVERTERS)}")
    return convert_setting(_CONVERTERS[key], raw, SECTION, key, source)


def parse_irc_config(text: str, source: str = "<config>") -> IrcConfig:
    """The ``[irc]`` section of ini text (defaults where it or a key is missing)."""
    parser = read_ini(text, source)
    values: dict[str, Any] = {}  # each setting its own type, checked by IrcConfig
    if parser.has_section(SECTION):
        for key, raw in parser.items(SECTION):
            values[key] = irc_setting(key, raw, source)
    try:
        return IrcConfig(**values)
    except ConfigError as e:
        raise ConfigError(f"{source}: {e}") from None


def load_irc_config(path: str | Path | None = None) -> IrcConfig:
    """Read the given file; without one, ``config/bswtichu.ini`` if present, else defaults."""
    found = read_config_file(path)
    return IrcConfig() if found is None else parse_irc_config(*found)
