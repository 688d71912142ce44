"""Who is told what: the routing between IRC users and their game connections, on
StringTransports and a Clock. The game server's lines are written here as the
server writes them in relay mode."""

from __future__ import annotations

import json

import pytest

from twisted.internet.defer import succeed
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

from bswtichu.irc.config import IrcConfig
from bswtichu.irc.order import HOLD_LIMIT
from bswtichu.irc.routing import WATCHER_KEEPALIVE, Bridge, is_rejoin


class Irc:
    """The IRC side as the routing sees it: who was told what."""

    def __init__(self) -> None:
        self.channel: list[str] = []
        self.users: list[tuple[str, str]] = []
        self.heard: list[tuple[str, str]] = []  # both, in the order told: (target, text)

    def to_channel(self, text: str) -> None:
        self.channel.append(text)
        self.heard.append(("#tichu", text))

    def to_user(self, nick: str, text: str) -> None:
        self.users.append((nick, text))
        self.heard.append((nick, text))


class Setup:
    def __init__(self) -> None:
        self.clock = Clock()
        self.links = []
        self.bridge = Bridge(self.clock, IrcConfig(), connect=self.connect)
        self.irc = Irc()
        self.bridge.attach(self.irc)

    def connect(self, reactor, address, link):
        link.makeConnection(StringTransport())
        self.links.append(link)
        return succeed(link)

    @staticmethod
    def sent(link) -> list[str]:
        lines = link.transport.value().decode().split("\r\n")
        link.transport.clear()
        return [line for line in lines if line]

    @staticmethod
    def server(link, keyword: str, human: str = "", **fields) -> None:
        payload = json.dumps({**fields, "human": human or keyword.lower()})
        link.dataReceived(f"{keyword} {payload}\r\n".encode())

    def login(self, link, name: str) -> None:
        """The greeting, MODE and NICK replies, as the server gives them."""
        link.dataReceived(b"Welcome to bswtichu\r\nLimits: ...\r\n")
        self.server(link, "MODE", mode="relay")
        self.server(link, "NICK", nick=name, previous=None)

    def seated(self, nick: str = "Ann", table: int = 1):
        """IRC user ``nick`` logged in and seated at ``table``, its watcher watching."""
        self.bridge.command(nick, "/join")
        player = self.links[-1]
        self.login(player, nick)
        self.server(player, "JOINED", f"{nick} sits down at table {table}, seat 1.",
                    table=table, seat=1, nick=nick, seats=[nick, None, None, None])
        watcher = self.links[-1]
        self.login(watcher, f"tichubot-w{table}")
        self.server(watcher, "SPECTATOR_JOINED", table=table, nick=f"tichubot-w{table}",
                    seats=[nick, None, None, None])
        return player, watcher


def test_the_first_command_logs_in_then_goes_through():
    s = Setup()
    s.bridge.command("Ann", "/tables")
    [link] = s.links
    assert s.sent(link) == ["/mode relay"]
    s.login(link, "Ann")
    assert s.sent(link) == ["/nick Ann", "/tables"]


def ann_refused(code: str) -> tuple[Setup, object]:
    """Ann's first command, her name refused with ``code``, then Ann2 given."""
    s = Setup()
    s.bridge.command("Ann", "/who")
    [link] = s.links
    link.dataReceived(b"Limits: ...\r\n")
    s.server(link, "MODE", mode="relay")
    s.server(link, "ERROR", code=code, message="Ann is not free")
    s.server(link, "NICK", nick="Ann2", previous=None)
    return s, link


def test_a_taken_name_tries_the_next_and_says_so():
    s, link = ann_refused("nick_taken")
    assert s.sent(link) == ["/mode relay", "/nick Ann", "/nick Ann2", "/who"]
    assert s.irc.users == [("Ann", "You play as Ann2 on the game server.")]


def test_a_registered_name_is_skipped_with_a_hint_to_log_in_privately():
    s, _ = ann_refused("name_registered")
    assert s.irc.users == [
        ("Ann", "You play as Ann2 on the game server."),
        ("Ann", "Ann is a registered name on the game server. If it is yours, log in to it"
                " privately: /msg tichubot nick Ann PASSWORD")]


