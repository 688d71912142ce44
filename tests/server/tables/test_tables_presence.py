"""Presence alone: who is away, each held seat's grace, and the wait of a game nobody is at,
on a fake clock (the table it calls back is a stand-in; one test uses a real `Table`)."""

from __future__ import annotations

from twisted.internet.task import Clock
from twisted.logger import Logger

from bswtichu.server.tables.presence import Presence

from table_parts import GRACE, Game, People, lone_table, started_table

ABANDON, BOT_GAME = 3600.0, 600.0


class Seats:
    """The table as presence sees it: seats, bots, spectators, and what it was called back for."""

    number = 1
    log = Logger()

    def __init__(self, seats: dict[int, str], bots=(), game: Game | None = None) -> None:
        self.seats = seats
        self.bots = {seat: (seats[seat], "random") for seat in bots}
        self.spectators: list[str] = []
        self.game = game
        self.graces_ended: list[int] = []
        self.abandoned = 0

    @property
    def bots_game(self) -> bool:
        return sum(1 for seat in self.seats if seat not in self.bots) <= 1

    def players(self) -> list[tuple[int, str]]:
        return sorted(self.seats.items())

    def grace_ended(self, seat: int) -> None:
        self.graces_ended.append(seat)

    def nobody_came_back(self) -> None:
        self.abandoned += 1


def presence_of(table: Seats, clock: Clock) -> Presence:
    return Presence(table, clock, GRACE, ABANDON, BOT_GAME)


def test_a_held_seat_s_grace_runs_out_on_the_clock_and_the_table_hears_of_it():
    clock, table = Clock(), Seats({1: "Ann", 2: "Bob"})
    presence = presence_of(table, clock)
    presence.hold(2, timed=True)
    assert presence.is_away(2) and presence.anyone_away and presence.within_grace
    assert presence.people_present() == ["Ann"]
    clock.advance(GRACE - 1)
    assert table.graces_ended == [] and presence.grace_ran_out() == []
    clock.advance(1)
    assert table.graces_ended == [2]
    assert presence.is_away(2) and not presence.within_grace and presence.grace_ran_out() == [2]


def test_a_player_back_within_his_grace_stops_it():
    clock, table = Clock(), Seats({1: "Ann", 2: "Bob"})
    presence = presence_of(table, clock)
    presence.hold(2, timed=True)
    presence.release(2)
    clock.advance(GRACE)
    assert table.graces_ended == [] and not presence.anyone_away and clock.getDelayedCalls() == []


def test_a_seat_held_without_grace_has_run_out_at_once():
    clock, table = Clock(), Seats({1: "Ann", 2: "Bob", 3: "Cy"})
    presence = presence_of(table, clock)
    presence.hold(3, timed=False)
    presence.hold(1, timed=True)
    assert presence.grace_ran_out() == [3] and clock.getDelayedCalls() != []
    presence.cancel()
    assert not presence.anyone_away and clock.getDelayedCalls() == []


def test_a_game_nobody_is_present_at_pauses_and_is_abandoned_after_its_wait():
    clock, game = Clock(), Game()
    table = Seats({1: "Ann", 2: "Bob", 3: "Cy", 4: "Dan"}, game=game)
    presence = presence_of(table, clock)
    for seat in (1, 2, 3):
        presence.hold(seat, timed=False)
    presence.wait_for_people()
    assert not presence.waiting_for_people and game.calls == []  # Dan is there
    presence.hold(4, timed=False)
    presence.wait_for_people()
    presence.wait_for_people()  # said again: one pause, one timer
    assert presence.waiting_for_people and game.called("pause") == [()]
    clock.advance(ABANDON - 1)
    assert table.abandoned == 0
    clock.advance(1)
    assert table.abandoned == 1 and not presence.waiting_for_people


def test_someone_back_ends_the_wait_and_says_it_did():
    clock, game = Clock(), Game()
    table = Seats({1: "Ann", 2: "Bob"}, game=game)
    presence = presence_of(table, clock)
    presence.hold(1, timed=False)
    presence.hold(2, timed=False)
    presence.wait_for_people()
    presence.release(1)
    assert presence.stop_waiting() is True
    assert presence.stop_waiting() is False  # no longer waiting
    clock.advance(ABANDON)
    assert table.abandoned == 0


def test_a_bots_game_nobody_watches_waits_the_short_time_a_watched_one_the_long_one():
    clock, game = Clock(), Game()
    table = Seats({1: "Ann", 2: "Ada", 3: "Bea", 4: "Cy"}, bots=(2, 3, 4), game=game)
    presence = presence_of(table, clock)
    presence.hold(1, timed=False)
    presence.wait_for_people()
    table.spectators.append("Eve")  # a watcher: the long wait, from now
    clock.advance(BOT_GAME - 1)
    presence.wait_for_people()
    clock.advance(BOT_GAME)
    assert table.abandoned == 0
    table.spectators.clear()  # the last one goes: the short wait again, from now
    presence.wait_for_people()
    clock.advance(BOT_GAME - 1)
    assert table.abandoned == 0
    clock.advance(1)
    assert table.abandoned == 1 and game.called("pause") == [()]


def test_at_a_real_table_a_grace_run_out_before_the_start_frees_the_seat():
    clock, people = Clock(), People()
    table, closed = lone_table(clock, people)
    ann, _ = people.arrive("Ann", "Bob")
    table.sit("Ann")
    table.sit("Bob")
    table.disconnect("Bob")
    assert table.is_away(2) and table.view()["away"] == [2]
    clock.advance(GRACE)
    assert table.seats[:2] == ["Ann", None] and not table.presence.anyone_away
    assert ann.fields("LEFT")[-1]["reason"] == "timeout" and closed == []


def test_at_a_real_table_the_game_pauses_when_its_last_person_leaves_and_goes_on_when_he_returns():
    clock, people, game = Clock(), People(), Game()
    table = started_table(clock, people, game)
    for nick in ("Ann", "Bob", "Cy"):
        table.leave(nick)
    assert game.called("pause") == []
    table.disconnect("Dan")
    assert game.called("pause") == [()] and table.presence.waiting_for_people
    table.sit("Dan")
    assert game.called("resume") == [()] and not table.presence.waiting_for_people
