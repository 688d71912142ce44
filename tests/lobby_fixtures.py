"""Fixtures for the tests of the domain and its ports: a lobby on a fake clock, and clients that read machine mode (a plugin of tests/conftest.py, so every test folder has them)."""

from __future__ import annotations

import pytest
from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.server.games.logs import GameLogStore
from bswtichu.server.lobby import Lobby
from bswtichu.service import build_lobby

from lobby_clients import Client


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
    return build_lobby(clock, config, game_factory, GameLogStore(config.log_folder))


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
