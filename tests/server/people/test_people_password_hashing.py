"""Passwords are hashed away from the reactor, one at a time per connection, within a
server-wide cap and a budget per name and per address (issue 30 item 2).

Here the hasher answers when the test says so (`ManualHasher`) and the clock is a Clock;
test_people_password_network.py does the same over sockets with the real thread pool.
"""

from __future__ import annotations

import pytest
from twisted.internet.defer import Deferred
from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.server.games.logs import GameLogStore
from bswtichu.server.lobby import Lobby
from bswtichu.service import build_lobby
from bswtichu.storage import ScryptCost, Storage
from bswtichu.storage.accounts import hash_password

from lobby_clients import Client, RecordingConnection

CHEAP = ScryptCost(n=2 ** 8)
SECRET = "hunter22"


class ManualHasher:
    """Keeps each job until the test answers it: ``answer()`` computes the oldest."""

    def __init__(self) -> None:
        self.jobs: list[tuple[object, tuple, Deferred]] = []
        self.done = 0

    def __call__(self, work, *args) -> Deferred:
        answer: Deferred = Deferred()
        self.jobs.append((work, args, answer))
        return answer

    def answer(self, count: int = 1) -> None:
        for _ in range(count):
            work, args, answer = self.jobs.pop(0)
            self.done += 1
            answer.callback(work(*args))

    def answer_all(self) -> None:
        while self.jobs:
            self.answer()


@pytest.fixture
def hasher() -> ManualHasher:
    return ManualHasher()


@pytest.fixture
def settings(config: ServerConfig) -> ServerConfig:
    return config.replace(password_queue=3, password_checks_per_name=4, password_checks_per_address=6,
                          uncapped_addresses="10.9.9.9")


@pytest.fixture
def lobby(clock: Clock, settings: ServerConfig, hasher: ManualHasher) -> Lobby:
    return build_lobby(clock, settings, lambda table: None, GameLogStore(settings.log_folder),
                       storage=Storage.open(cost=CHEAP, now=clock.seconds), hasher=hasher)


class From(Client):
    """A machine-mode client from an IP address of its own."""

    def __init__(self, lobby: Lobby, address: str, nick: str | None = None) -> None:
        self.lobby = lobby
        self.connection = RecordingConnection()
        self.session = lobby.connect(self.connection, f"{address}:5000", None, address)
        self.say("/mode machine")
        if nick:
            self.say(f"/nick {nick}")
        self.clear()


def register(lobby: Lobby, hasher: ManualHasher, name: str = "Ann") -> None:
    """``name`` registered with SECRET, then logged off (one check of the name's budget)."""
    owner = Client(lobby, name)
    owner.say(f"/register {SECRET}")
    hasher.answer_all()
    assert owner.only("REGISTERED") == {"nick": name}
    owner.hang_up()


def codes(client: Client) -> list[str]:
    return [fields.get("code", keyword) for keyword, fields in client.received()]


def test_one_connection_hashes_one_at_a_time_and_only_its_own_lines_wait(lobby, hasher):
    register(lobby, hasher)
    ann = Client(lobby)
    ann.say(f"/nick Ann {SECRET}")
    bob = Client(lobby, "Bob")
    ann.say(f"/password {SECRET} second-pw")
    ann.say("/who")  # waits behind her password commands
    ann.say("/password second-pw third-pw")
    assert len(hasher.jobs) == 1 and ann.received() == []  # her login's check alone
    bob.say("/who")  # nobody else waits
    assert bob.only("WHO")["total"] == 1  # (Ann has no name yet)
    hasher.answer()  # the login
    assert len(hasher.jobs) == 1 and codes(ann) == ["NICK"]  # the first /password's check
    hasher.answer()  # the check: now the new password's hash
    assert len(hasher.jobs) == 1 and codes(ann) == ["NICK"]
    hasher.answer()
    assert codes(ann) == ["NICK", "PASSWORD", "WHO"] and len(hasher.jobs) == 1
    hasher.answer_all()
    assert codes(ann) == ["NICK", "PASSWORD", "WHO", "PASSWORD"] and hasher.done == 1 + 5


def test_past_the_servers_capacity_a_password_command_is_refused_at_once(lobby, hasher):
    for name in ("Ann", "Bob", "Cy", "Dan"):
        register(lobby, hasher, name)
    for name in ("Ann", "Bob", "Cy"):  # three in flight: the capacity
        Client(lobby).say(f"/nick {name} {SECRET}")
    late = Client(lobby)
    late.say(f"/nick Dan {SECRET}")
    refusal = late.only("ERROR")
    assert refusal == {"code": "password_busy",
                       "message": "the server is busy checking passwords; try again in a few seconds"}
    late.clear()
    late.say("/help nick")  # the refusal holds nothing back
    assert late.keywords() == ["HELP"]
    hasher.answer()
    late.clear()
    late.say(f"/nick Dan {SECRET}")  # a place is free again
    assert late.received() == [] and len(hasher.jobs) == 3
    hasher.answer_all()
    assert late.only("NICK")["nick"] == "Dan"


