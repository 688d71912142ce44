"""Quick fill at one table: after the wait bots take the free seats and the game starts; people
who fill it start it at once (a `Table` with a stand-in game, without the lobby)."""

from __future__ import annotations

from twisted.internet.task import Clock

from table_parts import Game, People, lone_table

WAIT = 20.0


def quick_table(*nicks):
    clock, people, game = Clock(), People(), Game()
    table, closed = lone_table(clock, people, game)
    people.arrive(*nicks)
    for nick in nicks:
        table.sit(nick)
    names = iter(("Ada", "Bea", "Cy"))
    table.fill_after("random", WAIT, lambda level: next(names))
    return clock, people, game, table


def test_after_the_wait_bots_fill_the_free_seats_and_the_first_person_starts_the_game():
    clock, people, game, table = quick_table("Ann", "Bob")
    clock.advance(WAIT - 1)
    assert table.seats == ["Ann", "Bob", None, None]
    clock.advance(1)
    assert table.seats == ["Ann", "Bob", "Ada", "Bea"] and table.bots == {3: ("Ada", "random"), 4: ("Bea", "random")}
    assert table.started and game.called("start") == [()]
    assert [(f["seat"], f["bot"]) for f in people.find("Ann").fields("JOINED") if "bot" in f] == [
        (3, "random"), (4, "random")]


def test_with_a_player_away_bots_fill_the_seats_but_the_table_waits_for_him():
    clock, people, game, table = quick_table("Ann", "Bob")
    table.disconnect("Bob")
    clock.advance(WAIT)
    assert table.seats == ["Ann", "Bob", "Ada", "Bea"] and not table.started


def test_nobody_left_to_play_with_means_no_bots():
    clock, people, game, table = quick_table("Ann")
    table.disconnect("Ann")
    clock.advance(WAIT)
    assert table.seats == ["Ann", None, None, None] and not table.bots


def test_people_who_fill_a_quick_table_start_it_at_once_and_the_wait_is_dropped():
    clock, people, game, table = quick_table("Ann", "Bob", "Cy")
    assert not table.start_if_full("Cy")  # a seat is free
    people.arrive("Dan")
    table.sit("Dan")
    assert table.start_if_full("Dan") and table.started
    assert clock.getDelayedCalls() == [] and not table.bots


def test_only_a_quick_table_starts_when_full():
    clock, people, game = Clock(), People(), Game()
    table, _ = lone_table(clock, people, game)
    people.arrive("Ann", "Bob", "Cy", "Dan")
    for nick in ("Ann", "Bob", "Cy", "Dan"):
        table.sit(nick)
    assert not table.start_if_full("Dan") and not table.started


def test_a_closed_quick_table_drops_its_wait():
    clock, people, game, table = quick_table("Ann")
    table.close()
    clock.advance(WAIT)
    assert clock.getDelayedCalls() == [] and not table.bots
