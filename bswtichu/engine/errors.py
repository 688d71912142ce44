"""The engine's three kinds of error, each with a message a player can act on.

Every error carries a stable ``code`` (documented in docs/engine.md) so a server
can map it to its own error codes without looking at class names.
"""

from typing import Iterable


class TichuError(ValueError):
    """Base of every error the engine raises on bad input."""

    code = "illegal"


class ParseError(TichuError):
    """The text could not be read as cards, a rank or a command."""

    code = "bad_cards"


class IllegalActionError(TichuError):
    """The action is well formed but not allowed now; the message says why."""

    code = "illegal"


class CardsNotHeld(IllegalActionError):
    """The action names cards the seat does not hold; ``cards`` are those (a server can say
    where they are instead, e.g. in the other hand the same person plays)."""

    def __init__(self, message: str, cards: Iterable[object]) -> None:
        super().__init__(message)
        self.cards = list(cards)  # Cards (cards.py imports this module, so not named here)


class AmbiguousError(TichuError):
    """The input can mean several things; ``choices`` lists them."""

    code = "ambiguous"

    def __init__(self, message: str, choices: list[str]):
        super().__init__(message)
        self.choices = list(choices)
