"""The one error the `.tch` reader raises."""

from __future__ import annotations

from ..engine.errors import ParseError


class TchFormatError(ParseError):
    """The text is not a BrettspielWelt Tichu log; ``line`` is the 1-based line at fault.

    The message reads ``line 42: unknown card token 'X9'`` so that it can be
    shown as is; ``source`` names the file when the reader was given one.
    """

    def __init__(self, line: int, reason: str, source: str = ""):
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason
        self.source = source
