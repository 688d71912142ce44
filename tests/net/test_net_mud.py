"""MUD clients on the telnet port: option negotiation, GMCP, MSSP, prompts, width, colour.

Raw clients over StringTransport speak each option byte by byte (or refuse them
all, as plain telnet does); a whole game is played by a GMCP client against three
bots on a fake clock, every package checked against the fields documented in
docs/PROTOCOL.md and for secrecy.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from twisted.conch.telnet import DO, DONT, ECHO, IAC, SB, SE, WILL, WONT
from twisted.internet.address import IPv4Address
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

from bswtichu.config import ServerConfig
from bswtichu.server.tables.wiring import GameWiring
from bswtichu.server.games.logs import GameLogStore
from bswtichu.service import build_lobby
from bswtichu.server.text.messages import Message
from bswtichu.net import mud
from bswtichu.net.telnet import TelnetFactory
from bswtichu.server.text.render import CARD_TEXT, machine_line, render

from telnet_bytes import split_telnet

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"
OFFERS = {IAC + WILL + mud.GMCP, IAC + WILL + mud.MSSP, IAC + WILL + mud.EOR,
          IAC + DO + mud.NAWS, IAC + DO + mud.TTYPE}


class MudWire:
    """A telnet client on a StringTransport that sees text, subnegotiations and commands."""

    def __init__(self, factory: TelnetFactory) -> None:
        self.transport = StringTransport(peerAddress=IPv4Address("TCP", "192.0.2.7", 40000),
                                         hostAddress=IPv4Address("TCP", "127.0.0.1", 4242))
        self.protocol = factory.buildProtocol(None)
        self.protocol.makeConnection(self.transport)
        self.text = b""
        self.subs: list[tuple[bytes, bytes]] = []
        self.commands: list[bytes] = []

    @property
    def connection(self):
        return self.protocol.protocol

    def send(self, data: bytes) -> None:
        self.protocol.dataReceived(data)

    def say(self, line: str) -> None:
        self.send(line.encode("utf-8") + b"\r\n")

    def read(self) -> bytes:
        """Takes what the server wrote since the last read; returns its text."""
        data = self.transport.value()
        self.transport.clear()
        text, subs, commands = split_telnet(data)
        self.text += text
        self.subs += subs
        self.commands += commands
        return text

    def lines(self) -> list[str]:
        return self.read().decode("utf-8").split("\r\n")[:-1]

    def gmcp(self) -> list[tuple[str, dict]]:
        packages = []
        for option, payload in self.subs:
            if option == mud.GMCP:
                name, _, body = payload.decode("utf-8").partition(" ")
                packages.append((name, json.loads(body)))
        return packages

    def agree_to_everything(self, width: int = 60, height: int = 24) -> None:
        self.send(IAC + DO + mud.GMCP + IAC + DO + mud.MSSP + IAC + DO + mud.EOR
                  + IAC + WILL + mud.NAWS
                  + IAC + SB + mud.NAWS + width.to_bytes(2, "big") + height.to_bytes(2, "big") + IAC + SE
                  + IAC + WILL + mud.TTYPE)


@pytest.fixture
def mud_client(lobby, config, clock):
    factory = TelnetFactory(lobby, config, clock)
    return lambda: MudWire(factory)


# -- negotiation --------------------------------------------------------------


def test_the_server_offers_its_options_before_the_greeting(mud_client):
    wire = mud_client()
    data = wire.transport.value()
    assert set(wire.commands) == set() and wire.read().startswith(b"Welcome to bswtichu")
    assert set(wire.commands) == OFFERS
    assert data.index(b"Welcome") > max(data.index(offer) for offer in OFFERS)


@pytest.mark.parametrize("answer", ["refuse", "silent"])
def test_plain_telnet_that_refuses_everything_gets_plain_text(mud_client, answer, lobby):
    wire = mud_client()
    wire.read()
    wire.commands.clear()
    if answer == "refuse":
        wire.send(IAC + DONT + mud.GMCP + IAC + DONT + mud.MSSP + IAC + DONT + mud.EOR
                  + IAC + WONT + mud.NAWS + IAC + WONT + mud.TTYPE)
    wire.say("/nick Ann")
    wire.say("/join")
    wire.say("/round 1")
    for _ in range(3):
        wire.say("/bot")
    data = wire.transport.value()
    lines = wire.lines()
    assert wire.commands == [] and wire.subs == []
    assert b"\xff" not in data and b"\x1b" not in data
    assert lines[0] == "You are now Ann."
    assert lobby.names.find("Ann").wrap_width() is None
    long_line = "x " * 100
    wire.say(long_line)
    assert wire.lines() == [f"[table 1] Ann: {long_line.strip()}"]  # not wrapped


def test_naws_sets_the_width_and_long_text_wraps(mud_client, lobby):
    wire = mud_client()
    wire.agree_to_everything(width=40)
    wire.say("/nick Ann")
    wire.read()
    words = " ".join(f"word{n}" for n in range(30))
    wire.say(words)
    lines = wire.lines()
    assert len(lines) > 1 and all(len(line) <= 40 for line in lines)
    assert " ".join(line.strip() for line in lines) == f"[lobby] Ann: {words}"
    wire.send(IAC + SB + mud.NAWS + b"\x00\x64\x00\x18" + IAC + SE)  # resized to 100
    wire.say(words)
    wider = wire.lines()
    assert len(wider) < len(lines) and all(len(line) <= 100 for line in wider)


def test_naws_with_a_doubled_iac_or_a_silly_width(mud_client, lobby):
    wire = mud_client()
    wire.agree_to_everything(width=80)
    wire.send(IAC + SB + mud.NAWS + b"\x00\x64\x00\xff\xff" + IAC + SE)  # 255 lines: IAC doubled
    assert (wire.connection.profile.width, wire.connection.profile.height) == (100, 255)
    wire.send(IAC + SB + mud.NAWS + b"\x01\x00\x00\x18" + IAC + SE)  # 256 columns: too wide
    wire.say("/nick Ann")
    assert lobby.names.find("Ann").wrap_width() == mud.DEFAULT_WIDTH
    wire.send(IAC + SB + mud.NAWS + b"\x00\x05" + IAC + SE)  # short: ignored
    wire.send(IAC + SB + mud.NAWS + b"\x00\xc8\x00\x18" + IAC + SE)  # 200
    assert lobby.names.find("Ann").wrap_width() == 200
    wire.send(IAC + WONT + mud.NAWS)
    assert lobby.names.find("Ann").wrap_width() == mud.DEFAULT_WIDTH


def test_ttype_is_asked_three_times_and_mtts_says_colour(mud_client, lobby):
    wire = mud_client()
    wire.send(IAC + WILL + mud.TTYPE)
    wire.read()
    send = (mud.TTYPE, mud.TTYPE_SEND)
    assert wire.subs == [send]
    for name, asked_again in ((b"Mudlet", True), (b"XTERM-256COLOR", True), (b"MTTS 137", False)):
        wire.subs.clear()
        wire.send(IAC + SB + mud.TTYPE + mud.TTYPE_IS + name + IAC + SE)
        wire.read()
        assert wire.subs == ([send] if asked_again else [])
    profile = wire.connection.profile
    assert profile.names == ["MUDLET", "XTERM-256COLOR", "MTTS 137"]
    assert profile.mtts == 137 and profile.colour()
    wire.say("/nick Ann")
    assert lobby.names.find("Ann").default_colour


def test_a_client_that_repeats_its_type_is_not_asked_again(mud_client):
    wire = mud_client()
    wire.send(IAC + WILL + mud.TTYPE)
    for _ in range(2):
        wire.send(IAC + SB + mud.TTYPE + mud.TTYPE_IS + b"xterm" + IAC + SE)
    wire.read()
    assert wire.subs.count((mud.TTYPE, mud.TTYPE_SEND)) == 2  # at WILL, after the first answer
    profile = wire.connection.profile
    assert profile.names == ["XTERM"] and not profile.colour()  # a terminal, not a MUD client


def test_mtts_without_the_ansi_bit_means_no_colour():
    profile = mud.ClientProfile(names=["TINTIN++"])
    assert profile.colour()
    profile.take_ttype(mud.TTYPE_IS + b"MTTS 4")
    assert profile.mtts == 4 and not profile.colour()  # UTF-8, but no ANSI bit


def test_mssp_answers_do_mssp_with_the_server_facts(mud_client, lobby, connect):
    connect("Bob")
    connect("Cy")
    wire = mud_client()
    wire.send(IAC + DO + mud.MSSP)
    wire.read()
    [(option, payload)] = wire.subs
    assert option == mud.MSSP
    pairs = {}
    for chunk in payload.split(mud.MSSP_VAR)[1:]:
        name, *values = chunk.split(mud.MSSP_VAL)
        pairs[name.decode()] = [v.decode() for v in values]
    assert pairs["NAME"] == ["bswtichu"] and pairs["PLAYERS"] == ["2"]
    assert pairs["PORT"] == ["4242"] and pairs["UPTIME"] == ["0"]  # the fake clock started at 0
    assert pairs["CODEBASE"][0].startswith("bswtichu ")
    assert {"GMCP", "MSSP", "ANSI", "UTF-8"} <= set(pairs)
    assert pairs["TLS"] == ["4244"] and pairs["SSL"] == ["4244"]  # the default config's telnet over TLS


def test_gmcp_carries_every_message_with_the_machine_fields(mud_client):
    wire = mud_client()
    wire.send(IAC + DO + mud.GMCP)
    wire.say("/nick Ann")
    wire.say("/nope")
    wire.read()
    packages = wire.gmcp()
    assert packages[0] == ("Tichu.Nick", {"nick": "Ann", "previous": None})
    assert packages[-1] == ("Tichu.Error", {"code": "unknown_command",
                                            "message": "unknown command /nope; /help lists the commands"})
    assert [name for name, _ in packages[1:-1]] == ["Tichu.ResumeToken"]  # a guest's, his alone
    wire.send(IAC + SB + mud.GMCP + b'Core.Hello {"client":"Mudlet"}' + IAC + SE)  # read, no answer
    assert wire.read() == b""


def test_gmcp_package_is_the_machine_line_under_a_package_name():
    message = Message("TRICK_WON", {"seat": 2, "player": "Bö", "leader": 3}, "text")
    payload = mud.gmcp_package(message)[3:-2].decode("utf-8")
    name, _, body = payload.partition(" ")
    assert name == "Tichu.TrickWon"
    assert body == machine_line(message).partition(" ")[2]


def test_dont_gmcp_stops_the_packages(mud_client):
    wire = mud_client()
    wire.send(IAC + DO + mud.GMCP)
    wire.send(IAC + DONT + mud.GMCP)
    wire.say("/nick Ann")
    wire.read()
    assert wire.gmcp() == []


# -- /width and /color ----------------------------------------------------------


def test_width_and_color_commands(mud_client, lobby):
    wire = mud_client()
    wire.say("/nick Ann")
    wire.read()
    wire.say("/width 30")
    assert wire.lines() == ["Display: text wraps at 30", "  columns; no colour (auto)."]
    wire.say("/width off")
    wire.say("/width 5")
    wire.say("/color on")
    assert wire.lines() == ["Display: text is not wrapped; no colour (auto).",
                            "error: N must be 20 to 250, not 5; usage: /width [N|off|auto]",
                            "Display: text is not wrapped; cards in colour."]
    wire.say("/color purple")
    assert wire.lines() == ["error: no choice 'purple'; usage: /color [on|off|auto]"]
    session = lobby.names.find("Ann")
    assert session.width == 0 and session.colour is True


def test_colour_is_for_cards_in_human_mode_only():
    message = Message("HAND", {"seat": 1, "cards": ["7j", "As", "Kp", "Tr", "MJ", "DR"]},
                      "Your cards: 7j As Kp Tr MJ DR (As you see)")
    [line] = render(message, "human", colour=True)
    assert line == ("Your cards: \x1b[32m7j\x1b[0m \x1b[90mAs\x1b[0m \x1b[34mKp\x1b[0m"
                    " \x1b[31mTr\x1b[0m \x1b[33mMJ\x1b[0m \x1b[1;31mDR\x1b[0m"
                    " (\x1b[90mAs\x1b[0m you see)")
    assert "\x1b" not in render(message, "machine", colour=True)[0]
    assert "\x1b" not in render(message, "relay", 40, colour=True)[0]
    chat = Message("CHAT", {"table": None, "from": "Ann", "text": "As I said"}, "[lobby] Ann: As I said")
    assert render(chat, "human", colour=True) == ["[lobby] Ann: As I said"]


# -- a whole game with GMCP, prompts and colour -------------------------------------


def documented_fields() -> dict[str, set[str]]:
    """Keyword -> the field names docs/PROTOCOL.md §7 lists for it (backquoted words)."""
    fields = {}
    for row in re.findall(r"^\| `([A-Z_]+)` \| (.*?) \|", PROTOCOL.read_text(), re.M):
        keyword, column = row
        fields[keyword] = set(re.findall(r"`([a-z_]+)`", column))
    return fields


def card_tokens(value: object) -> set[str]:
    """Every card-shaped token in any string of a package (commands like /play 7j PH=9 too)."""
    if isinstance(value, str):
        return {t for t in re.split(r"[^0-9A-Za-z]+", value) if CARD_TEXT.match(t)}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*map(card_tokens, value)) if value else set()
    return set()


def settle(clock: Clock) -> None:
    while any(call.getTime() <= clock.seconds() for call in clock.getDelayedCalls()):
        clock.advance(0)


def test_a_whole_game_over_gmcp_with_prompts_and_colour(tmp_path):
    clock = Clock()
    config = ServerConfig(log_folder=str(tmp_path / "logs"))
    logs = GameLogStore(config.log_folder)
    lobby = build_lobby(clock, config, GameWiring(clock, logs, 0.0, 60.0, seeds=lambda: 11), logs)
    wire = MudWire(TelnetFactory(lobby, config, clock))
    wire.agree_to_everything(width=70)
    wire.send(IAC + SB + mud.TTYPE + mud.TTYPE_IS + b"TINTIN++" + IAC + SE)
    watcher = MudWire(TelnetFactory(lobby, config, clock))
    watcher.send(IAC + DO + mud.GMCP)
    for line in ("/nick Ann", "/join", "/round 1", "/bot", "/bot", "/bot"):
        wire.say(line)
    watcher.say("/nick Wes")
    watcher.say("/watch 1")
    wire.say("/start")
    settle(clock)
    documented = documented_fields()
    random = Random(5)
    mine: set[str] = set()
    public: set[str] = set()
    seen = 0
    packages_checked = 0
    over = False
    for _ in range(3000):
        settle(clock)
        wire.say("/legal")
        wire.read()
        packages = wire.gmcp()
        for name, fields in packages[seen:]:
            keyword = re.sub(r"(?<!^)([A-Z])", r"_\1", name.removeprefix("Tichu.")).upper()
            assert mud.package_name(keyword) == name
            assert keyword in documented, name
            assert set(fields) - {"table"} <= documented[keyword], (name, fields)
            if keyword in ("DEALT", "HAND") or keyword == "RECEIVED":
                assert fields["seat"] == 1  # only Ann's own
                mine |= card_tokens(fields["cards"])
            if keyword == "PLAYED":
                public |= card_tokens(fields["combo"]["cards"])
            assert card_tokens(fields) <= mine | public, (name, fields)
            packages_checked += 1
            over = over or keyword == "GAME_OVER"
        seen = len(packages)
        if over:
            break
        commands = packages[-1][1]["commands"] if packages[-1][0] == "Tichu.Legal" else []
        if commands:
            command = random.choice(commands)
            if command.startswith("/schupf"):
                hand = [name_fields for name_fields in packages if name_fields[0] == "Tichu.Dealt"]
                command = "/schupf " + " ".join(hand[-1][1]["cards"][:3])
            wire.say(command)
    assert over, "the game did not end"
    watcher.read()
    shown: set[str] = set()  # a spectator sees played cards only, never a hand
    for name, fields in watcher.gmcp():
        if name == "Tichu.Played":
            shown |= card_tokens(fields["combo"]["cards"])
        assert card_tokens(fields) <= shown, (name, fields)
    assert "Tichu.GameOver" in {name for name, _ in watcher.gmcp()} and shown
    assert packages_checked > 50
    names = {name for name, _ in wire.gmcp()}
    assert {"Tichu.Dealt", "Tichu.Turn", "Tichu.Legal", "Tichu.Played", "Tichu.Score",
            "Tichu.GameOver", "Tichu.Joined", "Tichu.Started"} <= names
    text = wire.text.decode("utf-8")
    # Prompts: every turn of Ann's ends in IAC EOR (the client agreed to EOR).
    my_turns = sum(1 for name, fields in wire.gmcp() if name == "Tichu.Turn" and fields["player"] == "Ann")
    assert my_turns > 0
    assert wire.commands.count(IAC + mud.EOR_MARK) == my_turns + 2  # + the grand and exchange phases
    assert IAC + mud.GA not in wire.commands
    assert len(re.findall(r"(?:lead|follow|wish|give)> ", text)) == my_turns
    # Colour (TinTin++ shows it) and wrapping at the reported width.
    assert re.search(r"Your first 8 cards: .*\x1b\[(32|90|34|31|33|36|35|1;31)m", text)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text.partition("You are now Ann.")[2])  # after the greeting
    too_long = [line for line in re.split(r"\r\n|> ", plain) if len(line) > 70 and " " in line.strip()]
    assert too_long == []


def test_prompt_ends_in_ga_and_not_after_sga(mud_client, lobby):
    wire = mud_client()
    wire.send(IAC + DO + mud.GMCP)  # negotiates, but not EOR: prompts end in GA
    connection = wire.connection
    turn = Message("TURN", {"table": 1, "seat": 1, "player": "Ann", "need": "lead"}, "Your turn: lead.")
    wire.say("/nick Ann")
    wire.read()
    wire.commands.clear()
    lobby.names.find("Ann").send(turn)
    assert wire.read().endswith(b"Your turn: lead.\r\nlead> ")
    assert wire.commands == [IAC + mud.GA]
    wire.send(IAC + DO + mud.SGA)
    assert connection.profile.sga
    wire.commands.clear()
    lobby.names.find("Ann").send(turn)
    wire.read()
    assert wire.commands == [IAC + WILL + mud.SGA]  # the answer to DO SGA; no GA after the prompt
    other = Message("TURN", {"table": 1, "seat": 2, "player": "Bob", "need": "follow"}, "Bob to play.")
    lobby.names.find("Ann").send(other)
    assert wire.read() == b"Bob to play.\r\n"


def test_on_a_table_with_a_turn_clock_the_prompt_shows_the_seconds_left(mud_client, lobby):
    wire = mud_client()
    wire.send(IAC + DO + mud.GMCP)
    wire.say("/nick Ann")
    wire.read()
    ann = lobby.names.find("Ann")
    ann.send(Message("TURN", {"table": 1, "seat": 1, "player": "Ann", "need": "lead", "clock": 30},
                     "Your turn: lead. (30 seconds)"))
    assert wire.read().endswith(b"Your turn: lead. (30 seconds)\r\nlead 30s> ")
    wire.say("/join")  # PHASE and CLOCK ask only a seated player
    wire.read()
    ann.send(Message("CLOCK", {"table": 1, "seat": 1, "player": "Ann", "seconds": 10, "need": "exchange"},
                     "10 seconds left to pass your three cards!"))
    assert wire.read().endswith(b"10 seconds left to pass your three cards!\r\nschupf 10s> ")
    assert (b"Tichu.Clock", b'{"need":"exchange","player":"Ann","seat":1,"seconds":10,"table":1}') in [
        tuple(payload.split(b" ", 1)) for option, payload in wire.subs if option == mud.GMCP]


# -- hostile negotiation ------------------------------------------------------------

OUR_OPTIONS = [mud.GMCP, mud.MSSP, mud.EOR, mud.NAWS, mud.TTYPE, mud.SGA]


@st.composite
def negotiation_noise(draw) -> bytes:
    """Any order of answers and subnegotiations for the options the server speaks."""
    option = draw(st.sampled_from(OUR_OPTIONS))
    verb = draw(st.sampled_from([WILL, WONT, DO, DONT]))
    payload = draw(st.one_of(
        st.binary(max_size=30),
        st.sampled_from([mud.TTYPE_IS + b"MTTS 9999999999", mud.TTYPE_IS + b"MTTS x", b"\x00" * 4,
                         b"Core.Hello {", mud.TTYPE_IS, b"\xff\xff" * 3]),
    )).replace(IAC, IAC + IAC)
    return draw(st.sampled_from([IAC + verb + option, IAC + SB + option + payload + IAC + SE]))


@settings(max_examples=60, deadline=None)
@given(st.lists(negotiation_noise(), max_size=25))
def test_any_negotiation_keeps_the_connection_and_its_lines(tmp_path_factory, noise):
    config = ServerConfig(log_folder=str(tmp_path_factory.mktemp("logs")), flood_burst=10**6,
                          byte_burst=10**9)
    lobby = build_lobby(Clock(), config, lambda table: None, GameLogStore(config.log_folder))
    wire = MudWire(TelnetFactory(lobby, config, Clock()))
    wire.send(b"/nick Zed\r\n" + b"".join(noise) + b"hello\r\n")
    lines = wire.lines()
    assert "You are now Zed." in lines and lines[-1].replace(" ", "").endswith("Zed:hello")
    assert not wire.transport.disconnecting


def test_plain_telnet_answers_get_wrapping_but_no_prompts_or_colour(mud_client, lobby):
    """The answers Debian's telnet gives to the offers (captured from telnet 0.17)."""
    wire = mud_client()
    wire.send(IAC + DONT + mud.GMCP + IAC + DONT + mud.MSSP + IAC + DONT + mud.EOR
              + IAC + WILL + mud.NAWS + IAC + SB + mud.NAWS + b"\x00\x78\x00\x28" + IAC + SE
              + IAC + WILL + mud.TTYPE + IAC + SB + mud.TTYPE + mud.TTYPE_IS + b"XTERM" + IAC + SE)
    wire.send(IAC + SB + mud.TTYPE + mud.TTYPE_IS + b"XTERM" + IAC + SE)  # asked again: the same
    wire.say("/nick Ann")
    session = lobby.names.find("Ann")
    assert session.wrap_width() == 120 and not session.default_colour
    assert not wire.connection.profile.mud_client()
    wire.read()
    wire.commands.clear()
    session.send(Message("TURN", {"table": 1, "seat": 1, "player": "Ann", "need": "lead"}, "Your turn: lead."))
    assert wire.read() == b"Your turn: lead.\r\n" and wire.commands == [] and wire.subs[-1][0] != mud.GMCP


