"""The server's relay mode: machine lines that also carry the human sentence."""

from __future__ import annotations

import json

from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.server.text.messages import Message
from bswtichu.server.text.render import MACHINE, RELAY, render
from bswtichu.service import makeService


class Recorder:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def send_lines(self, lines: list[str], droppable: bool = False) -> None:
        self.lines.extend(lines)

    def close(self) -> None:
        pass


def parse(line: str) -> tuple[str, dict]:
    keyword, _, payload = line.partition(" ")
    return keyword, json.loads(payload)


def test_relay_is_machine_plus_the_human_sentence():
    message = Message("TABLE", {"table": 1, "text": "field named text"}, "first line\nsecond line")
    [relay] = render(message, RELAY)
    [machine] = render(message, MACHINE)
    keyword, fields = parse(relay)
    assert keyword == "TABLE"
    assert fields.pop("human") == "first line\nsecond line"
    assert fields == parse(machine)[1]
    assert "\n" not in relay


def test_a_message_without_a_sentence_relays_its_keyword():
    [relay] = render(Message("PING"), RELAY)
    assert parse(relay) == ("PING", {"human": "ping"})


def test_mode_relay_is_accepted_by_the_lobby(tmp_path):
    clock = Clock()
    lobby = makeService(ServerConfig(log_folder=str(tmp_path), database=":memory:"), clock).lobby  # not started
    connection = Recorder()
    session = lobby.connect(connection)
    connection.lines.clear()
    lobby.receive(session, "/mode relay")
    lobby.receive(session, "/nick Ann")
    lobby.receive(session, "hello")
    lobby.receive(session, "/bogus")
    clock.advance(0)  # the service writes what a reactor turn caused at its end
    messages = [parse(line) for line in connection.lines]
    assert [k for k, _ in messages] == ["MODE", "NICK", "RESUME_TOKEN", "CHAT", "ERROR"]
    assert messages[0][1]["mode"] == "relay"
    assert messages[1][1] == {"nick": "Ann", "previous": None, "human": "You are now Ann."}
    assert messages[3][1]["human"] == "[lobby] Ann: hello"
    assert messages[4][1]["code"] == "unknown_command"
    assert messages[4][1]["human"].startswith("error: ")
