"""Server settings: read from an ini file into one frozen value.

The built-in defaults equal ``config/bswtichu.ini``, so the server also starts
where that file is absent (for example after a plain ``pip install``).
"""

from __future__ import annotations

import configparser
import dataclasses
import ipaddress
import os
import re
from typing import Any
from dataclasses import dataclass
from pathlib import Path

DEFAULT_CONFIG_PATH = Path("config") / "bswtichu.ini"


class ConfigError(Exception):
    """A configuration file or value that cannot be used, with the reason."""


class LiveConfig:
    """The settings as they are now, for the parts that apply a reload (SIGHUP) at once:
    they read ``current`` when they need a limit, so a new value counts from then on."""

    def __init__(self, config: ServerConfig) -> None:
        self.current = config


@dataclass(frozen=True)
class Listener:
    """One listening port: its kind (what is spoken on it; the kinds are registered in
    bswtichu.net.kinds) and a Twisted endpoint string (``tcp:``, ``ssl:``, ``unix:``)."""

    kind: str
    endpoint: str


DEFAULT_LISTENERS = (
    Listener("telnet", "tcp:4242:interface=127.0.0.1"),
    Listener("telnet", "ssl:4244:interface=127.0.0.1"),
    Listener("line", "tcp:4243:interface=127.0.0.1"),
    Listener("line", "ssl:4245:interface=127.0.0.1"),
    Listener("websocket", "tcp:4280:interface=127.0.0.1"),
    Listener("websocket", "ssl:4281:interface=127.0.0.1"),
)
LOG_FORMATS = ("text", "json")
#: the languages the server has catalogs for (bswtichu/locale; server/text/i18n.py names them)
LANGUAGE_CODES = ("en", "de", "fr", "es", "ro")
LOG_LEVELS = ("debug", "info", "warn", "error", "critical")
#: how a kind is named in the config file, on the command line and in the registry
KIND_NAME = re.compile(r"[a-z][a-z0-9_]*\Z")


