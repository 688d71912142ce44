"""The computer-player interface: what a driver (the server or the headless runner) calls.

A bot plays one seat of a round and knows only what that seat may know: the
seat's `RoundView`, its legal actions, and the events the seat was told
(public ones and those ``private_to`` it).  It never sees a `Round`.

A driver, for each round:

1. ``bot.begin_round(seat)`` when the round is dealt (in a tournament the
   seat may change between rounds);
2. ``bot.observe(event)`` for every event the seat may see, in order;
3. whenever ``must_act(view)`` is true for the seat, ``bot.choose(view, legal)``
   and apply the returned action;
4. at other moments it may offer ``bot.interrupt(view, legal)``: the bot
   returns an out-of-turn action (a bomb, a Tichu call) or None.  When it
   returns None it must not change its state: how often it is asked depends on
   timing, and a restored game asks again only where a bot acted
   (docs/storage.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Sequence

from ..engine import Action, Card, Event, RoundView


def must_act(view: RoundView, seat: int | None = None) -> bool:
    """Whether the round waits for this view's seat (or ``seat``; any view shows it):
    its Grand Tichu decision, its exchange, its turn (the engine's `RoundView.waits_for`)."""
    return view.waits_for(view.seat if seat is None else seat)  # type: ignore[arg-type]  # a spectator's view names the seat


def seat_hand(view: RoundView) -> tuple[Card, ...]:
    """The cards of the view's seat: a bot plays from its seat's view, which shows them
    (only a spectator's view has none)."""
    hand = view.hand
    assert hand is not None, "a bot plays from its seat's view"
    return hand


#: The `expert` level's playouts per decision unless the configuration says otherwise.
DEFAULT_EXPERT_BUDGET = 200


@dataclass(frozen=True)
class BotSettings:
    """What the configuration tells the bots (``[bots]`` in the ini file)."""

    expert_budget: int = DEFAULT_EXPERT_BUDGET


class Bot:
    """Base of the computer players; subclasses decide in `choose` (and may `interrupt`)."""

    level = "bot"

    #: The settings it was configured with, for a bot of its level that plays beside it
    #: (Trichu's dummy, a Duo person's second hand).
    settings: BotSettings = BotSettings()

    @classmethod
    def configured(cls, seat: int, rng: Random, settings: BotSettings) -> "Bot":
        """A bot for ``seat`` with the settings that concern its level (none for most), kept."""
        bot = cls.made_for(seat, rng, settings)
        bot.settings = settings
        return bot

    @classmethod
    def made_for(cls, seat: int, rng: Random, settings: BotSettings) -> "Bot":
        """The bot itself, taking what of ``settings`` concerns its level."""
        return cls(seat, rng)

    def __init__(self, seat: int, rng: Random):
        self.seat = seat
        self.rng = rng

    def begin_round(self, seat: int) -> None:
        """A new round is dealt and the bot sits at ``seat``; forget the last round."""
        self.seat = seat

    def observe(self, event: Event) -> None:
        """An event this seat may see (public, or private to it)."""

    def choose(self, view: RoundView, legal: Sequence[Action]) -> Action:
        """The action to take now that the round waits for this seat (``must_act(view)``)."""
        raise NotImplementedError

    def interrupt(self, view: RoundView, legal: Sequence[Action]) -> Action | None:
        """An action to take although the round does not wait for this seat, or None."""
        return None
