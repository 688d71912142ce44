"""The telnet port for people: telnet clients and MUD clients.

``TelnetTransport`` (twisted.conch.telnet) parses IAC and negotiates. At connect
the server offers WILL GMCP, WILL MSSP, WILL EOR, DO NAWS and DO TTYPE; it
accepts DO SGA; every other option is refused (Twisted's default). A client that
refuses everything (plain telnet) gets exactly the text it got before. What the
options mean is in ``mud.py``.

Output goes to the socket under the telnet transport, not through
``TelnetTransport.write``: this protocol writes CR LF itself, and GMCP, MSSP and
prompt endings are telnet commands that must not be escaped. UTF-8 text never
contains the byte 0xFF, so text needs no IAC doubling.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from twisted.conch.telnet import (
    ECHO, IAC, AlreadyDisabled, AlreadyEnabled, AlreadyNegotiating, OptionRefused, TelnetProtocol,
    TelnetTransport,
)
from twisted.internet.error import ConnectionDone, ConnectionLost
from twisted.python.failure import Failure

from bswtichu import __version__
from bswtichu.net import mud, tls
from bswtichu.net.lines import LineConnection, LobbyFactory
from bswtichu.realm import Told

# Longest subnegotiation payload kept; longer ones are skipped up to their IAC SE.
# Below Twisted's own cap (which hangs up), so that cap is never reached.
MAX_SUBNEGOTIATION = 1024
#: The options we do whose state the client's profile keeps, by the profile's flag.
LOCAL_FLAGS = {mud.GMCP: "gmcp", mud.EOR: "eor", mud.SGA: "sga"}


class LenientTelnetTransport(TelnetTransport):
    """A TelnetTransport that survives anything a client sends.

    Input is charged to the connection's byte budget before it is parsed. It is
    then fed to Twisted's parser in pieces cut at every IAC, so a piece that makes
    the parser stumble (IAC followed by a byte that is no telnet command) holds
    only that command: it is skipped and not a byte of text is lost. Empty and
    overlong subnegotiations are skipped too. The first trouble is logged (as a
    warning), nothing after it on the same connection. A CR at the end of a chunk is passed on at once (a line end)
    rather than held until the next byte shows whether LF or NUL follows; that
    byte is then swallowed.
    """

    _swallow_after_cr = False

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._oversized = False  # the subnegotiation being read passed MAX_SUBNEGOTIATION
        self._reported = False  # telnet trouble is logged once per connection

    def dataReceived(self, data: bytes) -> None:
        if self.protocol is not None:
            self.protocol.charge_input(len(data))
        if self._swallow_after_cr and data:
            self._swallow_after_cr = False
            if data[:1] in (b"\n", b"\0"):
                data = data[1:]
        start = 0
        while start < len(data):
            if self.state == "escaped":  # the byte after an IAC: a piece of its own
                self._parse(data[start : start + 1])
                start += 1
                continue
            at = data.find(IAC, start)
            if at < 0:
                self._parse(data[start:])
                break
            if at > start:
                self._parse(data[start:at])
            else:
                self._parse(data[at : at + 2])
                start = at + 2
                continue
            start = at
        if self.state == "newline":
            self.state = "data"
            self._swallow_after_cr = True
            self.applicationDataReceived(b"\r")

    def connectionLost(self, reason: Failure | None = None) -> None:
        """Pending option offers fail with ``reason``, which must be a Failure."""
        super().connectionLost(reason if reason is not None else Failure(ConnectionDone()))

    def _parse(self, piece: bytes) -> None:
        """Feed one piece (text without IAC, or IAC and the byte after it) to Twisted."""
        if self.state == "subnegotiation" and IAC not in piece:
            room = MAX_SUBNEGOTIATION - len(self.commands)
            if len(piece) > room:
                self._oversized = True
                piece = piece[: max(room, 0)]
        try:
            super().dataReceived(piece)
        except ValueError:
            self._report("unknown telnet command skipped")
            self.state = "data"
        if self.state.startswith("subnegotiation") and len(self.commands) > MAX_SUBNEGOTIATION:
            self._oversized = True
            del self.commands[MAX_SUBNEGOTIATION:]

    def negotiate(self, data: list[bytes]) -> None:
        if self._oversized:
            self._oversized = False
            self._report(f"telnet subnegotiation over {MAX_SUBNEGOTIATION} bytes skipped")
        elif not data:
            self._report("empty telnet subnegotiation skipped")
        else:
            super().negotiate(data)

    def _report(self, text: str) -> None:
        if not self._reported:
            self._reported = True
            self._log.warn("{peer}: {text} (the first of any telnet trouble; not logged again"
                           " for this connection)",
                           peer=self.getPeer() if self.transport else "?", text=text)


class HumanTelnetProtocol(LineConnection, TelnetProtocol):
    """Lines from a telnet client, text back with CRLF; MUD options on top.

    TelnetTransport has already made CR LF an LF and CR NUL a CR, so every CR and
    LF that reaches this protocol ends a line of its own. ``profile`` is what the
    client told us; it sets the session's default width and colour, and whether
    messages also go as GMCP and prompts end in GA or EOR.
    """

    merges_crlf = False
    #: the telnet layer it sits behind (set as it connects, before any event reaches it)
    transport: LenientTelnetTransport  # type: ignore[assignment]  # it declares no ITransport, yet is one
    factory: TelnetFactory

    def socket_transport(self) -> Any:
        """The transport under the telnet layer (TCP or a UNIX socket, or TLS over one)."""
        return self.transport.transport

    # What the server offers at connect: (option, asks the client to do it).
    OFFERS = ((mud.GMCP, False), (mud.MSSP, False), (mud.EOR, False),
              (mud.NAWS, True), (mud.TTYPE, True))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.profile = mud.ClientProfile()
        self._hiding = False  # a password is being typed: we "echo", and echo nothing

    def encode_lines(self, lines: list[str]) -> bytes:
        return self._encode("".join(line + "\r\n" for line in lines))

    def _encode(self, text: str) -> bytes:
        """Text in the client's encoding (``ClientProfile.encoding``). In Latin-1 a
        character it lacks becomes ``?``, and the byte 255 (``ÿ``) is doubled, as telnet
        wants data bytes that equal IAC; UTF-8 never makes that byte."""
        if self.profile.encoding() == "utf-8":
            return text.encode("utf-8")
        return text.encode("latin-1", "replace").replace(IAC, IAC + IAC)

    def connectionMade(self) -> None:
        """Offer the options first (before the greeting), then greet as every port does.

        The client's GMCP is read for its hello's language (``Core.Hello``), its NEW-ENVIRON
        answer for ``LANG``; other subnegotiations are left to TelnetProtocol, which ignores them.
        """
        telnet = self.transport
        telnet.negotiationMap[mud.NAWS] = self._naws
        telnet.negotiationMap[mud.TTYPE] = self._ttype
        telnet.negotiationMap[mud.NEW_ENVIRON] = self._environ
        telnet.negotiationMap[mud.GMCP] = self._gmcp
        for option, theirs in self.OFFERS:
            offer = telnet.do(option) if theirs else telnet.will(option)
            offer.addCallbacks(self._agreed, self._refused, callbackArgs=(option,))
        super().connectionMade()
        if self.session is not None:
            self.session.also_sent = self._also_send
            self.session.hide_input = self._hide_input

    # -- negotiation ------------------------------------------------------------

    def _agreed(self, _: object, option: bytes) -> None:
        self.profile.negotiated = True
        if option == mud.MSSP:
            self.send_bytes(mud.mssp_payload(self.factory.mssp_variables(self)))
        elif option == mud.TTYPE:
            self._ask_ttype()
        self._update_session()

    @staticmethod
    def _refused(failure: Failure) -> None:
        """A refused offer (or a connection gone before the answer) changes nothing."""
        failure.trap(OptionRefused, AlreadyNegotiating, AlreadyEnabled, AlreadyDisabled, ConnectionDone,
                     ConnectionLost)

    def enableLocal(self, option: bytes) -> bool:
        self._set_local(option, True)
        return option in (mud.GMCP, mud.EOR, mud.SGA, mud.MSSP) or (option == ECHO and self._hiding)

    def enableRemote(self, option: bytes) -> bool:
        """NAWS and TTYPE (offered); NEW-ENVIRON when the client offers it (WILL NEW-ENVIRON):
        once our DO has gone, it is asked for ``LANG``. (The server does not offer NEW-ENVIRON
        itself: what it sends a plain telnet client stays as it was.)"""
        if option == mud.NEW_ENVIRON:
            self.clock.callLater(0, self._ask_environ)
            return True
        return option in (mud.NAWS, mud.TTYPE)

    def _ask_environ(self) -> None:
        if self.transport.getOptionState(mud.NEW_ENVIRON).him.state == "yes":
            self.send_bytes(mud.environ_request())

    def disableLocal(self, option: bytes) -> None:
        self._set_local(option, False)

    def _set_local(self, option: bytes, on: bool) -> None:
        """Note in the client's profile whether an option we do (GMCP, EOR, SGA) is now on."""
        flag = LOCAL_FLAGS.get(option)
        if flag is not None:
            setattr(self.profile, flag, on)

    def disableRemote(self, option: bytes) -> None:
        if option == mud.NAWS:
            self.profile.width = None
            self._update_session()

    def _naws(self, payload: list[bytes]) -> None:
        if self.session is not None:
            self.profile.take_naws(b"".join(payload), self.session.widths)
            self._update_session()

    def _ttype(self, payload: list[bytes]) -> None:
        if self.profile.take_ttype(b"".join(payload)):
            self._ask_ttype()
        self._update_session()

    def _environ(self, payload: list[bytes]) -> None:
        """The client's environment: its ``LANG`` chooses the language (unless the person did)."""
        hint = mud.environ_values(b"".join(payload)).get("LANG")
        if hint and self.session is not None:
            self.session.language_hint(hint)

    def _gmcp(self, payload: list[bytes]) -> None:
        """The client's own GMCP: a hello that names a language chooses it."""
        hint = mud.hello_language(b"".join(payload)[:4096].decode("utf-8", "replace"))
        if hint and self.session is not None:
            self.session.language_hint(hint)

    def _ask_ttype(self) -> None:
        if self.transport.getOptionState(mud.TTYPE).him.state == "yes":
            self.send_bytes(mud.subnegotiation(mud.TTYPE, mud.TTYPE_SEND))

    def _update_session(self) -> None:
        if self.session is not None:
            self.session.default_width = self.profile.default_width()
            self.session.default_colour = self.profile.colour()

    def _hide_input(self, hidden: bool) -> None:
        """Ask the client not to show what is typed (a password), or to show it again.

        The classic telnet way (RFC 857): the server says WILL ECHO, so the client
        stops echoing locally, and echoes nothing; WONT ECHO gives the echo back.
        A client that refuses keeps showing what it types, to its own user only.
        The session asks for the echo back before its reply to the password line.
        """
        if hidden == self._hiding:
            return
        self._hiding = hidden
        self._steer_echo()

    def _steer_echo(self, _: object = None) -> None:
        """Bring the ECHO option to what ``_hiding`` wants; while an offer is out, again once it is answered."""
        telnet = self.transport
        ours = telnet.getOptionState(ECHO).us
        if ours.negotiating:
            return
        if self._hiding and ours.state == "no":
            telnet.will(ECHO).addCallbacks(self._steer_echo, self._refused)
        elif not self._hiding and ours.state == "yes":
            telnet.wont(ECHO).addCallbacks(self._steer_echo, self._refused)

    # -- what goes with each message ----------------------------------------------

    def _also_send(self, message: Told, droppable: bool) -> None:
        if self.profile.gmcp:
            self.send_bytes(mud.gmcp_package(message), droppable)
        session = self.session
        # Prompts only for MUD clients: in plain telnet the next line would run on after it.
        if message.keyword not in mud.PROMPTING or session is None or not self.profile.mud_client():
            return
        prompt = mud.prompt_text(message, session.nick, session.seated)
        # last in the step (after a pushed LEGAL, say); a TURN or PHASE that asks him nothing
        # takes back a prompt not yet sent: the question moved on
        session.prompt_last(None if prompt is None else partial(
            self.send_bytes, self._encode(prompt) + mud.prompt_end(self.profile)))