def test_logging_in_privately_renames_the_player_and_his_table_follows():
    s = Setup()
    s.bridge.command("Ann", "/who")
    [link] = s.links
    s.login(link, "Ann2")
    s.bridge.command("Ann", "/nick Ann s3cret-pw")
    assert s.sent(link)[-1] == "/nick Ann s3cret-pw"
    s.server(link, "NICK", "You are now Ann.", nick="Ann", previous="Ann2")
    assert link.name == "Ann"
    s.server(link, "JOINED", "Ann sits down at table 1, seat 1.", table=1, seat=1, nick="Ann",
             seats=["Ann", None, None, None])
    assert len(s.links) == 2, "his table got a watcher: the bridge knows he sits there"
    assert s.irc.users[-2:] == [("Ann", "You are now Ann."), ("Ann", "Ann sits down at table 1, seat 1.")]


@pytest.mark.parametrize("line", ["/register s3cret-pw", "/nick Ann s3cret-pw", "/password a b",
                                  "/PASSWORT a b", "/resume tok", "/register"])
def test_a_password_in_the_channel_is_not_used(line):
    s = Setup()
    s.bridge.command("Ann", line, private=False)
    assert s.links == [], "nothing reached the game server"
    [(nick, text)] = s.irc.users
    assert nick == "Ann" and text.startswith("Passwords go to me privately, never to the channel: /msg tichubot ")
    assert ("public now" in text) == (" " in line)
    assert s.irc.channel == []


def test_a_name_without_password_in_the_channel_goes_through():
    s = Setup()
    s.bridge.command("Ann", "/nick Annie", private=False)
    [link] = s.links
    s.login(link, "Ann")
    assert s.sent(link)[-1] == "/nick Annie"


def test_a_seated_player_brings_a_watcher_and_waits_for_it():
    s = Setup()
    s.bridge.command("Ann", "/join")
    player = s.links[0]
    s.login(player, "Ann")
    s.server(player, "JOINED", "Ann sits down at table 1, seat 1.", table=1, seat=1, nick="Ann",
             seats=["Ann", None, None, None])
    s.bridge.command("Ann", "/bot")
    watcher = s.links[1]
    assert s.sent(player)[-1] == "/join"  # /bot waits for the watcher
    s.login(watcher, "tichubot-w1")
    assert s.sent(watcher) == ["/mode relay", "/observer", "/nick tichubot-w1", "/watch 1"]
    s.server(watcher, "SPECTATOR_JOINED", table=1, nick="tichubot-w1", seats=["Ann", None, None, None])
    assert s.sent(player) == ["/bot"]
    assert s.irc.channel == ["[table 1] seats: 1 Ann, 2 (free), 3 (free), 4 (free)"]
    assert s.irc.users == [("Ann", "Ann sits down at table 1, seat 1.")]


def test_private_things_go_to_the_player_and_table_events_to_the_channel_once():
    s = Setup()
    player, watcher = s.seated()
    s.irc.channel.clear(), s.irc.users.clear()
    for link in (player, watcher):  # the server tells the table, player and spectator alike
        s.server(link, "PLAYED", "Bob (seat 2) played: single 7 [7j] (13 cards left).", table=1, seat=2)
        s.server(link, "TURN", "Ann (seat 1) to play.", table=1, seat=1, player="Ann", need="follow")
    s.server(player, "DEALT", "Your first 8 cards: 2j 3j", table=1, seat=1, cards=["2j", "3j"])
    s.server(player, "ERROR", "error: not your turn", code="illegal", message="not your turn")
    s.server(player, "CHAT", "[lobby] Bob: hi", table=None, **{"from": "Bob", "text": "hi"})
    for link in (watcher, player):
        s.server(link, "CHAT", "[table 1] Bob: gg", table=1, **{"from": "Bob", "text": "gg"})
    s.server(watcher, "PLAYED", "at another table", table=2, seat=1)
    assert s.irc.channel == ["[table 1] Bob (seat 2) played: single 7 [7j] (13 cards left).",
                             "[table 1] Bob: gg"]
    assert s.irc.users == [("Ann", "Ann (seat 1) to play."), ("Ann", "Your first 8 cards: 2j 3j"),
                           ("Ann", "error: not your turn"), ("Ann", "[lobby] Bob: hi")]


