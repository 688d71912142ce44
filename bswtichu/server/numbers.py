"""A plain number in what a person types (a table, a seat, a game): the one rule of what reads
as one, for the commands and for the domain that reads a seat named by number."""

from __future__ import annotations

import re

# ASCII digits only: str.isdigit() also accepts "²" or "٣", which int() rejects or reads
# differently. Nine digits keep every number far below int()'s digit limit.
NUMBER_PATTERN = re.compile(r"[0-9]{1,9}")


def is_number(word: str) -> bool:
    """Whether ``word`` is a plain decimal number (1-9 ASCII digits, no sign)."""
    return NUMBER_PATTERN.fullmatch(word) is not None
