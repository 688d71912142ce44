"""The WebSocket port: web MUD clients, the page in ``bswtichu/web/static``, and programs.

One twisted.web `Site` per listener: ``/ws`` is the WebSocket endpoint (autobahn), every
other path a static file of the package's ``web/static`` folder. Subprotocols
(docs/PROTOCOL.md, "WebSocket"):

- ``terminal.mudstandards.org`` (also when the client offers none): the text the telnet
  port sends (UTF-8, ANSI colour), in BINARY frames, no telnet bytes; each BINARY (or
  TEXT) frame from the client is one input line.
- ``gmcp.mudstandards.org``: the same, and every message also as a TEXT frame
  ``Tichu.Package {json}`` (the telnet port's GMCP); the client's TEXT frames are GMCP
  (``Core.Hello``...), read and ignored.
- ``bswtichu.machine``: one machine-mode line per TEXT frame both ways, with the line
  port's limits; the connection is switched to machine mode as it opens.

``/commands.json`` tells the page the command words it needs as the server names them
(`PAGE_COMMANDS`), so the page keeps no copy of them.

Each WebSocket connection is a `LineConnection` (the telnet and line ports' budgets,
framing, output queue and idle limit) whose bytes on the wire are whole WebSocket frames.
"""

from __future__ import annotations

import ipaddress
import json
from pathlib import Path

from autobahn.twisted.resource import WebSocketResource
from autobahn.twisted.websocket import WebSocketServerFactory, WebSocketServerProtocol
from autobahn.websocket.protocol import PreparedMessage
from autobahn.websocket.types import ConnectionDeny
from twisted.internet.interfaces import IReactorTime
from twisted.web.pages import notFound
from twisted.web.resource import IResource
from twisted.web.server import Site
from twisted.web.static import Data, File

from bswtichu.config import ServerConfig
from bswtichu.net import mud
from bswtichu.net.accept import TimedRequest
from bswtichu.net.lines import CLOSE_TIMEOUT, LineConnection
from bswtichu.realm import SECOND_HAND_WORDS, SECRET_COMMANDS, Realm, Told

TERMINAL = "terminal.mudstandards.org"
GMCP = "gmcp.mudstandards.org"
MACHINE = "bswtichu.machine"
#: the subprotocols in the server's order of preference (a client offering several gets the first)
SUBPROTOCOLS = (GMCP, TERMINAL, MACHINE)
#: where the page's files are (package data, see setup.cfg)
STATIC_FOLDER = Path(__file__).resolve().parent.parent / "web" / "static"
#: the path of the WebSocket endpoint
WS_PATH = b"ws"
#: the path of the command words the page reads as it starts (`PAGE_COMMANDS`)
COMMANDS_PATH = b"commands.json"
#: the commands whose arguments the page keeps out of its log and history, and the names of
#: the command that marks a line for a further hand (its buttons for that hand)
PAGE_COMMANDS = {"secret": sorted(SECRET_COMMANDS), "second_hand": list(SECOND_HAND_WORDS)}
#: sent with every HTTP answer: the page may load only its own files and talk only to this server
SECURITY_HEADERS = {
    b"Content-Security-Policy": b"default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:;"
                                b" object-src 'none'; base-uri 'none'; frame-ancestors 'none';"
                                b" form-action 'none'",
    b"X-Content-Type-Options": b"nosniff",
    b"Referrer-Policy": b"no-referrer",
    b"X-Frame-Options": b"DENY",
    b"Server": b"bswtichu",  # (twisted.web would name itself and its version)
}
#: the hosts a page served by this listener may come from without an ``origins`` setting
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")


def frame(payload: bytes, binary: bool) -> bytes:
    """One unmasked, uncompressed WebSocket data frame (a server's frame) holding ``payload``."""
    return PreparedMessage(payload, binary, applyMask=False, doNotCompress=True).payloadHybi