def test_a_score_reply_goes_to_the_asker_and_a_round_score_only_to_the_channel():
    s = Setup()
    player, watcher = s.seated()
    s.irc.users.clear()
    for link in (player, watcher):
        s.server(link, "SCORE", "After round 1: ...", table=1)
    assert s.irc.users == [] and s.irc.channel[-1] == "[table 1] After round 1: ..."
    s.bridge.command("Ann", "/score")
    s.server(player, "SCORE", "Score (round 1): ...", table=1)
    assert s.irc.users == [("Ann", "Score (round 1): ...")]


def test_the_watcher_goes_when_the_last_player_leaves_and_keeps_alive_meanwhile():
    s = Setup()
    player, watcher = s.seated()
    s.sent(watcher)
    s.clock.advance(WATCHER_KEEPALIVE)
    assert s.sent(watcher) == ["/mode relay"]
    s.server(player, "LEFT", "Ann leaves table 1.", table=1, seat=1, nick="Ann", reason="left",
             seats=[None] * 4)
    assert s.sent(watcher) == ["/quit"] and watcher.transport.disconnecting
    watcher.connectionLost(None)
    assert s.bridge.watchers == {} and not s.clock.getDelayedCalls()


def test_a_renamed_user_keeps_his_connection_and_a_quit_closes_it():
    s = Setup()
    player, watcher = s.seated()
    s.sent(player)
    s.bridge.renamed("Ann", "Anna")
    s.bridge.command("anna", "/hand")  # IRC nicks compare without case
    assert s.sent(player) == ["/hand"]
    s.bridge.quit("ANNA")
    assert s.sent(player) == ["/quit"] and player.transport.disconnecting
    assert s.bridge.players == {} and s.bridge.watchers == {}


def test_losing_irc_disconnects_everyone():
    s = Setup()
    ann, watcher = s.seated("Ann")
    s.bridge.command("Bob", "/who")
    bob = s.links[-1]
    s.bridge.detach()
    assert all(link.transport.disconnecting for link in (ann, watcher, bob))
    assert s.bridge.players == {} and s.bridge.watchers == {}


def test_help_is_answered_by_the_bridge_at_once_in_bang_forms_without_telnet_commands():
    s = Setup()
    s.bridge.command("Ann", "/help")
    assert s.links == []  # no game connection, no server /help of 38 lines
    [(nick, text)] = s.irc.users
    assert nick == "Ann" and len(text.splitlines()) <= 5
    assert "!join" in text and "!say TEXT" in text and "!play CARDS" in text
    assert "/join" not in text and "!width" not in text and "!color" not in text and "!mode" not in text


def test_help_for_one_command_still_asks_the_server():
    s = Setup()
    s.bridge.command("Ann", "/help join")
    s.login(s.links[0], "Ann")
    assert "/help join" in s.sent(s.links[0])


def test_errors_name_commands_as_typed_on_irc():
    s = Setup()
    s.bridge.command("Ann", "/frob")
    link = s.links[0]
    s.login(link, "Ann")
    s.server(link, "ERROR", "unknown command /frob; /help lists the commands",
             code="unknown_command", message="...")
    assert s.irc.users[-1] == ("Ann", "unknown command !frob; !help lists the commands")


def test_say_chats_at_the_table_and_the_channel_hears_it_once():
    s = Setup()
    player, watcher = s.seated()
    s.sent(player)
    s.bridge.command("Ann", "/say /hello partner")
    assert s.sent(player) == ["hello partner"]  # a chat line, never a command
    s.server(player, "CHAT", "[table 1] Ann: hello partner", table=1, nick="Ann", text="hello partner")
    s.server(watcher, "CHAT", "[table 1] Ann: hello partner", table=1, nick="Ann", text="hello partner")
    assert s.irc.channel[-1] == "[table 1] Ann: hello partner"
    assert ("Ann", "[table 1] Ann: hello partner") not in s.irc.users


def test_say_without_text_says_how():
    s = Setup()
    s.bridge.command("Ann", "/say  ")
    assert s.links == [] and "!say TEXT" in s.irc.users[-1][1]


