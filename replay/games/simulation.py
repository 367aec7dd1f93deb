"""What a game adds to simulate itself (:mod:`replay.engine.simulate`): a new ``game_start``, the
chance events drawn with a seeded generator, and its bots; and the helpers its bots and
deals share.

A game keeps its bots beside its rules in a sibling module ``<module>_bots`` (``hez2_bots``
beside ``hez2``) whose ``bots(rules)`` gives them by name: :func:`sibling_bots` finds them, so
the rules never import their bots (the bots import the rules).

:class:`Simulation` is a trait (:mod:`mypy_extensions`): compiled, a game class has one native
base (:class:`~replay.games.rules.Rules`) and any number of traits.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, Final, Generic

from mypy_extensions import mypyc_attr, trait

from replay.games.rules import Rules
from replay.games.state import S
from replay.model.events import Event

Bot = Callable[[Any, int, random.Random], Event]
"""A bot: ``bot(state, seat, rng) -> decision event`` (seeded by ``rng``)."""


@mypyc_attr(allow_interpreted_subclasses=True)
@trait
class Simulation(ABC, Generic[S]):
    """A game that can be played out by the simulator."""

    @abstractmethod
    def setup_event(
        self, game_id: str, players: int, rng: random.Random, options: Mapping[str, Any]
    ) -> Event:
        """A ``game_start`` event for a new simulated game (seq 0).

        ``options`` may hold ``bots`` (list of bools), ``names``, ``stakes`` and game variants.
        """

    @abstractmethod
    def sample_chance(self, state: S, rng: random.Random) -> Event:
        """The next chance event, drawn with ``rng``."""

    @abstractmethod
    def bots(self) -> Mapping[str, Bot]:
        """The game's bots by name; ``random`` is always one of them."""


def simulated_seats(players: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """The seats of a simulated ``game_start``: ``players``, then ``names`` and ``bots`` from
    ``options``, by default ``p0``, ``p1``... and every seat a bot."""
    return {
        "players": players,
        "names": list(options.get("names") or [f"p{i}" for i in range(players)]),
        "bots": list(options.get("bots") or [True] * players),
    }


def random_bot(rules: Rules[Any]) -> Bot:
    """A bot that picks uniformly among the legal decisions."""

    def choose(state: Any, seat: int, rng: random.Random) -> Event:
        return rng.choice(rules.legal_decisions(state, seat))

    return choose


#: The suffix of a game module's sibling that holds its bots (``hez2_bots`` beside ``hez2``).
BOTS_SUFFIX: Final = "_bots"

_BOT_MAKERS: dict[type, Callable[[Any], Mapping[str, Bot]] | None] = {}


def sibling_bots(rules: Rules[Any]) -> Mapping[str, Bot]:
    """A game's bots by name as its sibling module ``<module>_bots`` gives them (its
    ``bots(rules)``), looked for beside the module of the game's class and of each class it
    derives from (a fast path's subclass finds those of its plain rules); the random bot alone
    when there is none."""
    game_class = type(rules)
    if game_class not in _BOT_MAKERS:
        _BOT_MAKERS[game_class] = _bot_maker(game_class)
    make = _BOT_MAKERS[game_class]
    return make(rules) if make is not None else {"random": random_bot(rules)}


def _bot_maker(game_class: type) -> Callable[[Any], Mapping[str, Bot]] | None:
    for base in game_class.__mro__:
        name = base.__module__ + BOTS_SUFFIX
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        make: Callable[[Any], Mapping[str, Bot]] = module.bots
        return make
    return None
