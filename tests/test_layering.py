"""The layers of the package, checked on the source: the store receives the catalogue of game
kinds from above (:mod:`replay.catalog`) and imports no game; the rules import no storage, no
command line and no dashboard."""

from __future__ import annotations

import ast
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
    for path in sorted((ROOT / layer).rglob("*.py")):
        for module in sorted(imported(path)):
            if any(is_under(module, f) for f in forbidden):
                found.append(f"{path.relative_to(ROOT)} imports {module}")
    return found


LAYERS = {
    "replay/store": ("replay.games",),
    "replay/games": ("replay.store", "replay.cli", "dashboards"),
}


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_layer_imports(layer: str) -> None:
    assert (ROOT / layer).is_dir()
    assert violations(layer, LAYERS[layer]) == []


def test_the_scan_sees_imports() -> None:
    # the scan itself: a module importing a game by every spelling is caught
    source = ROOT / "replay" / "store" / "validate.py"
    assert "replay.catalog" in imported(source)
    tree = ast.parse(
        "from replay.games import get_rules\nimport replay.games.base\nfrom ..games import x\n"
    )
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert is_under("replay.games.base", "replay.games") and "replay.games.base" in names
