"""An admin's /shutdown: a countdown told to everyone, no new game meanwhile, then the stop.

In-process on a fake clock; the real process's SIGTERM and restart are in
test_cli_process.py.
"""

from __future__ import annotations

import pytest
from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.server.games.logs import GameLogStore
from bswtichu.server.lobby import Lobby
from bswtichu.service import build_lobby
from bswtichu.storage import ScryptCost, Storage
from bswtichu.storage.accounts import hash_password

from lobby_clients import Client

CHEAP = ScryptCost(n=2 ** 8)


@pytest.fixture
def stops() -> list[str]:
    return []


@pytest.fixture
def lobby(clock: Clock, tmp_path, stops) -> Lobby:
    config = ServerConfig(log_folder=str(tmp_path / "logs"), admins="Root, Ops")
    storage = Storage.open(cost=CHEAP, now=clock.seconds)
    storage.admins.claim("Root", hash_password("hunter22", CHEAP))  # the operator's; Ops is not claimed
    return build_lobby(clock, config, lambda table: None, GameLogStore(config.log_folder),
                       storage=storage, stop=stops.append)


def admin(lobby: Lobby, name: str) -> Client:
    """The admin ``name`` (the operator claimed it), logged in."""
    return Client(lobby, f"{name} hunter22")


def registered(lobby: Lobby, name: str) -> Client:
    client = Client(lobby, name)
    client.say("/register hunter22")
    client.clear()
    return client


def shutdowns(client: Client) -> list[int]:
    return [fields["seconds"] for keyword, fields in client.received() if keyword == "SHUTDOWN"]


def test_the_countdown_is_told_to_everyone_and_then_the_server_stops(lobby, clock, stops):
    root, ann = admin(lobby, "Root"), Client(lobby, "Ann")
    root.say("/shutdown 2 new version")
    assert ann.only("SHUTDOWN") == {"seconds": 120, "reason": "new version", "by": "Root"}
    clock.advance(60)
    clock.advance(30)
    clock.advance(20)
    assert shutdowns(ann) == [120, 60, 30, 10] and stops == []
    clock.advance(10)
    assert stops == ["new version"]


def test_no_new_game_starts_while_the_stop_is_pending_and_cancel_calls_it_off(lobby, clock, stops):
    root = admin(lobby, "root")  # names are the same name whatever their case
    players = [Client(lobby, name) for name in ("Ann", "Bob", "Cy", "Dan")]
    players[0].say("/join")
    for player in players[1:]:
        player.say("/join 1")
    root.say("/shutdown")
    assert shutdowns(players[0]) == [300]
    players[0].clear()
    players[0].say("/start")
    assert players[0].error_code() == "shutting_down"
    root.say("/shutdown cancel")
    assert players[1].only("SHUTDOWN_CANCELLED") == {"by": "Root"}
    clock.advance(600)
    assert stops == []
    players[0].clear()
    players[0].say("/start")
    assert "STARTED" in players[0].keywords()


def test_only_an_admin_the_operator_claimed_may_shut_down(lobby, clock, stops):
    ann = registered(lobby, "Ann")
    ann.say("/shutdown 0")
    assert ann.error_code() == "not_admin"
    guest = Client(lobby)
    guest.say("/nick Ops")  # an admin's name not claimed yet: nobody's to take
    assert guest.error_code() == "nick_reserved"
    root = admin(lobby, "Root")
    root.say("/shutdown cancel")
    assert root.error_code() == "no_shutdown"
    root.clear()
    root.say("/shutdown 99999")
    assert root.error_code() == "usage"
    root.say("/shutdown 0")
    clock.advance(0)
    assert stops == ["maintenance"]
