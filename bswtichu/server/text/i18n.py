"""The languages the server speaks: gettext catalogs, and sentences that wait for a reader's.

A sentence a person reads is made as a `Text`: its English source (a whole sentence with
named ``%(name)s`` placeholders, what a translator sees in the catalog) and its values. It
is worded when a reader's language is known: once for English, once per further language
a reader of the message has (`Message.text_in`). Babel extracts the sources from the calls
``_("...", name=value)`` and ``_n("one ...", "%(count)s ...", count, name=value)``
(setup.cfg ``[extract_messages]``); the catalogs are ``bswtichu/locale/CODE/LC_MESSAGES/
bswtichu.po``, compiled to ``.mo`` by the package build (setup.py) and, where a ``.mo`` is
missing or older than its ``.po`` (an editable checkout just edited), compiled in memory
when the server first loads it, so ``pip install -e .`` stays all it takes.

English is the source: it needs no catalog and its path is the one it always had.
Machine mode's keywords and fields never pass through here.
"""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, Union

#: where the catalogs are (a data folder of the package, not a module)
LOCALE_FOLDER = Path(__file__).resolve().parents[2] / "locale"
DOMAIN = "bswtichu"
SOURCE = "en"
#: every language offered (each with a complete catalog: tests/server/text/test_text_catalogs.py):
#: its code and its own name for itself
LANGUAGES: Mapping[str, str] = {
    "en": "English", "de": "Deutsch", "fr": "Français", "es": "Español", "ro": "Română",
}
#: a language hint from a client: ``de``, ``de_DE.UTF-8``, ``fr-CA``, ``es_ES@euro``
_HINT = re.compile(r"^\s*([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]+)?(?:\.[^@\s]*)?(?:@\S*)?\s*$")


class Text:
    """A sentence not yet worded: its English source (or its two plural sources and the
    count that chooses) and its named values (plain values, or further `Text`s, worded in
    the same language). A value: not changed once made."""

    __slots__ = ("source", "plural", "count", "values")

    def __init__(self, source: str, plural: str | None, count: int, values: dict[str, Any]) -> None:
        self.source = source
        self.plural = plural
        self.count = count
        self.values = values

    def english(self) -> str:
        """The sentence in the source language."""
        source = self.source if self.plural is None or self.count == 1 else self.plural
        return _fill(source, self.values, None)

    def __call__(self) -> str:  # a Message's lazily made text
        return self.english()

    def worded(self, language: Language) -> str:
        """The sentence in ``language`` (English where its catalog lacks it)."""
        if language.translations is None:
            return self.english()
        if self.plural is None:
            source = language.translations.gettext(self.source)
        else:
            source = language.translations.ngettext(self.source, self.plural, self.count)
        return _fill(source, self.values, language)

    def __str__(self) -> str:
        return self.english()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Text):
            return (self.source, self.plural, self.count, self.values) == (
                other.source, other.plural, other.count, other.values)
        if isinstance(other, str):
            return self.english() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Text({self.english()!r})"


class Joined:
    """Several sentences (or lines) shown as one text, joined by ``separator``; each worded
    in the reader's language."""

    __slots__ = ("separator", "parts")

    def __init__(self, separator: str, parts: list[Wordable]) -> None:
        self.separator = separator
        self.parts = parts

    def english(self) -> str:
        return self.separator.join(str(part) if not isinstance(part, str) else part
                                   for part in self.parts)

    def __call__(self) -> str:
        return self.english()

    def worded(self, language: Language) -> str:
        return self.separator.join(word(part, language) for part in self.parts)

    def __str__(self) -> str:
        return self.english()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Text, Joined, str)):
            return self.english() == str(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


Wordable = Union[str, Text, Joined]


def _(source: str, **values: Any) -> Text:
    """A sentence to translate (Babel extracts ``source``), with its named values."""
    return Text(source, None, 1, values)


def _n(singular: str, plural: str, count: int, **values: Any) -> Text:
    """A sentence whose wording depends on ``count`` (``%(count)s`` in it is the count)."""
    values.setdefault("count", count)
    return Text(singular, plural, count, values)


def N_(source: str) -> str:
    """Marks a sentence for the catalog where it is kept as a source (a table of sentences)
    and worded later (`Text`): it returns ``source`` unchanged."""
    return source


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """`N_` for a pair of plural sources (worded later with `_n`)."""
    return singular, plural


def word(text: Wordable, language: Language | None) -> str:
    """``text`` in ``language`` (None: English)."""
    if isinstance(text, str):
        return text
    if language is None:
        return text.english()
    return text.worded(language)


def _fill(source: str, values: dict[str, Any], language: Language | None) -> str:
    if not values:
        return source.replace("%%", "%") if "%%" in source else source
    return source % {key: (word(value, language) if isinstance(value, (Text, Joined)) else value)
                     for key, value in values.items()}


class Language:
    """One language a person can read: its code, its own name, its catalog (None: English)."""

    __slots__ = ("code", "name", "translations")

    def __init__(self, code: str, name: str, translations: gettext.NullTranslations | None) -> None:
        self.code = code
        self.name = name
        self.translations = translations

    def __repr__(self) -> str:
        return f"<Language {self.code}>"


def catalog_path(code: str, suffix: str = ".po") -> Path:
    return LOCALE_FOLDER / code / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def _translations(code: str) -> gettext.GNUTranslations:
    """The compiled catalog; compiled in memory from the ``.po`` when no up-to-date ``.mo`` is there."""
    mo, po = catalog_path(code, ".mo"), catalog_path(code)
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as file:
            return gettext.GNUTranslations(file)
    return gettext.GNUTranslations(io.BytesIO(compile_catalog(po)))


def compile_catalog(po: Path) -> bytes:
    """A ``.po`` file compiled to ``.mo`` bytes (Babel's reader and writer)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as file:
        catalog = read_po(file)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


@lru_cache(maxsize=None)
def language(code: str) -> Language:
    """The language ``code`` (one of `LANGUAGES`); its catalog is read once per process."""
    if code not in LANGUAGES:
        raise KeyError(code)
    return Language(code, LANGUAGES[code], None if code == SOURCE else _translations(code))


def from_hint(hint: str) -> str | None:
    """The offered language a client's hint names (``de_DE.UTF-8``, ``fr-CA``, ``ES``), or None."""
    found = _HINT.match(hint or "")
    if found is None:
        return None
    code = found.group(1).lower()
    return code if code in LANGUAGES else None
