"""/register, /stats and /history as methods of `AccountCommands`, over the people's parts alone
(no lobby, no registry): what the session is told, what is refused."""

from __future__ import annotations

import pytest

from bswtichu.server.commands.account import AccountCommands
from bswtichu.server.commands.registry import UsageRefusal
from bswtichu.server.games.logs import GameReaders
from bswtichu.server.text.messages import Refusal

from command_parts import PeopleParts, only


@pytest.fixture
def parts() -> PeopleParts:
    return PeopleParts()


@pytest.fixture
def registered_names() -> list[str]:
    """The names the group said were registered (the wiring keeps their lists from then on)."""
    return []


@pytest.fixture
def account(parts, registered_names) -> AccountCommands:
    return AccountCommands(parts.directory, parts.storage, GameReaders(parts.storage.games, lambda nick: False),
                           registered=registered_names.append)


def test_register_keeps_the_name_and_says_what_is_next(parts, account, registered_names):
    ann = parts.session("Ann")
    account.register(ann, "hunter22x")  # hashed inline: done at once
    assert only(ann, "REGISTERED") == {"nick": "Ann"}
    assert parts.storage.accounts.is_registered("ann")
    assert registered_names == ["Ann"]
    with pytest.raises(Refusal) as refused:
        account.register(ann, "another1")
    assert refused.value.code == "already_registered"


def test_register_refuses_a_poor_password(parts, account):
    ann = parts.session("Ann")
    with pytest.raises(Refusal) as refused:
        account.register(ann, "12345678")
    assert refused.value.code == "bad_password"
    with pytest.raises(UsageRefusal):
        account.register(ann, "two words")
    assert not parts.storage.accounts.is_registered("Ann")


def test_stats_of_nobody_is_refused_and_of_someone_online_is_empty(parts, account):
    ann = parts.session("Ann")
    with pytest.raises(Refusal) as refused:
        account.stats(ann, "Nobody")
    assert refused.value.code == "no_such_player"
    account.stats(ann, "")
    assert only(ann, "STATS") == {"nick": "Ann", "games": 0, "wins": 0, "points": 0,
                                  "rating": None, "mu": None, "sigma": None}


def test_history_without_games_and_a_variant_word(parts, account):
    ann = parts.session("Ann")
    account.history(ann, "Bob trichu")
    assert only(ann, "HISTORY") == {"nick": "Bob", "games": [], "variant": "trichu"}