class FrameLines(LineConnection):
    """One WebSocket connection's lines: each frame from the client is a line, each line (or
    batch of lines) out is a frame. ``transport`` is the socket under the WebSocket (set when
    the WebSocket opens); ``websocket`` the autobahn protocol that reads the frames."""

    kind = "websocket"  # made by the WebSocket factory, not by a LobbyFactory of the registry

    def __init__(self, websocket: WebSocketSession, subprotocol: str, lobby: Realm,
                 config: ServerConfig, clock: IReactorTime) -> None:
        super().__init__(lobby, config, clock)
        self.websocket = websocket
        self.subprotocol = subprotocol
        self.for_people = subprotocol != MACHINE  # the terminal and GMCP subprotocols: browsers, web MUD clients
        #: the language the page asked for (``/ws?lang=de``, its browser's): its greeting's too
        self.language = ""
        self.transport = None

    def encode_lines(self, lines: list[str]) -> bytes:
        if not lines:
            return b""
        if self.subprotocol == MACHINE:
            return b"".join(frame(line.encode("utf-8"), False) for line in lines)
        return frame("".join(line + "\r\n" for line in lines).encode("utf-8"), True)

    def open(self, transport) -> None:
        """The WebSocket is open on ``transport``: greet the client, as every port does."""
        self.transport = transport
        # twisted.web's HTTP channel was the socket's producer until the WebSocket took it over
        transport.unregisterProducer()
        self.start()
        session = self.session
        if session is None or session.closed:
            return
        if self.subprotocol == MACHINE:
            self.lobby.receive(session, "/mode machine")
        else:
            session.default_colour = True
        if self.subprotocol == GMCP:
            session.also_sent = self._also_send
            session.hide_input = self._hide_input

    def frame_received(self, payload: bytes, binary: bool) -> None:
        """A frame from the client: an input line, or (TEXT on the GMCP subprotocol) GMCP."""
        self.charge_input(len(payload))
        if self.subprotocol == GMCP and not binary:
            hint = mud.hello_language(payload[:4096].decode("utf-8", "replace"))
            if hint and self.session is not None:  # Core.Hello naming a language; the rest is not acted on
                self.session.language_hint(hint)
            return
        self.bytes_received(payload.rstrip(b"\r\n") + b"\n")

    @staticmethod
    def _hide_input(hidden: bool) -> None:
        """A GMCP client hides what is typed itself while the last ``Tichu.PasswordWanted``
        is unanswered (there is no echo to steer): setting this lets the server ask so."""

    def _also_send(self, message: Told, droppable: bool) -> None:
        self.send_bytes(frame(mud.gmcp_text(message).encode("utf-8"), False), droppable)

    def close(self) -> None:
        """Send what is queued, then the WebSocket's close frame (or cut off after CLOSE_TIMEOUT)."""
        if self.transport is None or self._abort_call is not None:
            return
        if self._output is not None:
            self._output.flush()
            if self._producing:
                self._producing = False
                self.socket_transport().unregisterProducer()
        self.websocket.sendClose(1000)
        self._abort_call = self.clock.callLater(CLOSE_TIMEOUT, self._abort)


class WebSocketSession(WebSocketServerProtocol):
    """The autobahn side of one connection: the handshake (Origin, subprotocol), then frames
    to and from its `FrameLines`."""

    lines: FrameLines | None = None

    def onConnect(self, request) -> str | None:
        factory = self.factory
        if request.origin and request.origin != "null" and not factory.origin_allowed(request.origin, self):
            raise ConnectionDeny(403, f"origin {request.origin} is not allowed on this server")
        offered = [protocol for protocol in SUBPROTOCOLS if protocol in request.protocols]
        if request.protocols and not offered:
            raise ConnectionDeny(400, f"no subprotocol this server speaks; it speaks {', '.join(SUBPROTOCOLS)}")
        chosen = offered[0] if offered else TERMINAL
        config = factory.config.for_line_port() if chosen == MACHINE else factory.config
        self.lines = FrameLines(self, chosen, factory.lobby, config, factory.clock)
        self.lines.language = (request.params.get("lang") or [""])[0][:32]
        return chosen if offered else None

    def onOpen(self) -> None:
        self.lines.open(self.transport)  # type: ignore[union-attr]  # made in onConnect, which came first

    def onMessage(self, payload: bytes, isBinary: bool) -> None:
        self.lines.frame_received(payload, isBinary)  # type: ignore[union-attr]  # frames come while open

    def onClose(self, wasClean: bool, code: int | None, reason: str | None) -> None:
        if self.lines is not None and self.lines.transport is not None:
            lines, self.lines = self.lines, None
            lines.stop()


