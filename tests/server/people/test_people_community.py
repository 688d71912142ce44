"""Moderation and the social commands on a lobby with a fake clock: what time decides (a mute or
ban's end, the registration limit's hour), a banned player's seat going to a stand-in, and free
text that cannot break anything. The same commands over real TCP: test_people_community_tcp.py.
"""

from __future__ import annotations

from random import Random

import pytest
from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.server.tables.wiring import GameWiring
from bswtichu.server.games.logs import GameLogStore
from bswtichu.service import build_lobby
from bswtichu.storage import ScryptCost, Storage
from bswtichu.storage.accounts import hash_password

from lobby_clients import Client, RecordingConnection
from test_commands_hostile_args import HOSTILE

CHEAP = ScryptCost(n=2 ** 8)
PASSWORD = "secret-pw-1"


@pytest.fixture
def clock() -> Clock:
    clock = Clock()
    clock.advance(1_800_000_000)  # a real-looking date, so end times print as dates
    return clock


def admin_storage() -> Storage:
    """A database in which the operator has claimed ``Root`` (`bswtichu admin add Root`)."""
    storage = Storage.open(cost=CHEAP)
    storage.admins.claim("Root", hash_password(PASSWORD, CHEAP))
    return storage


def community_lobby(tmp_path, clock: Clock, **settings):
    config = ServerConfig(log_folder=str(tmp_path / "logs"), admins="Root", **settings)
    return build_lobby(clock, config, lambda table: None, GameLogStore(config.log_folder), storage=admin_storage())


def the_admin(lobby) -> Client:
    """The admin, logged in."""
    return Client(lobby, f"Root {PASSWORD}")


def registered(lobby, nick: str) -> Client:
    client = Client(lobby, nick)
    client.say(f"/register {PASSWORD}")
    assert client.keywords() == ["REGISTERED"], client.connection.lines
    client.clear()
    return client


def test_a_mute_ends_at_its_time_and_says_so(tmp_path, clock):
    lobby = community_lobby(tmp_path, clock)
    root, eve, ann = the_admin(lobby), Client(lobby, "Eve"), Client(lobby, "Ann")
    root.say("/mute Eve 10 shouting")
    told = eve.only("MODERATED")
    assert told == {"action": "mute", "by": "Root", "reason": "shouting", "until": clock.seconds() + 600,
                    "minutes": 10}
    eve.clear()
    eve.say("hello")
    assert eve.error_code() == "muted"
    assert "until 2027-01-15 08:10 UTC" in eve.received()[0][1]["message"]
    assert ann.received() == []
    clock.advance(599)
    eve.clear()
    eve.say("hello")
    assert eve.error_code() == "muted"
    clock.advance(1)
    eve.clear()
    eve.say("hello again")
    assert ann.only("CHAT")["text"] == "hello again"


def test_a_ban_ends_at_its_time(tmp_path, clock):
    lobby = community_lobby(tmp_path, clock)
    root = the_admin(lobby)
    root.say("/ban Eve 60 cheating")
    assert root.only("MODERATION")["until"] == clock.seconds() + 3600
    eve = Client(lobby)
    eve.say("/nick Eve")
    assert eve.error_code() == "banned"
    assert "by Root: cheating" in eve.received()[0][1]["message"]
    clock.advance(3600)
    eve.clear()
    eve.say("/nick Eve")
    assert eve.only("NICK")["nick"] == "Eve"


def test_registrations_per_address_are_limited_within_the_hour(tmp_path, clock):
    lobby = community_lobby(tmp_path, clock, registrations_per_hour=2)
    people = [Client(lobby, name) for name in ("Ann", "Bob", "Cy")]
    for person in people:
        person.session.address = "192.0.2.7"
    for person in people[:2]:
        person.say(f"/register {PASSWORD}")
        assert person.keywords() == ["REGISTERED"]
    people[2].say(f"/register {PASSWORD}")
    assert people[2].error_code() == "registration_limit"
    elsewhere = Client(lobby, "Dan")
    elsewhere.session.address = "192.0.2.8"
    elsewhere.say(f"/register {PASSWORD}")
    assert elsewhere.keywords() == ["REGISTERED"]
    clock.advance(3600)
    people[2].clear()
    people[2].say(f"/register {PASSWORD}")
    assert people[2].keywords() == ["REGISTERED"]


def test_a_banned_players_held_seat_is_played_by_a_stand_in(tmp_path, clock):
    config = ServerConfig(log_folder=str(tmp_path / "logs"), admins="Root", reconnect_grace=600.0, bot_delay=1.0)
    seeds = Random(5)
    wiring = GameWiring(clock, GameLogStore(config.log_folder), 1.0, 600.0, seeds=lambda: seeds.getrandbits(64))
    lobby = build_lobby(clock, config, wiring, wiring.logs, storage=admin_storage())
    root = the_admin(lobby)
    players = [Client(lobby, name) for name in ("Ann", "Bob", "Cy", "Dan")]
    players[0].say("/join")
    for player in players[1:]:
        player.say("/join 1")
    players[0].say("/start")
    for player in players:
        player.clear()
    root.say("/ban Bob cheating")
    assert root.only("MODERATION")["target"] == "Bob"
    assert players[1].connection.closed
    assert ("BYE", {"reason": "banned", "by": "Root", "why": "cheating", "until": None}) in players[1].received()
    seen = players[0].received()
    assert ("AWAY", {"table": 1, "seat": 2, "nick": "Bob", "grace": None}) in seen
    assert [f for k, f in seen if k == "SUBSTITUTE"] == [{"table": 1, "player": "Bob", "level": "basic", "reason": "banned"}]  # at once


