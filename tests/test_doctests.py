"""The examples in the library's docstrings run and hold (python-chess style).

The examples are read from each module's source file, so that they also run against the
compiled build, whose functions carry no docstrings that doctest could find.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
from pathlib import Path

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


def source_of(name: str) -> Path:
    """The module's .py file (beside the extension module when compiled)."""
    module = importlib.import_module(name)
    path = Path(str(module.__file__))
    if path.name.startswith("__init__."):
        return path.with_name("__init__.py")
    return path.with_name(path.name.split(".")[0] + ".py")


def docstring_tests(name: str) -> list[doctest.DocTest]:
    """One DocTest per docstring with examples, run in the (imported) module's namespace."""
    module = importlib.import_module(name)
    path = source_of(name)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parser = doctest.DocTestParser()
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef))]
    tests = []
    for node in nodes:
        text = ast.get_docstring(node, clean=True)
        if not text or ">>>" not in text:
            continue
        label = f"{name}.{getattr(node, 'name', '')}"
        globs = dict(vars(module))
        tests.append(parser.get_doctest(text, globs, label, str(path), 0))
    return tests


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in docstring_tests(name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_examples_are_found() -> None:
    """Guard: the examples are read (so the test above can fail), compiled modules included."""
    counts = {name: sum(len(t.examples) for t in docstring_tests(name)) for name in MODULES}
    assert sum(counts.values()) >= 100, counts
    for name in (
        "replay.model.events",
        "replay.model.cards",
        "replay.games.hearts",
        "replay.audit.check",
    ):
        assert counts[name] > 0, name
