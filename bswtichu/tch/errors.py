"""The error the log readers raise, and the file reading they share."""

from __future__ import annotations

from os import PathLike
from pathlib import Path
from typing import Union

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


def read_log_text(path: Union[str, PathLike], error: type[TchFormatError] = TchFormatError) -> tuple[str, str]:
    """A log file's text (UTF-8) and its name; ``error`` names the line of a byte that is not UTF-8."""
    path = Path(path)
    data = path.read_bytes()
    try:
        return data.decode("utf-8"), path.name
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise error(line, f"not UTF-8 text (byte {data[exc.start]:#04x})", path.name) from None
