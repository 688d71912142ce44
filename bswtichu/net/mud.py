"""Telnet options for MUD clients: what the client is, how wide, and what else it reads.

Pure values and byte builders, no Twisted: ``HumanTelnetProtocol`` (telnet.py)
negotiates through ``twisted.conch.telnet`` and hands the subnegotiation
payloads here. Options and their codes:

- NAWS (31): the window size, two 16-bit big-endian numbers; the width wraps
  human text.
- TTYPE (24) with MTTS: asked up to three times; the answers are the client's
  name, its terminal type, and ``MTTS <bits>`` (what it supports: colour, UTF-8;
  a client whose MTTS lacks the UTF-8 bit gets its text in Latin-1).
- GMCP (201): ``Package.Name <json>``; every message a GMCP client is sent also
  goes as the package ``Tichu.<Keyword>`` with the machine-mode fields
  (``gmcp_package``).
- MSSP (70): the server's facts for MUD listing crawlers (``mssp_payload``).
- EOR (25), SGA (3): how a prompt ends: IAC EOR if the client agreed to EOR,
  nothing if it suppresses go-ahead, IAC GA otherwise.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from bswtichu.realm import Told

SGA = b"\x03"
TTYPE = b"\x18"
EOR = b"\x19"
NAWS = b"\x1f"
MSSP = b"\x46"
GMCP = b"\xc9"
#: RFC 1572's NEW-ENVIRON: the client tells its environment (its ``LANG``, MNES's variables)
NEW_ENVIRON = b"\x27"
ENV_IS, ENV_SEND, ENV_INFO = b"\x00", b"\x01", b"\x02"
ENV_VAR, ENV_VALUE, ENV_ESC, ENV_USERVAR = 0, 1, 2, 3

IAC, SB, SE, GA, EOR_MARK = b"\xff", b"\xfa", b"\xf0", b"\xf9", b"\xef"
TTYPE_IS, TTYPE_SEND = b"\x00", b"\x01"
MSSP_VAR, MSSP_VAL = b"\x01", b"\x02"

# How many TTYPE answers are asked for: name, terminal, MTTS (the MTTS convention).
TTYPE_ROUNDS = 3
# MTTS bits (https://tintin.mudhalla.net/protocols/mtts/): ANSI colour, and UTF-8.
MTTS_ANSI = 1
MTTS_UTF8 = 4
# The width for a client that speaks telnet options but did not report its own.
DEFAULT_WIDTH = 80
# Client names (the first TTYPE answer) that show ANSI colour without saying so in MTTS.
COLOUR_CLIENTS = ("MUDLET", "TINTIN++", "MUSHCLIENT", "ZMUD", "CMUD", "BLOWTORCH", "MUDRAMMER")


@dataclass
class ClientProfile:
    """What one telnet client told us about itself (all empty for plain telnet)."""

    names: list[str] = field(default_factory=list)  # TTYPE answers in order (upper case)
    mtts: int | None = None
    width: int | None = None  # from NAWS
    height: int | None = None
    gmcp: bool = False
    eor: bool = False
    sga: bool = False  # the client suppresses go-ahead: no GA after prompts
    negotiated: bool = False  # the client agreed to at least one option

    @property
    def client(self) -> str:
        """The client's name as it gave it ("" if it did not)."""
        return self.names[0] if self.names else ""

    def colour(self) -> bool:
        """Whether the client says (MTTS) or is known (its name) to show ANSI colour."""
        if self.mtts is not None:
            return bool(self.mtts & MTTS_ANSI)
        return any(self.client.startswith(name) for name in COLOUR_CLIENTS)

    def encoding(self) -> str:
        """UTF-8, unless the client's MTTS says it does not use it: then Latin-1, which
        the MUD clients that predate UTF-8 show. Without MTTS: UTF-8 (today's terminals)."""
        if self.mtts is not None and not self.mtts & MTTS_UTF8:
            return "latin-1"
        return "utf-8"

    def mud_client(self) -> bool:
        """Whether the client is a MUD client (it reads prompts): it agreed to GMCP or EOR,
        sent MTTS, or named itself as one. Plain telnet agrees only to NAWS and TTYPE."""
        return self.gmcp or self.eor or self.mtts is not None or any(
            self.client.startswith(name) for name in COLOUR_CLIENTS)

    def default_width(self) -> int | None:
        """NAWS's width, else 80 for a client that negotiates, else None (no wrapping)."""
        if self.width is not None:
            return self.width
        return DEFAULT_WIDTH if self.negotiated else None

    def take_naws(self, payload: bytes, widths: range) -> None:
        """A NAWS report; a width outside ``widths`` (those text can be wrapped to) or a short
        payload is ignored."""
        if len(payload) != 4:
            return
        width, height = int.from_bytes(payload[:2], "big"), int.from_bytes(payload[2:], "big")
        self.height = height
        self.width = width if width in widths else None

    def take_ttype(self, payload: bytes) -> bool:
        """A TTYPE IS answer; True if another SEND should follow."""
        if payload[:1] != TTYPE_IS or len(self.names) >= TTYPE_ROUNDS:
            return False
        name = payload[1:65].decode("ascii", "replace").strip().upper()
        if not name:
            return False
        if self.names and name == self.names[-1]:
            return False  # a client without more answers repeats the last one
        self.names.append(name)
        if name.startswith("MTTS "):
            number = name[5:].strip()
            if number.isdigit() and len(number) <= 9:
                self.mtts = int(number)
            return False
        return len(self.names) < TTYPE_ROUNDS