class TelnetFactory(LobbyFactory):
    """Builds a telnet transport with a HumanTelnetProtocol behind it per connection."""

    kind = "telnet"  # the registry's name for it (`ListenerKind.build` sets the same)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.started = int(self.clock.seconds())

    def mssp_variables(self, protocol: HumanTelnetProtocol) -> dict[str, str | list[str]]:
        """What MSSP tells a crawler: the server, its players and uptime, what it speaks."""
        host = protocol.socket_transport().getHost()
        return {
            "NAME": "bswtichu",
            "PLAYERS": str(len(self.lobby.online())),
            "UPTIME": str(self.started),
            "CODEBASE": f"bswtichu {__version__}",
            "HOSTNAME": str(getattr(host, "host", "")),
            "PORT": str(getattr(host, "port", "")),
            "LANGUAGE": "English",
            "FAMILY": "Custom",
            "GENRE": "None",
            "GAMEPLAY": "Board game",
            "GAMESYSTEM": "Tichu",
            "STATUS": "Live",
            "CRAWL DELAY": "-1",
            "ANSI": "1",
            "GMCP": "1",
            "MSSP": "1",
            "UTF-8": "1",
            "XTERM 256 COLORS": "0",
            **self.tls_variables(),
        }

    def tls_variables(self) -> dict[str, str]:
        """The telnet TLS port, as Mudlet reads it (``TLS``, and the older ``SSL``), if there is one."""
        port = tls.tls_port(self.config.endpoints_of("telnet"))
        return {} if port is None else {"TLS": str(port), "SSL": str(port)}

    def buildProtocol(self, addr: object) -> LenientTelnetTransport:
        transport = LenientTelnetTransport(HumanTelnetProtocol, self.lobby, self.config, self.clock)
        transport.factory = self
        return transport
