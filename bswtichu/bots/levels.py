"""The bot levels by name: what `/bot SEAT LEVEL` and `bswtichu match` choose from."""

from __future__ import annotations

from random import Random

from .base import Bot, BotSettings
from .basic import BasicBot
from .expert import ExpertBot
from .random_bot import RandomBot

LEVELS: dict[str, type[Bot]] = {"random": RandomBot, "basic": BasicBot, "expert": ExpertBot}


def make_bot(level: str, seat: int, rng: Random, settings: BotSettings = BotSettings()) -> Bot:
    """A bot of ``level`` for ``seat``, drawing on ``rng``, with the configured ``settings``."""
    try:
        bot_class = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}") from None
    return bot_class.configured(seat, rng, settings)
