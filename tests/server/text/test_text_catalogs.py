"""The shipped message catalogs: complete, placeholders as the source's, compilable, plural forms right.

A language is offered (`i18n.LANGUAGES`) only with a complete catalog: a message id without a
translation, a translation whose placeholders differ from its English source, a catalog
Babel's checkers refuse or that does not compile fails here.
"""

from __future__ import annotations

import gettext
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

babel = pytest.importorskip("babel", reason="Babel (pip install babel) reads and compiles the catalogs")
from babel.messages.pofile import read_po  # noqa: E402

from bswtichu.server.text import i18n  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.SOURCE]
PLACEHOLDER = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?[sdrgf]")
#: the plural rule each language's catalog must state (Romanian: three forms)
PLURAL_FORMS = {"de": 2, "fr": 2, "es": 2, "ro": 3}


def catalog(code: str):
    with i18n.catalog_path(code).open("rb") as file:
        return read_po(file, locale=code)


def template():
    with (i18n.LOCALE_FOLDER / "bswtichu.pot").open("rb") as file:
        return read_po(file)


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_every_offered_language_has_a_catalog_and_the_config_knows_them() -> None:
    from bswtichu.config import LANGUAGE_CODES
    assert tuple(i18n.LANGUAGES) == LANGUAGE_CODES
    for code in TRANSLATED:
        assert i18n.catalog_path(code).exists(), code


def test_the_template_holds_every_sentence_of_the_code() -> None:
    """The template is the code's: extracted again (babel.cfg, setup.cfg's keywords), it has
    the same message ids; else run the extract and update commands (docs/translating.md)."""
    from babel.messages.extract import extract_from_dir
    keywords = {"_": None, "_n": (1, 2), "N_": None, "Nn_": (1, 2)}
    method_map = [("bswtichu/server/**.py", "python"), ("bswtichu/net/**.py", "python"),
                  ("bswtichu/irc/**.py", "python")]
    extracted = {message for _file, _line, message, _comments, _context in
                 extract_from_dir(str(ROOT), method_map, keywords=keywords)}
    assert extracted == {m.id for m in template() if m.id}


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated(code: str) -> None:
    ids = {m.id for m in template() if m.id}
    translated = catalog(code)
    have = {m.id for m in translated if m.id}
    assert ids - have == set(), f"{code}: message ids missing from the catalog"
    empty = [m.id for m in translated if m.id and (not m.string or (isinstance(m.string, tuple)
                                                                    and not all(m.string)))]
    assert empty == [], f"{code}: untranslated"
    fuzzy = [m.id for m in translated if m.id and m.fuzzy]
    assert fuzzy == [], f"{code}: fuzzy"


@pytest.mark.parametrize("code", TRANSLATED)
def test_placeholders_are_the_sources(code: str) -> None:
    wrong = []
    for message in catalog(code):
        if not message.id:
            continue
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = placeholders(sources[0]) | placeholders(sources[-1])
        for string in strings:
            # a singular may leave the count out (German "eine Karte"); nothing else may differ
            got = placeholders(string)
            if got != wanted and not (len(sources) == 2 and got == wanted - {"count"}):
                wrong.append((message.id, string))
    assert wrong == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_babel_checkers_pass(code: str) -> None:
    """Babel's own checkers (python-format placeholders, plural counts)."""
    assert [(message.id, [str(e) for e in errors]) for message, errors in catalog(code).check()] == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_plural_forms(code: str) -> None:
    translated = catalog(code)
    assert translated.num_plurals == PLURAL_FORMS[code]
    for message in translated:
        if isinstance(message.id, tuple):
            assert len(message.string) == PLURAL_FORMS[code], message.id


def test_romanian_has_three_plural_forms_chosen_as_romanian_counts() -> None:
    if "ro" not in i18n.LANGUAGES:
        pytest.skip("Romanian is not offered (its catalog is not complete)")
    romanian = i18n.language("ro").translations
    forms = {n: romanian.ngettext("%(count)s point", "%(count)s points", n) % {"count": n}
             for n in (1, 2, 19, 20, 101, 119, 120)}
    assert forms[1] != forms[2]
    assert forms[20].replace("20", "") != forms[2].replace("2", "")  # "20 de puncte", "2 puncte"
    assert forms[119].replace("119", "") == forms[2].replace("2", "")
    assert forms[120].replace("120", "") == forms[20].replace("20", "")


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_catalog_compiles_and_loads(code: str) -> None:
    compiled = i18n.compile_catalog(i18n.catalog_path(code))
    translations = gettext.GNUTranslations(io.BytesIO(compiled))
    assert translations.gettext("You passed.") != "You passed."
    assert translations.info()["plural-forms"]


def test_every_sentence_fills_in_every_language() -> None:
    """Each translation takes its source's values: worded with them, none raises."""
    for code in TRANSLATED:
        for message in catalog(code):
            if not message.id:
                continue
            sources = message.id if isinstance(message.id, tuple) else (message.id,)
            values = {name: 1 for name in placeholders(sources[-1])}
            for string in (message.string if isinstance(message.string, tuple) else (message.string,)):
                string % values
