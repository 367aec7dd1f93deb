"""Which fields an event type uses: one declaration per game, read by the store and the audit.

Each game declares, per event type, the optional fields its events carry
(:attr:`~replay.games.base.Rules.event_fields`; ``ts`` is allowed on every event). An event that
sets another field (``cards`` on a ``play``, ``amount`` on a ``deal``, a stray ``target``) is
not an event the game knows: the store's ingest rejects its game and the audit reports it, both
as LOG-ORDER at that event's seq, so one log gets one verdict (``docs/interpretations.md``).
:func:`unused_field` judges one event (the audit), :func:`unused_field_rows` a whole Arrow
table at once (the store's checks, and the audit's bulk path, which sends a game holding such a
row to the general path that reports it).

>>> from replay.events import Event
>>> unused_field(Event("g", 5, "hearts", "play", round=1, trick=1, player=0, card="2C"))
>>> unused_field(Event("g", 5, "hearts", "play", player=0, card="2C", cards=("3C",)))
'cards'
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from replay.events import SCHEMA, Event
from replay.games import UnknownGame, get_rules

#: The optional columns an event type may or may not use (``ts`` is allowed everywhere).
OPTIONAL: tuple[str, ...] = tuple(f.name for f in SCHEMA if f.nullable and f.name != "ts")

RULE = "LOG-ORDER"


@cache
def declared(kind: str) -> dict[str, frozenset[str]] | None:
    """Per event type of a game, the optional fields it may carry (None: not declared)."""
    try:
        fields = get_rules(kind).event_fields
    except (UnknownGame, TypeError):
        return None
    return {t: frozenset(names) for t, names in fields.items()} or None


def unused_field(event: Event, kind: str | None = None) -> str | None:
    """The first field (in column order) ``event`` sets that its type does not use in game
    ``kind`` (default: the event's own kind)."""
    fields = declared(kind if kind is not None else event.kind)
    allowed = fields.get(event.type) if fields is not None else None
    if allowed is None:
        return None
    for name in OPTIONAL:
        if name not in allowed and getattr(event, name) is not None:
            return name
    return None


def message(event_type: str, name: str) -> str:
    """The finding's (and the rejection's) words."""
    return f"a {event_type} event carries no {name}, but this one has it"


def unused_field_rows(table: pa.Table) -> np.ndarray:
    """Per row of an event table (plain or dictionary-encoded strings), whether it sets a
    field its type does not use (vectorised: one lookup table per kind)."""
    n = table.num_rows
    bad = np.zeros(n, dtype=bool)
    if n == 0:
        return bad
    valid = np.stack([_valid(table.column(name)) for name in OPTIONAL])
    kinds = _plain(table.column("kind"))
    for kind in pc.unique(kinds).to_pylist():
        fields = declared(kind) if isinstance(kind, str) else None
        if fields is None:
            continue
        rows = np.flatnonzero(_equal(kinds, kind))
        types = _plain(table.column("type")).take(pa.array(rows))
        names = pc.unique(types)
        codes = pc.index_in(types, names).fill_null(0).to_numpy(zero_copy_only=False)
        allowed = np.array(
            [[_allows(fields, t, name) for name in OPTIONAL] for t in names.to_pylist()],
            dtype=bool,
        ).reshape(len(names), len(OPTIONAL))
        bad[rows] = (valid[:, rows] & ~allowed[codes].T).any(axis=0)
    return bad


def first_unused(table: pa.Table, row: int) -> str:
    """The first field (in column order) that row ``row`` sets and its type does not use."""
    kind = table.column("kind")[row].as_py()
    event_type = table.column("type")[row].as_py()
    fields = declared(kind) or {}
    for name in OPTIONAL:
        if not _allows(fields, event_type, name) and table.column(name)[row].is_valid:
            return str(name)
    return ""


def _allows(fields: dict[str, frozenset[str]], event_type: object, name: str) -> bool:
    allowed = fields.get(event_type) if isinstance(event_type, str) else None
    return allowed is None or name in allowed


def _valid(column: Any) -> np.ndarray:
    return np.asarray(column.is_valid().to_numpy(zero_copy_only=False), dtype=bool)


def _plain(column: Any) -> Any:
    """A string column without dictionary encoding."""
    if pa.types.is_dictionary(column.type):
        return column.cast(column.type.value_type)
    return column


def _equal(column: Any, value: str) -> np.ndarray:
    equal = pc.equal(column, pa.scalar(value, pa.string())).fill_null(False)
    return np.asarray(equal.to_numpy(zero_copy_only=False), dtype=bool)
