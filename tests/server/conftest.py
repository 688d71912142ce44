"""Helpers for server tests: a lobby on a fake clock, and clients that read machine mode."""

from __future__ import annotations

import json

import pytest
from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.server.gamelogs import GameLogStore
from bswtichu.server.lobby import Lobby


class RecordingConnection:
    """Stands in for the net layer: keeps every line a session was sent."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.closed = False

    def send_lines(self, lines: list[str]) -> None:
        self.lines.extend(lines)

    def close(self) -> None:
        self.closed = True


class Client:
    """A client talking to the lobby directly, in machine mode unless told otherwise."""

    def __init__(self, lobby: Lobby, nick: str | None = None, machine: bool = True) -> None:
        self.lobby = lobby
        self.connection = RecordingConnection()
        self.session = lobby.connect(self.connection)
        if machine:
            self.say("/mode machine")
        if nick:
            self.say(f"/nick {nick}")
        self.token = next((json.loads(line.partition(" ")[2])["token"] for line in self.connection.lines
                           if line.startswith("RESUME_TOKEN ")), None)
        self.clear()

    def say(self, line: str) -> None:
        self.lobby.receive(self.session, line)

    def clear(self) -> None:
        self.connection.lines.clear()

    def hang_up(self) -> None:
        self.lobby.disconnect(self.session)

    def received(self) -> list[tuple[str, dict]]:
        """(KEYWORD, fields) of every line since the last clear; all must be machine lines."""
        out = []
        for line in self.connection.lines:
            keyword, _, payload = line.partition(" ")
            out.append((keyword, json.loads(payload)))
        return out

    def keywords(self) -> list[str]:
        return [keyword for keyword, _ in self.received()]

    def only(self, keyword: str) -> dict:
        """The fields of the one message with ``keyword`` since the last clear."""
        found = [fields for k, fields in self.received() if k == keyword]
        assert len(found) == 1, f"expected one {keyword}, got {self.connection.lines}"
        return found[0]

    def error_code(self) -> str:
        """The code of the single message received, which must be an ERROR."""
        received = self.received()
        assert [k for k, _ in received] == ["ERROR"], self.connection.lines
        return received[0][1]["code"]


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def config(tmp_path) -> ServerConfig:
    return ServerConfig(reconnect_grace=60.0, log_folder=str(tmp_path / "logs"))


@pytest.fixture
def game_factory():
    """No game by default (these tests are about seats); a test may parametrize one."""
    return lambda table: None


@pytest.fixture
def lobby(clock: Clock, config: ServerConfig, game_factory) -> Lobby:
    return Lobby(clock, config, game_factory, GameLogStore(config.log_folder))


@pytest.fixture
def connect(lobby: Lobby):
    """connect("Ann") -> a named client in machine mode; connect() -> one without a name."""

    def make(nick: str | None = None, machine: bool = True) -> Client:
        return Client(lobby, nick, machine)

    return make


@pytest.fixture
def four(connect):
    """Ann, Bob, Cy and Dan seated at table 1 in that order (seats 1-4)."""
    players = [connect(name) for name in ("Ann", "Bob", "Cy", "Dan")]
    players[0].say("/join")
    for player in players[1:]:
        player.say("/join 1")
    for player in players:
        player.clear()
    return players