# -- passwords typed unseen -----------------------------------------------------


def nick_of_registered_ann(mud_client, lobby) -> MudWire:
    """A client past the greeting that typed /nick Ann, Ann being registered (hunter22)."""
    lobby.names.guard.accounts.register("Ann", "hunter22")
    wire = mud_client()
    wire.read()
    wire.commands.clear()
    wire.say("/nick Ann")
    return wire


def test_a_password_is_asked_with_will_echo_and_the_echo_given_back(mud_client, lobby):
    wire = nick_of_registered_ann(mud_client, lobby)
    assert wire.lines() == ["Ann is registered. Password (not shown; an empty line gives up):"]
    assert wire.commands == [IAC + WILL + ECHO]
    wire.send(IAC + DO + ECHO)  # the client stops echoing what is typed
    wire.say("hunter22")
    said = wire.lines()
    assert said[0] == "You are now Ann."
    # from 192.0.2.7 over the plain port: told once where the TLS port is (the default config's)
    assert said[1:] == ["Your password travelled unencrypted over this connection: anyone on the"
                        " way could read it. Port 4244 is the same over TLS: use it next time."]
    assert wire.commands == [IAC + WILL + ECHO, IAC + WONT + ECHO]
    wire.send(IAC + DONT + ECHO)
    assert wire.protocol.getOptionState(ECHO).us.state == "no"
    wire.send(IAC + DO + ECHO)  # asked for by the client out of the blue: refused
    wire.read()
    assert wire.commands[-1] == IAC + WONT + ECHO