def test_watching_a_table_the_channel_already_sees_is_told_once_in_the_channel():
    s = Setup()
    s.seated("Ann")
    s.irc.users.clear()
    s.bridge.command("Zed", "/watch 1")
    zed = s.links[-1]
    s.login(zed, "Zed")
    s.server(zed, "SPECTATOR_JOINED", "Zed is watching table 1.", table=1, nick="Zed",
             seats=["Ann", None, None, None])
    watcher = s.links[1]
    s.server(watcher, "SPECTATOR_JOINED", "Zed is watching table 1.", table=1, nick="Zed",
             seats=["Ann", None, None, None])
    assert s.irc.channel.count("Zed is watching table 1.") == 1
    assert [text for nick, text in s.irc.users if nick == "Zed"] == []


BOB_PLAYS = ("PLAYED", "Bob (seat 2) played: single A [Ap] (13 cards left).")
BOB_FIELDS = {"table": 1, "seat": 2, "player": "Bob", "combo": {"text": "single A"}, "cards_left": 13}
ANN_TURN = {"table": 1, "seat": 1, "player": "Ann", "need": "follow"}


def test_a_turn_notice_waits_for_the_play_it_must_beat_when_the_watcher_is_behind():
    s = Setup()
    player, watcher = s.seated()
    s.irc.heard.clear()
    s.server(player, *BOB_PLAYS, **BOB_FIELDS)
    s.server(player, "TURN", "Your turn: beat single A.", **ANN_TURN)
    assert s.irc.heard == []  # the channel has not shown Bob's play yet
    s.server(watcher, *BOB_PLAYS, **BOB_FIELDS)
    s.server(watcher, "TURN", "Ann (seat 1) to play.", **ANN_TURN)
    assert s.irc.heard == [("#tichu", "[table 1] Bob (seat 2) played: single A [Ap] (13 cards left)."),
                           ("Ann", "Your turn: beat single A.")]


def test_a_play_waits_in_the_channel_for_a_reply_the_server_sent_before_it():
    s = Setup()
    player, watcher = s.seated()
    s.server(player, "CHAT", "[table 1] Ann: hi", table=1, nick="Ann", text="hi")
    s.server(watcher, "CHAT", "[table 1] Ann: hi", table=1, nick="Ann", text="hi")  # in step now
    s.irc.heard.clear()
    s.server(watcher, *BOB_PLAYS, **BOB_FIELDS)
    assert s.irc.heard == []  # Ann's connection may still bring what came before the play
    s.server(player, "LEGAL", "Legal now: /play 2s | /pass", table=1, seat=1, commands=["/play 2s", "/pass"])
    s.server(player, *BOB_PLAYS, **BOB_FIELDS)
    s.server(player, "ERROR", "error: single 2s does not beat single A; try /help",
             code="illegal", message="single 2s does not beat single A")
    assert s.irc.heard == [("Ann", "Legal now: !play 2s | !pass"),  # as typed on IRC
                           ("#tichu", "[table 1] Bob (seat 2) played: single A [Ap] (13 cards left)."),
                           ("Ann", "error: single 2s does not beat single A; try !help")]


def test_nothing_waits_longer_than_the_hold_limit_for_an_event_the_other_side_never_gets():
    s = Setup()
    player, watcher = s.seated()
    s.server(player, "CHAT", "[table 1] Ann: hi", table=1, nick="Ann", text="hi")
    s.server(watcher, "CHAT", "[table 1] Ann: hi", table=1, nick="Ann", text="hi")
    s.irc.heard.clear()
    s.server(player, *BOB_PLAYS, **BOB_FIELDS)
    s.server(player, "HAND", "Your hand: 2s", table=1, seat=1, cards=["2s"])
    s.clock.advance(HOLD_LIMIT - 0.1)
    assert s.irc.heard == []  # the hand waits for the channel to show Bob's play
    s.clock.advance(0.1)
    assert s.irc.heard == [("Ann", "Your hand: 2s")]


def test_what_waits_goes_when_the_watcher_goes():
    s = Setup()
    player, watcher = s.seated()
    s.irc.heard.clear()
    s.server(player, *BOB_PLAYS, **BOB_FIELDS)
    s.server(player, "TURN", "Your turn.", **ANN_TURN)
    watcher.connectionLost()
    assert s.irc.heard == [("Ann", "Your turn.")]


