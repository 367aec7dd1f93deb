"""The examples in the library's docstrings run and hold (python-chess style)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import replay

MODULES = [
    "replay",
    *sorted(
        info.name
        for info in pkgutil.walk_packages(replay.__path__, "replay.")
        if not info.name.startswith("replay.cli")  # the CLI's examples are tested through typer
    ),
]


def examples(module: ModuleType) -> int:
    finder = doctest.DocTestFinder()
    return sum(len(test.examples) for test in finder.find(module))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_examples_are_found() -> None:
    """Guard: the finder sees the examples (so the test above can fail)."""
    total = sum(examples(importlib.import_module(name)) for name in MODULES)
    assert total >= 20, total
