"""Optional native build of the rules engine with mypyc.

By default the package is pure Python (``pip install -e .``, what ``make venv`` does). With
``REPLAY_COMPILE=1`` the modules below are compiled to C extensions by mypyc from the same
source: one copy of every rule, 2-4x faster replay and audit. ``make native`` builds such a copy
under ``build/native`` for the benchmarks and the compiled test run; ``REPLAY_COMPILE=1 pip
install .`` installs it (mypy must be installed in the build environment).
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

from setuptools import setup

#: Modules compiled by mypyc besides the games: the hot path of replay, audit and review.
CORE_MODULES = [
    "replay/model/cards.py",
    "replay/model/packed.py",
    "replay/model/cells.py",
    "replay/model/events.py",
    "replay/games/state.py",
    "replay/games/split_hands.py",
    "replay/games/native.py",
    "replay/games/checks.py",
    "replay/games/setups.py",
    "replay/games/rules.py",
    "replay/games/siblings.py",
    "replay/games/simulation.py",
    "replay/games/presentation.py",
    "replay/games/game.py",
    "replay/games/fast.py",
    "replay/games/base.py",
    "replay/engine/walker.py",
    "replay/review/rollout.py",
    "replay/games/solving.py",
]
#: The registry, whose game modules (and their ``*_fast.py``, ``*_bots.py`` and ``*_solver.py``)
#: are compiled too.
REGISTRY = Path("replay/games/__init__.py")


def game_modules(registry: Path = REGISTRY) -> list[str]:
    """The module of every game in the registry's ``GAME_MODULES``, and its fast path's, its
    bots' and its solver's modules when it has them, as paths (read from the source, relative to
    the directory the build runs in)."""
    tree = ast.parse(registry.read_text(encoding="utf-8"))
    games: dict[str, str] = {}
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(target, ast.Name) and target.id == "GAME_MODULES" and node.value:
            games = ast.literal_eval(node.value)
    paths = []
    for module in games.values():
        path = module.replace(".", "/") + ".py"
        siblings = [
            path.removesuffix(".py") + f"_{part}.py" for part in ("fast", "bots", "view", "solver")
        ]
        paths += [path, *(s for s in siblings if registry.parent.joinpath(Path(s).name).exists())]
    return paths


#: Modules compiled by mypyc: the hot path of replay and audit (events, cards, the games), and
#: the all-cards-visible solver's search.
AUDIT_MODULES = ["replay/audit/findings.py", "replay/audit/check.py", "replay/audit/parallel.py"]
NATIVE_MODULES = [*CORE_MODULES, *game_modules(), *AUDIT_MODULES, "replay/solver/search.py"]


def native_extensions() -> list[object]:
    if os.environ.get("REPLAY_COMPILE") != "1":
        return []
    from mypyc.build import mypycify

    return list(mypycify(NATIVE_MODULES, opt_level="3"))


setup(ext_modules=native_extensions())
