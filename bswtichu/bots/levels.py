"""The bot levels by name: what `/bot SEAT LEVEL` and `bswtichu match` choose from."""

from __future__ import annotations

from random import Random

from ..engine import NANJING, Variant
from .base import Bot, BotSettings
from .basic import BasicBot
from .expert import ExpertBot
from .random_bot import RandomBot

LEVELS: dict[str, type[Bot]] = {"random": RandomBot, "basic": BasicBot, "expert": ExpertBot}


#: The levels that play only the 4-player game, and the level that plays for them in the others.
#: The expert's search and its sampling of unseen hands assume four seats of 14 cards.
NANJING_ONLY = {"expert": "basic"}


def make_bot(level: str, seat: int, rng: Random, settings: BotSettings = BotSettings(),
             variant: Variant = NANJING) -> Bot:
    """A bot of ``level`` for ``seat``, drawing on ``rng``, with the configured ``settings``.

    Outside the 4-player game a `NANJING_ONLY` level is played by its stand-in level.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
    if not variant.four_player_round:  # Duo's rounds are the 4-player game's
        level = NANJING_ONLY.get(level, level)
    return LEVELS[level].configured(seat, rng, settings)
