"""The engine's three kinds of error, each with a message a player can act on."""


class TichuError(ValueError):
    """Base of every error the engine raises on bad input."""


class ParseError(TichuError):
    """The text could not be read as cards, a rank or a command."""


class IllegalActionError(TichuError):
    """The action is well formed but not allowed now; the message says why."""


class AmbiguousError(TichuError):
    """The input can mean several things; ``choices`` lists them."""

    def __init__(self, message: str, choices: list[str]):
        super().__init__(message)
        self.choices = list(choices)
