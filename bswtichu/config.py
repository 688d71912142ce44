"""Server settings: read from an ini file into one frozen value.

The built-in defaults equal ``config/bswtichu.ini``, so the server also starts
where that file is absent (for example after a plain ``pip install``).
"""

from __future__ import annotations

import configparser
import dataclasses
from dataclasses import dataclass
from pathlib import Path

from .bots.base import DEFAULT_EXPERT_BUDGET

DEFAULT_CONFIG_PATH = Path("config") / "bswtichu.ini"


class ConfigError(Exception):
    """A configuration file or value that cannot be used, with the reason."""


@dataclass(frozen=True)
class ServerConfig:
    """Everything the server needs to know before it opens its ports."""

    telnet_endpoint: str = "tcp:4242:interface=127.0.0.1"
    line_endpoint: str = "tcp:4243:interface=127.0.0.1"
    max_line_length: int = 512
    flood_rate: float = 10.0
    flood_burst: int = 40
    line_flood_rate: float = 50.0
    line_flood_burst: int = 200
    idle_timeout: float = 1800.0
    reconnect_grace: float = 120.0
    log_folder: str = "logs"
    bot_delay: float = 1.0
    expert_budget: int = DEFAULT_EXPERT_BUDGET

    def __post_init__(self) -> None:
        problems = []
        if self.max_line_length < 16:
            problems.append("max_line_length must be at least 16")
        if self.flood_rate <= 0:
            problems.append("flood_rate must be above 0")
        if self.flood_burst < 1 or self.line_flood_burst < 1:
            problems.append("flood_burst and line_flood_burst must be at least 1")
        if self.line_flood_rate <= 0:
            problems.append("line_flood_rate must be above 0")
        if self.idle_timeout < 0:
            problems.append("idle_timeout must be 0 (off) or more")
        if self.reconnect_grace < 0:
            problems.append("reconnect_grace must be 0 or more")
        if self.bot_delay < 0:
            problems.append("bot_delay must be 0 or more")
        if self.expert_budget < 1:
            problems.append("expert_budget must be at least 1")
        if not self.telnet_endpoint or not self.line_endpoint:
            problems.append("telnet and line endpoints must not be empty")
        if problems:
            raise ConfigError("; ".join(problems))

    def replace(self, **changes: object) -> ServerConfig:
        """A copy with some settings changed (and checked again)."""
        return dataclasses.replace(self, **changes)

    def for_line_port(self) -> ServerConfig:
        """The settings as the bot port applies them: its own, wider flood limit."""
        return self.replace(flood_rate=self.line_flood_rate, flood_burst=self.line_flood_burst)


# ini section and key -> (ServerConfig field, converter)
_KEYS = {
    ("listen", "telnet"): ("telnet_endpoint", str),
    ("listen", "line"): ("line_endpoint", str),
    ("limits", "max_line_length"): ("max_line_length", int),
    ("limits", "flood_rate"): ("flood_rate", float),
    ("limits", "flood_burst"): ("flood_burst", int),
    ("limits", "line_flood_rate"): ("line_flood_rate", float),
    ("limits", "line_flood_burst"): ("line_flood_burst", int),
    ("limits", "idle_timeout"): ("idle_timeout", float),
    ("tables", "reconnect_grace"): ("reconnect_grace", float),
    ("game", "log_folder"): ("log_folder", str),
    ("game", "bot_delay"): ("bot_delay", float),
    ("bots", "expert_budget"): ("expert_budget", int),
}


def parse_config(text: str, source: str = "<config>") -> ServerConfig:
    """Read ini text; unknown sections or keys are errors, so typos do not pass silently."""
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text, source=source)
    except configparser.Error as e:
        raise ConfigError(f"{source}: {e}") from None
    values: dict[str, object] = {}
    for section in parser.sections():
        for key, raw in parser.items(section):
            try:
                field, convert = _KEYS[(section, key)]
            except KeyError:
                known = ", ".join(f"[{s}] {k}" for s, k in _KEYS)
                raise ConfigError(
                    f"{source}: unknown setting [{section}] {key}; known: {known}"
                ) from None
            try:
                values[field] = convert(raw.strip())
            except ValueError:
                raise ConfigError(
                    f"{source}: [{section}] {key} = {raw!r} is not a {convert.__name__}"
                ) from None
    try:
        return ServerConfig(**values)
    except ConfigError as e:
        raise ConfigError(f"{source}: {e}") from None


def load_config(path: str | Path | None = None) -> ServerConfig:
    """Read the given file; without one, ``config/bswtichu.ini`` if present, else defaults."""
    if path is None:
        if not DEFAULT_CONFIG_PATH.is_file():
            return ServerConfig()
        path = DEFAULT_CONFIG_PATH
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"cannot read {path}: {e.strerror}") from None
    return parse_config(text, str(path))