def test_an_event_the_channel_showed_first_does_not_hold_the_players_next_reply():
    s = Setup()
    player, watcher = s.seated()  # the watcher's arrival reached the bridge on its own link first
    s.irc.heard.clear()
    s.server(player, "SPECTATOR_JOINED", "tichubot-w1 is watching table 1.", table=1, nick="tichubot-w1",
             seats=["Ann", None, None, None])
    s.server(player, "TABLES", "Table 1 [open] seats: 1 Ann", tables=[])
    assert s.irc.heard == [("Ann", "Table 1 [open] seats: 1 Ann")]


# -- the variants: any number of seats, Trichu's dummy ------------------------------------


def seated_at(s: Setup, nick: str, seats: list) -> tuple:
    """IRC user ``nick`` seated at table 1 of ``len(seats)`` seats, its watcher watching."""
    s.bridge.command(nick, "/join")
    player = s.links[-1]
    s.login(player, nick)
    s.server(player, "JOINED", f"{nick} sits down at table 1, seat 1.", table=1, seat=1, nick=nick, seats=seats)
    if len(s.links) > 1 and s.bridge.watchers.get(1) is not None and s.bridge.watchers[1].active:
        return player, s.bridge.watchers[1].link
    watcher = s.links[-1]
    s.login(watcher, "tichubot-w1")
    s.server(watcher, "SPECTATOR_JOINED", table=1, nick="tichubot-w1", seats=seats)
    return player, watcher


def test_a_six_seat_table_is_named_seat_by_seat_and_the_dog_lead_is_told_in_the_channel():
    s = Setup()
    seats = ["Ann", "Bob", None, "Dee", None, "Fay"]
    player, watcher = seated_at(s, "Ann", seats)
    assert s.irc.channel[0] == "[table 1] seats: 1 Ann, 2 Bob, 3 (free), 4 Dee, 5 (free), 6 Fay"
    s.irc.channel.clear(), s.irc.users.clear()
    dog = {"table": 1, "seat": 4, "to": 6, "leader": 2}
    for link in (player, watcher):
        s.server(link, "DOG_LEAD", "Dee (seat 4) chose Fay (seat 6) to lead; Bob (seat 2) leads in his place.",
                 **dog)
    assert s.irc.channel == ["[table 1] Dee (seat 4) chose Fay (seat 6) to lead; Bob (seat 2) leads in his place."]
    assert s.irc.users == []


TRICHU_SEATING = {"table": 1, "seats": ["Ann", "Bob", "dummy", "Cy"]}
DEALERS_TURN = "[dummy, seat 3, your /dummy] Your turn: lead: /dummy play CARDS."
DUMMY_TURN = {"table": 1, "seat": 3, "player": "dummy", "need": "lead", "by": "Ann"}  # Ann deals


def test_the_dummys_turn_goes_to_the_dealer_who_plays_it_and_to_nobody_else():
    s = Setup()
    ann, watcher = seated_at(s, "Ann", ["Ann", None, None])
    bob, _ = seated_at(s, "Bob", ["Ann", "Bob", None])
    s.irc.heard.clear()
    for link in (ann, bob, watcher):
        s.server(link, "SEATING", "Seating for this round: seat 1 Ann, seat 2 Bob, seat 3 dummy, seat 4 Cy.",
                 **TRICHU_SEATING)
        dealer = link is ann  # the server marks the dummy's turn for the dealer who plays it
        s.server(link, "TURN", DEALERS_TURN if dealer else "dummy (seat 3) to lead.", **DUMMY_TURN)
    assert s.irc.heard == [
        ("#tichu", "[table 1] Seating for this round: seat 1 Ann, seat 2 Bob, seat 3 dummy, seat 4 Cy."),
        ("Ann", DEALERS_TURN.replace("/", "!")),  # the commands as typed on IRC
    ]
    s.irc.heard.clear()  # when play begins the dummy's hand is open to all: the channel shows it
    for link in (ann, bob, watcher):
        s.server(link, "OPEN_HAND", "The dummy's open hand (seat 3): 2j 3j.", table=1, seat=3, cards=["2j", "3j"])
    assert s.irc.heard == [("#tichu", "[table 1] The dummy's open hand (seat 3): 2j 3j.")]
    s.irc.heard.clear()  # the next round Bob deals: the dummy is his
    for link in (ann, bob, watcher):
        s.server(link, "SEATING", "Seating for this round: ...", table=1, seats=["Bob", "Cy", "dummy", "Ann"])
        s.server(link, "TURN", "dummy (seat 3) to lead.", **{**DUMMY_TURN, "by": "Bob"})
    assert [who for who, _ in s.irc.heard] == ["#tichu", "Bob"]


