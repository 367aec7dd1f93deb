"""A whole game as the registry holds it: its rules (:class:`~replay.games.rules.Rules`), what it
adds to be simulated (:class:`~replay.games.simulation.Simulation`) and to be shown
(:class:`~replay.games.presentation.Presentation`). Each game module's rules class derives from
:class:`Game`; a caller that needs less is typed against the part it needs.

A game defined outside the package (not compiled) may derive from :class:`Game` on the compiled
build too: ``allow_interpreted_subclasses`` (on :class:`Game`, its bases and
:class:`~replay.games.state.GameState`) gives such a subclass a "shadow" method table, whose
entries call the Python method. mypyc (2.4.1) builds that table's entries for the methods a
class defines and those it inherits from its native base (:class:`Rules`), but not for those it
takes from its traits: they keep the trait's compiled body, so compiled code calling
``game.view(state)`` on such a game would run the abstract ``Presentation.view`` (undefined
behaviour: it freed ``None`` once too often). :class:`Game` therefore declares the traits'
methods again, which gives each an entry of its own that calls the Python method.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from replay.games.presentation import Presentation
from replay.games.rules import Rules, apply_in_place
from replay.games.simulation import Bot, Simulation, sibling_bots
from replay.games.state import S
from replay.model.events import Event


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(Rules[S], Simulation[S], Presentation[S]):
    """One game: rules, simulation and presentation (the rules class is the one native base,
    the other two are traits)."""

    def replay(self, events: Sequence[Event], *, check: bool = True) -> S:
        """The state after a whole game (``events[0]`` is its ``game_start``), each event
        verified first unless ``check`` is False, by the plain rules (the engine's bulk replay
        is :meth:`replay.games.fast.FastPath.replay`; :func:`replay.engine.walk` also says
        where the log breaks a rule and goes on past it)."""
        state = self.start(events[0])
        for event in events[1:]:
            if check:
                self.verify(state, event)
            state = apply_in_place(self, state, event)
        return state

    # ------------------------------------------------------- the traits' methods, again
    # (see the module docstring: a game compiled or not behaves the same)
    @abstractmethod
    def setup_event(
        self, game_id: str, players: int, rng: random.Random, options: Mapping[str, Any]
    ) -> Event:
        """:meth:`Simulation.setup_event <replay.games.simulation.Simulation.setup_event>`."""

    @abstractmethod
    def sample_chance(self, state: S, rng: random.Random) -> Event:
        """:meth:`Simulation.sample_chance <replay.games.simulation.Simulation.sample_chance>`."""

    def bots(self) -> Mapping[str, Bot]:
        """:meth:`Simulation.bots <replay.games.simulation.Simulation.bots>`: those of the game
        module's sibling ``<module>_bots`` (:func:`~replay.games.simulation.sibling_bots`)."""
        return sibling_bots(self)

    @abstractmethod
    def view(self, state: S, seat: int | None = None) -> dict[str, Any]:
        """:meth:`Presentation.view <replay.games.presentation.Presentation.view>`."""

    @abstractmethod
    def render(self, state: S, seat: int | None = None) -> str:
        """:meth:`Presentation.render <replay.games.presentation.Presentation.render>`."""

    def headline(self, state: S) -> str:
        """:meth:`Presentation.headline <replay.games.presentation.Presentation.headline>`."""
        return Presentation.headline(self, state)

    def summary(self, state: S, seat: int | None = None, view: dict[str, Any] | None = None) -> str:
        """:meth:`Presentation.summary <replay.games.presentation.Presentation.summary>`."""
        return Presentation.summary(self, state, seat, view)

    def standing(self, view: Mapping[str, Any]) -> dict[str, list[Any]]:
        """:meth:`Presentation.standing <replay.games.presentation.Presentation.standing>`."""
        return Presentation.standing(self, view)
