"""The turn clock: each decision asked of a person is timed on the injected clock."""

from __future__ import annotations

from twisted.internet.task import Clock

from bswtichu.engine import GameOptions
from bswtichu.engine.actions import CallTichu, DeclineGrand
from bswtichu.engine.round import EXCHANGE, GRAND, PLAY
from bswtichu.play import (
    CLOCK_WARNING, ClockRanOut, ClockWarning, GameDriver, GameSeeds, SubstituteEnded, SubstituteStarted,
    seated_bots,
)
from bswtichu.play.journal import TIMEOUT, Journal, replay_journal

PEOPLE = ("ann", "bob")
PLAYERS = ("ann", "b1", "bob", "b2")


class Recorder:
    def __init__(self):
        self.events: list = []

    def round_dealt(self, driver):
        pass

    def happened(self, driver, events):
        self.events.extend(events)

    def of(self, kind):
        return [e for e in self.events if isinstance(e, kind)]


def make_driver(seconds=30, seed=7, clock=None, options=None):
    clock = clock or Clock()
    seeds = GameSeeds.from_seed(seed)
    options = options or GameOptions(round_limit=1, clock=seconds)
    bots = seated_bots(PLAYERS, options, {"b1": "basic", "b2": "basic"}, seeds)
    driver = GameDriver(PLAYERS, options, seeds, bots, clock, bot_delay=1.0)
    recorder = Recorder()
    driver.subscribe(recorder)
    return driver, recorder, clock


def test_every_person_gets_the_clock_for_his_grand_decision_and_is_warned_at_ten_seconds():
    driver, recorder, clock = make_driver(30)
    driver.start()
    tick(clock, 5)  # the bots decide
    assert [driver.time_left(p) for p in PEOPLE] == [25, 25]
    assert driver.time_left("b1") is None
    tick(clock, 30 - CLOCK_WARNING - 5)
    warnings = recorder.of(ClockWarning)
    assert sorted((w.player, w.seconds, w.need, w.private_to) for w in warnings) == [
        ("ann", 10, "grand", 0), ("bob", 10, "grand", 2)]
    assert not recorder.of(ClockRanOut)
    driver.act("ann", [DeclineGrand(0)])
    assert driver.time_left("ann") is None  # no longer asked: Tichu calls are not timed
    tick(clock, CLOCK_WARNING)
    [out] = recorder.of(ClockRanOut)
    assert (out.player, out.seat, out.strikes) == ("bob", 2, 1)
    assert driver.round.grand_decided[2]
    assert "bob" not in driver.bots  # the stand-in made one decision only


def test_a_decision_made_in_time_stops_the_clock_and_the_next_one_starts_afresh():
    driver, recorder, clock = make_driver(30)
    driver.start()
    tick(clock, 20)
    driver.act("ann", [DeclineGrand(0)])
    driver.act("bob", [DeclineGrand(2)])
    tick(clock, 2)  # the bots exchange
    assert driver.round.phase == EXCHANGE
    assert driver.time_left("ann") == 28 and driver.time_left("bob") == 28
    assert not recorder.of(ClockRanOut)


def test_two_timeouts_in_a_row_leave_the_stand_in_until_he_types_anything():
    driver, recorder, clock = make_driver(5)
    driver.start()
    tick(clock, 5)  # grand: both time out once
    assert [e.strikes for e in recorder.of(ClockRanOut)] == [1, 1]
    driver.act("bob", [_exchange(driver, 2)])
    tick(clock, 5)  # the exchange: ann's second in a row; bob acted between
    outs = recorder.of(ClockRanOut)
    assert [(e.player, e.strikes) for e in outs] == [("ann", 1), ("bob", 1), ("ann", 2)]
    [sub] = recorder.of(SubstituteStarted)
    assert (sub.player, sub.reason) == ("ann", "clock")
    assert "ann" in driver.substitutes and "bob" not in driver.substitutes
    driver.player_active("ann")
    assert "ann" not in driver.substitutes
    assert recorder.of(SubstituteEnded)[-1].player == "ann"