def test_the_budget_per_name_counts_right_passwords_too_and_refills_on_the_clock(lobby, hasher, clock):
    register(lobby, hasher)  # one of the name's four a minute
    for _ in range(3):
        ann = Client(lobby)
        ann.say(f"/nick Ann {SECRET}")
        hasher.answer()
        assert ann.only("NICK")["nick"] == "Ann"
    ann = Client(lobby)
    ann.say(f"/nick Ann {SECRET}")
    assert ann.only("ERROR")["code"] == "password_budget"
    assert "for Ann: at most 4 a minute; try again in 60 s" in ann.only("ERROR")["message"]
    assert hasher.jobs == []  # refused before any hash
    clock.advance(60)
    ann.clear()
    ann.say(f"/nick Ann {SECRET}")
    hasher.answer()
    assert ann.only("NICK")["nick"] == "Ann"


def test_the_budget_per_address_covers_every_name_but_spares_the_bridges_address(lobby, hasher):
    for name in ("Ann", "Bob"):
        register(lobby, hasher, name)
    register(lobby, hasher, "Cy")
    guesser = From(lobby, "10.1.1.1")
    for attempt in range(6):  # two guesses at each name: within each name's budget
        name = ("Ann", "Bob", "Cy")[attempt % 3]
        guesser.say(f"/nick {name} guess-{attempt}")
        hasher.answer_all()
        lobby.names.guard.succeeded(guesser.session, name)  # (the failure throttle is not the subject)
    guesser.clear()
    guesser.say("/nick Ann guess-6")
    assert guesser.only("ERROR")["code"] == "password_budget"
    assert "from your address: at most 6 a minute" in guesser.only("ERROR")["message"]
    bridge = From(lobby, "10.9.9.9", "Dan")  # the IRC bridge's users share its address
    for attempt in range(7):
        bridge.say(f"/register pw-of-dan-{attempt}" if attempt == 0 else f"/password pw-of-dan-{attempt - 1}"
                                                                        f" pw-of-dan-{attempt}")
        hasher.answer_all()
    assert codes(bridge)[:4] == ["REGISTERED", "PASSWORD", "PASSWORD", "PASSWORD"]
    assert codes(bridge)[4:] == ["password_budget"] * 3  # Dan's own budget of four, not the address's


def test_a_password_prompts_answer_counts_against_the_budget(lobby, hasher, clock):
    register(lobby, hasher)
    for _ in range(3):
        ann = Client(lobby)
        ann.say(f"/nick Ann wrong-{_}")
        hasher.answer_all()
        clock.advance(1)
    person = Client(lobby, machine=False)
    person.session.hide_input = lambda hidden: None
    person.say("/nick Ann")
    person.clear()
    person.say(SECRET)  # the fifth of the name's attempts this minute
    assert person.connection.lines[0].startswith("error: too many password attempts for Ann")
    assert person.session.secret_answer is not None  # asked again, still hidden
    assert hasher.jobs == []


def test_a_connection_gone_while_its_password_is_checked_gets_nothing_done(lobby, hasher):
    register(lobby, hasher)
    ann = Client(lobby)
    ann.say(f"/nick Ann {SECRET}")
    ann.say("/join")
    ann.hang_up()
    hasher.answer_all()
    assert ann.received() == [] and lobby.names.find("Ann") is None
    assert lobby.names.guard.hashing.in_flight == 0 and not list(lobby.tables)


def test_a_password_changed_while_another_was_checked_counts_for_nothing(lobby, hasher):
    register(lobby, hasher)
    accounts = lobby.names.guard.accounts
    ann = Client(lobby)
    ann.say(f"/nick Ann {SECRET}")
    hasher.answer()
    ann.clear()
    ann.say(f"/password {SECRET} from-ann")
    hasher.answer()  # the present password is right; the new one's hash waits
    meanwhile = hash_password("changed-elsewhere", CHEAP)
    assert accounts.replace_password("Ann", meanwhile, accounts.login_record("Ann")[1])
    hasher.answer()
    assert ann.received() == [("ERROR", {"code": "account_changed",
                                         "message": "the password of Ann changed meanwhile; try again"})]
    assert accounts.login_record("Ann")[1] == meanwhile  # not overwritten
    late = Client(lobby)
    late.say(f"/nick Ann {SECRET}")  # checked against the old password...
    assert accounts.replace_password("Ann", hash_password(SECRET, CHEAP), meanwhile)  # ...changed meanwhile
    hasher.answer()
    assert late.only("ERROR")["code"] == "account_changed" and late.session.nick is None
