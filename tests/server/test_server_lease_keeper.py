"""The service's side of the lease (issue 33, item 4), on a Clock: renewals on time, a fenced
renewal or a whole lease without one stops the serving, and a fenced commit tells nobody."""

from __future__ import annotations

from twisted.internet.defer import Deferred
from twisted.internet.task import Clock

from bswtichu.server.session import Outbox
from bswtichu.service import REFUSED, LeaseKeeper, _fencing
from bswtichu.storage import Fenced, Storage


class Unreachable(Exception):
    """The database cannot be reached."""


class FakeConnection:
    Error = Unreachable


class FakeLease:
    """A lease whose renewals go through, are refused (fenced) or cannot reach the database."""

    def __init__(self):
        self.connection = FakeConnection()
        self.length = 5.0
        self.renewals = 0
        self.outcome: Exception | None = None

    def renew(self) -> None:
        self.renewals += 1
        if self.outcome is not None:
            raise self.outcome


def keeper() -> tuple[Clock, FakeLease, LeaseKeeper, list[str]]:
    clock, lease, lost = Clock(), FakeLease(), []
    keeping = LeaseKeeper(lease, clock, 1.0, lost.append)  # type: ignore[arg-type]  # a stand-in lease
    keeping.start()
    return clock, lease, keeping, lost


def test_the_lease_is_renewed_every_interval_until_stopped():
    clock, lease, keeping, lost = keeper()
    clock.pump([1.0] * 3)
    assert lease.renewals == 3 and lost == []
    keeping.stop()
    clock.advance(10)
    assert lease.renewals == 3


def test_a_fenced_renewal_stops_the_serving_at_once():
    clock, lease, keeping, lost = keeper()
    lease.outcome = Fenced("epoch 4 was fenced: another process owns the database")
    clock.advance(1.0)
    assert lost == ["epoch 4 was fenced: another process owns the database"]


def test_a_database_out_of_reach_for_a_whole_lease_stops_the_serving():
    clock, lease, keeping, lost = keeper()
    lease.outcome = Unreachable("connection refused")
    clock.pump([1.0] * 4)
    assert lost == []  # a standby cannot have it yet: it keeps trying
    clock.advance(1.0)
    assert len(lost) == 1 and "could not be renewed for 5 s" in lost[0]
    lease.outcome = None
    clock.advance(1.0)
    assert lease.renewals == 6


class Listener:
    """A stand-in session: what it was told."""

    closed = False

    def __init__(self):
        self.told: list[str] = []

    def write(self, lines):
        self.told.extend(lines)


def fenced_outbox(storage: Storage, commit) -> tuple[Outbox, list[str]]:
    heard: list[str] = []

    def fenced(reason: str) -> None:  # as the service's: the outbox drops what it holds
        heard.append(reason)
        outbox.drop()

    outbox = Outbox(_fencing(commit, storage, fenced))
    return outbox, heard


def test_a_fenced_commit_tells_nobody_what_the_turn_caused():
    storage = Storage.open()
    storage.fenced = True  # (as the write guard sets it when the fence refuses a write)
    outbox, heard = fenced_outbox(storage, lambda: None)
    listener = Listener()
    with outbox:
        outbox.hold(listener, ["PLAYED ..."])  # type: ignore[arg-type]  # a stand-in session
    assert heard == [REFUSED] and listener.told == []


def test_a_commit_refused_off_the_reactor_tells_nobody_what_waited_for_it():
    storage = Storage.open()
    commits: list[Deferred] = []
    outbox, heard = fenced_outbox(storage, lambda: commits.append(Deferred()) or commits[-1])
    listener = Listener()
    with outbox:
        outbox.hold(listener, ["PLAYED ..."])  # type: ignore[arg-type]  # a stand-in session
    with outbox:
        outbox.hold(listener, ["PASSED ..."])  # type: ignore[arg-type]
    storage.fenced = True  # the writer's batch was refused
    commits[0].callback(None)
    commits[1].callback(None)
    assert heard == [REFUSED, REFUSED] and listener.told == [] and not outbox.waiting