def test_tichu_calls_do_not_restart_the_clock_and_only_waiting_seats_are_timed():
    driver, recorder, clock = make_driver(30)
    driver.start()
    driver.act("ann", [DeclineGrand(0)])
    driver.act("bob", [DeclineGrand(2)])
    while driver.round.phase == GRAND:
        tick(clock, 1)
    left = driver.time_left("ann")
    tick(clock, 5)
    assert driver.time_left("ann") == left - 5
    driver.act("ann", [CallTichu(0)])
    assert driver.time_left("ann") == left - 5
    while driver.round.phase != PLAY:
        for seat, player in ((0, "ann"), (2, "bob")):
            if driver.round.waits_for(seat):
                driver.act(player, [_exchange(driver, seat)])
        tick(clock, 1)
    for _ in range(200):
        for seat, player in enumerate(driver.game.seating):
            if player in PEOPLE:
                timed = driver.round.waits_for(seat) and player not in driver.substitutes
                assert (driver.time_left(player) is not None) == timed
        if driver.round.phase != PLAY:
            break
        tick(clock, 1)


def test_a_pause_keeps_what_was_left():
    driver, recorder, clock = make_driver(30)
    driver.start()
    tick(clock, 12)
    driver.pause()
    tick(clock, 1000)
    assert not recorder.of(ClockRanOut) and not recorder.of(ClockWarning)
    driver.resume()
    assert driver.time_left("ann") == 18
    tick(clock, 18)
    assert len(recorder.of(ClockRanOut)) == 2


def test_a_game_nobody_answers_ends_on_the_clock_alone():
    driver, recorder, clock = make_driver(2, options=GameOptions(round_limit=2, clock=2))
    driver.start()
    for _ in range(5000):
        if driver.finished:
            break
        tick(clock, 1)
    assert driver.finished
    assert recorder.of(SubstituteStarted)  # two in a row: the stand-ins played on


def test_a_replayed_journal_with_timeouts_rebuilds_the_game_and_the_strikes():
    driver, recorder, clock = make_driver(3, options=GameOptions(round_limit=1, clock=3))
    entries = []
    driver.subscribe(Journal(entries.append))
    driver.start()
    tick(clock, 3)  # grand: both time out
    driver.act("bob", [_exchange(driver, 2)])
    tick(clock, 3)  # ann again: her stand-in stays
    assert any(e.kind == TIMEOUT for e in entries)
    again, _, _ = make_driver(3, options=GameOptions(round_limit=1, clock=3))
    assert replay_journal(again, entries) == 0
    assert again.round.history == driver.round.history
    assert again.strikes == driver.strikes and again.substitutes == driver.substitutes


def tick(clock, seconds):
    """Advance one second at a time, so each bot step (1 s apart) comes when it would live."""
    for _ in range(int(seconds)):
        clock.advance(1)


def _exchange(driver, seat):
    return next(a for a in driver.round.legal_actions(seat) if type(a).__name__ == "Exchange")


def test_a_dropped_person_holds_the_game_for_the_grace_time_then_his_stand_in_plays():
    clock = Clock()
    seeds = GameSeeds.from_seed(3)
    options = GameOptions(round_limit=1, clock=30)
    bots = seated_bots(PLAYERS, options, {"b1": "basic", "b2": "basic"}, seeds)
    driver = GameDriver(PLAYERS, options, seeds, bots, clock, bot_delay=1.0, substitute_after=60.0)
    recorder = Recorder()
    driver.subscribe(recorder)
    driver.start()
    driver.player_away("bob")  # before the bots' Grand Tichu decisions
    tick(clock, 59)
    assert driver.holding == {"bob"}
    assert driver.round.history == [] and driver.time_left("ann") == 30  # nothing moved, no clock ran
    tick(clock, 1)
    assert recorder.of(SubstituteStarted)[-1].player == "bob" and not driver.holding
    tick(clock, 5)
    assert len(driver.round.history) >= 3 and driver.time_left("ann") == 25  # the game goes on


