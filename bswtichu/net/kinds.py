"""The registry of listener kinds: what may be named in ``[listen]`` and ``--listen KIND=...``.

A kind is the factory that speaks on its ports (with its own limits profile: the line
port's factory applies ``ServerConfig.for_line_port``), whether it speaks HTTP (the
accept guard, ``net/accept.py``, times requests and refuses in HTTP there) and how the
start-up line names it. Adding a kind is its module and one entry in ``KINDS``; the config, the command
line and the service take the kinds from here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from twisted.internet.interfaces import IReactorTime
from twisted.internet.protocol import ServerFactory

from bswtichu.config import ConfigError, ServerConfig
from bswtichu.net.line import BotLineFactory
from bswtichu.net.metrics import MetricsSite
from bswtichu.realm import Realm
from bswtichu.net.telnet import TelnetFactory
from bswtichu.net.websocket import WebSocketListener


@dataclass(frozen=True)
class ListenerKind:
    """What listens on a port of this kind, and how the start-up line names it."""

    name: str
    factory: Callable[[Realm, ServerConfig, IReactorTime], ServerFactory[Any]]
    audience: str  # who connects, as the start-up line groups the ports: "people", "bots"
    label: str  # the word before each of its addresses there ("" for none)
    web: bool = False  # its addresses are shown as http:// (https:// over TLS) URLs
    http: bool = False  # it speaks HTTP: its requests are timed, a refusal is an HTTP answer

    def build(self, realm: Realm, config: ServerConfig, clock: IReactorTime) -> ServerFactory[Any]:
        """The factory for one listener of this kind, knowing its kind's name (connections
        are counted by it)."""
        factory = self.factory(realm, config, clock)
        factory.kind = self.name  # type: ignore[attr-defined]  # any server factory: it is told its kind
        return factory


KINDS: dict[str, ListenerKind] = {
    kind.name: kind
    for kind in (
        ListenerKind("telnet", TelnetFactory, "people", "telnet"),
        ListenerKind("line", BotLineFactory, "bots", ""),
        ListenerKind("websocket", WebSocketListener, "people", "web", web=True, http=True),
        ListenerKind("metrics", MetricsSite, "operators", "metrics", http=True),
    )
}


def kind_named(name: str) -> ListenerKind:
    """The registered kind ``name``, or a ConfigError listing the kinds there are."""
    try:
        return KINDS[name]
    except KeyError:
        raise ConfigError(f"unknown listener kind {name!r}; known: {', '.join(KINDS)}") from None


def check_kinds(config: ServerConfig) -> None:
    """A ConfigError for the first listener whose kind is not registered (before anything starts)."""
    for listener in config.listeners:
        kind_named(listener.kind)
