"""The hall alone: table numbers, bot names unique on the server, the table quick play picks,
the seat held for a name (tables without the lobby, on a fake clock)."""

from __future__ import annotations

import pytest
from twisted.internet.task import Clock

from bswtichu.server.tables.hall import TableHall

from table_parts import GRACE, People


def hall_of(*nicks):
    clock, people = Clock(), People()
    people.arrive(*nicks)
    return clock, people, TableHall(people.find, clock, GRACE)


def test_a_new_table_takes_the_lowest_free_number_and_a_stored_one_its_own():
    clock, people, hall = hall_of("Ann")
    assert [hall.open().number for _ in range(3)] == [1, 2, 3]
    hall.get(2).sit("Ann")
    hall.get(2).leave("Ann")  # nobody left: the table closes, the hall forgets it
    assert hall.get(2) is None
    assert hall.open().number == 2 and hall.open(7).number == 7 and len(hall) == 4
    with pytest.raises(ValueError):
        hall.open(7)


def test_bot_names_are_unique_across_the_tables():
    clock, people, hall = hall_of()
    first, second = hall.open(), hall.open()
    first.add_bot(None, None, "random", hall.bot_name("random"))
    second.add_bot(None, None, "expert", hall.bot_name("expert"))
    taken = [name for table in hall for name, _ in table.bots.values()]
    assert len({name.casefold() for name in taken}) == 2
    assert hall.bot_name("random") not in taken


def test_quick_play_picks_the_open_table_with_a_person_that_opened_first():
    clock, people, hall = hall_of("Ann", "Bob")
    only_bots = hall.open()
    only_bots.add_bot(None, None, "random", hall.bot_name("random"))
    clock.advance(1)
    earlier = hall.open()
    earlier.sit("Bob")
    clock.advance(1)
    later = hall.open()
    later.sit("Ann")
    assert hall.longest_waiting() is earlier
    earlier.leave("Bob")
    assert hall.longest_waiting() is later


def test_the_seat_held_for_an_away_player_is_found_by_his_name():
    clock, people, hall = hall_of("Ann")
    table = hall.open()
    table.sit("Ann")
    assert hall.held_seat("ann") is None
    table.disconnect("Ann")
    assert hall.held_seat("ann") == (table, 1)
