"""Accounts: registering a name, logging in, slowing down guessers, guests' resume tokens."""

from __future__ import annotations

import unicodedata

import pytest
from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.server.games.logs import GameLogStore
from bswtichu.server.people.accounts import FREE_NAME_FAILURES
from bswtichu.server.lobby import Lobby, loggable
from bswtichu.service import build_lobby
from bswtichu.storage import ScryptCost, Storage

from lobby_clients import Client

CHEAP = ScryptCost(n=2 ** 8)
SECRET = "hunter22"


@pytest.fixture
def lobby(clock: Clock, config: ServerConfig) -> Lobby:
    """(The budget of password checks per name is wide here: these tests are about the rest;
    test_people_password_hashing.py is about it.)"""
    return build_lobby(clock, config.replace(password_checks_per_name=100), lambda table: None,
                       GameLogStore(config.log_folder), storage=Storage.open(cost=CHEAP, now=clock.seconds))


def everything_sent(*clients: Client) -> str:
    return "\n".join(line for client in clients for line in client.connection.lines)


def registered(lobby: Lobby, name: str = "Ann", password: str = SECRET) -> Client:
    client = Client(lobby, name)
    client.say(f"/register {password}")
    assert client.only("REGISTERED") == {"nick": name}
    client.clear()
    return client


def test_a_registered_name_needs_its_password(lobby, clock):
    ann = registered(lobby)
    ann.hang_up()
    other = Client(lobby)
    other.say("/nick ann")
    assert other.error_code() == "name_registered"
    other.clear()
    other.say("/nick Ann wrong-password")
    assert other.error_code() == "bad_password"
    assert other.session.nick is None
    again = Client(lobby)  # one stranger's failure does not lock the owner out
    again.say(f"/nick ann {SECRET}")
    assert again.only("NICK")["nick"] == "Ann"  # the registered spelling
    assert "RESUME_TOKEN" not in again.keywords()  # tokens are for guests
    assert SECRET not in everything_sent(ann, other, again)


def test_a_guest_cannot_log_in_with_a_password(lobby):
    eve = Client(lobby)
    eve.say("/nick Eve some-pass")
    assert eve.error_code() == "not_registered"


def test_failed_logins_slow_down_per_connection_and_per_name(lobby, clock):
    registered(lobby).hang_up()
    registered(lobby, "Bob").hang_up()
    for _ in range(FREE_NAME_FAILURES):  # guesses from many connections: the name's first ones are free
        Client(lobby).say("/nick Ann some-guess")
    guesser = Client(lobby)
    guesser.say("/nick Ann guess-one")
    assert guesser.error_code() == "bad_password"
    guesser.clear()
    guesser.say(f"/nick Ann {SECRET}")  # even the right password waits
    assert guesser.error_code() == "login_throttled"
    guesser.clear()
    guesser.say(f"/nick Bob {SECRET}")  # this connection waits for any name
    assert guesser.error_code() == "login_throttled"
    other = Client(lobby)
    other.say(f"/nick Ann {SECRET}")  # and the name waits for any connection
    assert other.error_code() == "login_throttled"
    clock.advance(1)
    guesser.clear()
    guesser.say("/nick Ann guess-two")
    assert guesser.error_code() == "bad_password"
    clock.advance(1)
    guesser.clear()
    guesser.say(f"/nick Ann {SECRET}")
    assert guesser.error_code() == "login_throttled"  # the second failure doubled the wait
    clock.advance(1)
    guesser.clear()
    guesser.say(f"/nick Ann {SECRET}")
    assert guesser.only("NICK")["nick"] == "Ann"


def test_password_change(lobby, clock):
    ann = registered(lobby)
    ann.say("/password wrong-old new-secret")
    assert ann.error_code() == "bad_password"
    clock.advance(1)
    ann.clear()
    ann.say(f"/password {SECRET} short")
    assert ann.error_code() == "bad_password"
    ann.clear()
    ann.say(f"/password {SECRET} new-secret")
    assert ann.only("PASSWORD") == {"nick": "Ann"}
    ann.hang_up()
    back = Client(lobby)
    back.say(f"/nick Ann {SECRET}")
    assert back.error_code() == "bad_password"
    clock.advance(1)
    back.clear()
    back.say("/nick Ann new-secret")
    assert back.only("NICK")["nick"] == "Ann"
    assert "new-secret" not in everything_sent(ann, back).replace("/nick Ann new-secret", "")


def test_register_checks_the_password_and_registers_once(lobby):
    ann = Client(lobby, "Ann")
    for weak in ("abc", "12345678", "bell\x07bell"):
        ann.say(f"/register {weak}")
        assert ann.error_code() == "bad_password"
        ann.clear()
    ann.say("/register")
    assert ann.error_code() == "usage"
    ann.clear()
    ann.say(f"/register {SECRET}")
    ann.clear()
    ann.say(f"/register {SECRET}")
    assert ann.error_code() == "already_registered"


def test_a_guests_held_seat_goes_back_only_with_his_token(lobby, four):
    ann, bob, cy, dan = four
    assert bob.token
    bob.hang_up()
    thief = Client(lobby)
    thief.say("/nick bob")
    assert thief.error_code() == "name_held"
    thief.clear()
    thief.say("/resume not-the-token")
    assert thief.error_code() == "bad_token"
    thief.clear()
    thief.say(f"/resume {bob.token}")
    assert thief.error_code() == "login_throttled"  # a wrong token slows the connection down too
    back = Client(lobby)
    back.say(f"/resume {bob.token}")
    assert back.keywords() == ["NICK", "SEAT_HELD", "RETURNED"]
    assert back.only("RETURNED")["nick"] == "Bob"