def environ_request() -> bytes:
    """NEW-ENVIRON SEND for the variables the server reads: ``LANG`` (as a user variable,
    where telnet clients put it, and as a well-known one, where MNES clients may)."""
    return subnegotiation(NEW_ENVIRON, ENV_SEND + bytes([ENV_USERVAR]) + b"LANG" + bytes([ENV_VAR]) + b"LANG")


def environ_values(payload: bytes) -> dict[str, str]:
    """The variables of a NEW-ENVIRON IS or INFO answer (RFC 1572: VAR or USERVAR, a name,
    VALUE, a value; ESC quotes the next byte), names in upper case; anything else: none."""
    if payload[:1] not in (ENV_IS, ENV_INFO):
        return {}
    found: dict[str, str] = {}
    name: bytearray | None = None
    value: bytearray | None = None
    data = iter(payload[1:2048])
    for byte in data:
        if byte in (ENV_VAR, ENV_USERVAR):
            if name is not None and value is not None:
                found[name.decode("ascii", "replace").upper()] = value.decode("utf-8", "replace")
            name, value = bytearray(), None
        elif byte == ENV_VALUE:
            value = bytearray()
        else:
            if byte == ENV_ESC:
                byte = next(data, 0)
            if value is not None:
                value.append(byte)
            elif name is not None:
                name.append(byte)
    if name is not None and value is not None:
        found[name.decode("ascii", "replace").upper()] = value.decode("utf-8", "replace")
    return found


def hello_language(gmcp: str) -> str | None:
    """The language a client's GMCP hello names: ``Core.Hello {"language": "de"}`` (also
    ``lang``), or ``Core.Language "de"``; None for any other package or none given."""
    package, _space, body = gmcp.strip().partition(" ")
    if package.lower() not in ("core.hello", "core.language") or len(body) > 4096:
        return None
    try:
        data = json.loads(body)
    except ValueError:
        return None
    if isinstance(data, dict):
        data = data.get("language", data.get("lang"))
    return data if isinstance(data, str) else None


def subnegotiation(option: bytes, payload: bytes) -> bytes:
    """IAC SB option payload IAC SE, with IAC in the payload doubled."""
    return IAC + SB + option + payload.replace(IAC, IAC + IAC) + IAC + SE


def package_name(keyword: str) -> str:
    """GMCP package for a message keyword: ``Tichu.`` and the keyword in CamelCase."""
    return "Tichu." + "".join(part.capitalize() for part in keyword.split("_"))


def gmcp_text(message: Told) -> str:
    """The message as GMCP says it: ``Package.Name`` and its machine-mode fields as compact JSON
    (the telnet port wraps it in a subnegotiation, the WebSocket port sends it as a TEXT frame)."""
    payload = json.dumps(message.fields, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"{package_name(message.keyword)} {payload}"


def gmcp_package(message: Told) -> bytes:
    """The message as one GMCP subnegotiation: its package and its machine-mode fields."""
    return subnegotiation(GMCP, gmcp_text(message).encode("utf-8"))


def mssp_payload(variables: dict[str, str | list[str]]) -> bytes:
    """MSSP_VAR name MSSP_VAL value ... (a list gives one VAL per item), as a subnegotiation."""
    body = b""
    for name, value in variables.items():
        body += MSSP_VAR + name.encode("ascii")
        for item in value if isinstance(value, list) else [value]:
            body += MSSP_VAL + str(item).encode("utf-8")
    return subnegotiation(MSSP, body)


def prompt_end(profile: ClientProfile) -> bytes:
    """What ends a prompt: IAC EOR, nothing (SGA), or IAC GA."""
    if profile.eor:
        return IAC + EOR_MARK
    if profile.sga:
        return b""
    return IAC + GA


#: the prompt's word for each thing a player is asked (a turn's need, or the phase)
PROMPT_WORDS = {"grand": "grand", "exchange": "schupf"}
#: the messages that may ask a player something, so may bring or take back his prompt
PROMPTING = ("TURN", "PHASE", "CLOCK")


def prompt_text(message: Told, nick: str | None, seated: bool) -> str | None:
    """The prompt after ``message`` if it asks this player something, else None.

    TURN asks the player it names (or ``by``, who plays that hand with ``command``: Trichu's
    dealer the dummy's, prompted ``dummy lead> ``; a Duo player his second hand's,
    ``second lead> ``); PHASE ``grand`` and ``exchange`` ask every seated player (but one it
    says is not ``asked``: Trichu's dealer at Grand Tichu); CLOCK
    (the turn clock's warning) asks again the player it is sent to.  The message's sentence has just said what is asked and how to
    answer: the prompt only marks the place to type, with the one word a
    trigger needs (``lead> ``, ``grand> ``), and on a table with a turn clock
    the seconds left when it was asked (``lead 30s> ``).
    """
    fields = message.fields
    if message.keyword == "TURN" and nick is not None and fields.get("by") == nick:  # his second hand's
        return _prompt(f"{fields.get('command', 'dummy')} {fields.get('need', 'play')}", fields.get("clock"))
    if message.keyword == "TURN" and nick is not None and fields.get("player") == nick:
        return _prompt(fields.get("need", "play"), fields.get("clock"))
    if message.keyword == "PHASE" and seated and fields.get("phase") in PROMPT_WORDS and fields.get("asked", True):
        return _prompt(PROMPT_WORDS[fields["phase"]], fields.get("clock"))
    if message.keyword == "CLOCK" and seated:
        need = fields.get("need", "play")
        return _prompt(PROMPT_WORDS.get(need, need), fields.get("seconds"))
    return None


def _prompt(word: str, seconds: object) -> str:
    return f"{word}> " if seconds is None else f"{word} {seconds}s> "
