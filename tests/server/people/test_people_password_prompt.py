"""A person at a terminal types passwords on a line of their own that his client does not
show: ``/nick NAME`` for a registered name and ``/register`` without a password ask for it.
Bots and machine mode give passwords as arguments, as before."""

from __future__ import annotations

import pytest
from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.server.games.logs import GameLogStore
from bswtichu.server.lobby import Lobby
from bswtichu.service import build_lobby
from bswtichu.storage import ScryptCost, Storage

from lobby_clients import Client

SECRET = "hunter22"


@pytest.fixture
def lobby(clock: Clock, config: ServerConfig) -> Lobby:
    return build_lobby(clock, config, lambda table: None, GameLogStore(config.log_folder),
                 storage=Storage.open(cost=ScryptCost(n=2 ** 8), now=clock.seconds))


class Person(Client):
    """A telnet person: human text, and a connection that can hide what he types."""

    def __init__(self, lobby: Lobby, nick: str | None = None) -> None:
        super().__init__(lobby, nick, machine=False)
        self.hidden: list[bool] = []  # each change asked of the client: hide (True) or show (False)
        #: lines and echo changes in the order they went out
        self.stream: list[str] = []
        self.session.hide_input = self._hide
        self.session.also_sent = lambda message, droppable: None  # as on telnet: nothing is held
        lines = self.connection.send_lines
        self.connection.send_lines = lambda sent, droppable=False: (self.stream.extend(sent), lines(sent))

    def _hide(self, hidden: bool) -> None:
        if (self.hidden[-1] if self.hidden else False) != hidden:
            self.hidden.append(hidden)
            self.stream.append("<echo off>" if hidden else "<echo on>")

    def text(self) -> str:
        return "\n".join(self.connection.lines)


def registered_ann(lobby: Lobby) -> None:
    owner = Client(lobby, "Ann")
    owner.say(f"/register {SECRET}")
    assert owner.only("REGISTERED") == {"nick": "Ann"}
    owner.hang_up()


def logged_in(lobby: Lobby, password: str = SECRET) -> Person:
    """A person at a terminal who answers /nick Ann's password prompt with ``password``."""
    person = Person(lobby)
    person.say("/nick Ann")
    person.say(password)
    return person


def test_nick_of_a_registered_name_asks_for_the_password_unseen(lobby):
    registered_ann(lobby)
    ann = Person(lobby)
    ann.say("/nick Ann")
    assert ann.text() == "Ann is registered. Password (not shown; an empty line gives up):"
    assert ann.hidden == [True]
    ann.clear()
    ann.say(SECRET)
    assert ann.text() == "You are now Ann."
    assert ann.hidden == [True, False] and ann.session.nick == "Ann"


def test_a_password_with_a_space_at_the_prompt_gets_the_nick_usage_and_is_asked_again(lobby):
    registered_ann(lobby)
    ann = Person(lobby)
    ann.say("/nick Ann")
    ann.clear()
    ann.say("two words")
    refused, asked = ann.connection.lines
    assert refused.startswith("error: a name is ") and refused.endswith("; usage: /nick NAME [PASSWORD]")
    assert asked.startswith("Ann is registered. Password") and ann.session.secret_answer is not None
    assert "two words" not in ann.text()


def test_a_wrong_password_is_refused_and_asked_for_again_unseen(lobby, clock):
    registered_ann(lobby)
    bob = Client(lobby, "Bob")
    ann = Person(lobby)
    ann.say("/nick Ann")
    ann.clear()
    ann.say("not-it-at-all")
    assert ann.text() == ("error: wrong password for Ann\n"
                          "Ann is registered. Password (not shown; an empty line gives up):")
    assert ann.hidden == [True] and ann.session.nick is None
    clock.advance(60)
    ann.say(SECRET)  # the retyped password is the answer, not chat
    assert ann.session.nick == "Ann" and ann.hidden == [True, False]
    assert bob.connection.lines == []


def test_the_echo_comes_back_before_the_reply_to_a_password(lobby):
    registered_ann(lobby)
    ann = Person(lobby)
    ann.say("/nick Ann")
    ann.stream.clear()
    ann.say(SECRET)
    assert ann.stream[:2] == ["<echo on>", "You are now Ann."]
    ann.say("/password")
    ann.stream.clear()
    ann.say("")
    assert ann.stream == ["<echo on>", "No password given; nothing changed."]


def test_an_empty_line_gives_up(lobby):
    registered_ann(lobby)
    ann = Person(lobby)
    ann.say("/nick Ann")
    ann.clear()
    ann.say("")
    assert ann.text() == "No password given; nothing changed."
    assert ann.hidden == [True, False] and ann.session.nick is None


def test_a_password_line_is_never_chat_and_a_command_ends_the_question(lobby, clock):
    registered_ann(lobby)
    bob = Client(lobby, "Bob")
    ann = logged_in(lobby)
    ann.say("/password")
    ann.say("not-it-at-all")  # a wrong password: asked again
    ann.clear()
    clock.advance(0.5)  # (the failure's wait has not passed)
    ann.say("/who")  # a command, not the password: the question ends, /who answers
    assert ann.session.secret_answer is None and ann.hidden == [True, False, True, False]
    assert ann.text() == "Online (2): Ann (lobby), Bob (lobby)"
    assert "too many failed" not in ann.text()
    ann.say("hello")  # chat again
    assert bob.connection.lines[-1] == 'CHAT {"from":"Ann","table":null,"text":"hello"}'
    eve = Person(lobby)
    eve.say("/nick Ann")
    bob.clear()
    eve.say("//an-old-password")  # chat's escape is no command: taken as the password, not said
    assert "error: wrong password for Ann" in eve.text() and eve.session.secret_answer is not None
    assert bob.connection.lines == [] and "an-old-password" not in eve.text()
    eve.say("/quit")  # obeyed: a line starting with / is never a password
    assert eve.connection.closed and eve.session.nick is None


