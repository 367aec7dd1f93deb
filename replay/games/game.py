"""A whole game as the registry holds it: its rules (:class:`~replay.games.rules.Rules`), what it
adds to be simulated (``setup_event``, ``sample_chance``, its bots) and how it is shown
(``view``, ``render``... through its sibling ``<module>_view``,
:mod:`replay.games.presentation`). Each game module's rules class derives from :class:`Game`.

A game defined outside the package (not compiled) may derive from :class:`Game` on the compiled
build too (``allow_interpreted_subclasses``, on :class:`Game`, :class:`Rules` and
:class:`~replay.games.state.GameState`): compiled code calls its Python methods.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from replay.games.presentation import (
    VIEW_SUFFIX,
    Presentation,
    score_standing,
    sibling_presentation,
    summary_of,
)
from replay.games.rules import Rules, apply_in_place
from replay.games.simulation import Bot, sibling_bots, sibling_simulation, simulated_seats
from replay.games.state import S
from replay.model.events import Event


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(Rules[S]):
    """One game: rules, simulation and presentation."""

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

    # ----------------------------------------------------------------- simulation
    def setup_event(
        self, game_id: str, players: int, rng: random.Random, options: Mapping[str, Any]
    ) -> Event:
        """A ``game_start`` event for a new simulated game (seq 0): the sibling
        ``<module>_bots``'s ``setup_event``, else the seats of
        :func:`~replay.games.simulation.simulated_seats` alone.

        ``options`` may hold ``bots`` (list of bools), ``names``, ``stakes`` and game variants.
        """
        make = sibling_simulation(self, "setup_event")
        if make is not None:
            return make(self, game_id, players, rng, options)
        data = json.dumps(simulated_seats(players, options))
        return Event(game_id, 0, self.kind, "game_start", data=data)

    def sample_chance(self, state: S, rng: random.Random) -> Event:
        """The next chance event, drawn with ``rng``: the sibling ``<module>_bots``'s
        ``sample_chance`` (a game in one module overrides this method)."""
        draw = sibling_simulation(self, "sample_chance")
        if draw is None:
            raise NotImplementedError(f"{self.kind} has no sample_chance")
        return draw(self, state, rng)

    def bots(self) -> Mapping[str, Bot]:
        """The game's bots by name (``random`` always one of them): those of the game module's
        sibling ``<module>_bots`` (:func:`~replay.games.simulation.sibling_bots`)."""
        return sibling_bots(self)

    # ----------------------------------------------------------------- presentation
    def presentation(self) -> Presentation[S] | None:
        """How the game is shown: its sibling module's (``<module>_view``); None for a game
        that shows itself (overriding :meth:`view` and :meth:`render`)."""
        return sibling_presentation(self)

    def view(self, state: S, seat: int | None = None) -> dict[str, Any]:
        """:meth:`Presentation.view <replay.games.presentation.Presentation.view>`."""
        return self._shown().view(state, seat)

    def render(self, state: S, seat: int | None = None) -> str:
        """:meth:`Presentation.render <replay.games.presentation.Presentation.render>`."""
        return self._shown().render(state, seat)

    def headline(self, state: S) -> str:
        """:meth:`Presentation.headline <replay.games.presentation.Presentation.headline>`
        (without a presentation: the first line of :meth:`render`)."""
        shown = self.presentation()
        return shown.headline(state) if shown is not None else self.render(state).splitlines()[0]

    def standing(self, view: Mapping[str, Any]) -> dict[str, list[Any]]:
        """:meth:`Presentation.standing <replay.games.presentation.Presentation.standing>`.

        >>> from replay.games import get_rules
        >>> get_rules("hearts").standing({"totals": [3, 0, 26, 1]})
        {'points': [3, 0, 26, 1]}
        """
        shown = self.presentation()
        return shown.standing(view) if shown is not None else score_standing(view)

    def summary(self, state: S, seat: int | None = None, view: dict[str, Any] | None = None) -> str:
        """A short state summary for findings (:func:`~replay.games.presentation.summary_of`):
        the situation, ``seat``'s hand, the table (``view``: the omniscient view, when the
        caller has it already)."""
        shown = view if view is not None else self.view(state)
        return summary_of(self.headline(state), shown, seat)

    def _shown(self) -> Presentation[S]:
        shown = self.presentation()
        if shown is None:
            raise NotImplementedError(
                f"{self.kind} has no {type(self).__module__}{VIEW_SUFFIX} module and does not "
                "define view and render"
            )
        return shown
