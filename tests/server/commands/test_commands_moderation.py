"""/op, /mute, /ban, /announce, /audit and the kick as methods of `ModerationCommands`, over
the people's parts alone (no lobby, no registry): what the session is told, what is refused."""

from __future__ import annotations

import pytest

from bswtichu.server.commands.moderation import NO_REASON, ModerationCommands, kick_person
from bswtichu.server.commands.registry import UsageRefusal
from bswtichu.server.text.messages import Refusal

from command_parts import PeopleParts, only, told
from lobby_clients import RecordingConnection


@pytest.fixture
def parts() -> PeopleParts:
    return PeopleParts()


@pytest.fixture
def moderation(parts) -> ModerationCommands:
    return ModerationCommands(parts.moderation, parts.directory, parts.connections, parts.tables)


def moderator(parts: PeopleParts, nick: str = "Mo"):
    """A session of a registered moderator."""
    parts.registered(nick)
    parts.moderation.appoint(nick, "Root")
    return parts.session(nick)


@pytest.mark.parametrize("command", ["mute", "unmute", "ban", "unban", "announce", "audit"])
def test_a_guest_has_no_moderation_powers(parts, moderation, command):
    with pytest.raises(Refusal) as refused:
        getattr(moderation, command)(parts.session("Guest"), "Bob spam")
    assert refused.value.code == "guest"


def test_only_an_admin_appoints(parts, moderation):
    with pytest.raises(Refusal) as refused:
        moderation.op(moderator(parts), "Bob")
    assert refused.value.code == "not_admin"


def test_mute_tells_the_target_and_the_moderator_and_is_audited(parts, moderation):
    mo, bob = moderator(parts), parts.session("Bob")
    moderation.mute(mo, "bob 10 spam")
    assert only(bob, "MODERATED") == {"action": "mute", "by": "Mo", "reason": "spam",
                                      "until": 600.0, "minutes": 10}
    assert only(mo, "MODERATION") == {"action": "mute", "target": "bob", "until": 600.0, "reason": "spam"}
    with pytest.raises(Refusal) as refused:
        parts.chat.said(bob, "hello")
    assert refused.value.code == "muted"
    moderation.audit(mo, "")
    [entry] = only(mo, "AUDIT")["entries"]
    assert (entry["actor"], entry["action"], entry["target"], entry["minutes"]) == ("Mo", "mute", "bob", 10)


@pytest.mark.parametrize("args, detail", [("", "whom?"), ("Bob 0", "MINUTES is 1-525600; leave it out for no end")])
def test_mute_refuses_wrong_use(parts, moderation, args, detail):
    with pytest.raises(UsageRefusal) as refused:
        moderation.mute(moderator(parts), args)
    assert refused.value.detail == detail


def test_a_moderator_cannot_act_on_another(parts, moderation):
    mo, other = moderator(parts), moderator(parts, "Ops")
    with pytest.raises(Refusal) as refused:
        moderation.ban(mo, "Ops")
    assert refused.value.code == "protected"
    assert told(other) == []


def test_a_ban_closes_the_target_and_is_kept(parts, moderation):
    mo, bob = moderator(parts), parts.session("Bob")
    moderation.ban(mo, "Bob")
    assert only(bob, "BYE")["reason"] == "banned"
    assert bob.closed and parts.directory.find("Bob") is None
    assert only(mo, "MODERATION") == {"action": "ban", "target": "Bob", "until": None, "reason": NO_REASON}
    with pytest.raises(Refusal) as refused:
        parts.moderation.admit(parts.session(), "bob")
    assert refused.value.code == "banned"


def test_announce_reaches_every_connection_named_or_not(parts, moderation):
    mo, nameless = moderator(parts), parts.session()
    moderation.announce(mo, "restart at noon")
    for session in (mo, nameless):
        assert only(session, "ANNOUNCE") == {"from": "server", "by": "Mo", "text": "restart at noon"}


def test_kick_person_closes_whom_it_names(parts):
    mo, bob = moderator(parts), parts.session("Bob")
    kick_person(parts.moderation, parts.directory, mo, "Bob flooding")
    assert only(bob, "BYE") == {"reason": "kicked", "by": "Mo", "why": "flooding"}
    assert only(mo, "MODERATION")["target"] == "Bob"
    with pytest.raises(Refusal) as refused:
        kick_person(parts.moderation, parts.directory, mo, "Bob")
    assert refused.value.code == "no_such_user"


def test_a_range_over_several_role_holders_names_the_first_by_name(parts, moderation):
    """Which one the refusal names does not depend on the order of the connections' set."""
    mo = moderator(parts)
    for number, nick in enumerate(["Zed", "Yara", "Xeno", "Amy", "Wil"], start=2):
        parts.registered(nick)
        parts.moderation.appoint(nick, "Root")
        session = parts.connections.open(RecordingConnection(), address=f"127.0.0.{number}")
        parts.directory.take_name(session, nick)
    with pytest.raises(Refusal) as refused:
        moderation.ban(mo, "127.0.0.0/24")
    assert refused.value.code == "protected"
    assert "would ban Amy," in refused.value.message
