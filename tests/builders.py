"""Hand-made logs for rule tests: append events one by one through the reducer.

>>> from replay.games import get_rules
>>> log = GameLog(get_rules("hearts"), {"players": 4, "names": ["a", "b", "c", "d"]})
>>> log.state.seq
1
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import fields, replace
from operator import attrgetter
from typing import Any

from replay.engine.simulate import simulate_game
from replay.games import get_rules
from replay.games.base import Game, Phase, RuleViolation
from replay.model.events import Event


class GameLog:
    """A game being recorded by hand: each added event is verified, then applied."""

    def __init__(self, rules: Game[Any], setup: dict[str, Any], game_id: str = "t1") -> None:
        self.rules = rules
        start = Event(game_id, 0, rules.kind, "game_start", data=json.dumps(setup))
        self.events: list[Event] = [start]
        self.state: Any = rules.start(start)

    def event(self, type: str, **fields: Any) -> Event:
        """An event at the next sequence number (not yet recorded)."""
        return self.rules.new_event(self.state, type, **fields)

    def add(self, type: str, **fields: Any) -> Event:
        """Record an event; raises RuleViolation when the rules reject it."""
        event = self.event(type, **fields)
        self.state = self.rules.step(self.state, event)
        self.events.append(event)
        return event

    def violation(self, type: str, **fields: Any) -> RuleViolation:
        """The RuleViolation an event would raise (fails the test if it is accepted)."""
        try:
            self.rules.verify(self.state, self.event(type, **fields))
        except RuleViolation as exc:
            return exc
        raise AssertionError(f"{type} {fields} was accepted")

    def rulings(self) -> list[Event]:
        """Record every ruling now due, as the rules give them."""
        out = []
        while (due := self.rules.due(self.state)).phase is Phase.RULING:
            assert due.ruling is not None
            self.state = self.rules.step(self.state, due.ruling)
            self.events.append(due.ruling)
            out.append(due.ruling)
        return out


def one_field_away(event: Event) -> list[Event]:
    """Events one payload field away from ``event``."""
    out = [
        replace(event, amount=(event.amount or 0) + 1),
        replace(event, total=(event.total or 0) + 1),
        replace(event, player=(event.player or 0) + 1),
        replace(event, round=(event.round or 0) + 1),
        replace(event, trick=(event.trick or 0) + 1),
        replace(event, target=(event.target if event.target is not None else -1) + 1),
        replace(event, card="2C" if event.card != "2C" else "3C"),
        replace(event, values=(*(event.values or ()), 1)),
        replace(event, suit="X"),
        replace(event, type="game_end" if event.type != "game_end" else "trick_won"),
    ]
    if event.cards:
        out.append(replace(event, cards=tuple(reversed(event.cards))))
        out.append(replace(event, cards=event.cards[:-1]))
    out.append(replace(event, cards=None) if event.cards else replace(event, cards=("2C",)))
    return out


def simulated_games(kind: str, count: int) -> list[list[Event]]:
    """``count`` simulated games of ``kind`` (seeds 0, 1...), at each player count in turn."""
    rules = get_rules(kind)
    span = rules.max_players - rules.min_players + 1
    return [
        simulate_game(rules, f"{kind}-{s}", players=rules.min_players + s % span, seed=s)
        for s in range(count)
    ]


def state_fields(state: Any) -> dict[str, Any]:
    """A game state's fields by name (a compiled state has no ``__dict__``)."""
    names, values = state_layout(type(state))
    return dict(zip(names, values(state), strict=True))


#: Per state class: its field names and a function giving their values in that order.
Layout = tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]
_LAYOUTS: dict[type, Layout] = {}


def state_layout(state_type: type) -> Layout:
    """A state class's fields, looked up once per class (``dataclasses.fields`` per state was
    the bulk of a fast-path test's time)."""
    if state_type not in _LAYOUTS:
        names = tuple(f.name for f in fields(state_type))
        get = attrgetter(*names)
        _LAYOUTS[state_type] = (names, get if len(names) > 1 else lambda state: (get(state),))
    return _LAYOUTS[state_type]
