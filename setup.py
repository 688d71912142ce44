"""The package build's one step beyond setup.cfg: the message catalogs compiled.

Every ``bswtichu/locale/CODE/LC_MESSAGES/bswtichu.po`` becomes its ``.mo`` beside it in the
build (a wheel ships both). An editable install (``pip install -e .``, the README's) reads the
``.po`` files of the checkout: the server compiles a catalog in memory when its ``.mo`` is
missing or older than the ``.po`` (server/text/i18n.py), so an edited translation shows on the
next start without a build.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    """build_py, then each catalog compiled into the build folder (Babel's reader and writer)."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return  # the checkout's .po files are read (and compiled in memory) where they are
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in Path("bswtichu/locale").glob("*/LC_MESSAGES/*.po"):
            target = Path(self.build_lib) / po.with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as source:
                catalog = read_po(source)
            with target.open("wb") as out:
                write_mo(out, catalog)


setup(cmdclass={"build_py": BuildWithCatalogs})
