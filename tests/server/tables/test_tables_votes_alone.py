"""Votes at one table, without the lobby: who may ask, who votes, the count, the deadline and
what a passed vote does (a `Table` with a stand-in game, on a fake clock)."""

from __future__ import annotations

import pytest
from twisted.internet.task import Clock

from bswtichu.server.text.messages import Refusal

from table_parts import VOTE, Game, People, started_table


def four(partners=None):
    clock, people = Clock(), People()
    game = Game(partners)
    table = started_table(clock, people, game)
    return clock, people, game, table


def refusal(call, *args) -> str:
    with pytest.raises(Refusal) as raised:
        call(*args)
    return raised.value.code


def test_a_pause_passes_once_a_majority_said_yes():
    clock, people, game, table = four()
    table.ask_pause("Ann")
    [opened] = people.find("Dan").fields("VOTE")
    assert (opened["vote"], opened["voters"], opened["yes"], opened["needed"]) == (
        "pause", ["Ann", "Bob", "Cy", "Dan"], ["Ann"], 3)
    table.answer_vote("Bob", True)
    assert not table.pause.on and people.find("Ann").fields("VOTE_ANSWER")[-1]["nick"] == "Bob"
    table.answer_vote("Cy", True)
    assert table.pause.on and game.called("pause") == [()] and table.votes.open is None
    assert people.find("Dan").keywords()[-2:] == ["VOTE_END", "PAUSED"]


def test_a_vote_fails_once_it_can_no_longer_pass_or_when_its_time_is_up():
    clock, people, game, table = four()
    table.ask_pause("Ann")
    table.answer_vote("Bob", False)
    table.answer_vote("Cy", False)
    assert people.find("Ann").fields("VOTE_END")[-1]["reason"] == "refused" and not table.pause.on
    table.ask_pause("Ann")
    clock.advance(VOTE)
    assert people.find("Ann").fields("VOTE_END")[-1]["reason"] == "timeout" and table.votes.open is None


def test_one_vote_at_a_time_and_one_answer_each():
    clock, people, game, table = four()
    table.ask_pause("Ann")
    assert refusal(table.ask_pause, "Bob") == "vote_open"
    assert refusal(table.answer_vote, "Ann", False) == "voted"
    assert refusal(table.answer_vote, "Eve", True) == "not_seated"
    table.votes.cancel()
    assert refusal(table.answer_vote, "Bob", True) == "no_vote"
    assert clock.getDelayedCalls() == []


def test_only_the_seat_of_a_player_away_and_offline_may_be_asked_for():
    clock, people, game, table = four()
    assert refusal(table.ask_replace, "Ann", 4) == "player_here"
    table.leave("Dan")  # away, but online: his seat is his to take back
    assert refusal(table.ask_replace, "Ann", 4) == "player_online"
    assert refusal(table.ask_replace, "Ann", 9) == "bad_seat"
    assert refusal(table.ask_replace, "Dan", 2) == "not_seated"  # away players do not vote


def test_a_seat_passed_to_a_bot_counts_its_player_and_leaves_him_watching_if_online():
    clock, people, game, table = four()
    table.disconnect("Dan")
    people.leave("Dan")
    table.ask_replace("Ann", 4)
    assert table.votes.open.voters == ("Ann", "Bob", "Cy", "Dan")  # his seat: he counts
    table.answer_vote("Cy", True)
    assert table.seats[3] == "Dan" and not table.is_bot(4)
    table.answer_vote("Bob", True)
    assert game.called("replace") == [("Dan",)]
    assert table.bots[4] == ("Dan", "substitute") and table.replaced == {4} and table.seat_of("Dan") is None
    assert not table.is_away(4) and people.find("Ann").fields("REPLACED")[-1]["level"] == "substitute"


def test_a_seat_handed_to_a_spectator_needs_the_player_s_partners_yes():
    clock, people, game, table = four(partners={"Dan": ["Bob"]})
    people.arrive("Eve")
    table.watch("Eve")
    table.disconnect("Dan")
    people.leave("Dan")
    assert refusal(table.ask_replace, "Ann", 4, "Nobody") == "not_watching"
    table.ask_replace("Ann", 4, "eve")
    assert table.votes.open.consent == ("Bob",) and table.votes.open.to == "Eve"
    table.answer_vote("Cy", True)  # a majority, but not his partner's yes
    assert table.votes.open is not None
    table.answer_vote("Bob", True)
    assert table.seats[3] == "Eve" and "Eve" not in table.spectators
    assert game.called("hand_over") == [("Dan", "Eve")] and game.called("show_state") == [("Eve",)]


def test_a_passed_vote_the_game_moved_past_does_nothing():
    clock, people, game, table = four()
    table.disconnect("Dan")
    people.leave("Dan")
    table.ask_replace("Ann", 4)
    people.arrive("Dan")
    table.sit("Dan")  # back while the vote runs
    table.answer_vote("Bob", True)
    table.answer_vote("Cy", True)
    assert people.find("Ann").fields("VOTE_END")[-1]["passed"] and game.called("replace") == []
    assert table.seats[3] == "Dan" and not table.is_bot(4)