@pytest.mark.parametrize("typed", [["123"], [SECRET, SECRET + "x"]])
def test_a_refused_new_password_is_asked_for_again_and_never_chat(lobby, typed):
    bob = Client(lobby, "Bob")
    ann = Person(lobby, "Ann")
    ann.say("/register")
    for line in typed:
        ann.say(line)
    assert ann.connection.lines[-1].startswith("Choose a password for Ann: 6-128 characters")
    assert ann.hidden == [True]  # hidden all along
    ann.say(SECRET)  # retyped: taken as the password again
    ann.say(SECRET)
    assert ann.connection.lines[-1] == "Ann is now registered to you. Next time: /nick Ann PASSWORD."
    assert ann.hidden == [True, False]
    assert bob.connection.lines == [] and SECRET not in ann.text()


def test_bots_and_machine_mode_get_the_refusal_as_before(lobby):
    registered_ann(lobby)
    bot = Client(lobby)  # machine mode, a connection that cannot hide input
    bot.say("/nick Ann")
    assert bot.error_code() == "name_registered"
    machine = Person(lobby)
    machine.say("/mode machine")
    machine.clear()
    machine.say("/nick Ann")
    assert machine.error_code() == "name_registered" and machine.hidden == []


def test_register_without_a_password_asks_twice_unseen(lobby):
    ann = Person(lobby, "Ann")
    ann.clear()
    ann.say("/register")
    assert ann.text().startswith("Choose a password for Ann: 6-128 characters")
    ann.say("123")  # too short: refused at once, and asked again
    assert ann.connection.lines[-2] == "error: a password is 6-128 characters"
    ann.say(SECRET)
    assert ann.connection.lines[-1] == "Type it again:"
    ann.say(SECRET + "x")
    assert ann.connection.lines[-2] == "error: the two passwords differ; choose one again"
    ann.say(SECRET)
    ann.say(SECRET)
    assert ann.connection.lines[-1] == "Ann is now registered to you. Next time: /nick Ann PASSWORD."
    assert ann.hidden == [True, False]  # one hidden stretch for every line of it
    assert SECRET not in ann.text()
    ann.hang_up()
    assert logged_in(lobby, SECRET).session.nick == "Ann"


def test_password_without_arguments_asks_for_the_old_and_the_new_one_unseen(lobby):
    registered_ann(lobby)
    ann = logged_in(lobby)
    ann.clear()
    ann.say("/password")
    assert ann.text() == "The present password of Ann (not shown; an empty line gives up):"
    for line in (SECRET, "new-secret-1", "new-secret-1"):
        ann.say(line)
    assert ann.connection.lines[-1] == "The password of Ann is changed."
    assert ann.hidden == [True, False, True, False]  # the login, then the change
    ann.hang_up()
    assert logged_in(lobby, "new-secret-1").session.nick == "Ann"


def test_a_wrong_present_password_is_refused_before_the_new_one_is_asked(lobby, clock):
    registered_ann(lobby)
    ann = logged_in(lobby)
    ann.clear()
    ann.say("/password")
    ann.say("not it at all")  # spaces too: still just a wrong password
    assert ann.text().splitlines()[-2:] == ["error: the old password is wrong",
                                            "The present password of Ann (not shown; an empty line gives up):"]
    assert ann.hidden[-1] is True  # asked again, unseen
    ann.say(SECRET)
    assert ann.connection.lines[-2] == "error: too many failed attempts; try again in 1 s"
    clock.advance(60)
    ann.clear()
    ann.say(SECRET)
    assert ann.text().splitlines()[-1].startswith("The new password for Ann: 6-128 characters")
    assert ann.hidden[-1] is True


def test_a_wrong_present_password_at_a_table_is_never_table_chat(lobby, clock):
    registered_ann(lobby)
    ann = logged_in(lobby)
    bob = Client(lobby, "Bob")
    ann.say("/join")
    bob.say("/join 1")
    bob.clear()
    ann.say("/password")
    ann.say("wrong-one-1")
    clock.advance(60)
    ann.say(SECRET)  # retyped after the refusal: the password, not "[table 1] Ann: ..."
    assert bob.connection.lines == []
    assert ann.connection.lines[-1].startswith("The new password for Ann: 6-128 characters")


def test_register_alone_on_a_registered_name_says_so(lobby):
    registered_ann(lobby)
    ann = logged_in(lobby)
    ann.clear()
    ann.say("/register")
    assert ann.text() == "error: Ann is registered already; /password changes it"


def test_the_irc_bridge_relay_mode_is_never_asked_for_a_hidden_password(lobby):
    """The bridge reads the bot line port in relay mode: no prompt exists there, so a
    following line is never swallowed as a password nor an earlier one sent as chat."""
    relay = Person(lobby, "Ann")
    relay.say("/mode relay")
    relay.clear()
    relay.say("/register")
    assert relay.session.secret_answer is None and relay.hidden == []
    assert relay.connection.lines[0].startswith("ERROR ")


def test_a_new_password_never_starts_with_a_slash(lobby):
    """At a prompt such a line would be a command, so no password may look like one."""
    ann = Client(lobby, "Ann")
    ann.say("/register /hunter22")
    assert ann.only("ERROR") == {"code": "bad_password",
                                 "message": "a password does not start with /, which begins a command"}
