"""People's names: which are valid, how they are compared, and the names kept for bots.

A name is 2-16 characters: a letter first (any alphabet: Jürgen, Łukasz, Bär), then
letters, ASCII digits, ``_`` or ``-``.  It is normalised to NFC, so the same name
typed on two keyboards is one name, and names are unique without regard to case:
``key(name)`` is what is compared.  Control, format (bidirectional marks) and
combining-only characters are never part of a name.  Nor may a name look like
another (``look``): ``Аnn`` with a Cyrillic А, a fullwidth ``Ａnn`` or ``Ánn`` is not
a second Ann.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from icu import SpoofChecker

_SPOOF_CHECKER = SpoofChecker()

NAME_RULE = "2-16 characters: a letter first, then letters, digits, _ or -"
MIN_LENGTH, MAX_LENGTH = 2, 16
BOT_PREFIX = "bot-"


def normalize(name: str) -> str:
    """The name as it is kept and shown (NFC)."""
    return unicodedata.normalize("NFC", name)


@lru_cache(maxsize=4096)  # asked for every message told to someone: a few names, many times
def key(name: str) -> str:
    """What makes two names the same name: case and composition do not count."""
    return normalize(name).casefold()


@lru_cache(maxsize=4096)
def look(name: str) -> str:
    """What a name looks like: two names that look alike have the same look.

    Accents are dropped, then the Unicode TR39 skeleton (ICU's confusables data:
    Cyrillic А and fullwidth Ａ become A, rn becomes m) is taken before and after
    casefolding, so neither case nor a look-alike letter makes a new name.
    """
    bare = "".join(c for c in unicodedata.normalize("NFD", name) if not unicodedata.combining(c))
    return _SPOOF_CHECKER.getSkeleton(0, _SPOOF_CHECKER.getSkeleton(0, bare).casefold())


def is_valid(name: str) -> bool:
    """Whether a normalised ``name`` follows `NAME_RULE`."""
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH or not name[0].isalpha():
        return False
    return all(c.isalpha() or c in "0123456789_-" for c in name)


def is_bot_name(name: str) -> bool:
    return key(name).startswith(BOT_PREFIX)


def bot_name(level: str, short: str) -> str:
    return f"{BOT_PREFIX}{level}-{short}"


def short_name(name: str) -> str:
    """A bot's own name without its prefix and level (``bot-basic-Ada`` → ``Ada``)."""
    return name.rsplit("-", 1)[-1] if is_bot_name(name) else name