@dataclass(frozen=True)
class ServerConfig:
    """Everything the server needs to know before it opens its ports."""

    listeners: tuple[Listener, ...] = DEFAULT_LISTENERS
    max_line_length: int = 512
    flood_rate: float = 10.0
    flood_burst: int = 40
    line_flood_rate: float = 50.0
    line_flood_burst: int = 200
    byte_rate: float = 8192.0
    byte_burst: int = 32768
    line_byte_rate: float = 32768.0
    line_byte_burst: int = 131072
    read_size: int = 4096
    output_soft_limit: int = 65536
    output_hard_limit: int = 1048576
    connections_per_address: int = 20
    uncapped_addresses: str = ""  # IP addresses, space-separated, that connections_per_address spares
    #: seconds an HTTP request (web and metrics ports) has to send its whole head, from the
    #: connection's start (or its TLS handshake, or the end of its previous answer)
    header_timeout: float = 10.0
    #: seconds a connection to an ``ssl:`` listener has to complete its TLS handshake
    tls_handshake_timeout: float = 10.0
    max_tables: int = 500
    #: tables one connection (or name) may have opened that still exist
    tables_per_person: int = 2
    #: tables the connections of one address together may have opened that still exist
    #: (the addresses in ``uncapped_addresses`` are counted per connection only)
    tables_per_address: int = 4
    max_chat_length: int = 400
    who_page_size: int = 50
    #: new registrations (/register) one address may make per hour
    registrations_per_hour: int = 3
    #: seconds a guest's resume token is kept; one whose name is in use or has a held seat stays
    guest_token_lifetime: float = 24 * 3600.0
    #: names kept for admins, comma-separated, until the operator claims each (bswtichu admin add)
    admins: str = ""
    #: names nobody may take (nor look-alikes, nor NAME-...) but from a bridge address, comma-separated
    reserved_names: str = "admin, server"
    idle_timeout: float = 1800.0
    reconnect_grace: float = 120.0
    #: seconds per decision on a new table's turn clock (its option ``clock``); 0: off
    turn_clock: int = 0
    #: seconds a vote at a table (/replace, /pause, /continue) stays open; unanswered: refused
    vote_timeout: float = 60.0
    #: who creates events across tables (/newevent): False, admins only; True, any registered player too
    players_create_events: bool = False
    #: seconds a table /quick opened waits for people before bots fill it and it starts
    quick_wait: float = 20.0
    log_folder: str = "logs"
    bot_delay: float = 1.0
    abandon_after: float = 24 * 3600.0
    #: seconds a bots' game (one person at most, the rest bots) waits with nobody present
    #: and nobody watching before it is abandoned (after a restart too)
    bot_game_after: float = 600.0
    #: seconds a pause by vote lasts at most; then the game goes on, clocks running
    pause_limit: float = 300.0
    database: str = "data/bswtichu.sqlite3"
    synchronous: str = "normal"
    #: (PostgreSQL) seconds the active process's lease on the database lasts unless renewed, and
    #: how often it renews it: a standby takes over once it ran out (docs/operating.md)
    lease_seconds: float = 5.0
    renew_seconds: float = 1.0
    #: playouts per decision of the expert bots; None: the bots' own default (`BotSettings`),
    #: which the bots keep (the settings know no layer below them)
    expert_budget: int | None = None
    #: origins (``scheme://host:port``, space-separated; ``*``: any) whose pages may open the
    #: WebSocket port; empty: the listener's own address and this machine's names for itself
    websocket_origins: str = ""
    #: the PEM files of the ``ssl:`` listeners that name none; both empty: a self-signed pair
    #: made in the data folder (`data_folder`) on first start
    tls_certificate: str = ""
    tls_key: str = ""
    #: worker processes for the bot decisions of `worker_levels`; None: the cores less one
    #: (at least 1), 0: every decision in the server's process
    bot_workers: int | None = None
    #: the bot levels whose decisions go to the workers, comma-separated (the costly ones)
    worker_levels: str = "expert"
    #: how the server's log is written: "text" (a line a person reads) or "json" (one event a line)
    log_format: str = "text"
    #: the least important level logged: debug, info, warn, error or critical
    log_level: str = "info"
    #: threads that hash and check passwords (scrypt), away from the reactor
    password_threads: int = 2
    #: passwords being hashed or waiting for a thread, server-wide; past it: ``password_busy``
    password_queue: int = 16
    #: passwords hashed or checked per name, and per address, in any minute (``password_budget``)
    password_checks_per_name: int = 6
    password_checks_per_address: int = 12
    #: the language people are spoken to in until they choose (``/lang``) or their client
    #: says (en, de, fr, es, ro)
    language: str = "en"

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
        if min(self.byte_rate, self.line_byte_rate) <= 0:
            problems.append("byte_rate and line_byte_rate must be above 0")
        if min(self.byte_burst, self.line_byte_burst) < self.max_line_length + 2:
            problems.append("byte_burst and line_byte_burst must hold at least one longest line")
        if self.read_size < 1:
            problems.append("read_size must be at least 1")
        if not 0 < self.output_soft_limit <= self.output_hard_limit:
            problems.append("output limits must satisfy 0 < output_soft_limit <= output_hard_limit")
        for name in ("connections_per_address", "max_tables", "tables_per_person", "tables_per_address",
                     "max_chat_length", "who_page_size", "registrations_per_hour", "password_threads",
                     "password_queue", "password_checks_per_name", "password_checks_per_address"):
            if getattr(self, name) < 1:
                problems.append(f"{name} must be at least 1")
        for address in self.uncapped_addresses.split():
            try:
                ipaddress.ip_address(address)
            except ValueError:
                problems.append(f"uncapped_addresses holds {address!r}, which is not an IP address")
        for name in ("header_timeout", "tls_handshake_timeout"):
            if getattr(self, name) <= 0:
                problems.append(f"{name} must be above 0")
        if self.idle_timeout < 0:
            problems.append("idle_timeout must be 0 (off) or more")
        if self.reconnect_grace < 0:
            problems.append("reconnect_grace must be 0 or more")
        if self.bot_delay < 0:
            problems.append("bot_delay must be 0 or more")
        if not 0 <= self.turn_clock <= 3600:
            problems.append("turn_clock must be 0 (off) to 3600 seconds")
        if self.vote_timeout <= 0:
            problems.append("vote_timeout must be above 0")
        if self.quick_wait < 0:
            problems.append("quick_wait must be 0 or more")
        if self.abandon_after < 0:
            problems.append("abandon_after must be 0 or more")
        if self.bot_game_after < 0:
            problems.append("bot_game_after must be 0 or more")
        if self.pause_limit <= 0:
            problems.append("pause_limit must be above 0")
        if self.guest_token_lifetime <= 0:
            problems.append("guest_token_lifetime must be above 0")
        if not self.database:
            problems.append("database must not be empty (:memory: keeps nothing)")
        if not 0 < self.renew_seconds < self.lease_seconds:
            problems.append("storage renew must be above 0 and below storage lease (e.g. lease 5, renew 1)")
        if self.synchronous not in ("off", "normal", "full"):
            problems.append("synchronous must be off, normal or full")
        if self.bot_workers is not None and self.bot_workers < 0:
            problems.append("workers must be 0 (decisions in the server) or more")
        if self.language not in LANGUAGE_CODES:
            problems.append(f"language must be one of {', '.join(LANGUAGE_CODES)}")
        if self.log_format not in LOG_FORMATS:
            problems.append(f"log_format must be {' or '.join(LOG_FORMATS)}")
        if self.log_level not in LOG_LEVELS:
            problems.append(f"log_level must be one of {', '.join(LOG_LEVELS)}")
        if self.expert_budget is not None and self.expert_budget < 1:
            problems.append("expert_budget must be at least 1")
        if bool(self.tls_certificate) != bool(self.tls_key):
            problems.append("[tls] certificate and key go together: set both, or neither for a"
                            " self-signed pair")
        if not self.listeners:
            problems.append("at least one listener is needed, e.g. [listen] telnet = tcp:4242:interface=127.0.0.1")
        for listener in self.listeners:
            if not KIND_NAME.match(listener.kind):
                problems.append(f"listener kind {listener.kind!r} is not a name like telnet or line")
            if not listener.endpoint or listener.endpoint.split() != [listener.endpoint]:
                problems.append(f"the {listener.kind} listener's endpoint {listener.endpoint!r} is not"
                                " one endpoint string, e.g. tcp:4242:interface=127.0.0.1")
        if problems:
            raise ConfigError("; ".join(problems))

    def replace(self, **changes: Any) -> ServerConfig:  # Any: each setting its own type, checked after
        """A copy with some settings changed (and checked again)."""
        return dataclasses.replace(self, **changes)

    def endpoints_of(self, kind: str) -> tuple[str, ...]:
        """The endpoints the listeners of ``kind`` listen on, in order."""
        return tuple(listener.endpoint for listener in self.listeners if listener.kind == kind)

    def listening(self, kind: str, endpoints: tuple[str, ...]) -> ServerConfig:
        """A copy whose listeners of ``kind`` are the given endpoints (none: that kind is off),
        where that kind's first listener stood (or after the others)."""
        new = tuple(Listener(kind, endpoint) for endpoint in endpoints)
        kept: list[Listener] = []
        for listener in self.listeners:
            if listener.kind != kind:
                kept.append(listener)
            elif new:
                kept.extend(new)
                new = ()
        return self.replace(listeners=tuple(kept) + new)

    def adding(self, listener: Listener) -> ServerConfig:
        """A copy with one more listener, after the others."""
        return self.replace(listeners=self.listeners + (listener,))

    @property
    def worker_count(self) -> int:
        """How many bot worker processes: ``bot_workers``, or unset the cores less one (at least 1)."""
        if self.bot_workers is not None:
            return self.bot_workers
        return max(1, (os.cpu_count() or 1) - 1)

    @property
    def admin_names(self) -> tuple[str, ...]:
        """The names kept for admins in ``[admin] admins``, as written."""
        return tuple(name.strip() for name in self.admins.split(",") if name.strip())

    @property
    def reserved(self) -> tuple[str, ...]:
        """The names in ``[admin] reserved_names``."""
        return tuple(name.strip() for name in self.reserved_names.split(",") if name.strip())

    @property
    def uncapped(self) -> frozenset[str]:
        """The addresses any number of connections may come from (an IRC bridge's, say)."""
        return frozenset(str(ipaddress.ip_address(a)) for a in self.uncapped_addresses.split())

    @property
    def data_folder(self) -> Path:
        """Where the server keeps its files: the database's folder (``data`` for ``:memory:``
        and for a PostgreSQL database)."""
        if self.database == ":memory:" or self.database.startswith(("postgresql://", "postgres://")):
            return Path("data")
        return Path(self.database).parent

    def tls_files(self) -> tuple[Path, Path, bool]:
        """(certificate, key, configured): the ``[tls]`` files, else the self-signed pair's
        place in the data folder."""
        if self.tls_certificate:
            return Path(self.tls_certificate), Path(self.tls_key), True
        return self.data_folder / "tls-certificate.pem", self.data_folder / "tls-key.pem", False

    def for_line_port(self) -> ServerConfig:
        """The settings as the bot port applies them: its own, wider input budget."""
        return self.replace(flood_rate=self.line_flood_rate, flood_burst=self.line_flood_burst,
                            byte_rate=self.line_byte_rate, byte_burst=self.line_byte_burst)


