"""The IRC side on the wire: what the bridge reads and writes, on a StringTransport and a Clock."""

from __future__ import annotations

import pytest
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.python.failure import Failure
from twisted.internet.error import ConnectionDone

from bswtichu.irc.bridge import CTCP_QUEUE_LIMIT, MAX_MESSAGE_LINES, BridgeClient, BridgeFactory, as_command
from bswtichu.irc.config import IrcConfig
from bswtichu.irc.text import IRC_LINE_BYTES

LONGEST_PREFIX = f":{'n' * 30}!{'u' * 10}@{'h' * 63} "


class RecordingBridge:
    """Stands in for the routing: notes what the IRC side asks of it."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []
        self.irc = None

    def attach(self, irc) -> None:
        self.irc = irc
        self.calls.append(("attach",))

    def detach(self) -> None:
        self.irc = None
        self.calls.append(("detach",))

    def command(self, nick: str, line: str, private: bool = True) -> None:
        self.calls.append(("command", nick, line) if private else ("command", nick, line, "channel"))

    def renamed(self, old: str, new: str) -> None:
        self.calls.append(("renamed", old, new))

    def quit(self, nick: str) -> None:
        self.calls.append(("quit", nick))


class Wire:
    def __init__(self, **settings) -> None:
        self.clock = Clock()
        self.bridge = RecordingBridge()
        self.config = IrcConfig(**settings)
        self.client = BridgeClient(self.bridge, self.config, self.clock)
        self.transport = StringTransport()
        self.client.makeConnection(self.transport)

    def feed(self, *lines: str | bytes) -> None:
        for line in lines:
            raw = line if isinstance(line, bytes) else line.encode("utf-8")
            self.client.dataReceived(raw + b"\r\n")

    def written(self) -> list[str]:
        lines = self.transport.value().decode("utf-8").split("\r\n")
        self.transport.clear()
        return [line for line in lines if line]

    def welcome(self, nick: str = "tichubot") -> None:
        self.feed(f":irc.test 001 {nick} :Welcome")
        self.written()

    def commands(self) -> list[tuple]:
        return [c for c in self.bridge.calls if c[0] == "command"]


def test_it_registers_and_joins_its_channel_once_welcomed():
    wire = Wire(password="pw", burst=10)
    sent = wire.written()
    assert sent[0] == "PASS pw"
    assert "NICK tichubot" in sent and "USER tichubot foo bar :bswtichu IRC bridge" in sent
    wire.feed(":irc.test 001 tichubot :Welcome")
    assert wire.written() == ["JOIN #tichu"]
    assert wire.bridge.calls == [("attach",)]


@pytest.mark.parametrize("text, private, command", [
    ("!join", False, "/join"),
    ("!play 7 7", False, "/play 7 7"),
    ("  !pass  ", False, "/pass"),
    ("hello everyone", False, None),
    ("join 1", True, "/join 1"),
    ("/join 1", True, "/join 1"),
    ("!bomben 7j 7s 7p 7r", True, "/bomben 7j 7s 7p 7r"),
    ("   ", True, None),
])
def test_what_counts_as_a_command(text, private, command):
    assert as_command(text, private) == command


def test_channel_and_private_commands_reach_the_bridge_under_the_sender():
    wire = Wire()
    wire.welcome()
    wire.feed(":Ann!ann@host PRIVMSG #tichu :!play 7 7",
              ":Ann!ann@host PRIVMSG #tichu :just talking",
              ":Bob!bob@host PRIVMSG tichubot :join 1",
              ":Bob!bob@host PRIVMSG #elsewhere :!join",
              ":Cy!cy@host PRIVMSG #TICHU :!who")
    assert wire.commands() == [("command", "Ann", "/play 7 7", "channel"), ("command", "Bob", "/join 1"),
                               ("command", "Cy", "/who", "channel")]


def test_a_bare_bang_gets_a_hint_not_a_command():
    wire = Wire()
    wire.welcome()
    wire.feed(":Ann!ann@host PRIVMSG #tichu :!")
    assert not wire.commands()
    [hint] = wire.written()
    assert hint.startswith("NOTICE Ann :Commands start with !")


def test_a_line_that_is_not_utf8_is_read_as_latin1():
    wire = Wire()
    wire.welcome()
    wire.feed(b":Ann!ann@host PRIVMSG tichubot :msg Bob sch\xf6n")
    assert wire.commands() == [("command", "Ann", "/msg Bob schön")]


def test_quits_nick_changes_and_vanished_nicks_are_followed():
    wire = Wire()
    wire.welcome()
    wire.feed(":Ann!ann@host NICK :Anna",
              ":Bob!bob@host QUIT :Ping timeout",
              ":irc.test 401 tichubot Cy :No such nick/channel")
    assert wire.bridge.calls[1:] == [("renamed", "Ann", "Anna"), ("quit", "Bob"), ("quit", "Cy")]


def test_a_taken_nick_is_varied_within_the_nick_length():
    wire = Wire(nick="tichubot")
    wire.written()
    wire.feed(":irc.test 433 * tichubot :Nickname is already in use")
    assert wire.written() == ["NICK tichubot1"]
    wire.feed(":irc.test 433 * tichubot1 :Nickname is already in use")
    assert wire.written() == ["NICK tichubot2"]
    wire.feed(":irc.test 001 tichubot2 :Welcome")
    wire.written()
    wire.feed(":Ann!ann@host PRIVMSG tichubot2 :hand")
    assert wire.commands() == [("command", "Ann", "/hand")]


def test_a_long_message_is_split_between_words_within_512_bytes():
    wire = Wire(burst=100)
    wire.welcome()
    words = [f"wörd{n}" for n in range(400)]
    wire.client.to_user("Ann", " ".join(words))
    sent = wire.written()
    assert len(sent) > 1
    for line in sent:
        assert len((LONGEST_PREFIX + line + "\r\n").encode()) <= IRC_LINE_BYTES
        assert line.startswith("NOTICE Ann :")
    assert " ".join(line.partition(" :")[2] for line in sent).split() == words


def test_a_message_of_many_lines_is_cut_with_a_note():
    wire = Wire(burst=1000)
    wire.welcome()
    wire.client.to_channel("\n".join(f"line {n}" for n in range(100)))
    sent = wire.written()
    assert len(sent) == MAX_MESSAGE_LINES + 1
    assert sent[-1] == f"PRIVMSG #tichu :... and {100 - MAX_MESSAGE_LINES} more lines (the telnet port shows all)"


def test_the_flood_limit_holds_on_the_wire_and_pong_jumps_the_queue():
    wire = Wire(burst=5, line_interval=2.0)
    wire.clock.advance(100)  # registration used part of the burst; let it refill
    wire.welcome()
    wire.clock.advance(100)
    for n in range(8):
        wire.client.to_user(f"user{n}", "your turn")
    assert len(wire.written()) == 5
    wire.feed("PING :irc.test")
    wire.clock.advance(2)
    assert wire.written() == ["PONG irc.test"]
    wire.clock.advance(2)
    assert wire.written() == ["NOTICE user5 :your turn"]


def test_the_heartbeat_runs_on_the_injected_clock():
    wire = Wire(burst=100)
    wire.welcome()
    wire.clock.advance(wire.client.heartbeatInterval)
    assert [line for line in wire.written() if line.startswith("PING")]
    wire.client.connectionLost(Failure(ConnectionDone()))
    assert ("detach",) in wire.bridge.calls
    assert not wire.clock.getDelayedCalls()


class Connector:
    def __init__(self) -> None:
        self.attempts = 0

    def connect(self) -> None:
        self.attempts += 1

    def stopConnecting(self) -> None:
        pass


def test_the_factory_reconnects_with_growing_capped_back_off_and_resets_on_sign_on():
    clock = Clock()
    config = IrcConfig(reconnect_max=30.0)
    factory = BridgeFactory(RecordingBridge(), config, clock)
    factory.jitter = 0  # Twisted's random jitter would make the waits below vary
    connector = Connector()
    waits = []
    for attempt in range(8):
        factory.clientConnectionFailed(connector, Failure(ConnectionDone()))
        [call] = clock.getDelayedCalls()
        waits.append(call.getTime() - clock.seconds())
        clock.advance(waits[-1])
        assert connector.attempts == attempt + 1
    assert waits[0] < waits[1] < waits[2]
    assert waits[-3:] == pytest.approx([30.0, 30.0, 30.0])
    client = factory.buildProtocol(None)
    client.makeConnection(StringTransport())
    client.dataReceived(b":irc.test 001 tichubot :Welcome\r\n")
    assert factory.delay == factory.initialDelay
    factory.stopTrying()
    factory.clientConnectionLost(connector, Failure(ConnectionDone()))
    clock.advance(1000)
    assert connector.attempts == 8  # stopped: no more attempts


def test_a_ctcp_flood_is_answered_only_while_little_waits():
    wire = Wire(burst=1, line_interval=2.0)
    wire.welcome()
    for _ in range(50):
        wire.feed(":Mal!mal@host PRIVMSG tichubot :\x01VERSION\x01")
    assert len(wire.client.outbox) <= CTCP_QUEUE_LIMIT + 2  # registration and JOIN, 10 replies
    wire.clock.pump([2.0] * 20)
    replies = [line for line in wire.written() if line.startswith("NOTICE Mal :\x01VERSION bswtichu-irc")]
    assert len(replies) == CTCP_QUEUE_LIMIT - 2  # the rest went unanswered
