"""Reading a ``game_start`` event: its kind and number checked, its setup data parsed (and
remembered by text), the seats, names, bot flags and other per-seat lists a setup gives
(LOG-SETUP or the game's own setup rule when they are wrong)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar

from replay.model.events import Event
from replay.model.violation import LogRule, RuleId, RuleViolation

T = TypeVar("T")

#: What each game made of a ``game_start`` data text (see :func:`setup_of`), with its kind:
#: a corpus repeats a few setups (the same seats), and parsing one (JSON, checks) costs 15,000
#: to 100,000 instructions.
_SETUPS: Final[dict[str, tuple[str, Any]]] = {}
SETUPS_KEPT: Final = 256  # emptied when full: a bound, not an eviction policy


def setup_of(event: Event, kind: str, build: Callable[[Mapping[str, Any]], T]) -> T:
    """What ``build`` makes of the setup data of a ``game_start`` event (or a violation),
    remembered by data text for the last :data:`SETUPS_KEPT` distinct setups.

    The value is shared by every game with the same setup text: ``build`` must return an
    immutable value (tuples, frozen dataclasses) that depends on the data alone. The parsed
    data itself is only lent to ``build``, never kept.
    """
    check_start(event, kind)
    data = event.data
    hit = _SETUPS.get(data) if data else None
    if hit is not None and hit[0] == kind:
        value: T = hit[1]
        return value
    value = build(_setup_data(event))
    if data:
        if len(_SETUPS) >= SETUPS_KEPT:
            _SETUPS.clear()
        _SETUPS[data] = (kind, value)
    return value


def parse_setup(event: Event, kind: str) -> dict[str, Any]:
    """The setup data of a ``game_start`` event, or a LOG-SETUP violation."""
    check_start(event, kind)
    return _setup_data(event)


def check_start(event: Event, kind: str) -> None:
    """LOG-SETUP unless ``event`` can start a game of ``kind`` (its data aside)."""
    if event.type != "game_start":
        raise RuleViolation(LogRule.SETUP, f"a game must begin with game_start, not {event.type}")
    if event.seq != 0:
        raise RuleViolation(LogRule.SETUP, f"game_start must have seq 0, not {event.seq}")
    if event.kind != kind:
        raise RuleViolation(LogRule.SETUP, f"game_start of kind {event.kind!r}, expected {kind!r}")


def _setup_data(event: Event) -> dict[str, Any]:
    """The parsed data of a ``game_start`` event, or a LOG-SETUP violation."""
    try:
        return event.setup()
    except (ValueError, json.JSONDecodeError) as exc:
        raise RuleViolation(LogRule.SETUP, f"game_start data is not a JSON object: {exc}") from None


def check_players(setup: Mapping[str, Any], low: int, high: int, rule: RuleId) -> int:
    """The number of seats of a setup, checked against the game's range."""
    n = setup.get("players")
    if not isinstance(n, int) or not low <= n <= high:
        raise RuleViolation(rule, f"{n!r} players; the game takes {low} to {high}")
    return n


def seat_names(setup: Mapping[str, Any], n: int) -> tuple[str, ...]:
    """The player ids of a setup, one per seat (``p0``, ``p1``... when it gives none); a list of
    another length is a fault of the setup (LOG-SETUP)."""
    names = setup.get("names") or [f"p{i}" for i in range(n)]
    if not isinstance(names, list) or len(names) != n:
        raise RuleViolation(LogRule.SETUP, "names must list one player id per seat")
    return tuple(str(x) for x in names)


def bot_flags(setup: Mapping[str, Any], n: int) -> tuple[bool, ...]:
    """Whether each seat is a bot, as a setup says (no seat is when it does not say); a list of
    another length is a fault of the setup (LOG-SETUP)."""
    bots = setup.get("bots") or [False] * n
    if not isinstance(bots, list) or len(bots) != n:
        raise RuleViolation(LogRule.SETUP, "bots must list one flag per seat")
    return tuple(bool(b) for b in bots)


def seat_list(setup: Mapping[str, Any], key: str, n: int, type_: type, what: str) -> list[Any]:
    """``setup[key]``, a list of one ``type_`` per seat (``what``: how a finding names one), or
    LOG-SETUP."""
    values = setup.get(key)
    ok = isinstance(values, list) and len(values) == n
    if not ok or not all(isinstance(v, type_) for v in values or ()):
        raise RuleViolation(LogRule.SETUP, f"{key} must list {what} per seat, not {values!r}")
    return list(values or ())
