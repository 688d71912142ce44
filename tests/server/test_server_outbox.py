"""The outbox: what one input line causes reaches each client in one write, in order."""

from __future__ import annotations

from bswtichu.server.text.messages import Message
from bswtichu.server.text.render import MACHINE
from bswtichu.server.session import Outbox, Session


class Writes:
    """A connection that keeps each send_lines call apart."""

    def __init__(self) -> None:
        self.writes: list[tuple[list[str], bool]] = []
        self.closed = False

    def send_lines(self, lines, droppable=False):
        self.writes.append((list(lines), droppable))

    def close(self):
        self.closed = True


def machine_session(outbox):
    connection = Writes()
    session = Session(connection, "test", outbox)
    session.mode = MACHINE
    return session, connection


def test_held_messages_go_out_in_one_write_per_session_in_order():
    outbox = Outbox()
    ann, ann_out = machine_session(outbox)
    bob, bob_out = machine_session(outbox)
    with outbox:
        ann.send(Message("A", {"n": 1}))
        bob.send(Message("B", {"n": 1}))
        with outbox:  # nested: only the outermost exit writes
            ann.send(Message("A", {"n": 2}))
        assert ann_out.writes == [] and bob_out.writes == []
    assert ann_out.writes == [(['A {"n":1}', 'A {"n":2}'], False)]
    assert bob_out.writes == [(['B {"n":1}'], False)]


def test_droppable_and_close_send_what_was_held_first():
    outbox = Outbox()
    ann, out = machine_session(outbox)
    with outbox:
        ann.send(Message("A", {"n": 1}))
        ann.send(Message("CHAT", {"n": 2}), droppable=True)
        ann.send(Message("A", {"n": 3}))
        ann.close()
        ann.send(Message("A", {"n": 4}))  # after closing: nothing
    assert out.writes == [(['A {"n":1}'], False), (['CHAT {"n":2}'], True), (['A {"n":3}'], False)]
    assert out.closed


def test_without_an_open_outbox_a_message_goes_out_at_once():
    outbox = Outbox()
    ann, out = machine_session(outbox)
    ann.send(Message("A", {"n": 1}))
    assert out.writes == [(['A {"n":1}'], False)]


def test_a_game_action_reaches_each_player_in_one_write(tmp_path):
    """Through the lobby: one /play, one write per seated player."""
    from lobby_clients import Client
    from test_tables_game import seeded_lobby

    lobby = seeded_lobby(tmp_path, 5, bot_delay=0.0)
    players = [Client(lobby, name) for name in ("Ann", "Bob", "Cid", "Dan")]
    players[0].say("/join")
    for player in players[1:]:
        player.say("/join 1")
    counts = []
    for player in players:
        calls = []
        original = player.connection.send_lines

        def counting(lines, droppable=False, calls=calls, original=original):
            calls.append(len(lines))
            original(lines, droppable)
        player.connection.send_lines = counting
        counts.append(calls)
    players[0].say("/start")
    assert all(len(calls) == 1 and calls[0] > 1 for calls in counts), counts


def test_a_bot_step_reaches_the_person_in_one_write(tmp_path):
    """Bots act on the clock, outside any input line: each step's messages go out together."""
    from twisted.internet.task import Clock

    from lobby_clients import Client
    from test_tables_game import seeded_lobby

    clock = Clock()
    lobby = seeded_lobby(tmp_path, 5, clock=clock, bot_delay=1.0)
    ann = Client(lobby, "Ann")
    for line in ("/join", "/bot", "/bot", "/bot", "/start", "/nogrand"):
        ann.say(line)
    writes = []
    original = ann.connection.send_lines

    def counting(lines, droppable=False):
        writes.append(len(lines))
        original(lines, droppable)
    ann.connection.send_lines = counting
    per_step = []
    for _ in range(6):  # the bots' Grand Tichu decisions and exchanges, one step a second
        writes.clear()
        clock.advance(1.0)
        per_step.append(list(writes))
    assert all(len(step) <= 1 for step in per_step), per_step
    assert any(step and step[0] > 1 for step in per_step), per_step  # several messages, one write


def test_a_session_with_followers_is_not_held():
    """GMCP and prompts (``also_sent``) follow each message at once, so its lines are not held."""
    outbox = Outbox()
    ann, out = machine_session(outbox)
    followed = []
    ann.also_sent = lambda message, droppable: followed.append((message.keyword, len(out.writes)))
    with outbox:
        ann.send(Message("A", {"n": 1}))
        ann.send(Message("B", {"n": 2}))
    assert out.writes == [(['A {"n":1}'], False), (['B {"n":2}'], False)]
    assert followed == [("A", 1), ("B", 2)]  # each after its own lines
