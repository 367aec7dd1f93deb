"""The game registry: each game is one module of this package exposing ``RULES`` and ``SPEC``.

``RULES`` is its :class:`~replay.games.game.Game` object (rules, simulation, presentation),
``SPEC`` its :class:`~replay.model.specs.GameSpec` (deck, suits and their faces, player counts,
variants, event types and their fields): the plug-in contract the store, the renderers and the
samples read.
A fifth game is one new module and one line in :data:`GAME_MODULES`, or, for a game defined
elsewhere (a test, another package), a call of :func:`register` (and :func:`unregister`).

A game may keep a fast path apart from its rules in a sibling module named ``<module>_fast``
(``hearts_fast`` beside ``hearts``): a subclass of its game exposing ``RULES``, which the
registry then hands out in place of the module's own (:func:`get_plain_rules` still gives the
plain rules, and ``tests/test_fast_paths.py`` checks that both agree).
Importing this package installs the registry as the catalogue of :mod:`replay.model.specs`.
``docs/adding-a-game.md`` walks through it.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from replay.games.game import Game
from replay.model import specs
from replay.model.specs import GameSpec

GAME_MODULES: dict[str, str] = {
    "hearts": "replay.games.hearts",
    "hez2": "replay.games.hez2",
    "hiifuu": "replay.games.hiifuu",
    "fou": "replay.games.fou",
}

_LOADED: dict[str, Game[Any]] = {}
_SPECS: dict[str, GameSpec] = {}


class UnknownGame(KeyError):
    """A game kind that no module implements."""


#: The suffix of a game module's sibling that holds its fast path (``hearts_fast``).
FAST_SUFFIX = "_fast"

_PLAIN: dict[str, Game[Any]] = {}


def _import(module_name: str) -> ModuleType | None:
    """The module, or None when it does not exist (an error inside it is raised)."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return None
        raise


def _load(kind: str) -> None:
    module_name = GAME_MODULES.get(kind)
    module = _import(module_name) if module_name is not None else None
    if module_name is None or module is None:
        raise UnknownGame(kind)
    spec = getattr(module, "SPEC", None)
    if not isinstance(spec, GameSpec) or spec.kind != kind:
        raise TypeError(f"{module_name} declares no SPEC, the GameSpec of {kind!r}")
    plain: Game[Any] = module.RULES
    fast = _import(module_name + FAST_SUFFIX)
    rules: Game[Any] = fast.RULES if fast is not None else plain
    if not isinstance(rules, type(plain)):
        raise TypeError(f"{module_name}{FAST_SUFFIX}.RULES is not a {type(plain).__name__}")
    _PLAIN[kind] = plain
    _LOADED[kind] = rules
    _SPECS[kind] = spec


def get_rules(kind: str) -> Game[Any]:
    """The rules object of a game kind (``hearts``, ``hez2``, ``hiifuu``, ``fou``)."""
    rules = _LOADED.get(kind)
    if rules is None:
        _load(kind)
        rules = _LOADED[kind]
    return rules


def get_plain_rules(kind: str) -> Game[Any]:
    """The rules of a game kind without its fast path (the game module's own ``RULES``; the
    same object as :func:`get_rules` for a game with none)."""
    get_rules(kind)
    return _PLAIN[kind]


def get_spec(kind: str) -> GameSpec:
    """The declared spec of a game kind (raises :class:`UnknownGame`)."""
    spec = _SPECS.get(kind)
    if spec is None:
        _load(kind)
        spec = _SPECS[kind]
    return spec


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


def register(spec: GameSpec, rules: Game[Any]) -> None:
    """Add a game defined outside this package (a test's, another package's) to the registry:
    from then on every part of replay knows its kind. :func:`unregister` takes it out again."""
    if spec.kind != rules.kind:
        raise ValueError(f"spec of {spec.kind!r} for the rules of {rules.kind!r}")
    if spec.kind in GAME_MODULES:
        raise ValueError(f"game kind {spec.kind!r} is already registered")
    GAME_MODULES[spec.kind] = type(rules).__module__
    _PLAIN[spec.kind] = rules
    _LOADED[spec.kind] = rules
    _SPECS[spec.kind] = spec
    specs.changed()


def unregister(kind: str) -> None:
    """Take a game added by :func:`register` out of the registry."""
    GAME_MODULES.pop(kind, None)
    _PLAIN.pop(kind, None)
    _LOADED.pop(kind, None)
    _SPECS.pop(kind, None)
    specs.changed()


class Registry:
    """The registry seen as the :class:`~replay.model.specs.Catalog` of the store and renderers."""

    def find_spec(self, kind: str) -> GameSpec | None:
        try:
            return get_spec(kind)
        except UnknownGame:
            return None

    def spec_kinds(self) -> list[str]:
        return available_kinds()


specs.install(Registry())