def test_a_banned_name_frees_a_held_seat_before_the_start(tmp_path, clock):
    lobby = community_lobby(tmp_path, clock)
    root, ann, bob = the_admin(lobby), Client(lobby, "Ann"), Client(lobby, "Bob")
    ann.say("/join")
    bob.say("/join 1")
    bob.hang_up()
    ann.clear()
    root.say("/ban Bob")
    assert ann.only("LEFT") == {"table": 1, "seat": 2, "nick": "Bob", "reason": "kicked", "seats": ["Ann", None, None, None]}


@pytest.mark.parametrize("command", ["/away", "/me", "/kibitz"])
def test_free_text_commands_take_any_text_without_breaking(tmp_path, clock, command):
    lobby = community_lobby(tmp_path, clock)
    ann, bob = Client(lobby, "Ann"), Client(lobby, "Bob")
    for text in HOSTILE:
        ann.clear()
        ann.say(f"{command} {text}")
        codes = [f["code"] for k, f in ann.received() if k == "ERROR"]
        assert "internal" not in codes
        assert len(ann.received()) <= 2  # BACK (from an earlier /away) and the reply
    ann.say("/away")
    bob.say("/who")
    assert [u["away"] for u in bob.only("WHO")["users"] if u["nick"] == "Ann"] == ["away"]


def test_an_ipv4_ban_covers_the_same_peer_on_an_ipv6_port(tmp_path, clock):
    lobby = community_lobby(tmp_path, clock)
    root = the_admin(lobby)
    root.say("/ban 192.0.2.0/24 a bad network")
    connection = Client(lobby, machine=False).connection  # from no address: let in
    assert not connection.closed
    mapped = RecordingConnection()
    lobby.connect(mapped, address="::ffff:192.0.2.7")
    assert mapped.closed and mapped.lines[-1].startswith("You are banned until lifted by Root")
    elsewhere = RecordingConnection()
    lobby.connect(elsewhere, address="2001:db8::7")
    assert not elsewhere.closed


def test_a_guest_who_registers_keeps_what_he_listed(tmp_path, clock):
    lobby = community_lobby(tmp_path, clock)
    ann = Client(lobby, "Ann")
    ann.say("/ignore Eve")
    ann.say("/friend Bob")
    ann.say(f"/register {PASSWORD}")
    ann.hang_up()
    again = Client(lobby)
    again.say(f"/nick Ann {PASSWORD}")
    again.clear()
    again.say("/ignore Eve")
    assert again.error_code() == "already_ignore"
    again.clear()
    again.say("/friends")
    assert [f["nick"] for f in again.only("FRIENDS")["friends"]] == ["Bob"]


def test_a_guests_lists_go_with_him(tmp_path, clock):
    lobby = community_lobby(tmp_path, clock)
    ann = Client(lobby, "Ann")
    ann.say("/ignore Eve")
    ann.hang_up()
    again = Client(lobby, "Ann")
    again.say("/unignore Eve")
    assert again.error_code() == "not_ignore"


def test_a_name_left_by_a_rename_takes_no_lists_along_to_its_next_holder(tmp_path, clock):
    lobby = community_lobby(tmp_path, clock)
    ann, eve, bob = Client(lobby, "Ann"), Client(lobby, "Eve"), Client(lobby, "Bob")
    ann.say("/ignore Eve")
    ann.say("/nick Anna")
    newcomer = Client(lobby, "Ann")
    newcomer.say("/unignore Eve")
    assert newcomer.error_code() == "not_ignore"
    eve.say("hello all")
    assert newcomer.only("CHAT")["text"] == "hello all"
    assert bob.only("CHAT")["text"] == "hello all"


def test_spectators_chat_keeps_mutes_and_ignores(tmp_path, clock):
    lobby = community_lobby(tmp_path, clock)
    root = the_admin(lobby)
    players = [Client(lobby, name) for name in ("Ann", "Bob", "Cy", "Dan")]
    players[0].say("/join")
    for player in players[1:]:
        player.say("/join 1")
    eve, fay, gus = Client(lobby, "Eve"), Client(lobby, "Fay"), Client(lobby, "Gus")
    for spectator in (eve, fay, gus):
        spectator.say("/watch 1")
    players[0].say("/start")
    fay.say("/ignore Eve")
    root.say("/mute Gus")
    everyone = [*players, eve, fay, gus]
    for client in everyone:
        client.clear()
    eve.say("/kibitz from the rail")
    eve.say("a plain line from the rail")
    eve.say("/me cheers")
    assert [f["text"] for k, f in gus.received() if k == "KIBITZ"] == [
        "from the rail", "a plain line from the rail", "cheers"]
    assert fay.received() == []  # she ignores Eve
    assert all(player.received() == [] for player in players)  # players never see kibitz
    gus.clear()
    gus.say("/kibitz muted words")
    assert gus.error_code() == "muted"
    gus.clear()
    gus.say("muted words")
    assert gus.error_code() == "muted"
    assert all(not [line for line in c.connection.lines if "muted words" in line] for c in everyone)
