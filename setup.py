"""Optional native build of the rules engine with mypyc.

By default the package is pure Python (``pip install -e .``, what ``make venv`` does). With
``REPLAY_COMPILE=1`` the modules below are compiled to C extensions by mypyc from the same
source: one copy of every rule, 2-4x faster replay and audit. ``make native`` builds such a copy
under ``build/native`` for the benchmarks and the compiled test run; ``REPLAY_COMPILE=1 pip
install .`` installs it (mypy must be installed in the build environment).
"""

from __future__ import annotations

import os

from setuptools import setup

#: Modules compiled by mypyc: the hot path of replay and audit (events, cards, the games).
NATIVE_MODULES = [
    "replay/cards.py",
    "replay/packed.py",
    "replay/cells.py",
    "replay/events.py",
    "replay/games/base.py",
    "replay/games/hearts.py",
    "replay/games/hez2.py",
    "replay/games/hez2_bots.py",
    "replay/games/hiifuu.py",
    "replay/games/hiifuu_bots.py",
    "replay/games/fou.py",
    "replay/games/fou_bots.py",
    "replay/audit.py",
]


def native_extensions() -> list[object]:
    if os.environ.get("REPLAY_COMPILE") != "1":
        return []
    from mypyc.build import mypycify

    return list(mypycify(NATIVE_MODULES, opt_level="3"))


setup(ext_modules=native_extensions())
