"""The `random` level: the baseline every other level must beat."""

from __future__ import annotations

from typing import Sequence

from ..engine import Action, RoundView
from .base import Bot


class RandomBot(Bot):
    """Picks uniformly among its legal actions when it must act; never acts out of turn.

    Uniform means it calls Grand Tichu half the time and Tichu whenever the
    draw lands on it, which makes it a weak but rule-abiding opponent.
    """

    level = "random"

    def choose(self, view: RoundView, legal: Sequence[Action]) -> Action:
        return self.rng.choice(legal)
