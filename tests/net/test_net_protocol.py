"""The two ports over StringTransport with a fake clock: bytes in, bytes out."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from twisted.conch.telnet import DO, DONT, IAC, NAWS, WILL, WONT
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

from bswtichu.server.lobby import Lobby
from bswtichu.net.line import BotLineFactory
from bswtichu.net.budget import EPSILON, TokenBucket
from bswtichu.net.lines import LineFramer, TOO_LONG, decode_line
from bswtichu.net.telnet import TelnetFactory

from telnet_bytes import text_of

ECHO_OPTION = b"\x01"
LINEMODE = b"\x22"


class Wire:
    """One protocol on a StringTransport; ``lines()`` splits what the server wrote."""

    def __init__(self, factory) -> None:
        self.transport = StringTransport()
        self.protocol = factory.buildProtocol(None)
        self.protocol.makeConnection(self.transport)

    def send(self, data: bytes) -> None:
        self.protocol.dataReceived(data)

    def take(self) -> bytes:
        data = self.transport.value()
        self.transport.clear()
        return data

    def take_text(self) -> bytes:
        """What the server wrote, without the telnet commands (offers at connect)."""
        return text_of(self.take())

    def lines(self) -> list[str]:
        data = self.take_text()
        assert data.endswith(b"\r\n") or not data
        return data.decode("utf-8").split("\r\n")[:-1]


@pytest.fixture
def telnet(lobby, config, clock):
    return lambda: Wire(TelnetFactory(lobby, config, clock))


@pytest.fixture
def bot(lobby, config, clock):
    return lambda: Wire(BotLineFactory(lobby, config, clock))


# -- framing, decoding, flood gate (pure) ----------------------------------


def feed(framer: LineFramer, data: bytes) -> list:
    framer.push(data)
    lines = []
    while (line := framer.next_line()) is not None:
        lines.append(line)
    assert not framer.has_line()
    return lines


def test_framer_accepts_crlf_lf_and_bare_cr():
    framer = LineFramer(100)
    assert feed(framer, b"a\r\nb\nc\rd\r") == [b"a", b"b", b"c", b"d"]
    assert feed(framer, b"\ne\r\n") == [b"e"]  # the LF after a chunk-final CR is not a line


def test_framer_drops_overlong_line_once_and_recovers():
    framer = LineFramer(4)
    assert feed(framer, b"abcdefgh") == [TOO_LONG]
    assert feed(framer, b"ijkl\nok\n") == [b"ok"]
    assert feed(framer, b"abcdefgh\nok\n") == [TOO_LONG, b"ok"]


def test_framer_holds_lines_until_taken():
    framer = LineFramer(10)
    framer.push(b"one\ntwo\nthr")
    assert framer.has_line() and framer.next_line() == b"one"
    assert framer.has_line() and framer.next_line() == b"two"
    assert not framer.has_line() and framer.next_line() is None
    framer.push(b"ee\r")
    assert framer.next_line() == b"three"


def test_decode_falls_back_to_latin1_and_strips_controls():
    assert decode_line("Zoë".encode()) == "Zoë"
    assert decode_line(b"Zo\xeb") == "Zoë"
    assert decode_line(b"\xff\xfe") == "ÿþ"
    assert decode_line(b"a\tb\x1b[31mc\x00") == "a b[31mc"


def test_token_bucket_allows_a_burst_then_the_rate(clock):
    bucket = TokenBucket(rate=2, burst=3, clock=clock)
    assert [bucket.wait() == 0 and bucket.charge(1) == 0 for _ in range(3)] == [True] * 3
    assert bucket.wait() == 0.5
    clock.advance(0.5)
    assert bucket.wait() == 0 and bucket.charge(1) == 0
    assert bucket.charge(4) == 2.0  # in debt by 4 tokens: 2 seconds to pay it back
    clock.advance(2)
    assert bucket.wait() == 0.5



class AlwaysRefilled:
    """The token bucket's definition, refilled before every answer: the reference."""

    def __init__(self, rate, burst, clock):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.stamp = float(burst), clock.seconds()

    def refill(self):
        now = self.clock.seconds()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def charge(self, amount):
        self.refill()
        self.tokens -= amount
        return max(0.0, -self.tokens / self.rate)

    def wait(self):
        self.refill()
        missing = 1 - self.tokens
        return 0.0 if missing <= EPSILON else missing / self.rate


