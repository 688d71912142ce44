"""BrettspielWelt's `.tch` Tichu game logs: data model, reader and writer (text level only)."""

from .errors import TchFormatError
from .model import (DragonGift, Entry, GameLog, GrandTichuCall, Pass, Play, Result, RoundLog,
                    TichuCall, Wish)
from .reader import read_tch, read_tch_file
from .writer import write_tch

__all__ = [
    "DragonGift", "Entry", "GameLog", "GrandTichuCall", "Pass", "Play", "Result", "RoundLog",
    "TchFormatError", "TichuCall", "Wish", "read_tch", "read_tch_file", "write_tch",
]