def test_a_token_without_a_held_seat_gives_nothing(lobby):
    eve = Client(lobby, "Eve")
    eve.hang_up()
    again = Client(lobby)
    again.say(f"/resume {eve.token}")
    assert again.error_code() == "nothing_held"


def test_a_registered_players_held_seat_needs_the_password(lobby, four, clock):
    ann = four[0]
    ann.say(f"/register {SECRET}")
    ann.hang_up()
    impostor = Client(lobby)
    impostor.say("/nick Ann")
    assert impostor.error_code() == "name_registered"
    impostor.clear()
    impostor.say(f"/resume {ann.token}")  # registering retired the guest token
    assert impostor.error_code() == "bad_token"
    owner = Client(lobby)
    owner.say(f"/nick Ann {SECRET}")
    assert owner.only("SEAT_HELD") == {"table": 1, "seat": 1}


def test_logs_never_show_secret_arguments():
    assert loggable(f"/register {SECRET}") == "/register [arguments hidden]"
    assert loggable(f"/nick Ann {SECRET}") == "/nick [arguments hidden]"
    assert loggable(f"/password {SECRET} x") == "/password [arguments hidden]"
    assert loggable("/resume tok") == "/resume [arguments hidden]"
    assert loggable(f"/passwort {SECRET} x") == "/passwort [arguments hidden]"
    assert loggable("/play 7j") == "/play 7j"


def test_every_name_of_a_secret_command_is_hidden_in_logs(lobby):
    secret = [c for c in lobby.commands if c.key in ("nick", "register", "password", "resume")]
    assert len(secret) == 4
    for command in secret:
        for name in command.names:
            assert loggable(f"/{name} x {SECRET}") == f"/{name} [arguments hidden]"


def test_stats_read_as_a_person_says_them(lobby):
    from bswtichu.server.text.messages import counted

    assert (counted(0, "game"), counted(1, "game"), counted(2, "point")) == ("0 games", "1 game", "2 points")
    ann = Client(lobby, "Ann", machine=False)
    ann.clear()
    ann.say("/stats")
    assert ann.connection.lines == ["Ann: 0 games, 0 won, 0 points; no rating (only registered players are rated)."]


def test_stats_of_a_name_never_seen_says_so(lobby):
    registered(lobby, "Bob").hang_up()
    ann = Client(lobby, "Ann")
    ann.say("/stats Nobody")
    assert ann.error_code() == "no_such_player"
    ann.clear()
    ann.say("/stats Bob")  # registered, no games yet: his record, not an error
    assert ann.only("STATS")["games"] == 0


@pytest.mark.parametrize("lookalike", ["\u0410nn", "\uff21nn", "\u00c1nn", "A\u0301nn", "ANN\u0301"])
def test_a_name_that_looks_like_one_in_use_or_registered_is_refused(lobby, lookalike):
    ann = Client(lobby, "Ann")
    eve = Client(lobby)
    eve.say(f"/nick {lookalike}")
    assert eve.error_code() == "nick_lookalike"
    assert eve.received()[0][1]["message"] == \
        f"the name {unicodedata.normalize('NFC', lookalike)} looks like Ann, which is in use; choose another"
    ann.say(f"/register {SECRET}")
    ann.hang_up()
    eve.clear()
    eve.say(f"/nick {lookalike}")  # Ann is gone, but registered
    assert "which is registered" in eve.received()[0][1]["message"]


def test_a_name_typed_with_a_combining_accent_is_its_composed_form(lobby):
    bea = Client(lobby, "B\u00e9a")
    bea.say("/nick Be\u0301a")  # the same name, typed on another keyboard: no clash with itself
    assert bea.session.nick == "B\u00e9a"
    eve = Client(lobby)
    eve.say("/nick Be\u0301a")
    assert eve.error_code() == "nick_taken"


def test_the_right_password_takes_the_name_over_from_a_ghost(lobby, four, clock):
    ann = four[0]
    ann.say(f"/register {SECRET}")
    ann.clear()
    again = Client(lobby)
    again.say("/nick Ann wrong-password")
    assert again.error_code() == "bad_password" and not ann.connection.closed
    clock.advance(60)
    again.clear()
    again.say(f"/nick Ann {SECRET}")
    assert ann.received() == [("BYE", {"reason": "taken_over"})] and ann.connection.closed
    assert again.keywords() == ["NICK", "SEAT_HELD", "RETURNED"] and lobby.names.find("Ann") is again.session
    assert again.only("RETURNED")["nick"] == "Ann" and again.session.table is lobby.tables.get(1)


def test_a_guests_token_takes_the_name_over_from_a_ghost(lobby, four):
    bob = four[1]
    thief = Client(lobby)
    thief.say("/nick Bob")
    assert thief.error_code() == "nick_taken"
    back = Client(lobby)
    back.say(f"/resume {bob.token}")
    assert bob.connection.closed and bob.received()[-1] == ("BYE", {"reason": "taken_over"})
    assert back.keywords() == ["NICK", "SEAT_HELD", "RETURNED"] and lobby.names.find("Bob") is back.session