def test_a_client_that_refuses_to_hide_still_logs_in(mud_client, lobby):
    wire = nick_of_registered_ann(mud_client, lobby)
    wire.send(IAC + DONT + ECHO)
    wire.say("hunter22")
    assert "You are now Ann." in wire.lines()
    assert wire.commands == [IAC + WILL + ECHO]  # nothing to take back


def test_a_password_typed_before_the_client_answers_still_gets_the_echo_back(mud_client, lobby):
    wire = nick_of_registered_ann(mud_client, lobby)
    wire.say("hunter22")  # before DO ECHO arrived
    wire.send(IAC + DO + ECHO)
    wire.read()
    assert wire.commands == [IAC + WILL + ECHO, IAC + WONT + ECHO]
    assert lobby.names.find("Ann") is not None


# -- encodings -------------------------------------------------------------------


def _typed(wire: MudWire, *answers: bytes) -> None:
    wire.send(IAC + WILL + mud.TTYPE)
    for answer in answers:
        wire.send(IAC + SB + mud.TTYPE + mud.TTYPE_IS + answer + IAC + SE)
    wire.read()


@pytest.mark.parametrize("mtts, expected", [
    (b"MTTS 137", "[table 1] Jürgen: Jürgen ÿ ?ukasz\r\n".encode("latin-1").replace(b"\xff", b"\xff\xff")),
    (b"MTTS 141", "[table 1] Jürgen: Jürgen ÿ Łukasz\r\n".encode("utf-8")),  # 137 + the UTF-8 bit
    (b"XTERM", "[table 1] Jürgen: Jürgen ÿ Łukasz\r\n".encode("utf-8")),  # no MTTS at all
])
def test_text_is_utf8_unless_mtts_says_the_client_does_not_use_it(mud_client, mtts, expected):
    wire = mud_client()
    _typed(wire, b"OLDCLIENT", b"ANSI", mtts)
    wire.say("/nick Jürgen")
    wire.say("/join")
    wire.transport.clear()
    wire.say("Jürgen ÿ Łukasz")  # table chat comes back to its speaker
    assert wire.transport.value() == expected


