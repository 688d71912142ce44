"""Hostile clients at the byte level: telnet garbage, floods, readers that never read, limits.

Over StringTransport with a fake clock: the server's protocols see exactly the
bytes a test gives them, and time passes only when the test says so.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import pytest_twisted
from hypothesis import given
from hypothesis import strategies as st
from twisted.conch.telnet import DO, IAC, NAWS, NOP, SB, SE, WILL
from twisted.internet.testing import StringTransport
from twisted.logger import globalLogPublisher

from bswtichu.config import ConfigError, ServerConfig
from bswtichu.net.lines import CLOSE_TIMEOUT
from bswtichu.counters import Counters
from bswtichu.server.games.logs import GameLogStore
from bswtichu.service import build_lobby
from bswtichu.net.line import BotLineFactory
from bswtichu.net.telnet import MAX_SUBNEGOTIATION, TelnetFactory
from bswtichu.server.session import Session

from telnet_bytes import text_of


class Wire:
    """One protocol on a StringTransport; ``lines()`` splits what the server wrote."""

    def __init__(self, factory, host: str = "192.0.2.1") -> None:
        self.transport = StringTransport(peerAddress=_address(host))
        self.protocol = factory.buildProtocol(None)
        self.protocol.makeConnection(self.transport)

    def send(self, data: bytes) -> None:
        self.protocol.dataReceived(data)

    def lines(self) -> list[str]:
        data = text_of(self.transport.value())
        self.transport.clear()
        return data.decode("utf-8").split("\r\n")[:-1]

    @property
    def connection(self):
        """The LineConnection (behind the telnet transport on the telnet port)."""
        return getattr(self.protocol, "protocol", self.protocol)


def _address(host: str):
    from twisted.internet.address import IPv4Address

    return IPv4Address("TCP", host, 40000)


@pytest.fixture
def telnet(lobby, config, clock):
    return lambda **kw: Wire(TelnetFactory(lobby, config, clock), **kw)


@pytest.fixture
def bot(lobby, config, clock):
    return lambda **kw: Wire(BotLineFactory(lobby, config, clock), **kw)


@pytest.fixture
def warnings():
    """Warnings logged while the test runs (telnet trouble is logged as a warning)."""
    seen: list[dict] = []

    def observe(event: dict) -> None:
        if event.get("log_level") is not None and event["log_level"].name == "warn":
            seen.append(event)

    globalLogPublisher.addObserver(observe)
    yield seen
    globalLogPublisher.removeObserver(observe)


# -- telnet that survives anything ---------------------------------------------


def test_empty_subnegotiation_is_skipped(telnet, warnings):
    wire = telnet()
    wire.send(b"/nick Ann\r\n" + IAC + SB + IAC + SE + b"hello\r\n")
    lines = wire.lines()
    assert lines[-3] == "You are now Ann." and lines[-2].startswith("Your resume token for Ann")
    assert lines[-1] == "[lobby] Ann: hello"
    assert not wire.transport.disconnecting
    assert len(warnings) == 1


def test_no_line_is_lost_around_an_unknown_command_in_one_write_or_two(telnet):
    for cut in (None, 30, 29):
        stream = f"/mode machine\r\n/nick Drop{cut}\r\n\xff\x01\r\n/help\r\n".encode("latin-1")
        wire = telnet()
        wire.lines()
        pieces = [stream] if cut is None else [stream[:cut], stream[cut:]]
        for piece in pieces:
            wire.send(piece)
        keywords = [line.split(" ", 1)[0] for line in wire.lines()]
        assert keywords == ["MODE", "NICK", "RESUME_TOKEN", "HELP"], cut


def test_overlong_subnegotiation_keeps_the_connection_and_the_lines(telnet, warnings):
    wire = telnet()
    wire.send(b"/nick Ann\r\n")
    wire.lines()
    payload = bytes(range(0x20, 0x7F)) * 100  # 9500 bytes, over MAX_SUBNEGOTIATION
    assert len(payload) > 4096 > MAX_SUBNEGOTIATION
    wire.send(b"before\r\n" + IAC + SB + NAWS + payload[:5000])
    wire.send(payload[5000:] + IAC + SE + b"after\r\n")
    wire.send(IAC + SB + NAWS + payload + IAC + SE + b"again\r\n")
    wire.send(IAC + b"\x01" + IAC + SB + IAC + SE)  # other trouble: no more warnings
    assert wire.lines() == ["[lobby] Ann: before", "[lobby] Ann: after", "[lobby] Ann: again"]
    assert not wire.transport.disconnecting
    assert len(warnings) == 1  # once per connection


def test_telnet_command_inside_a_utf8_character(telnet):
    wire = telnet()
    wire.send(b"/nick Ann\r\n")
    wire.lines()
    zoe = "Zoë".encode()  # ë is two bytes
    wire.send(zoe[:3] + IAC + NOP + zoe[3:] + IAC + WILL + NAWS + b"!\r\n")
    assert wire.transport.value().endswith("[lobby] Ann: Zoë!\r\n".encode())


def text_lines():
    """Printable text (nothing decode_line would remove), any script, bidi marks too."""
    return st.text(
        st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=20
    )


def telnet_noise():
    """Telnet commands a client may put anywhere, also inside a UTF-8 character."""
    option = st.integers(0, 254).map(lambda b: bytes([b]))
    payload = st.binary(max_size=40).map(lambda b: b.replace(IAC, IAC + IAC))
    return st.one_of(
        st.just(IAC + NOP),
        option.map(lambda o: IAC + WILL + o),
        option.map(lambda o: IAC + DO + o),
        st.tuples(option, payload).map(lambda t: IAC + SB + t[0] + t[1] + IAC + SE),
        st.just(IAC + SB + IAC + SE),
        st.integers(0, 0xEF).map(lambda b: IAC + bytes([b])),  # unknown or bare commands
        st.just(IAC + SB + NAWS + b"x" * 1500 + IAC + SE),  # overlong
    )


@st.composite
def telnet_streams(draw):
    """(the lines, a byte stream carrying them with telnet noise, cut points)."""
    lines = draw(st.lists(text_lines(), min_size=1, max_size=8))
    stream = b""
    for line in lines:
        raw = line.encode("utf-8")
        noise_at = draw(st.lists(st.integers(0, len(raw)), max_size=3))
        for at in sorted(noise_at, reverse=True):
            raw = raw[:at] + draw(telnet_noise()) + raw[at:]
        stream += raw + draw(st.sampled_from([b"\r\n", b"\n", b"\r\0"]))
    cuts = sorted(draw(st.lists(st.integers(0, len(stream)), max_size=12)))
    return lines, stream, cuts


class LineRecorder:
    """A lobby stand-in that keeps every decoded line the connection hands over."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.counters = Counters()

    def connect(self, connection, peer="", limits=None, address=""):
        return Session(connection, peer)

    def receive(self, session, line: str) -> None:
        self.lines.append(line)

    def disconnect(self, session) -> None:
        pass

    def online(self) -> list:
        return []

    def table_states(self) -> dict:
        return {}