@settings(max_examples=200)
@given(steps=st.lists(st.tuples(st.sampled_from([0.0, 0.0, 0.1, 0.3, 0.5, 1.7, 4.0]),
                                st.sampled_from(["wait", "charge", "take"]),
                                st.integers(1, 5)), max_size=40))
def test_token_bucket_answers_as_if_refilled_before_every_answer(steps):
    """`wait` skips its refill while a whole unit is there; nothing it answers may differ."""
    clock = Clock()
    clock.advance(1000)
    bucket, reference = TokenBucket(2, 3, clock), AlwaysRefilled(2, 3, clock)
    for step, kind, amount in steps:
        clock.advance(step)
        if kind == "wait":
            assert bucket.wait() == pytest.approx(reference.wait(), abs=1e-9)
        elif kind == "charge":
            assert bucket.charge(amount) == pytest.approx(reference.charge(amount), abs=1e-9)
        elif bucket.wait() == 0:  # what the line reader does: a line only with a whole unit
            assert reference.wait() == 0
            assert bucket.charge(1) == pytest.approx(reference.charge(1), abs=1e-9)
    assert bucket.charge(0) == pytest.approx(reference.charge(0), abs=1e-9)

# -- telnet port ------------------------------------------------------------


def test_telnet_lines_end_in_crlf_without_doubled_cr(telnet):
    wire = telnet()
    greeting = wire.take_text()
    assert greeting.startswith(b"Welcome to bswtichu")
    assert greeting.endswith(b"\r\n")
    assert b"\r\r" not in greeting
    assert greeting.count(b"\n") == greeting.count(b"\r\n")


def without_token(lines: list[str]) -> list[str]:
    """A guest's /nick also brings his resume token; these tests are about the wire."""
    return [line for line in lines if not line.startswith("Your resume token")]


def test_telnet_refuses_options_it_does_not_implement(telnet):
    wire = telnet()
    wire.take()
    wire.send(IAC + WILL + ECHO_OPTION)
    assert wire.take() == IAC + DONT + ECHO_OPTION
    wire.send(IAC + DO + ECHO_OPTION)
    assert wire.take() == IAC + WONT + ECHO_OPTION
    wire.send(IAC + WILL + LINEMODE + b"/nick Ann\r\n")
    assert wire.take().startswith(IAC + DONT + LINEMODE + b"You are now Ann.\r\nYour resume token for Ann is ")


def test_telnet_survives_a_malformed_command(telnet):
    wire = telnet()
    wire.send(IAC + b"\x01junk\r\n")
    wire.take()
    wire.send(b"/nick Ann\r\n")
    assert without_token(wire.lines()) == ["You are now Ann."]


def test_telnet_accepts_lf_bare_cr_and_cr_nul(telnet):
    wire = telnet()
    wire.take()
    wire.send(b"/nick Ann\n")
    wire.send(b"one\r")
    wire.send(b"\ntwo\r\0three\r\n")
    assert without_token(wire.lines()) == ["You are now Ann.", "[lobby] Ann: one", "[lobby] Ann: two",
                                           "[lobby] Ann: three"]


def test_telnet_overlong_line_gets_one_error_and_connection_stays(telnet, config):
    wire = telnet()
    wire.send(b"/nick Ann\r\n")
    wire.take()
    wire.send(b"x" * (config.max_line_length + 1) + b"y" * 2000 + b"\r\n")
    assert wire.lines() == [f"error: line dropped: lines may be at most {config.max_line_length} bytes"]
    wire.send(b"still here\r\n")
    assert wire.lines() == ["[lobby] Ann: still here"]
    assert not wire.transport.disconnecting


def test_telnet_invalid_utf8_is_read_as_latin1(telnet):
    wire = telnet()
    wire.send(b"/nick Ann\r\n")
    wire.take()
    wire.send(b"caf\xe9 \xff\xff\r\n")  # IAC IAC is a literal 0xFF byte in telnet
    assert wire.lines() == ["[lobby] Ann: café ÿ"]


def test_telnet_idle_timeout_says_bye_and_hangs_up(telnet, clock, config):
    wire = telnet()
    clock.advance(config.idle_timeout - 1)
    wire.send(b"/nick Ann\r\n")
    clock.advance(config.idle_timeout - 1)
    assert not wire.transport.disconnecting
    wire.take()
    clock.advance(1)
    assert wire.lines() == [f"No input for {config.idle_timeout:g} seconds; goodbye."]
    assert wire.transport.disconnecting


def test_connection_loss_frees_the_name(telnet, lobby):
    wire = telnet()
    wire.send(b"/nick Ann\r\n")
    wire.protocol.connectionLost(None)
    assert lobby.names.find("Ann") is None


