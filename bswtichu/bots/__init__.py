"""Computer players: the bot interface, the `random` and `basic` levels, and headless games.

    >>> from bswtichu.bots import play_game
    >>> from bswtichu.engine import GameOptions
    >>> summary = play_game(["basic", "random", "basic", "random"], GameOptions(round_limit=1), seed=3)
    >>> summary.rounds
    1
"""

from .base import Bot, must_act
from .basic import BasicBot
from .random_bot import RandomBot
from .runner import (
    DEFAULT_MAX_ROUNDS, LEVELS, GameSummary, IllegalBotAction, PlayerRecord, make_bot, next_action,
    play_game, play_round, run_game,
)

__all__ = [
    "Bot", "must_act", "BasicBot", "RandomBot", "DEFAULT_MAX_ROUNDS", "LEVELS", "GameSummary",
    "IllegalBotAction", "PlayerRecord", "make_bot", "next_action", "play_game", "play_round",
    "run_game",
]
