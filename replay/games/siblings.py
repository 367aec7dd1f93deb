"""A game module's siblings: the modules beside it named ``<module>_<part>`` (``hearts_bots``,
``hearts_view`` beside ``hearts``) that add what the rules do without (bots, the screen). The
rules never import them; they import the rules."""

from __future__ import annotations

import importlib
from typing import Any


def sibling_attribute(game_class: type, suffix: str, name: str) -> Any:
    """``name`` of the module ``<module><suffix>`` beside the module of ``game_class`` or of the
    first class it derives from whose sibling has it (a subclass finds its plain rules'); None
    when there is none. An error inside such a module is raised."""
    for base in game_class.__mro__:
        module_name = base.__module__ + suffix
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        found = getattr(module, name, None)
        if found is not None:
            return found
    return None
