"""The catalogue of game kinds: one :class:`GameSpec` per game, the plug-in contract.

Each game module declares its ``SPEC`` next to its rules (``replay/games/<kind>.py``) and the
registry of :mod:`replay.games` installs the catalogue here. Everything that needs to know a
game without running its rules reads the spec: the store's ingest checks (event types, the
fields each uses, the deck's card codes), the card faces of the renderers
(:mod:`replay.model.faces`), the samples and the benchmarks (player counts, variants).

This module imports no game and no store: the store (``replay/store/``) reads the catalogue
through :func:`spec` and never imports :mod:`replay.games`. Until someone installs a catalogue,
the first look-up loads the application's registry (:mod:`replay.games`), which installs
itself; a program or a test may install another one with :func:`install`.

>>> spec("hearts").players, spec("nonesuch")
((4,), None)
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any, Protocol

from replay.model.decks import Deck

if TYPE_CHECKING:
    from replay.model.events import Category


@dataclass(frozen=True, slots=True)
class ScoreUnit:
    """What a review (:mod:`replay.review`, docs/review.md) counts for a seat: the unit of play
    a decision is judged over and the seat's result in it, read from the rulings that score
    it, and the thresholds of its labels."""

    unit: str  # the unit of play a rollout plays to the end of: ``hand``, ``round``, ``game``
    measure: str  # what the seat's result counts: ``points``, ``tokens``, ``score``, ``place``
    #: The rulings whose ``amount`` for their ``player`` is that seat's result of the unit
    #: (one of them per seat and unit).
    events: tuple[str, ...]
    lower_is_better: bool  # Hearts points and Hez2 places: the less the better
    #: The expected losses (in ``measure``) from which a move is an inaccuracy, a mistake, a
    #: blunder: each given only where the lower end of the loss's interval reaches it.
    thresholds: tuple[float, float, float]
    #: The rulings whose ``amount`` for their ``player`` is the seat's money from the unit
    #: (Hez2's payout at a staked table), reported beside the measure where the seat has one;
    #: empty: the game has no money.
    payout: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GameSpec:
    """What a game declares to the rest of the package (its plug-in contract)."""

    kind: str  # the ``kind`` column of its events: ``hearts``
    title: str  # how screens name it: ``Hearts``
    #: Every event type of the game (``game_start``, ``deal`` and ``game_end`` included) and
    #: its category (a decision, a chance event, a ruling or the setup).
    categories: Mapping[str, Category]
    #: Per event type, the optional fields its events carry (``ts`` is allowed everywhere); a
    #: type left out is not checked (:mod:`replay.model.fields`).
    event_fields: Mapping[str, tuple[str, ...]]
    #: The card codes of its deck, checked by the store's ingest (LOG-CARD); None when the
    #: deck depends on the table (the rules check the cards then).
    deck: tuple[str, ...] | None
    #: The suits with their marks and colours, the rank labels (what renderers draw).
    faces: Deck | None
    players: tuple[int, ...]  # the player counts it is played with
    #: The JSON Schema of the ``game`` object of its state views (docs/state.md), which may
    #: refer to the common definitions (``#/$defs/cards``, ``seat``, ``seats``, ``ints``...)
    #: of ``replay/data/state.schema.json``: see :func:`state_schema` (a game of the package
    #: keeps it as ``replay/data/<kind>.view.json``: :func:`packaged_view_schema`).
    view_schema: Mapping[str, Any]
    variants: tuple[str, ...] = ()  # the values of the ``variant`` option, the default first
    #: The names of its other options (``replay simulate --option NAME=VALUE``); their
    #: defaults are what its ``setup_event`` records without them (``replay simulate --help``).
    options: tuple[str, ...] = ()
    #: The seat count of a sample table (the benchmarks, the compiled build's training);
    #: None: the fewest players.
    sample_players: int | None = None
    #: How a review scores a seat (``replay review``); None: the game cannot be reviewed.
    score_unit: ScoreUnit | None = None

    @property
    def event_types(self) -> frozenset[str]:
        """The event types the game knows."""
        return frozenset(self.categories)


class Catalog(Protocol):
    """Where the specs come from: a registry of game kinds."""

    def find_spec(self, kind: str) -> GameSpec | None:
        """The spec of a kind, or None when no game of that kind is registered."""

    def spec_kinds(self) -> list[str]:
        """The kinds registered (and present), in registry order."""


_installed: list[Catalog] = []
_listeners: list[Callable[[], None]] = []

#: The module that installs the application's catalogue when nobody installed one.
DEFAULT_REGISTRY = "replay.games"


def install(catalog: Catalog) -> None:
    """Make ``catalog`` the one every look-up reads (the registry does this on import)."""
    _installed[:] = [catalog]
    changed()


def current() -> Catalog:
    """The installed catalogue (loading the application's registry the first time)."""
    if not _installed:
        importlib.import_module(DEFAULT_REGISTRY)
    if not _installed:
        raise RuntimeError(f"{DEFAULT_REGISTRY} installed no catalogue")
    return _installed[0]


def spec(kind: str) -> GameSpec | None:
    """The spec of a game kind, or None when no game of that kind is registered."""
    return current().find_spec(kind)


def kinds() -> list[str]:
    """The registered game kinds."""
    return current().spec_kinds()


def on_change(listener: Callable[[], None]) -> None:
    """Call ``listener`` whenever the catalogue changes (a cache of what it held is stale)."""
    _listeners.append(listener)


def changed() -> None:
    """Tell the listeners that a game was registered or removed."""
    for listener in _listeners:
        listener()


def packaged_view_schema(kind: str) -> Mapping[str, Any]:
    """The ``view_schema`` of a game of the package, kept as data beside the common schema
    (``replay/data/<kind>.view.json``): what its views show is no part of its rules.

    >>> packaged_view_schema("hearts")["properties"]["hearts_broken"]["title"]
    'Hearts broken'
    """
    text = resources.files("replay.data").joinpath(f"{kind}.view.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def state_schema() -> dict[str, Any]:
    """The JSON Schema of a state view (docs/state.md) for every kind in the catalogue: the
    common keys (``replay/data/state.schema.json``) and, for each kind, its ``game`` object as
    its spec's ``view_schema`` gives it.

    >>> schema = state_schema()
    >>> schema["$defs"]["hearts_game"]["required"][:2], len(schema["allOf"]) >= 4
    (['pass', 'passes'], True)
    """
    text = resources.files("replay.data").joinpath("state.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    for kind in kinds():
        game = spec(kind)
        assert game is not None
        schema["$defs"][f"{kind}_game"] = dict(game.view_schema)
        schema["allOf"].append(
            {
                "if": {"properties": {"kind": {"const": kind}}},
                "then": {"properties": {"game": {"$ref": f"#/$defs/{kind}_game"}}},
            }
        )
    return schema