# sections that other tools read from the same file (bswtichu.irc.config: the bridge)
OTHER_TOOLS_SECTIONS = ("irc",)

#: the section whose keys are listener kinds and whose values their endpoints, one or more
#: (separated by spaces or on indented lines of their own; empty: that kind is off)
LISTEN_SECTION = "listen"

#: the settings a reload (SIGHUP) applies at once: those read where they are used (the
#: connections' cap, the table and chat limits, /who's page) or when a connection comes
#: (a port's budgets and idle timeout); the others need a restart
LIVE_FIELDS = frozenset({
    "max_line_length", "flood_rate", "flood_burst", "line_flood_rate", "line_flood_burst",
    "byte_rate", "byte_burst", "line_byte_rate", "line_byte_burst", "read_size",
    "output_soft_limit", "output_hard_limit", "connections_per_address", "uncapped_addresses",
    "max_tables", "tables_per_person", "max_chat_length", "who_page_size", "idle_timeout",
    "quick_wait", "tables_per_address", "language",
    "header_timeout", "tls_handshake_timeout",
})

def boolean(text: str) -> bool:
    """yes/no, on/off, true/false, 1/0 (any case) as a bool (the settings' and the bridge's)."""
    word = text.strip().lower()
    if word in ("yes", "on", "true", "1"):
        return True
    if word in ("no", "off", "false", "0", ""):
        return False
    raise ValueError(text)