def test_a_latin1_client_reads_a_name_it_cannot_show_with_a_question_mark(mud_client, lobby):
    wire = mud_client()
    _typed(wire, b"OLDCLIENT", b"ANSI", b"MTTS 1")
    wire.transport.clear()
    wire.say("/nick Łukasz")
    assert wire.transport.value().startswith(b"You are now ?ukasz.\r\n")
    assert lobby.names.find("Łukasz") is not None  # only what this client is shown changes


def test_the_echo_is_given_back_before_the_reply_to_the_password(mud_client, lobby):
    wire = nick_of_registered_ann(mud_client, lobby)
    wire.send(IAC + DO + ECHO)
    wire.read()
    wire.say("hunter22")
    data = wire.transport.value()
    assert data.index(IAC + WONT + ECHO) < data.index(b"You are now Ann.")


def test_a_password_asked_while_the_echo_is_being_given_back_is_hidden_once_it_is(mud_client, lobby):
    wire = nick_of_registered_ann(mud_client, lobby)
    wire.send(IAC + DO + ECHO)
    wire.say("hunter22")  # WONT ECHO goes out; the client has not answered yet
    wire.say("/password")
    wire.read()
    assert wire.commands == [IAC + WILL + ECHO, IAC + WONT + ECHO]
    wire.send(IAC + DONT + ECHO)  # the echo is back: now it is hidden again
    wire.read()
    assert wire.commands[-1] == IAC + WILL + ECHO


