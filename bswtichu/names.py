"""People's names: which are valid, how they are compared, and the names kept for bots.

A name is 2-16 characters: a letter first (any alphabet: Jürgen, Łukasz, Bär), then
letters, ASCII digits, ``_`` or ``-``.  It is normalised to NFC, so the same name
typed on two keyboards is one name, and names are unique without regard to case:
``key(name)`` is what is compared.  Control, format (bidirectional marks) and
combining-only characters are never part of a name.  Nor may a name look like
another (``look``): ``Аnn`` with a Cyrillic А, a fullwidth ``Ａnn``, ``ᴀnn`` in small
capitals or ``Ánn`` is not a second Ann, and ``bоt-…`` (Cyrillic о) or ``b0t-…`` is no bot.
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

    The name is brought to NFKC (fullwidth ``Ｒ`` is ``R``) and its accents are dropped;
    then each character is taken as the Latin letter it looks like, case-folded (`_glyph`),
    and the whole is reduced to its Unicode TR39 skeleton (ICU's confusables data:
    ``rn`` and ``m``, ``0`` and ``O``, ``I`` and ``l`` look alike), so neither case, width
    nor a look-alike letter of another script makes a new name. It is the look of the name
    as spelled (shown so): ``Ian`` looks like ``lan``, ``ian`` does not, and every new
    spelling of a name is looked at again.
    """
    bare = _without_marks(unicodedata.normalize("NFKC", name))
    return _skeleton(bare.translate(_GLYPHS))


def starts_like(name: str, start: str) -> bool:
    """Whether ``name`` looks as if it started with ``start`` (``ｓerver-x`` with ``server-``)."""
    return look(name).startswith(look(start))


def looks_like_bot(name: str) -> bool:
    """Whether ``name`` looks like a bot's (``bot-…``, ``bоt-…`` with a Cyrillic о, ``b0t-…``):
    such a name is no person's."""
    return starts_like(name, BOT_PREFIX)


def _skeleton(text: str) -> str:
    return _without_marks(_SPOOF_CHECKER.getSkeleton(0, text))


def _without_marks(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    if decomposed.isascii():  # most names: nothing to drop
        return decomposed
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _glyph(c: str) -> str:
    """The Latin letters one character looks like, in its own case or, where only that
    looks Latin, in the other case (Cyrillic ``т``, whose capital is ``Т``, and ``к`` count
    as ``t`` and ``k``; small capitals such as ``ʀ`` and ``ᴍ`` as their capitals), case-folded."""
    own = _seen_as(c)
    other = _seen_as(c.lower() if c.isupper() else c.upper())
    return (other if not own.isascii() and other.isascii() else own).casefold()


class _GlyphTable(dict):
    """`_glyph` by code point, for ``str.translate``: each character worked out once (a name
    is looked at on every /nick, against every name online and registered)."""

    LIMIT = 20000  # the few alphabets people use fit; beyond it characters are worked out each time

    def __missing__(self, point: int) -> str:
        glyph = _glyph(chr(point))
        if len(self) < self.LIMIT:
            self[point] = glyph
        return glyph


_GLYPHS = _GlyphTable()


def _seen_as(text: str) -> str:
    """``text``'s skeleton; where that is not Latin, with small capitals (before and after
    it) as their capitals (``ɪ`` is ICU's ``i``, ``ᴍ`` and Cyrillic ``т``, ICU's ``ᴛ``, are
    ``M`` and ``T``)."""
    skeleton = _skeleton(text)
    return skeleton if skeleton.isascii() else _capitals(_skeleton(_capitals(text)))


def _capitals(text: str) -> str:
    return "".join(_capital_of_small_capital(c) for c in text)


def _capital_of_small_capital(c: str) -> str:
    """``ʀ`` (LATIN LETTER SMALL CAPITAL R) as ``R``, from the Unicode names; other characters as
    they are (ICU's confusables data leaves most small capitals alone)."""
    name = unicodedata.name(c, "")
    if " LETTER SMALL CAPITAL " not in name:
        return c
    try:
        return unicodedata.lookup(name.replace(" LETTER SMALL CAPITAL ", " CAPITAL LETTER ", 1))
    except KeyError:
        return c


def is_valid(name: str) -> bool:
    """Whether a normalised ``name`` follows `NAME_RULE`."""
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH or not name[0].isalpha():
        return False
    return all(c.isalpha() or c in "0123456789_-" for c in name)


def is_bot_name(name: str) -> bool:
    """Whether ``name`` is a bot's as the server spells them (`bot_name`)."""
    return key(name).startswith(BOT_PREFIX)


def bot_name(level: str, short: str) -> str:
    return f"{BOT_PREFIX}{level}-{short}"


def short_name(name: str) -> str:
    """A bot's own name without its prefix and level (``bot-basic-Ada`` → ``Ada``)."""
    return name.rsplit("-", 1)[-1] if is_bot_name(name) else name