# ini section and key -> (ServerConfig field, converter)
_KEYS = {
    ("limits", "max_line_length"): ("max_line_length", int),
    ("limits", "flood_rate"): ("flood_rate", float),
    ("limits", "flood_burst"): ("flood_burst", int),
    ("limits", "line_flood_rate"): ("line_flood_rate", float),
    ("limits", "line_flood_burst"): ("line_flood_burst", int),
    ("limits", "byte_rate"): ("byte_rate", float),
    ("limits", "byte_burst"): ("byte_burst", int),
    ("limits", "line_byte_rate"): ("line_byte_rate", float),
    ("limits", "line_byte_burst"): ("line_byte_burst", int),
    ("limits", "read_size"): ("read_size", int),
    ("limits", "output_soft_limit"): ("output_soft_limit", int),
    ("limits", "output_hard_limit"): ("output_hard_limit", int),
    ("limits", "connections_per_address"): ("connections_per_address", int),
    ("limits", "uncapped_addresses"): ("uncapped_addresses", str),
    ("limits", "header_timeout"): ("header_timeout", float),
    ("limits", "tls_handshake_timeout"): ("tls_handshake_timeout", float),
    ("limits", "max_tables"): ("max_tables", int),
    ("limits", "tables_per_person"): ("tables_per_person", int),
    ("limits", "tables_per_address"): ("tables_per_address", int),
    ("limits", "max_chat_length"): ("max_chat_length", int),
    ("limits", "who_page_size"): ("who_page_size", int),
    ("limits", "registrations_per_hour"): ("registrations_per_hour", int),
    ("limits", "guest_token_lifetime"): ("guest_token_lifetime", float),
    ("admin", "admins"): ("admins", str),
    ("admin", "reserved_names"): ("reserved_names", str),
    ("limits", "idle_timeout"): ("idle_timeout", float),
    ("tables", "reconnect_grace"): ("reconnect_grace", float),
    ("tables", "abandon_after"): ("abandon_after", float),
    ("tables", "bot_game_after"): ("bot_game_after", float),
    ("tables", "pause_limit"): ("pause_limit", float),
    ("tables", "turn_clock"): ("turn_clock", int),
    ("tables", "vote_timeout"): ("vote_timeout", float),
    ("tables", "quick_wait"): ("quick_wait", float),
    ("events", "players_create"): ("players_create_events", boolean),
    ("storage", "database"): ("database", str),
    ("storage", "url"): ("database", str),  # another name for it, the usual one for a postgresql:// URL
    ("storage", "synchronous"): ("synchronous", str),
    ("storage", "lease"): ("lease_seconds", float),
    ("storage", "renew"): ("renew_seconds", float),
    ("game", "log_folder"): ("log_folder", str),
    ("game", "bot_delay"): ("bot_delay", float),
    ("bots", "expert_budget"): ("expert_budget", int),
    ("websocket", "origins"): ("websocket_origins", str),
    ("tls", "certificate"): ("tls_certificate", str),
    ("tls", "key"): ("tls_key", str),
    ("bots", "workers"): ("bot_workers", int),
    ("bots", "worker_levels"): ("worker_levels", str),
    ("log", "format"): ("log_format", str),
    ("log", "level"): ("log_level", str),
    ("passwords", "threads"): ("password_threads", int),
    ("passwords", "queue"): ("password_queue", int),
    ("passwords", "per_name"): ("password_checks_per_name", int),
    ("passwords", "per_address"): ("password_checks_per_address", int),
    ("server", "language"): ("language", str),
}


