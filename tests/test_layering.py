"""The layers of the package: the contracts of ``[tool.importlinter]`` in pyproject.toml (the
layers in order, the rules protocol apart from simulation and presentation, no cycle between
the parts of a package) hold, and a forbidden import breaks them; no two modules import each
other in a cycle, however long; importing the command line loads no data library."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
#: The ``lint-imports`` command (``--no-cache``: always the files as they are).
LINT_IMPORTS = (
    "import sys\nfrom importlinter.cli import lint_imports_command\n"
    "sys.argv[1:2] = [sys.argv[1], '--no-cache']\nsys.exit(lint_imports_command())"
)


def lint_imports(*, path: Path | None = None) -> subprocess.CompletedProcess[str]:
    """import-linter's contracts checked on the package of this test, or on the copy of it in
    ``path`` (then Python starts without its site hooks, which would find the installed one)."""
    command = [sys.executable, "-c", LINT_IMPORTS, str(ROOT / "pyproject.toml")]
    env = None
    if path is not None:
        command.insert(1, "-S")
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{path}:{sysconfig.get_paths()['purelib']}"}
    where = path or ROOT
    return subprocess.run(command, capture_output=True, text=True, cwd=where, env=env, check=False)


def test_the_import_contracts_are_kept() -> None:
    result = lint_imports()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "5 kept, 0 broken" in result.stdout


def test_a_forbidden_import_breaks_the_contracts(tmp_path: Path) -> None:
    """The store importing a game (a layer above it), a game importing the store (its
    independent sibling) and the store's core importing its reads (a part above it): the
    layers contracts name all three; a game's rules importing the text helpers of the screen:
    the contract of rules without a screen names it."""
    for package in ("replay", "dashboards"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("*.so"))
    errors = tmp_path / "replay" / "store" / "errors.py"
    errors.write_text(errors.read_text("utf-8") + "\nimport replay.games.hearts\n", "utf-8")
    rules = tmp_path / "replay" / "games" / "rules.py"
    rules.write_text(rules.read_text("utf-8") + "\nimport replay.store.journal\n", "utf-8")
    hez2 = tmp_path / "replay" / "games" / "hez2.py"
    hez2.write_text(hez2.read_text("utf-8") + "\nimport replay.text\n", "utf-8")
    core = tmp_path / "replay" / "store" / "core.py"
    core.write_text(core.read_text("utf-8") + "\nimport replay.store.reads\n", "utf-8")
    result = lint_imports(path=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "replay.store.errors -> replay.games.hearts" in result.stdout
    assert "replay.games.hez2 -> replay.text" in result.stdout
    assert "replay.games.rules -> replay.store.journal" in result.stdout
    assert "replay.store.core -> replay.store.reads" in result.stdout


def cycles(graph: grimp.ImportGraph) -> list[tuple[str, str]]:
    """Every direct import ``(a, b)`` whose module ``b`` leads back to ``a``."""
    return sorted(
        (importer, imported)
        for importer in graph.modules
        for imported in graph.find_modules_directly_imported_by(importer)
        if graph.chain_exists(importer=imported, imported=importer)
    )


def test_no_module_is_part_of_an_import_cycle() -> None:
    graph = grimp.build_graph("replay", "dashboards", cache_dir=None)
    assert cycles(graph) == []
    # the check itself: a cycle through four modules and two packages is found
    graph.add_import(importer="replay.model.cards", imported="replay.engine.walker")
    found = cycles(graph)
    assert ("replay.model.cards", "replay.engine.walker") in found
    assert all(importer != "replay.cli" for importer, _ in found)


def test_the_command_line_loads_no_data_library_before_a_command_runs() -> None:
    """``replay --version`` and ``replay --help`` stay quick: importing the CLI loads neither the
    data libraries nor the audit (each command imports what it uses)."""
    heavy = ("pyarrow", "numpy", "duckdb", "deltalake", "replay.audit", "replay.cli.spark_engine")
    code = (
        "import sys, replay.cli\n"
        "from replay import engine_build\n"
        "engine_build()\n"
        f"print(sorted(m for m in {heavy!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert out.stdout.strip() == "[]"
