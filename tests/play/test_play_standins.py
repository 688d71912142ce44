"""The stand-ins alone: `StandIns` acting on a headless driver on a `Clock` (no server, no table)."""

from __future__ import annotations

from twisted.internet.task import Clock

from bswtichu.engine import GameOptions
from bswtichu.engine.actions import DeclineGrand
from bswtichu.play import GameDriver, GameSeeds, seated_bots
from bswtichu.play.standins import SUBSTITUTE_LEVEL, SeatHandedOver, SubstituteEnded, SubstituteStarted

PLAYERS = ("ann", "b1", "bob", "b2")


class Recorder:
    def __init__(self):
        self.events: list = []

    def round_dealt(self, driver):
        pass

    def happened(self, driver, events):
        self.events.extend(events)


def driven(substitute_after=60.0, clock_seconds=None):
    clock = Clock()
    seeds = GameSeeds.from_seed(5)
    options = GameOptions(round_limit=1, clock=clock_seconds)
    bots = seated_bots(PLAYERS, options, {"b1": "basic", "b2": "basic"}, seeds)
    driver = GameDriver(PLAYERS, options, seeds, bots, clock, bot_delay=1.0, substitute_after=substitute_after)
    recorder = Recorder()
    driver.subscribe(recorder)
    driver.start()
    return driver, driver.stand_ins, recorder, clock


def test_the_game_holds_for_the_grace_time_then_a_stand_in_plays_until_he_is_back():
    driver, stand_ins, recorder, clock = driven()
    stand_ins.player_away(driver, "bob")
    assert stand_ins.away == stand_ins.holding == {"bob"}
    clock.advance(59)
    assert driver.round.history == []  # held: no bot moved
    clock.advance(1)
    assert recorder.events[-1] == SubstituteStarted("bob", SUBSTITUTE_LEVEL, "away")
    assert stand_ins.substitutes == {"bob"} and not stand_ins.holding and driver.bot_at(2).level == SUBSTITUTE_LEVEL
    stand_ins.player_back(driver, "bob")
    assert SubstituteEnded("bob") in recorder.events and not stand_ins.substitutes and driver.bot_at(2) is None


def test_typing_while_present_sends_a_stand_in_aside_but_not_while_away():
    driver, stand_ins, recorder, clock = driven(substitute_after=0.0)
    stand_ins.player_away(driver, "ann")  # no grace: at once
    stand_ins.player_active(driver, "ann")
    assert stand_ins.substitutes == {"ann"}
    stand_ins.away.discard("ann")
    stand_ins.player_active(driver, "ann")
    assert not stand_ins.substitutes and recorder.events[-1] == SubstituteEnded("ann")


def test_a_banned_person_gets_his_stand_in_at_once_and_a_replaced_one_keeps_it():
    driver, stand_ins, recorder, clock = driven()
    stand_ins.substitute_now(driver, "ann")
    assert recorder.events[-1].reason == "banned" and not stand_ins.holding
    stand_ins.replace(driver, "bob")
    assert stand_ins.replaced == {"bob"} and recorder.events[-1].reason == "replaced"
    stand_ins.player_back(driver, "bob")
    assert "bob" in driver.bots  # a replaced seat stays the bot's


def test_a_seat_handed_over_is_played_by_the_new_person():
    driver, stand_ins, recorder, clock = driven(substitute_after=0.0, clock_seconds=30)
    stand_ins.player_away(driver, "bob")
    stand_ins.hand_over(driver, "bob", "cy")
    assert recorder.events[-1] == SeatHandedOver("bob", "cy") and driver.game.seating[2] == "cy"
    assert not stand_ins.substitutes and not stand_ins.away and driver.time_left("cy") == 30
    driver.act("cy", [DeclineGrand(2)])
    assert driver.round.grand_decided[2]


def test_a_decision_for_a_person_out_of_time_is_made_by_a_fresh_stand_in_and_applied():
    driver, stand_ins, recorder, clock = driven(clock_seconds=30)
    stand_ins.decide_for(driver, "ann", 0)
    assert driver.round.grand_decided[0] and "ann" not in driver.bots  # one decision only


def test_the_parts_hold_no_reference_to_their_driver():
    """Each call names the driver, so a finished game is no reference cycle."""
    driver, stand_ins, recorder, clock = driven()
    stand_ins.player_away(driver, "bob")
    for part in (stand_ins, driver.turn_clock):
        assert not any(value is driver for value in vars(part).values())