def read_ini(text: str, source: str) -> configparser.ConfigParser:
    """Ini text as a parser; a malformed file is a ConfigError naming ``source``."""
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text, source=source)
    except configparser.Error as e:
        raise ConfigError(f"{source}: {e}") from None
    return parser


#: how a setting's type is named to people, with an example value
_TYPE_WORDS = {int: "a whole number (e.g. 100)", float: "a number (e.g. 2.5)"}
#: names of other converters' types, for the same message (e.g. the bridge's yes/no settings)
TYPE_NAMES = {"boolean": "yes or no"}


def convert_setting(convert, raw: str, section: str, key: str, source: str) -> object:
    """One setting's value, or a ConfigError saying which setting is not of which type."""
    try:
        return convert(raw.strip())
    except ValueError:
        wanted = _TYPE_WORDS.get(convert) or TYPE_NAMES.get(convert.__name__, f"a {convert.__name__}")
        raise ConfigError(f"{source}: [{section}] {key} = {raw!r} is not {wanted}") from None


def listen_setting(key: str, raw: str, source: str) -> tuple[str, tuple[str, ...]]:
    """(kind, endpoints) for one key of the ``[listen]`` section. Whether the kind exists is the
    registry's to say (bswtichu.net.kinds), when the server starts."""
    if not KIND_NAME.match(key):
        raise ConfigError(f"{source}: [{LISTEN_SECTION}] {key} is not a listener kind such as"
                          " telnet or line")
    return key, tuple(raw.split())


def setting(section: str, key: str, raw: str, source: str) -> tuple[str, object]:
    """(ServerConfig field, value) for one ini setting outside ``[listen]``; unknown ones are
    errors, so typos do not pass."""
    try:
        field, convert = _KEYS[(section, key)]
    except KeyError:
        known = ", ".join([f"[{LISTEN_SECTION}] KIND"] + [f"[{s}] {k}" for s, k in _KEYS])
        raise ConfigError(f"{source}: unknown setting [{section}] {key}; known: {known}") from None
    return field, convert_setting(convert, raw, section, key, source)


def parse_config(text: str, source: str = "<config>") -> ServerConfig:
    """Read ini text; unknown sections or keys are errors, so typos do not pass silently."""
    parser = read_ini(text, source)
    values: dict[str, Any] = {}  # each setting its own type, checked by ServerConfig
    listens: list[tuple[str, tuple[str, ...]]] = []
    for section in parser.sections():
        if section in OTHER_TOOLS_SECTIONS:
            continue
        for key, raw in parser.items(section):
            if section == LISTEN_SECTION:
                listens.append(listen_setting(key, raw, source))
            else:
                field, value = setting(section, key, raw, source)
                values[field] = value
    try:
        config = ServerConfig(**values)
        for kind, endpoints in listens:
            config = config.listening(kind, endpoints)
        return config
    except ConfigError as e:
        raise ConfigError(f"{source}: {e}") from None


def read_config_file(path: str | Path | None = None) -> tuple[str, str] | None:
    """(text, source) of the given file; without one, of ``config/bswtichu.ini`` if present,
    else None (the built-in defaults). The server and the IRC bridge read the same file."""
    if path is None:
        if not DEFAULT_CONFIG_PATH.is_file():
            return None
        path = DEFAULT_CONFIG_PATH
    path = Path(path)
    try:
        return path.read_text(encoding="utf-8"), str(path)
    except OSError as e:
        raise ConfigError(f"cannot read {path}: {e.strerror}") from None


def load_config(path: str | Path | None = None) -> ServerConfig:
    """Read the given file; without one, ``config/bswtichu.ini`` if present, else defaults."""
    found = read_config_file(path)
    return ServerConfig() if found is None else parse_config(*found)
