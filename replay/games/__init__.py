"""The game registry: the one list of game kinds (:data:`GAME_MODULES`, each kind's module) and
the rules each module registers.

A game module ends with ``RULES = register(MyGame(SPEC))``: its
:class:`~replay.games.game.Game` object (rules, simulation, presentation) made from its
:class:`~replay.model.specs.GameSpec` (kind, title, player counts, event types and their fields,
deck, suits and their faces, variants), the one declaration of the game, which the store, the
renderers and the samples read. A fifth game is one new module and one line in
:data:`GAME_MODULES`; a game defined elsewhere (a test, another package) is registered by the
same call (and taken out by :func:`unregister`).

:func:`get_rules` hands out the plain rules; :func:`get_fast_path` and :func:`fast_path` the
engine's fast path over them (:class:`~replay.games.fast.FastPath`), which a game may keep apart
in a sibling module named ``<module>_fast`` (``hearts_fast`` beside ``hearts``) exposing
``FAST``; a game without one runs on the plain rules alone (``tests/test_fast_paths.py`` checks
that both agree).
Importing this package installs the registry as the catalogue of :mod:`replay.model.specs`.
``docs/adding-a-game.md`` walks through it.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, TypeVar

from replay.games.fast import FastPath
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
_FAST: dict[str, FastPath[Any]] = {}

G = TypeVar("G", bound=Game[Any])


class UnknownGame(KeyError):
    """A game kind that no module implements."""


#: The suffix of a game module's sibling that holds its fast path (``hearts_fast``).
FAST_SUFFIX = "_fast"


def _import(module_name: str) -> ModuleType | None:
    """The module, or None when it does not exist (an error inside it is raised)."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return None
        raise


def register(rules: G) -> G:
    """Register ``rules`` under their kind and return them: the last line of a game module
    (``RULES = register(Hearts(SPEC))``), or the call that adds a game defined outside this
    package (a test's, another package's), after which every part of replay knows its kind
    (:func:`unregister` takes it out again)."""
    kind = rules.kind
    module = type(rules).__module__
    if GAME_MODULES.get(kind, module) != module or kind in _LOADED:
        raise ValueError(f"game kind {kind!r} is already registered")
    GAME_MODULES[kind] = module
    _LOADED[kind] = rules
    specs.changed()
    return rules


def unregister(kind: str) -> None:
    """Take a game added by :func:`register` from outside this package out of the registry."""
    GAME_MODULES.pop(kind, None)
    _FAST.pop(kind, None)
    _LOADED.pop(kind, None)
    specs.changed()


def get_rules(kind: str) -> Game[Any]:
    """The rules object of a game kind (``hearts``, ``hez2``, ``hiifuu``, ``fou``)."""
    rules = _LOADED.get(kind)
    if rules is None:
        module_name = GAME_MODULES.get(kind)
        if module_name is None or _import(module_name) is None:
            raise UnknownGame(kind)
        rules = _LOADED.get(kind)
        if rules is None:
            raise TypeError(f"{module_name} registers no game of kind {kind!r}")
    return rules


def get_fast_path(kind: str) -> FastPath[Any]:
    """The engine's fast path of a game kind (its ``<module>_fast.FAST``, or the plain rules
    alone)."""
    fast = _FAST.get(kind)
    if fast is None:
        rules = get_rules(kind)
        module_name = GAME_MODULES[kind] + FAST_SUFFIX
        fast_module = _import(module_name)
        fast = fast_module.FAST if fast_module is not None else FastPath(rules)
        if not isinstance(fast, FastPath) or fast.rules is not rules:
            raise TypeError(f"{module_name}.FAST is not a fast path of the rules of {kind!r}")
        _FAST[kind] = fast
    return fast


def fast_path(rules: Game[Any]) -> FastPath[Any]:
    """The engine's fast path of ``rules``: the registry's when they are the registry's rules
    of their kind, else the plain rules alone."""
    if _LOADED.get(rules.kind) is not rules:
        return FastPath(rules)
    return get_fast_path(rules.kind)


def get_spec(kind: str) -> GameSpec:
    """The declared spec of a game kind (raises :class:`UnknownGame`)."""
    return get_rules(kind).spec


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
