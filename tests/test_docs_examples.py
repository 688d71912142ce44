"""The ``>>>`` examples in the package's docstrings run, and say what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import bswtichu


def _modules_with_examples() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(bswtichu.__path__, "bswtichu."):
        module = importlib.import_module(info.name)
        if any(test.examples for test in doctest.DocTestFinder().find(module)):
            names.append(info.name)
    return names


MODULES = _modules_with_examples()


def test_the_package_has_examples_to_run():
    assert {"bswtichu.engine", "bswtichu.bots", "bswtichu.play"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                             report=False)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"
