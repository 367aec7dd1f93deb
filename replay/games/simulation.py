"""The helpers of a game's simulation (:mod:`replay.engine.simulate`; the methods are
:class:`~replay.games.game.Game`'s ``setup_event``, ``sample_chance`` and ``bots``): the seats of
a simulated ``game_start``, the random bot, and the bots of a game module's sibling.

A game keeps its simulation beside its rules in a sibling module ``<module>_bots``
(``hez2_bots`` beside ``hez2``): ``bots(rules)`` gives its bots by name (:func:`sibling_bots`),
``sample_chance(rules, state, rng)`` draws its chance events and, where the seats of
:func:`simulated_seats` are not the whole setup, ``setup_event(rules, game_id, players, rng,
options)`` makes its ``game_start`` (:func:`sibling_simulation`). The rules never import it
(it imports the rules).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Final

from replay.games.rules import Rules
from replay.games.siblings import sibling_attribute
from replay.model.events import Event

Bot = Callable[[Any, int, random.Random], Event]
"""A bot: ``bot(state, seat, rng) -> decision event`` (seeded by ``rng``)."""


def sibling_simulation(rules: Rules[Any], name: str) -> Callable[..., Event] | None:
    """The function ``name`` of a game module's sibling ``<module>_bots``: its
    ``setup_event(rules, game_id, players, rng, options)`` or ``sample_chance(rules, state,
    rng)``; None when it has none."""
    key = (type(rules), name)
    if key not in _SIMULATED:
        _SIMULATED[key] = sibling_attribute(type(rules), BOTS_SUFFIX, name)
    return _SIMULATED[key]


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
_SIMULATED: dict[tuple[type, str], Callable[..., Event] | None] = {}


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
    make: Callable[[Any], Mapping[str, Bot]] | None
    make = sibling_attribute(game_class, BOTS_SUFFIX, "bots")
    return make
