"""The bot levels by name: what `/bot SEAT LEVEL` and `bswtichu match` choose from."""

from __future__ import annotations

from random import Random

from .base import Bot
from .basic import BasicBot
from .random_bot import RandomBot

LEVELS: dict[str, type[Bot]] = {"random": RandomBot, "basic": BasicBot}


def make_bot(level: str, seat: int, rng: Random) -> Bot:
    """A bot of ``level`` for ``seat``, drawing on ``rng``."""
    try:
        return LEVELS[level](seat, rng)
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}") from None
