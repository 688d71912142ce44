"""The voted pause at one table: its limit on the clock, who may end it at once, and how it
meets presence's pause (a `Table` with a stand-in game, without the lobby)."""

from __future__ import annotations

from twisted.internet.task import Clock

from table_parts import PAUSE_LIMIT, Game, People, started_table


def paused_by(pausers=("Ann", "Bob")):
    clock, people, game = Clock(), People(), Game()
    table = started_table(clock, people, game)
    table.pause.begin(pausers)
    return clock, people, game, table


def ended(people, nick="Ann") -> list[dict]:
    return [f for f in people.find(nick).fields("PAUSED") if not f["paused"]]


def test_a_voted_pause_ends_at_its_limit():
    clock, people, game, table = paused_by()
    assert table.pause.on and game.called("pause") == [()]
    assert people.find("Cy").fields("PAUSED") == [{"table": 1, "paused": True, "seconds": PAUSE_LIMIT}]
    clock.advance(PAUSE_LIMIT - 1)
    assert table.pause.on
    clock.advance(1)
    assert not table.pause.on and game.called("resume") == [()]
    assert ended(people)[0]["reason"] == "limit"


def test_a_player_who_did_not_vote_for_it_ends_it_while_everyone_is_here():
    clock, people, game, table = paused_by()
    assert not table.pause.may_end("Ann")  # he voted for it
    assert table.pause.may_end("Cy")
    table.leave("Dan")
    assert not table.pause.may_end("Cy")  # not while someone is away
    table.sit("Dan")
    table.ask_continue("Cy")
    assert not table.pause.on and ended(people)[0] == {"table": 1, "paused": False, "reason": "ended", "by": "Cy"}
    assert clock.getDelayedCalls() == []  # the limit was dropped


def test_its_end_drops_an_open_vote_to_go_on():
    clock, people, game, table = paused_by(("Ann", "Bob", "Cy", "Dan"))
    clock.advance(PAUSE_LIMIT - 10)
    table.ask_continue("Ann")
    assert table.votes.open.kind == "continue"
    clock.advance(10)  # the limit comes first
    assert table.votes.open is None and not table.pause.on
    assert "VOTE_END" not in people.find("Ann").keywords()


def test_a_game_nobody_is_present_at_stays_paused_when_the_vote_pause_ends():
    clock, people, game, table = paused_by()
    for nick in ("Ann", "Bob", "Cy", "Dan"):
        table.leave(nick)
    assert table.presence.waiting_for_people
    clock.advance(PAUSE_LIMIT)
    assert not table.pause.on and game.called("resume") == []
    table.sit("Ann")  # the first one back: nothing holds the game any more
    assert game.called("resume") == [()]


def test_someone_back_does_not_end_a_voted_pause():
    clock, people, game, table = paused_by()
    for nick in ("Ann", "Bob", "Cy", "Dan"):
        table.leave(nick)
    table.sit("Ann")
    assert table.pause.on and game.called("resume") == []
