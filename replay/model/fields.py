"""Which fields an event type uses: one declaration per game, read by the store and the audit.

Each game declares, per event type, the optional fields its events carry (``event_fields`` of
its :class:`~replay.model.specs.GameSpec`; ``ts`` is allowed on every event). An event that sets
another field (``cards`` on a ``play``, ``amount`` on a ``deal``, a stray ``target``) is not an
event the game knows: the store's ingest rejects its game and the audit reports it, both
as LOG-ORDER at that event's seq, so one log gets one verdict (``docs/interpretations.md``).
:func:`unused_field` judges one event (the audit), :func:`unused_field_rows` a whole Arrow
table at once (the store's checks, and the audit's bulk path, which sends a game holding such a
row to the general path that reports it).

>>> from replay.model.events import Event
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

from replay.model import specs
from replay.model.events import SCHEMA, Event
from replay.model.violation import LogRule

#: The optional columns an event type may or may not use (``ts`` is allowed everywhere).
OPTIONAL: tuple[str, ...] = tuple(f.name for f in SCHEMA if f.nullable and f.name != "ts")

RULE = LogRule.ORDER


@cache
def declared(kind: str) -> dict[str, frozenset[str]] | None:
    """Per event type of a game, the optional fields it may carry (None: not declared)."""
    try:
        spec = specs.spec(kind)
    except TypeError:  # an unhashable kind
        return None
    if spec is None:
        return None
    return {t: frozenset(names) for t, names in spec.event_fields.items()} or None


specs.on_change(declared.cache_clear)


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
    field its type does not use.

    Vectorised over packed bits: each row's (kind, type) pair is a small integer; the rows of
    each pair present are one bitmap; a column's forbidden rows are the union of the bitmaps of
    the pairs that may not carry it, met with the column's validity bitmap (8 rows a byte).
    Rows are unpacked only where a field is found.
    """
    n = table.num_rows
    bad = np.zeros(n, dtype=bool)
    if n == 0:
        return bad
    kinds, kind_codes = _codes(table.column("kind"))
    types, type_codes = _codes(table.column("type"))
    forbidden = _forbidden(kinds, types)
    if len(kinds) == 1:  # a slice of the audit: every pair is a type of the one kind
        pairs, present = type_codes, list(range(len(types)))
    else:
        pairs = kind_codes.astype(np.int32) * len(types) + type_codes
        present = np.flatnonzero(np.bincount(pairs, minlength=len(forbidden))).tolist()
    if len(forbidden) <= 256:  # one byte a row for the passes below
        pairs = pairs.astype(np.uint8)
    rows_of = {p: np.packbits(pairs == p, bitorder="little") for p in present}
    for c, name in enumerate(OPTIONAL):
        column = table.column(name)
        barred = [rows_of[p] for p in present if forbidden[p, c]]
        if column.null_count == n or not barred:
            continue
        allowed = [rows_of[p] for p in present if not forbidden[p, c]]
        # the barred rows: the union of the barred pairs' rows, or all but the allowed ones
        size = (n + 7) // 8
        bits = ~_union(allowed, size) if len(allowed) < len(barred) else _union(barred, size)
        hits = bits & _valid_bits(column, n)
        if hits.any():
            bad |= np.unpackbits(hits, count=n, bitorder="little").astype(bool)
    return bad


def _union(bitmaps: list[np.ndarray], size: int) -> np.ndarray:
    """The bitwise OR of bitmaps of ``size`` bytes (all zero when there is none)."""
    if not bitmaps:
        return np.zeros(size, dtype=np.uint8)
    out = bitmaps[0].copy()
    for bits in bitmaps[1:]:
        np.bitwise_or(out, bits, out=out)
    return out


def _forbidden(kinds: list[Any], types: list[Any]) -> np.ndarray:
    """Per (kind, type) pair (``kind * len(types) + type``), per field of :data:`OPTIONAL`,
    whether an event of that pair may not carry the field."""
    out = np.zeros((len(kinds) * len(types), len(OPTIONAL)), dtype=bool)
    for k, kind in enumerate(kinds):
        fields = declared(kind) if isinstance(kind, str) else None
        if fields is None:
            continue
        for t, event_type in enumerate(types):
            out[k * len(types) + t] = [not _allows(fields, event_type, f) for f in OPTIONAL]
    return out


def _codes(column: Any) -> tuple[list[Any], np.ndarray]:
    """A string column's distinct values and each row's index among them (the dictionary's
    own indices when the column is dictionary-encoded)."""
    if not pa.types.is_dictionary(column.type):
        column = pc.dictionary_encode(column)
    chunks: list[Any] = (
        column.unify_dictionaries().chunks if isinstance(column, pa.ChunkedArray) else [column]
    )
    if not chunks:
        return [], np.zeros(0, dtype=np.int64)
    indices = [
        np.asarray((c.indices.fill_null(0) if c.null_count else c.indices).to_numpy())
        for c in chunks
    ]
    return chunks[0].dictionary.to_pylist(), np.concatenate(indices)


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


def _valid_bits(column: Any, n: int) -> np.ndarray:
    """A column's validity as packed bits (little-endian bit order, as Arrow's bitmaps)."""
    valid = pc.is_valid(column)
    if isinstance(valid, pa.ChunkedArray):
        valid = valid.combine_chunks()
    if valid.offset % 8 == 0:
        start = valid.offset // 8
        bits = np.frombuffer(valid.buffers()[1], dtype=np.uint8)[start : start + (n + 7) // 8]
        if n % 8:  # bits past the last row are left as they are by Arrow: clear them
            bits = bits.copy()
            bits[-1] &= (1 << (n % 8)) - 1
        return bits
    flags = np.asarray(valid.to_numpy(zero_copy_only=False), dtype=bool)
    return np.packbits(flags, bitorder="little")
