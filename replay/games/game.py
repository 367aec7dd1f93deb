"""A whole game as the registry holds it: its rules (:class:`~replay.games.rules.Rules`), what it
adds to be simulated (:class:`~replay.games.simulation.Simulation`) and to be shown
(:class:`~replay.games.presentation.Presentation`). Each game module's rules class derives from
:class:`Game`; a caller that needs less is typed against the part it needs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from replay.events import Event
from replay.games.presentation import Presentation
from replay.games.rules import Rules
from replay.games.simulation import Simulation
from replay.games.state import S

if TYPE_CHECKING:
    from replay.engine import Step


class Game(Rules[S], Simulation[S], Presentation[S]):
    """One game: rules, simulation and presentation (the rules class is the one native base,
    the other two are traits)."""

    def walk(self, events: Sequence[Event], *, faults_only: bool = False) -> Iterator[Step]:
        """:func:`replay.engine.walk` of this game."""
        from replay.engine import walk  # the engine drives the games: it imports them

        return walk(self, events, faults_only=faults_only)

    def replay(self, events: Sequence[Event], *, check: bool = True) -> S:
        """:func:`replay.engine.replay` of this game."""
        from replay.engine import replay

        state: S = replay(self, events, check=check)
        return state
