"""/shutdown as a method of `ShutdownCommands`, on a fake clock, over the people's parts alone
(no lobby, no registry): what the session is told, what is refused."""

from __future__ import annotations

import pytest

from bswtichu.server.commands.registry import UsageRefusal
from bswtichu.server.commands.shutdown import MAX_MINUTES, ShutdownCommands
from bswtichu.server.people.moderation import ADMIN
from bswtichu.server.shutdown import Shutdown
from bswtichu.server.text.messages import Refusal

from command_parts import PeopleParts, only, told


@pytest.fixture
def parts() -> PeopleParts:
    return PeopleParts()


@pytest.fixture
def stops() -> list[str]:
    return []


@pytest.fixture
def shutdown(parts, stops) -> ShutdownCommands:
    countdown = Shutdown(parts.clock, parts.index, parts.tables, stops.append)
    return ShutdownCommands(countdown, lambda nick: ADMIN if nick == "Root" else None)


def test_only_an_admin_shuts_down(parts, shutdown, stops):
    with pytest.raises(Refusal) as refused:
        shutdown.shutdown_(parts.session("Ann"), "0")
    assert refused.value.code == "not_admin"
    parts.clock.advance(3600)
    assert stops == []


def test_shutdown_counts_down_telling_everyone_and_stops(parts, shutdown, stops):
    root, ann = parts.session("Root"), parts.session("Ann")
    shutdown.shutdown_(root, "2 new version")
    assert only(ann, "SHUTDOWN")["seconds"] == 120
    assert parts.tables.closing == "new version"
    parts.clock.advance(60)
    assert only(ann, "SHUTDOWN")["seconds"] == 60
    parts.clock.advance(60)
    assert stops == ["new version"]


def test_shutdown_cancel_and_its_refusals(parts, shutdown, stops):
    root = parts.session("Root")
    with pytest.raises(Refusal) as refused:
        shutdown.shutdown_(root, "cancel")
    assert refused.value.code == "no_shutdown"
    with pytest.raises(UsageRefusal) as refused:
        shutdown.shutdown_(root, str(MAX_MINUTES + 1))
    assert refused.value.detail == f"at most {MAX_MINUTES} minutes"
    shutdown.shutdown_(root, "")
    told(root)
    shutdown.shutdown_(root, "CANCEL")
    assert only(root, "SHUTDOWN_CANCELLED")["by"] == "Root"
    assert parts.tables.closing is None
    parts.clock.advance(3600)
    assert stops == []
