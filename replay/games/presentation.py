"""How a game is shown: its state as data (:meth:`Presentation.view`), as text for a person
(:meth:`Presentation.render`), a one-line situation, where each seat stands, and a summary for
findings; and an event as a seat may see it.

The rules know no screen. A game of the package keeps its presentation in a sibling module
``<module>_view`` (``hearts_view`` beside ``hearts``) whose ``presentation(rules)`` gives a
:class:`Presentation`: :func:`sibling_presentation` finds it, and
:class:`~replay.games.game.Game` shows its states through it. A game in one module (a test's)
overrides ``view`` and ``render`` on its rules class instead.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final, Generic

from mypy_extensions import mypyc_attr

from replay.games.rules import Due, Phase
from replay.games.siblings import sibling_attribute
from replay.games.state import GameState, S
from replay.model.cards import Deck, popcount
from replay.model.events import Event


@mypyc_attr(allow_interpreted_subclasses=True)
class Presentation(ABC, Generic[S]):
    """A game's states shown, omniscient or as one seat sees them."""

    @abstractmethod
    def view(self, state: S, seat: int | None = None) -> dict[str, Any]:
        """The state as JSON-ready data, omniscient (``seat=None``) or as ``seat`` sees it: the
        common keys of docs/state.md, the game's own under ``game`` (its spec's
        ``view_schema``)."""

    @abstractmethod
    def render(self, state: S, seat: int | None = None) -> str:
        """The state as text for a person, omniscient or from one seat."""

    def headline(self, state: S) -> str:
        """The one-line situation (what is due, where the game is): the first line of
        :meth:`render`. Default: the whole state rendered, all but that line thrown away."""
        return self.render(state).splitlines()[0]

    def standing(self, view: Mapping[str, Any]) -> dict[str, list[Any]]:
        """Where each seat stands at a step of :meth:`view`, in the game's own terms: per
        figure (named in words), one value per seat; the first is the one a chart follows
        through the game. Default: the score so far (:func:`score_standing`)."""
        return score_standing(view)


def score_standing(view: Mapping[str, Any]) -> dict[str, list[Any]]:
    """The default standing: the score so far.

    >>> score_standing({"totals": [3, 0, 26, 1]})
    {'score': [3, 0, 26, 1]}
    """
    return {"score": list(view.get("totals") or [])}


def summary_of(headline: str, view: Mapping[str, Any], seat: int | None) -> str:
    """A short state summary for findings: the situation, ``seat``'s hand, the table (the
    common keys of a view)."""
    parts = [headline]
    hands = view.get("hands") or []
    if seat is not None and 0 <= seat < len(hands) and hands[seat] is not None:
        parts.append(f"seat {seat} holds {' '.join(hands[seat]) or 'nothing'}")
    table = view.get("table") or []
    if table:
        parts.append("table " + " ".join(f"{t['seat']}:{t['card']}" for t in table))
    return "; ".join(parts)


#: The suffix of a game module's sibling that shows it (``hearts_view`` beside ``hearts``).
VIEW_SUFFIX: Final = "_view"

_MAKERS: dict[type, Callable[[Any], Presentation[Any]] | None] = {}


def sibling_presentation(rules: object) -> Presentation[Any] | None:
    """The presentation of a game as its sibling module ``<module>_view`` gives it (its
    ``presentation(rules)``); None when there is none."""
    game_class = type(rules)
    if game_class not in _MAKERS:
        _MAKERS[game_class] = sibling_attribute(game_class, VIEW_SUFFIX, "presentation")
    make = _MAKERS[game_class]
    return make(rules) if make is not None else None


def view_start(
    kind: str, state: GameState, seat: int | None, due: Due, names: Sequence[str]
) -> dict[str, Any]:
    """The keys every view begins with (docs/state.md): the game, the step, the seats, the
    seat it is seen from, and what is due."""
    return {
        "kind": kind,
        "game_id": state.game_id,
        "seq": state.seq,
        "players": state.n,
        "names": list(names),
        "seat_view": seat,
        "phase": due.phase.value,
        "turn": list(due.seats) if due.phase is Phase.DECISION else [],
    }


def hand_keys(deck: Deck, hands: list[int], seat: int | None) -> dict[str, Any]:
    """A view's ``hands`` (each seat's cards, ``None`` for those ``seat`` cannot see) and
    ``hand_sizes``."""
    return {
        "hands": [
            deck.codes(h) if seat is None or seat == s else None for s, h in enumerate(hands)
        ],
        "hand_sizes": [popcount(h) for h in hands],
    }


def trick_words(leader: int, table: Sequence[int], n: int, order: Sequence[str]) -> str:
    """The cards on the table as ``seat:card``, from the leader round the ``n`` seats (``-``
    when empty).

    >>> trick_words(3, [0, 5], 4, "abcdef")
    '3:a 0:f'
    """
    return " ".join(f"{(leader + i) % n}:{order[c]}" for i, c in enumerate(table)) or "-"


def winners_line(winners: Sequence[int]) -> str:
    """The render's last line of a finished game."""
    return f"  winner: seat {' '.join(map(str, winners))}"


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
