"""The game layer: one driver of a running game, for server tables and headless matches.

    >>> from bswtichu.play import play_game
    >>> from bswtichu.engine import GameOptions
    >>> summary = play_game(["basic", "random", "basic", "random"], GameOptions(round_limit=1), seed=3)
    >>> summary.rounds
    1
"""

from .driver import BotSeats, BotTurns, GameDriver, GameStopped, GameSeeds, GameSubscriber, check_in_order, seated_bots
from .standins import SUBSTITUTE_LEVEL, SeatHandedOver, SubstituteEnded, SubstituteStarted
from .turnclock import CLOCK_STRIKES, CLOCK_WARNING, ClockRanOut, ClockWarning
from .headless import DEFAULT_MAX_ROUNDS, GameSummary, PlayerRecord, headless_driver, play_game, run_game

__all__ = [
    "CLOCK_STRIKES", "CLOCK_WARNING", "SUBSTITUTE_LEVEL", "BotSeats", "BotTurns", "ClockRanOut", "ClockWarning",
    "GameDriver", "GameStopped", "GameSeeds", "GameSubscriber", "SeatHandedOver", "SubstituteEnded",
    "SubstituteStarted", "check_in_order", "seated_bots", "DEFAULT_MAX_ROUNDS", "GameSummary", "PlayerRecord",
    "headless_driver", "play_game", "run_game",
]
