"""/ignore, /friend, /friends, /away, /me and /top as methods of `SocialCommands`, over the
people's parts alone (no lobby, no registry): what the session is told, what is refused."""

from __future__ import annotations

import pytest

from bswtichu.server.commands.registry import UsageRefusal
from bswtichu.server.commands.social import LIST_MAX, SocialCommands
from bswtichu.server.text.messages import Refusal
from bswtichu.storage.community import IGNORE

from command_parts import PeopleParts, only, told


@pytest.fixture
def parts() -> PeopleParts:
    return PeopleParts()


@pytest.fixture
def social(parts) -> SocialCommands:
    return SocialCommands(parts.lists, parts.directory, parts.chat, parts.storage)


def test_ignore_keeps_a_guests_list_while_he_is_online_and_refuses_himself(parts, social):
    ann = parts.session("Ann")
    social.ignore(ann, "bob")
    told_ann = only(ann, "IGNORE")
    assert told_ann == {"nick": "bob", "on": True}
    assert parts.lists.ignorers("Bob") == {"ann"}
    with pytest.raises(Refusal) as refused:
        social.ignore(ann, "Bob")
    assert refused.value.code == "already_ignore"
    with pytest.raises(Refusal) as refused:
        social.ignore(ann, "ANN")
    assert refused.value.code == "self"
    social.unignore(ann, "BOB")
    assert only(ann, "IGNORE") == {"nick": "BOB", "on": False}
    assert not parts.lists.ignorers("Bob")


def test_a_full_list_takes_no_more(parts, social):
    ann = parts.session("Ann")
    for number in range(LIST_MAX):
        parts.lists.add("Ann", IGNORE, f"name{number}")
    with pytest.raises(Refusal) as refused:
        social.ignore(ann, "Bob")
    assert refused.value.code == "list_full"


def test_friends_says_where_each_friend_is(parts, social):
    ann, bob = parts.session("Ann"), parts.session("Bob")
    social.friend(ann, "Bob")
    social.friend(ann, "Cy")
    told(ann)
    bob.away = "tea"
    social.friends(ann, "")
    assert only(ann, "FRIENDS")["friends"] == [
        {"nick": "Bob", "online": True, "table": None, "seat": None, "away": "tea"},
        {"nick": "Cy", "online": False, "table": None, "seat": None, "away": None}]


def test_away_and_me_need_their_words(parts, social):
    ann = parts.session("Ann")
    social.away(ann, "")
    assert only(ann, "AWAY_SET") == {"nick": "Ann", "text": "away"}
    with pytest.raises(UsageRefusal) as refused:
        social.me(ann, "")
    assert refused.value.detail == "what do you do?"


@pytest.mark.parametrize("args, detail", [("0", "N is 1-50"), ("bots 51", "N is 1-50"),
                                          ("trichu many", "N is a number of places"),
                                          ("1 2", "N is a number of places")])
def test_top_refuses_a_wrong_number_of_places(parts, social, args, detail):
    with pytest.raises(UsageRefusal) as refused:
        social.top(parts.session("Ann"), args)
    assert refused.value.detail == detail


def test_top_of_an_empty_ladder(parts, social):
    ann = parts.session("Ann")
    social.top(ann, "trichu 3")
    assert only(ann, "TOP") == {"bots": False, "ladder": [], "provisional": [], "variant": "trichu"}