def test_the_prompt_comes_last_after_a_pushed_legal_and_does_not_repeat_the_question(tmp_path):
    """Issue 19.8: with /legal push on the prompt follows "Legal now:", and says only what is asked."""
    clock = Clock()
    config = ServerConfig(log_folder=str(tmp_path / "logs"))
    logs = GameLogStore(config.log_folder)
    lobby = build_lobby(clock, config, GameWiring(clock, logs, 0.0, 60.0, seeds=lambda: 11), logs)
    wire = MudWire(TelnetFactory(lobby, config, clock))
    wire.agree_to_everything(width=200)
    for line in ("/nick Ann", "/join", "/round 1", "/bot", "/bot", "/bot", "/legal push on"):
        wire.say(line)
    wire.read()
    wire.commands.clear()
    asked = {"/start": "grand> ", "/nogrand": "schupf> "}
    for line, prompt in asked.items():
        wire.say(line)  # the step that asks her; the bots answer in steps of their own
        data = wire.transport.value()
        assert data.endswith(prompt.encode() + IAC + mud.EOR_MARK), data[-300:]
        text = wire.read().decode("utf-8")
        assert text.count(prompt) == 1 and text.index("Legal now:") < text.index(prompt), text
        settle(clock)
    hand = next(fields for name, fields in reversed(wire.gmcp()) if name == "Tichu.Dealt")["cards"]
    wire.say("/schupf " + " ".join(hand[:3]))
    data = b""
    while clock.getDelayedCalls() and b"Your turn: " not in data:  # one step at a time, to Ann's turn
        wire.read()
        clock.advance(0)
        data = wire.transport.value()
    text = wire.read().decode("utf-8")
    turn = text.rindex("Your turn: ")
    need = next(fields for name, fields in reversed(wire.gmcp()) if name == "Tichu.Turn")["need"]
    assert data.endswith(f"{need}> ".encode() + IAC + mud.EOR_MARK), data[-300:]
    assert text.index("Legal now:", turn) < text.rindex(f"{need}> ")
    assert "/legal shows your moves" not in wire.text.decode("utf-8")
