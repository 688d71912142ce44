"""The outbox waits for a commit made off the reactor (PostgreSQL's: `settle` returns a Deferred).

What a flush, a line sent at once or a hang-up would write waits in one queue until the
commit it follows fires; later writes queue behind it, so each session's lines keep their
order and nothing is told before the step it tells of is committed.
"""

from __future__ import annotations

from twisted.internet.defer import Deferred

from bswtichu.server.session import Outbox
from bswtichu.server.text.messages import Message

from test_server_outbox import machine_session


class Commits:
    """A settle that hands out one Deferred per commit while ``pending``; the test fires them."""

    def __init__(self) -> None:
        self.pending = True
        self.made: list[Deferred] = []

    def __call__(self) -> Deferred | None:
        if not self.pending:
            return None
        self.made.append(d := Deferred())
        return d


def test_a_flush_waits_for_its_commit_and_later_writes_queue_behind_it():
    commits, scheduled = Commits(), []
    outbox = Outbox(commits, later=scheduled.append)
    ann, ann_out = machine_session(outbox)
    bob, bob_out = machine_session(outbox)
    with outbox:
        ann.send(Message("A", {"n": 1}))
        bob.send(Message("B", {"n": 1}))
    scheduled.pop()()
    assert ann_out.writes == [] and bob_out.writes == [] and outbox.waiting
    commits.pending = False  # nothing new to commit, but a commit is still in flight
    ann.send(Message("A", {"n": 2}))  # at once: behind the flush
    ann.send(Message("CHAT", {"n": 3}), droppable=True)
    assert ann_out.writes == []
    commits.made[0].callback(None)
    assert ann_out.writes == [(['A {"n":1}'], False), (['A {"n":2}'], False), (['CHAT {"n":3}'], True)]
    assert bob_out.writes == [(['B {"n":1}'], False)] and not outbox.waiting
    ann.send(Message("A", {"n": 4}))  # nothing waits: at once
    assert ann_out.writes[-1] == (['A {"n":4}'], False)


def test_turns_commit_in_order_and_their_output_follows_in_order():
    commits, scheduled = Commits(), []
    outbox = Outbox(commits, later=scheduled.append)
    ann, out = machine_session(outbox)
    for n in (1, 2):
        with outbox:
            ann.send(Message("A", {"n": n}))
        scheduled.pop()()
    first, second = commits.made
    second.callback(None)  # a later commit cannot overtake: its output waits for the first's
    assert out.writes == []
    first.callback(None)
    assert out.writes == [(['A {"n":1}'], False), (['A {"n":2}'], False)]


def test_a_hang_up_waits_for_the_commit_and_comes_after_the_last_lines():
    commits, scheduled = Commits(), []
    outbox = Outbox(commits, later=scheduled.append)
    ann, out = machine_session(outbox)
    with outbox:
        ann.send(Message("A", {"n": 1}))
    scheduled.pop()()
    with outbox:
        ann.send(Message("BYE", {}))
        ann.close()
    assert ann.closed and out.writes == [] and not out.closed
    ann.send(Message("A", {"n": 2}))  # closed: dropped, as before
    commits.made[0].callback(None)
    assert out.writes == [(['A {"n":1}'], False)] and not out.closed  # the close waits for its own commit
    commits.made[1].callback(None)
    assert out.writes[1:] == [(['BYE {}'], False)] and out.closed

