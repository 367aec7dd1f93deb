"""A store's events as slices of whole games, per kind: the audit's input in bounded memory.

A game is one run of rows in one data file, except a game stored in two ingests (a game cut
short, continued later) or two such files merged by compaction. A first pass reads only the
``game_id`` column (dictionary codes, cheap) and finds the ids with more than one run; the
second streams the record batches, leaves those ids out, and cuts a slice at a game's first
row once it holds :data:`SLICE_ROWS` rows; the split games come last, loaded whole. Memory is
then bounded by a slice (and the largest game), not by the store.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from replay.store.table import EventStore

#: Rows of one slice (about 60 MB of dictionary-encoded Arrow columns).
SLICE_ROWS = 1 << 20


@dataclass(slots=True)
class GameRuns:
    """The games of one kind: how many, and those stored in more than one run."""

    games: int = 0
    split: set[str] = field(default_factory=set)


def game_runs(store: EventStore, kind: str) -> GameRuns:
    """First pass: the game ids of a kind, by their runs (only ``game_id`` is read)."""
    seen: set[str] = set()
    out = GameRuns()
    last: str | None = None
    for batch in store.scan(kind, columns=["game_id"], dictionary=True):
        for game_id in run_ids(batch.column(0)):
            if game_id == last:
                continue
            if game_id in seen:
                out.split.add(game_id)
            seen.add(game_id)
            last = game_id
    out.games = len(seen)
    return out


def run_ids(column: Any) -> list[str]:
    """The game id of each run of a (dictionary-encoded) column, in order.

    >>> run_ids(pa.array(["a", "a", "b", "a", None, None, "c"]))
    ['a', 'b', 'a', 'None', 'c']
    >>> run_ids(pa.array(["a", "a", "b", "a", "c"]).dictionary_encode())
    ['a', 'b', 'a', 'c']
    """
    if not len(column):
        return []
    if pa.types.is_dictionary(column.type):
        codes = column.indices.to_numpy(zero_copy_only=False)
        starts = np.flatnonzero(np.concatenate(([True], codes[1:] != codes[:-1])))
        return [str(v) for v in column.dictionary.take(pa.array(codes[starts])).to_pylist()]
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    after, before = column[1:], column[:-1]  # vectorised: no str per row; a null is one value
    both_null = pc.and_(after.is_null(), before.is_null())
    changed = pc.and_not(pc.not_equal(after, before).fill_null(True), both_null)
    starts = pa.concat_arrays([pa.array([True]), changed])
    return [str(v) for v in column.filter(starts).to_pylist()]


def kinds(store: EventStore, kind: str | None) -> list[str]:
    """The kinds to read (one, or every kind with a data file)."""
    return [kind] if kind is not None else sorted({f.kind for f in store.files()})


def game_slices(
    store: EventStore, kind: str, runs: GameRuns, rows: int | None = None
) -> Iterator[pa.Table]:
    """Second pass: the kind's events in slices of whole games of about ``rows`` rows
    (:data:`SLICE_ROWS`; dictionary-encoded strings, as :meth:`EventStore.scan` gives them),
    the split games last."""
    rows = rows or SLICE_ROWS
    split = pa.array(sorted(runs.split), pa.string())
    held: list[pa.RecordBatch] = []
    count = 0
    for batch in store.scan(kind, dictionary=True):
        if len(split):
            ids = batch.column(batch.schema.get_field_index("game_id"))
            keep = pc.invert(pc.is_in(ids.cast(pa.string()), split))
            batch = batch.filter(keep)
        if not batch.num_rows:
            continue
        held.append(batch)
        count += batch.num_rows
        if count >= rows:
            table = pa.Table.from_batches(held)
            cut = last_game_start(table)
            if cut > 0:
                yield table.slice(0, cut)
                held = table.slice(cut).to_batches()
                count = table.num_rows - cut
    if held:
        yield pa.Table.from_batches(held)
    ordered = sorted(runs.split)
    for i in range(0, len(ordered), 1000):
        yield store.load_games_table(ordered[i : i + 1000])


def last_game_start(table: pa.Table) -> int:
    """The row where the table's last run of one game id begins."""
    ids = table.column("game_id")
    last = ids[table.num_rows - 1].as_py()
    plain = ids.cast(pa.string()) if pa.types.is_dictionary(ids.type) else ids
    other = np.flatnonzero(
        pc.not_equal(plain, pa.scalar(last, pa.string())).to_numpy(zero_copy_only=False)
    )
    return int(other[-1]) + 1 if len(other) else 0