class LobbyWebSocketFactory(WebSocketServerFactory):
    """Builds a WebSocketSession per upgraded request; knows the lobby, the limits, the origins."""

    protocol = WebSocketSession

    def __init__(self, lobby: Realm, config: ServerConfig, clock: IReactorTime) -> None:
        super().__init__()
        self.lobby = lobby
        self.config = config
        self.clock = clock
        self.origins = frozenset(config.websocket_origins.split())
        # a frame longer than any line budget is refused by autobahn itself (close code 1009);
        # a shorter one over max_line_length gets the usual ERROR line_too_long
        largest = max(config.byte_burst, config.line_byte_burst)
        self.setProtocolOptions(maxFramePayloadSize=largest, maxMessagePayloadSize=largest)

    def origin_allowed(self, origin: str, protocol: WebSocketSession) -> bool:
        """Whether a page from ``origin`` may connect: one of the ``origins`` setting ("*": any);
        without that setting, this listener's own address or a name for this machine."""
        if self.origins:
            return "*" in self.origins or origin.rstrip("/") in self.origins
        host = protocol.transport.getHost()  # type: ignore[union-attr]  # its handshake: it is connected
        port = getattr(host, "port", None)
        hosts = list(LOCAL_HOSTS)
        address = getattr(host, "host", "")
        if address:
            try:
                ip = ipaddress.ip_address(address)
            except ValueError:
                pass
            else:
                hosts.append(f"[{ip}]" if ip.version == 6 else str(ip))
        return origin.rstrip("/") in {f"{scheme}://{name}:{port}" for scheme in ("http", "https")
                                      for name in hosts}


class StaticFiles(File):
    """The page's files: no directory listings, and the content types browsers insist on for
    JavaScript modules and style sheets (with ``nosniff``)."""

    contentTypes = {
        **File.contentTypes,
        ".html": "text/html; charset=utf-8",
        ".js": "text/javascript; charset=utf-8",
        ".mjs": "text/javascript; charset=utf-8",
        ".css": "text/css; charset=utf-8",
        ".json": "application/json",
        ".svg": "image/svg+xml",
        ".png": "image/png",
        ".ico": "image/x-icon",
    }
    childNotFound = notFound("No such page", "There is no such file here.")  # type: ignore[assignment]  # any resource serves

    def directoryListing(self) -> IResource:
        return self.childNotFound


class UpgradeResource(WebSocketResource):
    """autobahn's resource, which takes the socket over from twisted.web: the HTTP channel's
    idle timer is stopped first (it would fire on a channel that no longer has a socket)."""

    def render(self, request):
        request.channel.setTimeout(None)
        return super().render(request)


class WebSite(Site):
    """The listener: static files and ``/ws``, with the security headers on every answer."""

    noisy = False
    requestFactory = TimedRequest

    def getResourceFor(self, request):
        for name, value in SECURITY_HEADERS.items():
            request.setHeader(name, value)
        return super().getResourceFor(request)

    def log(self, request) -> None:
        """No access log: the server logs what matters itself."""


def WebSocketListener(lobby: Realm, config: ServerConfig, clock: IReactorTime) -> WebSite:
    """The factory for a ``websocket`` listener (the kind registry's entry)."""
    root = StaticFiles(str(STATIC_FOLDER))
    root.putChild(WS_PATH, UpgradeResource(LobbyWebSocketFactory(lobby, config, clock)))
    root.putChild(COMMANDS_PATH, Data(json.dumps(PAGE_COMMANDS).encode(), "application/json"))
    return WebSite(root)