def received_lines(stream: bytes, cuts: list[int], clock) -> tuple[list[str], StringTransport]:
    roomy = ServerConfig(flood_burst=10**6, byte_burst=10**9)
    recorder = LineRecorder()
    transport = StringTransport()
    protocol = TelnetFactory(recorder, roomy, clock).buildProtocol(None)
    protocol.makeConnection(transport)
    for start, end in zip([0, *cuts], [*cuts, len(stream)]):
        protocol.dataReceived(stream[start:end])
    return recorder.lines, transport


@given(telnet_streams())
def test_lines_are_the_same_however_the_stream_is_split(case):
    from twisted.internet.task import Clock

    lines, stream, cuts = case
    whole, _ = received_lines(stream, [], Clock())
    split, transport = received_lines(stream, cuts, Clock())
    assert whole == lines
    assert split == lines
    assert not transport.disconnecting


# -- input budget: over it, the server stops reading ---------------------------


def test_a_byte_flood_pauses_reading_until_the_budget_refills(telnet, config, clock):
    wire = telnet()
    wire.send(b"/nick Ann\r\n")
    wire.lines()
    junk = b"x" * 100 + b"\r\n"
    count = int(config.byte_burst + 2 * config.byte_rate) // len(junk)
    wire.send(junk * count)
    assert wire.transport.producerState == "paused"
    clock.advance(1.5)
    assert wire.transport.producerState == "paused"  # about 2 seconds of debt
    clock.pump([0.05] * 1200)  # the lines also wait for line tokens; nothing is dropped
    assert wire.transport.producerState == "producing"
    chats = [line for line in wire.lines() if line.startswith("[lobby]")]
    assert len(chats) == count