def test_coming_back_within_the_grace_time_ends_the_hold():
    clock = Clock()
    seeds = GameSeeds.from_seed(3)
    options = GameOptions(round_limit=1, clock=30)
    bots = seated_bots(PLAYERS, options, {"b1": "basic", "b2": "basic"}, seeds)
    driver = GameDriver(PLAYERS, options, seeds, bots, clock, bot_delay=1.0, substitute_after=60.0)
    driver.start()
    tick(clock, 4)
    driver.player_away("ann")
    tick(clock, 20)
    assert driver.time_left("bob") == 26
    driver.player_back("ann")
    assert not driver.holding and driver.time_left("ann") == 26
    tick(clock, 26)
    assert driver.round.grand_decided[0] and driver.round.grand_decided[2]  # the clock ran on
    assert "ann" not in driver.substitutes


def test_a_replaced_seat_is_a_bot_for_good_and_a_replay_keeps_it_so():
    driver, recorder, clock = make_driver(30)
    entries = []
    driver.subscribe(Journal(entries.append))
    driver.start()
    driver.player_away("bob")
    driver.replace("bob")
    assert recorder.of(SubstituteStarted)[-1].reason == "replaced"
    driver.player_back("bob")
    driver.player_active("bob")
    assert "bob" in driver.bots and "bob" in driver.replaced and driver.time_left("bob") is None
    tick(clock, 3)
    again, _, _ = make_driver(30)
    replay_journal(again, entries)
    assert again.replaced == {"bob"} and again.round.history == driver.round.history


def test_a_seat_handed_over_keeps_its_cards_and_points_and_a_replay_hands_it_over_again():
    driver, recorder, clock = make_driver(30)
    entries = []
    driver.subscribe(Journal(entries.append))
    driver.start()
    driver.player_away("bob")  # his stand-in comes at once (no grace here) and decides
    tick(clock, 3)
    assert "bob" in driver.substitutes and driver.round.grand_decided[2]
    hand = tuple(driver.round.hands[2])
    driver.hand_over("bob", "cy")
    assert driver.game.seating == ("ann", "b1", "cy", "b2") and tuple(driver.round.hands[2]) == hand
    assert "cy" not in driver.bots and "bob" not in driver.bots and "bob" not in driver.substitutes
    driver.act("ann", [DeclineGrand(0)])
    tick(clock, 3)
    driver.act("cy", [_exchange(driver, 2)])
    again, _, _ = make_driver(30)
    replay_journal(again, entries)
    assert again.game.seating == driver.game.seating and again.round.history == driver.round.history
    assert set(again.game.tichu_points) == {"ann", "b1", "cy", "b2"}


class NeedAtTimeout(Recorder):
    """Keeps what the round waited for from the seat each time its clock ran out."""

    def __init__(self):
        super().__init__()
        self.needs: list[str] = []

    def happened(self, driver, events):
        super().happened(driver, events)
        for event in events:
            if isinstance(event, ClockRanOut):
                rnd = driver.round
                self.needs.append(rnd.need if rnd.phase == PLAY else rnd.phase)


def test_every_kind_of_decision_runs_out_and_is_made_for_him():
    needs: set[str] = set()
    for seed in range(12):
        clock = Clock()
        seeds = GameSeeds.from_seed(seed)
        options = GameOptions(round_limit=3, clock=3)
        bots = seated_bots(PLAYERS, options, {"b1": "basic", "b2": "basic"}, seeds)
        driver = GameDriver(PLAYERS, options, seeds, bots, clock, bot_delay=1.0)
        recorder = NeedAtTimeout()
        driver.subscribe(recorder)
        driver.start()
        for _ in range(5000):  # nobody answers; after each stand-in that stays, they "type"
            if driver.finished:
                break
            tick(clock, 1)
            for person in PEOPLE:
                driver.player_active(person)
        assert driver.finished
        needs |= set(recorder.needs)
        if needs >= {"grand", "exchange", "lead", "follow", "wish", "give"}:
            break
    assert needs == {"grand", "exchange", "lead", "follow", "wish", "give"}