# -- bot line port ------------------------------------------------------------


def test_bot_port_sends_no_telnet_bytes_and_writes_crlf(bot):
    wire = bot()
    wire.send(b"/mode machine\r\n/nick Robo\r\n/tables\r\n")
    data = wire.take()
    assert b"\xff" not in data
    lines = data.split(b"\r\n")
    assert lines[-1] == b""
    assert not any(b"\r" in line or b"\n" in line for line in lines)
    assert lines[-5:-3] == [b'MODE {"mode":"machine"}', b'NICK {"nick":"Robo","previous":null}']
    assert lines[-3].startswith(b'RESUME_TOKEN {"nick":"Robo","token":')
    assert lines[-2] == b'TABLES {"tables":[]}'


def test_bot_port_treats_iac_as_data(bot):
    wire = bot()
    wire.send(b"/nick Robo\n")
    wire.take()
    wire.send(IAC + WILL + NAWS + b"\n")
    # no negotiation: the bytes are chat, read as Latin-1 (NAWS is 0x1F, a control, dropped)
    assert wire.lines() == ["[lobby] Robo: ÿû"]


def test_bot_flood_waits_with_one_error_and_nothing_is_dropped(bot, config, clock):
    config = config.for_line_port()  # the bot port's own limit
    wire = bot()
    wire.send(b"/mode machine\n/nick Robo\n")
    wire.take()
    wire.send(b"".join(b"spam %d\n" % i for i in range(config.flood_burst + 10)))
    lines = wire.lines()
    chats = [line for line in lines if line.startswith("CHAT ")]
    errors = [line for line in lines if line.startswith("ERROR ")]
    assert len(chats) == config.flood_burst - 2
    assert errors == [
        'ERROR {"code":"flood","message":"too many lines: at most'
        f' {config.flood_rate:g} per second (bursts of {config.flood_burst}); the rest are read'
        ' as the limit allows"}'
    ]
    assert wire.transport.producerState == "paused"  # not read while over budget
    clock.advance(12 / config.flood_rate)
    assert len(wire.lines()) == 12  # the waiting lines, in order, then reading resumes
    assert wire.transport.producerState == "producing"
    clock.advance(1)
    wire.send(b"calm again\n")
    assert wire.lines() == ['CHAT {"from":"Robo","table":null,"text":"calm again"}']


def test_bot_machine_error_is_one_line(bot):
    wire = bot()
    wire.send(b"/mode machine\r\n")
    wire.take()
    wire.send(b"/join\r\n")
    assert wire.lines() == [
        'ERROR {"code":"nick_required","message":"choose a name first with /nick NAME; /join needs one"}'
    ]


def test_server_keeps_serving_others_after_bad_input(bot, telnet):
    rude, polite = bot(), telnet()
    polite.send(b"/nick Ann\r\n")
    rude.send(b"\xff\xfe\x00" * 100 + b"\n/nope\n" + b"z" * 5000 + b"\n")
    polite.take()
    polite.send(b"hello\r\n")
    assert polite.lines() == ["[lobby] Ann: hello"]
    assert not rude.transport.disconnecting


def test_quit_closes_the_connection(bot, lobby: Lobby):
    wire = bot()
    wire.send(b"/nick Robo\n/quit\n")
    assert wire.lines()[-1] == "Goodbye."
    assert wire.transport.disconnecting


def test_each_port_greets_with_its_own_flood_limit(bot, telnet, config):
    bot_limits = [line for line in bot().lines() if line.startswith("Limits:")]
    people_limits = [line for line in telnet().lines() if line.startswith("Limits:")]
    assert f"{config.line_flood_rate:g} lines per second (bursts of {config.line_flood_burst})" in bot_limits[0]
    assert f"{config.flood_rate:g} lines per second (bursts of {config.flood_burst})" in people_limits[0]
    assert config.line_flood_rate > config.flood_rate


class SocketTransport(StringTransport):
    """A StringTransport that remembers whether Nagle was switched off, as a TCP socket would."""

    no_delay = False

    def setTcpNoDelay(self, enabled: bool) -> None:
        self.no_delay = enabled


def test_both_ports_switch_nagle_off(lobby, config, clock):
    for factory in (BotLineFactory(lobby, config, clock), TelnetFactory(lobby, config, clock)):
        socket = SocketTransport()
        factory.buildProtocol(None).makeConnection(socket)
        assert socket.no_delay, factory
