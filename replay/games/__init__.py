"""The game registry: each game is one module of this package exposing ``RULES``.

A fifth game is one new module and one line in :data:`GAME_MODULES`.
"""

from __future__ import annotations

import importlib
from typing import Any

from replay.games.base import Rules

GAME_MODULES: dict[str, str] = {
    "hearts": "replay.games.hearts",
    "hez2": "replay.games.hez2",
    "hiifuu": "replay.games.hiifuu",
    "fou": "replay.games.fou",
}

_LOADED: dict[str, Rules[Any]] = {}


class UnknownGame(KeyError):
    """A game kind that no module implements."""


def get_rules(kind: str) -> Rules[Any]:
    """The rules object of a game kind (``hearts``, ``hez2``, ``hiifuu``, ``fou``)."""
    rules = _LOADED.get(kind)
    if rules is None:
        module_name = GAME_MODULES.get(kind)
        if module_name is None:
            raise UnknownGame(kind)
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                raise UnknownGame(kind) from None
            raise
        rules = module.RULES
        _LOADED[kind] = rules
    return rules


def available_kinds() -> list[str]:
    """The game kinds whose module is present."""
    kinds = []
    for kind in GAME_MODULES:
        try:
            get_rules(kind)
        except UnknownGame:
            continue
        kinds.append(kind)
    return kinds
