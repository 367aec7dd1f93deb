"""The layers of the package, checked on the source: the store receives the catalogue of game
kinds from above (:mod:`replay.model.specs`) and imports no game; the rules import no storage, no
command line and no dashboard; the rules protocol of a game imports nothing that simulates or
shows a game, nor the engine's walk."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported(path: Path) -> set[str]:
    """Every module an ``import`` or ``from ... import`` of a file names (relative imports
    resolved against its package), at any depth of the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parent = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def is_under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def violations(layer: str, forbidden: tuple[str, ...]) -> list[str]:
    found = []
    where = ROOT / layer
    for path in [where] if where.is_file() else sorted(where.rglob("*.py")):
        for module in sorted(imported(path)):
            if any(is_under(module, f) for f in forbidden):
                found.append(f"{path.relative_to(ROOT)} imports {module}")
    return found


LAYERS = {
    "replay/store": ("replay.games",),
    "replay/games": ("replay.store", "replay.cli", "dashboards"),
}
#: The modules of the rules protocol (what is due, the checks, the reducer) and what they may
#: not import: the parts that simulate and show a game, the whole game, the engine's walk.
RULES_PROTOCOL = ("replay/games/rules.py", "replay/games/state.py", "replay/games/checks.py",
                  "replay/games/setups.py", "replay/games/native.py")  # fmt: skip
NOT_RULES = (
    "replay.games.simulation", "replay.games.presentation", "replay.games.game",
    "replay.games.base", "replay.engine", "replay.engine.simulate", "replay.render.terminal",
    "random",
)  # fmt: skip


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_layer_imports(layer: str) -> None:
    assert (ROOT / layer).is_dir()
    assert violations(layer, LAYERS[layer]) == []


@pytest.mark.parametrize("module", RULES_PROTOCOL)
def test_the_rules_protocol_imports_no_simulation_or_presentation(module: str) -> None:
    assert (ROOT / module).is_file()
    assert violations(module, NOT_RULES) == []


def test_the_scan_sees_imports() -> None:
    # the scan itself: a module importing a game by every spelling is caught
    source = ROOT / "replay" / "store" / "validate.py"
    assert "replay.model.specs" in imported(source)
    tree = ast.parse(
        "from replay.games import get_rules\nimport replay.games.base\nfrom ..games import x\n"
    )
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert is_under("replay.games.base", "replay.games") and "replay.games.base" in names


def test_the_command_line_loads_no_data_library_before_a_command_runs() -> None:
    """``replay --version`` and ``replay --help`` stay quick: importing the CLI loads neither the
    data libraries nor the audit (each command imports what it uses)."""
    heavy = ("pyarrow", "numpy", "duckdb", "deltalake", "replay.audit", "replay.spark.cli")
    code = (
        "import sys, replay.cli\n"
        "from replay import engine_build\n"
        "engine_build()\n"
        f"print(sorted(m for m in {heavy!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert out.stdout.strip() == "[]"