@pytest.mark.parametrize("seats", [["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], ["Ann", "Bob", "Cy", "Dee"]])
def test_without_a_dummy_nobody_hears_of_anothers_turn(seats):
    s = Setup()
    ann, watcher = seated_at(s, "Ann", [seats[0]] + [None] * (len(seats) - 1))
    s.irc.heard.clear()
    for link in (ann, watcher):
        s.server(link, "SEATING", "Seating ...", table=1, seats=seats)
        s.server(link, "TURN", "Cy (seat 3) to lead.", table=1, seat=3, player="Cy", need="lead")
    assert s.irc.heard == [("#tichu", "[table 1] Seating ...")]


def test_what_a_player_is_asked_in_the_exchange_reaches_him_with_the_commands_as_typed_on_irc():
    s = Setup()
    player, watcher = s.seated()
    s.irc.heard.clear()
    s.server(watcher, "PHASE", "The players pass three cards each.", table=1, phase="exchange")
    s.server(player, "PHASE", "Exchange: /schupf C1 C2 C3 passes three cards (right, partner, left).",
             table=1, phase="exchange")
    s.server(player, "LEGAL", "Legal now: /schupf C1 C2 C3 | /tichu", table=1, seat=1)
    assert s.irc.heard == [("#tichu", "[table 1] The players pass three cards each."),
                           ("Ann", "Exchange: !schupf C1 C2 C3 passes three cards (right, partner, left)."),
                           ("Ann", "Legal now: !schupf C1 C2 C3 | !tichu")]
    s.irc.heard.clear()  # the start of play is the same sentence for all: the channel's alone
    for link in (watcher, player):
        s.server(link, "PHASE", "The exchange is done; play begins.", table=1, phase="play")
    assert s.irc.heard == [("#tichu", "[table 1] The exchange is done; play begins.")]


def test_peoples_words_keep_their_slashes():
    s = Setup()
    player, watcher = s.seated()
    s.irc.heard.clear()
    for link in (player, watcher):
        s.server(link, "CHAT", "[table 1] Bob: type /join 2", table=1, nick="Bob", text="type /join 2")
    s.server(player, "MSG", "Bob whispers: and/or /who", to="Ann", text="and/or /who")
    assert s.irc.heard == [("#tichu", "[table 1] Bob: type /join 2"), ("Ann", "Bob whispers: and/or /who")]


def resumed(s: Setup, command: str):
    """Ann comes back while her seat 1 at table 6 is held: her name is held, the bridge resumes it."""
    s.bridge.resume_tokens["ann"] = "tok-1"
    s.bridge.command("Ann", command)
    player = s.links[-1]
    player.dataReceived(b"Limits: ...\r\n")
    s.server(player, "MODE", mode="relay")
    s.server(player, "ERROR", code="name_held", message="seat 1 at table 6 is held for Ann")
    s.server(player, "NICK", nick="Ann", previous=None)
    s.server(player, "SEAT_HELD", "Your seat 1 at table 6 was held for you; you sit in it again.", table=6, seat=1)
    s.server(player, "RETURNED", "Ann is back at table 6, seat 1.", table=6, seat=1, nick="Ann")
    watcher = s.links[-1]
    s.login(watcher, "tichubot-w6")
    s.server(watcher, "SPECTATOR_JOINED", table=6, nick="tichubot-w6", seats=["Ann", None, None, None])
    return player


@pytest.mark.parametrize("command", ["/join 6", "/join", "/JOIN 6 1"])
def test_coming_back_with_join_takes_the_held_seat_quietly(command):
    s = Setup()
    player = resumed(s, command)
    assert s.sent(player) == ["/mode relay", "/nick Ann", "/resume tok-1", "/mode relay"]
    s.server(player, "MODE", "Mode: human.", mode="relay")  # all the resume gave back is read
    assert s.sent(player) == [], "no /join: he sits there again"
    assert ("Ann", "Your seat 1 at table 6 was held for you; you sit in it again.") in s.irc.users
    assert not [text for _, text in s.irc.users if text.startswith("Mode")]


@pytest.mark.parametrize("command", ["/join 7", "/join 6 2", "/hand"])
def test_another_first_command_after_coming_back_goes_through(command):
    s = Setup()
    player = resumed(s, command)
    s.sent(player)
    s.server(player, "MODE", "Mode: human.", mode="relay")
    assert s.sent(player) == [command]


@pytest.mark.parametrize("line, rejoin", [("/join", True), ("/join 6", True), ("/join 6 1", True),
                                          ("/join 6 2", False), ("/join 7", False), ("/join 6 1 x", False),
                                          ("/", False), ("join 6", False), ("/who", False)])
def test_which_first_commands_only_ask_for_the_seat_given_back(line, rejoin):
    assert is_rejoin(line, (6, 1)) is rejoin


def test_a_table_an_admin_closed_is_left_the_player_told_and_the_watcher_gone():
    s = Setup()
    player, watcher = s.seated()
    s.sent(watcher)
    s.server(player, "TABLE_CLOSED", "Root closes table 1: nobody plays it. You are back in the lobby.",
             table=1, by="Root", reason="nobody plays it")
    assert ("Ann", "Root closes table 1: nobody plays it. You are back in the lobby.") in s.irc.users
    assert s.sent(watcher) == ["/quit"] and watcher.transport.disconnecting


def test_standings_outside_a_table_expects_no_score_so_the_next_round_score_reaches_the_channel():
    s = Setup()
    s.bridge.command("Ann", "/standings")
    [player] = s.links
    s.login(player, "Ann")
    s.server(player, "STANDINGS", "Event 1 (Friday): standings after round 1 of 2", event=1, standings=[])
    assert s.irc.users[-1] == ("Ann", "Event 1 (Friday): standings after round 1 of 2")
    s.server(player, "JOINED", "Ann sits down at table 1, seat 1.", table=1, seat=1, nick="Ann",
             seats=["Ann", None, None, None])
    watcher = s.links[-1]
    s.login(watcher, "tichubot-w1")
    s.server(watcher, "SPECTATOR_JOINED", table=1, nick="tichubot-w1", seats=["Ann", None, None, None])
    s.irc.users.clear()
    for link in (player, watcher):  # a round's score: the channel's, not a reply to Ann
        s.server(link, "SCORE", "After round 1: ...", table=1)
    assert s.irc.users == [] and s.irc.channel[-1] == "[table 1] After round 1: ..."


def test_standings_of_an_event_at_a_table_is_no_score_reply_but_standings_alone_is():
    s = Setup()
    player, watcher = s.seated()
    s.bridge.command("Ann", "/standings 1")
    s.server(player, "STANDINGS", "Event 1 (Friday): final standings", event=1, standings=[])
    s.irc.users.clear()
    for link in (player, watcher):
        s.server(link, "SCORE", "After round 1: ...", table=1)
    assert s.irc.users == [] and s.irc.channel[-1] == "[table 1] After round 1: ..."
    s.bridge.command("Ann", "/standings")
    s.server(player, "SCORE", "Score (round 1): ...", table=1)
    assert s.irc.users == [("Ann", "Score (round 1): ...")]


def test_the_channels_language_is_asked_for_before_relay_mode():
    """`[irc] language`: each game connection says /lang first (its LANGUAGE answer comes in
    human mode, read as the greeting is), then /mode relay; English asks nothing."""
    from bswtichu.config import ConfigError
    from bswtichu.irc.config import IrcConfig
    from bswtichu.irc.gameside import GameLink

    class Recorded(GameLink):
        def __init__(self, language):
            super().__init__(None, None, language)  # type: ignore[arg-type]
            self.sent = []

        def send(self, line):
            self.sent.append(line)

    class Transport:
        def loseConnection(self):
            pass

    for language, expected in (("de", ["/lang de", "/mode relay"]), ("en", ["/mode relay"])):
        link = Recorded(language)
        link.transport = Transport()
        link.connectionMade()
        assert link.sent == expected
    assert IrcConfig(language="ro").language == "ro"
    with pytest.raises(ConfigError, match="language must be one of"):
        IrcConfig(language="xx")
