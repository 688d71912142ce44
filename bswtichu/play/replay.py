"""Replay: a driver applies a game's stored steps again, as they happened live, with no timers.

`bswtichu.play.journal` reads the journal and hands each step to a `Replay`, which
applies it to a fresh driver built from the same seed and players.  The bots, and a
stand-in whose person's time ran out, are asked again at every step they took, so
their state and their seats' generators follow live play; the stored action is
applied whatever they choose, so the game itself is always exact.  No bot timer,
stand-in timer or turn clock runs until the replay is over; then the game goes on.
"""

from __future__ import annotations

from types import TracebackType

from bswtichu.engine import Action, Play
from bswtichu.records import Player
from .driver import GameDriver
from .turnclock import CLOCK_STRIKES


def same_action(chosen: Action, stored: Action) -> bool:
    """Whether a bot's action is the stored one (the engine stores a play's resolved Phoenix rank)."""
    if isinstance(chosen, Play) and isinstance(stored, Play):
        return (chosen.seat, chosen.cards) == (stored.seat, stored.cards) and (
            chosen.phoenix_as is None or chosen.phoenix_as == stored.phoenix_as)
    return chosen == stored


class Replay:
    """A context in which ``driver`` applies stored steps again (``start``: deal its first round first)."""

    def __init__(self, driver: GameDriver, start: bool = True):
        self.driver = driver
        self.start = start

    def __enter__(self) -> Replay:
        self.driver.replaying = True
        if self.start:
            self.driver.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        driver = self.driver
        driver.replaying = False
        if kind is None:
            driver.turn_clock.run(driver, None)
            driver._schedule_bots()

    def act(self, action: Action) -> None:
        """Apply a person's stored action again."""
        driver = self.driver
        driver.strikes.pop(driver.player_at(action.seat), None)
        driver._apply(action)

    def bot(self, stored: Action) -> bool:
        """Let the bots choose again (so their state follows live play) and apply ``stored``.

        Returns whether they chose the stored action; the stored action is applied either way.
        """
        chosen = self.driver.next_bot_action()
        self.driver._apply(stored)
        return chosen is not None and same_action(chosen, stored)

    def timeout(self, player: Player, stored: Action) -> bool:
        """His time ran out here: the stand-in chooses again (its seat's generator draws as it
        did live) and ``stored`` is applied; returns whether it chose the stored action."""
        driver = self.driver
        strikes = driver.strikes.get(player, 0) + 1
        seat = stored.seat
        rnd = driver.round
        legal = rnd.legal_actions(seat)
        chosen = driver.stand_ins.stand_in(driver, player, seat).choose(rnd.view(seat), legal)
        driver._apply(stored)
        driver.strikes[player] = strikes
        return same_action(chosen, stored)

    def substitute(self, player: Player) -> None:
        """A stand-in began: for the clock if his strikes say so, else because he was away."""
        driver = self.driver
        reason = "clock" if driver.strikes.get(player, 0) >= CLOCK_STRIKES else "away"
        driver.stand_ins.substitute(driver, player, reason)

    def substitute_end(self, player: Player) -> None:
        """A stand-in stood aside (if one still plays for him)."""
        driver = self.driver
        if player in driver.substitutes:
            driver.stand_ins.end(driver, player)

    def replace(self, player: Player) -> None:
        """A bot took his seat for good, by a vote."""
        self.driver.replace(player)

    def hand_over(self, player: Player, to: Player) -> None:
        """``to`` took his seat, by a vote."""
        self.driver.hand_over(player, to)
