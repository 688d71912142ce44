"""Computer players: the bot interface and the `random`, `basic` and `expert` levels.

Bots are driven by `bswtichu.play`: at a server table and in headless matches alike.

    >>> from random import Random
    >>> from bswtichu.bots import make_bot
    >>> make_bot("basic", 0, Random(1)).level
    'basic'
"""

from .base import Bot, BotSettings, must_act
from .basic import BasicBot
from .expert import ExpertBot
from .levels import LEVELS, make_bot
from .random_bot import RandomBot

__all__ = ["Bot", "BotSettings", "must_act", "BasicBot", "ExpertBot", "RandomBot", "LEVELS", "make_bot"]
