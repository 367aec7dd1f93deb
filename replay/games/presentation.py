"""What a game adds to be shown: its state as data (:meth:`Presentation.view`), as text for a
person (:meth:`Presentation.render`) and as a one-line summary for findings; and an event as a
seat may see it.

:class:`Presentation` is a trait (:mod:`mypy_extensions`), as
:class:`~replay.games.simulation.Simulation` is.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Generic

from mypy_extensions import mypyc_attr, trait

from replay.games.rules import Due, Phase
from replay.games.state import S
from replay.model.events import Event


@mypyc_attr(allow_interpreted_subclasses=True)
@trait
class Presentation(ABC, Generic[S]):
    """A game whose states can be shown, omniscient or as one seat sees them."""

    @abstractmethod
    def view(self, state: S, seat: int | None = None) -> dict[str, Any]:
        """The state as JSON-ready data, omniscient (``seat=None``) or as ``seat`` sees it."""

    @abstractmethod
    def render(self, state: S, seat: int | None = None) -> str:
        """The state as text for a person, omniscient or from one seat."""

    def headline(self, state: S) -> str:
        """The one-line situation (what is due, where the game is): the first line of
        :meth:`render`. Default: the whole state rendered, all but that line thrown away; a game
        should override it, as a finding's summary asks for it."""
        return self.render(state).splitlines()[0]

    def standing(self, view: Mapping[str, Any]) -> dict[str, list[Any]]:
        """Where each seat stands at a step of :meth:`view`, in the game's own terms: per
        figure (named in words), one value per seat; the first is the one a chart follows
        through the game. Default: the score so far.

        >>> from replay.games import get_rules
        >>> get_rules("hearts").standing({"totals": [3, 0, 26, 1]})
        {'points': [3, 0, 26, 1]}
        """
        return {"score": list(view.get("totals") or [])}

    def summary(self, state: S, seat: int | None = None, view: dict[str, Any] | None = None) -> str:
        """A short state summary for findings: the situation, ``seat``'s hand, the table.

        Built from the common keys of :meth:`view` (``view``: the omniscient view, when the
        caller has it already); a game may override it.
        """
        view = view if view is not None else self.view(state)
        parts = [self.headline(state)]
        hands = view.get("hands") or []
        if seat is not None and 0 <= seat < len(hands) and hands[seat] is not None:
            parts.append(f"seat {seat} holds {' '.join(hands[seat]) or 'nothing'}")
        table = view.get("table") or []
        if table:
            parts.append("table " + " ".join(f"{t['seat']}:{t['card']}" for t in table))
        return "; ".join(parts)


def due_words(due: Due, over: bool, idle: str = " due") -> str:
    """What a game waits for, as a headline says it: ``over``, ``ruling X due``, ``X by seat
    1,2``, or (no seat acts) ``X`` and ``idle``."""
    if over:
        return "over"
    if due.phase is Phase.RULING:
        return f"ruling {due.what} due"
    if due.seats:
        return f"{due.what} by seat {','.join(map(str, due.seats))}"
    return f"{due.what}{idle}"


def seat_description(event: Event | None, seat: int | None, private: frozenset[str]) -> str | None:
    """``event.describe()`` as ``seat`` may see it: the cards of another seat's private event
    (a deal, a pass, a discard, a drawn card: the types in ``private``) left out."""
    if event is None:
        return None
    if seat is not None and event.type in private and event.player != seat:
        return replace(event, card=None, cards=None).describe()
    return event.describe()
