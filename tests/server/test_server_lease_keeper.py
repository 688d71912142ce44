"""The service's side of the lease (issue 33, item 4), on a Clock: renewals on time, a fenced
renewal or a whole lease without one stops the serving, and a fenced commit tells nobody."""

from __future__ import annotations

from twisted.internet.task import Clock

from bswtichu.counters import Counters
from bswtichu.server.session import Outbox
from bswtichu.service import LeaseKeeper, _commit
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


def test_a_fenced_commit_tells_nobody_what_the_turn_caused():
    storage = Storage.open()
    storage.fenced = True  # (as Storage.commit sets it when the fence refuses the commit)
    told, heard = [], []
    outbox = Outbox(lambda: (_commit(storage, Counters(), heard.append), outbox.drop()))

    class Listener:
        closed = False

        def write(self, lines):
            told.extend(lines)

    with outbox:
        outbox.hold(Listener(), ["PLAYED ..."])  # type: ignore[arg-type]  # a stand-in session
    assert heard == ["the database refused its commit: another process took it over"] and told == []
