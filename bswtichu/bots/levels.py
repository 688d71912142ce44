"""The bot levels by name: what `/bot SEAT LEVEL` and `bswtichu match` choose from."""

from __future__ import annotations

from random import Random

from .base import Bot, BotSettings
from .basic import BasicBot
from .expert import ExpertBot
from .random_bot import RandomBot

LEVELS: dict[str, type[Bot]] = {"random": RandomBot, "basic": BasicBot, "expert": ExpertBot}


def make_bot(level: str, seat: int, rng: Random, settings: BotSettings = BotSettings()) -> Bot:
    """A bot of ``level`` for ``seat``, drawing on ``rng``, with the configured ``settings``.

    Every level plays every variant: a bot reads the variant from the views it is shown.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
    return LEVELS[level].configured(seat, rng, settings)