def test_reading_stops_at_once_and_is_read_in_small_pieces(lobby, config, clock):
    class Socket(StringTransport):
        bufferSize = 65536

    socket = Socket()
    protocol = BotLineFactory(lobby, config, clock).buildProtocol(None)
    protocol.makeConnection(socket)
    assert socket.bufferSize == config.read_size


def test_a_paused_connection_that_is_lost_leaves_no_timer(bot, clock, lobby):
    wire = bot()
    wire.send(b"/nick Ann\n" + b"spam\n" * 1000)
    assert wire.transport.producerState == "paused"
    wire.connection.connectionLost(None)
    assert clock.getDelayedCalls() == []
    assert lobby.names.find("Ann") is None


# -- output budget: a client that does not read --------------------------------


def chat_from(lobby, nick: str, text: str) -> None:
    class Silent:
        def send_lines(self, lines, droppable=False):
            pass

        def close(self):
            pass

    speaker = lobby.names.find(nick)
    if speaker is None:
        speaker = lobby.connect(Silent())
        lobby.receive(speaker, f"/nick {nick}")
    lobby.receive(speaker, text)


def test_lobby_chat_to_a_full_reader_is_skipped_with_one_notice(bot, lobby, config):
    wire = bot()
    wire.send(b"/mode machine\n/nick Sleepy\n")
    wire.lines()
    wire.transport.producer.pauseProducing()  # the kernel buffer is full
    for n in range(3 * config.output_soft_limit // 100):
        chat_from(lobby, f"Talker{n % 7}", f"{n:04d} " + "x" * 80)
    queue = wire.connection._output
    assert queue.queued <= config.output_soft_limit + 200
    assert wire.transport.value() == b""  # nothing reached the full transport
    wire.transport.producer.resumeProducing()  # the client reads again
    lines = wire.lines()
    keywords = [line.split(" ", 1)[0] for line in lines]
    assert keywords.count("SKIPPED") == 1
    assert keywords.index("SKIPPED") == len(keywords) - 1
    texts = [json.loads(line.split(" ", 1)[1])["text"][:4] for line in lines if line.startswith("CHAT")]
    assert texts == [f"{n:04d}" for n in range(len(texts))]  # in order, none in between lost
    chat_from(lobby, "Talker1", "after the catch-up")
    assert wire.lines()[-1].endswith('"text":"after the catch-up"}')


def test_a_reader_past_the_hard_limit_is_disconnected(bot, lobby, config, clock, logged_errors):
    wire = bot()
    wire.send(b"/mode machine\n/nick Sleepy\n/join\n")
    other = bot(host="192.0.2.2")
    other.send(b"/nick Loud\n/join 1\n")
    wire.lines()
    wire.transport.producer.pauseProducing()
    for n in range(config.output_hard_limit // 400 + 10):
        lobby.receive(lobby.names.find("Loud"), f"{n} " + "y" * 380)  # table chat: never skipped
    assert wire.transport.disconnecting
    assert b'BYE {"reason":"output"}' in wire.transport.value()
    # hung up gently, so the BYE still reaches a client that reads again soon; cut after the timeout
    assert not wire.transport.disconnected  # (StringTransport: set by abortConnection only)
    clock.advance(CLOSE_TIMEOUT)
    assert wire.transport.disconnected
    assert not logged_errors  # an info line, not an error


# -- limits ---------------------------------------------------------------------


@pytest.mark.parametrize("value", ["localhost", "300.1.1.1", "127.0.0.1,::1"])
def test_uncapped_addresses_must_be_ip_addresses(value):
    with pytest.raises(ConfigError, match="not an IP address"):
        ServerConfig(uncapped_addresses=value)


def test_table_limits(clock, tmp_path):
    from lobby_clients import Client

    config = ServerConfig(max_tables=3, tables_per_person=2, log_folder=str(tmp_path))
    lobby = build_lobby(clock, config, lambda table: None, GameLogStore(config.log_folder))
    ann, bob, cy, dan = (Client(lobby, name) for name in ("Ann", "Bob", "Cy", "Dan"))
    for number, partner in ((1, bob), (2, cy)):
        ann.say("/join")
        partner.say(f"/join {number}")  # keeps the table open after Ann leaves
        ann.say("/leave")
    ann.clear()
    ann.say("/join")
    assert ann.error_code() == "table_limit"
    dan.say("/join")  # the third table
    dan.clear()
    ann.clear()
    bob.say("/leave")  # table 1 closes: Ann may open one again, but the server is full
    ann.say("/join")
    assert ann.keywords() == ["JOINED"]
    bob.clear()
    bob.say("/join")
    assert bob.error_code() == "too_many_tables"


def test_chat_length(lobby, connect, config):
    ann, bob = connect("Ann"), connect("Bob")
    ann.say("x" * (config.max_chat_length + 1))
    assert ann.error_code() == "chat_too_long"
    ann.clear()
    ann.say("/msg Bob " + "x" * (config.max_chat_length + 1))
    assert ann.error_code() == "chat_too_long"
    assert bob.connection.lines == []
    ann.clear()
    ann.say("x" * config.max_chat_length)
    assert ann.keywords() == ["CHAT"]


def test_who_is_paginated(clock, tmp_path):
    from lobby_clients import Client

    config = ServerConfig(who_page_size=50, log_folder=str(tmp_path))
    lobby = build_lobby(clock, config, lambda table: None, GameLogStore(config.log_folder))
    people = [Client(lobby, f"P{n:04d}") for n in range(120)]
    asker = people[0]
    asker.say("/who")
    first = asker.only("WHO")
    assert (first["page"], first["pages"], first["total"]) == (1, 3, 120)
    assert [u["nick"] for u in first["users"]] == [f"P{n:04d}" for n in range(50)]
    asker.clear()
    asker.say("/who 3")
    assert [u["nick"] for u in asker.only("WHO")["users"]] == [f"P{n:04d}" for n in range(100, 120)]
    asker.clear()
    asker.say("/who 4")
    assert asker.error_code() == "usage"


# -- the probes over real loopback TCP ----------------------------------


@pytest_twisted.ensureDeferred
async def test_the_reported_telnet_probes_over_tcp():
    from test_net_network import RunningServer

    async with RunningServer() as server:
        person = await server.connect("telnet")
        person.transport.write(
            IAC + SB + IAC + SE  # raised IndexError and dropped the connection
            + b"/mode machine\r\n/nick Drop\r\n\xff\x01\r\n/help\r\n"  # lost every line
            + IAC + SB + NAWS + b"w" * 5000 + IAC + SE  # over 4096: disconnected
            + b"/join \xc2\xb2\r\n"  # /join ² was an internal error
        )
        await person.message("MODE")
        await person.message("NICK", nick="Drop")
        await person.message("HELP")
        error = await person.message("ERROR")
        assert error["code"] == "usage"
        person.send("/who")
        assert (await person.message("WHO"))["total"] == 1
        assert person.transport.connected


def test_a_logged_error_fails_the_test_that_logged_it(pytester, monkeypatch):
    tests = Path(__file__).resolve().parents[1]
    monkeypatch.setenv("PYTHONPATH", str(tests))  # the conftest's plugins (lobby_fixtures) live there
    pytester.makeconftest((tests / "conftest.py").read_text())
    pytester.makepyfile(test_inner="""
        from twisted.logger import Logger

        def test_logs_a_failure():
            try:
                1 / 0
            except ZeroDivisionError:
                Logger().failure("oops")

        def test_declares_it(logged_errors):
            Logger().error("expected {what}", what="this")
            assert len(logged_errors) == 1

        def test_quiet():
            Logger().warn("only a warning")
    """)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=3, errors=1)  # the teardown of the first one fails
    result.stdout.fnmatch_lines(["*1 error(s) logged during the test*", "*ZeroDivisionError*"])
