"""Tables of per-game figures stored next to the derived tables (``_analytics/NAME.parquet``):
the luck (:mod:`replay.analytics.luck`) and the fair-play signal's counts
(:mod:`replay.analytics.fairplay`). Each row names its game, the settings key it was computed
with and the game's number of events then; an update keeps the rows of the games whose key and
events are unchanged and computes the others (in ``jobs`` worker processes).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from replay.analytics.derived import DERIVED_DIR
from replay.audit.parallel import fork_context
from replay.model.decode import events_from_table
from replay.text import shown

if TYPE_CHECKING:
    from replay.model.events import Event
    from replay.store import EventStore

#: One game's rows and why they stop early ("" when they do not).
Compute = Callable[[list["Event"]], tuple[list[dict[str, Any]], str]]


@dataclass
class TableUpdate:
    """What one update did."""

    computed: int = 0  # games computed now
    kept: int = 0  # games whose stored rows were kept
    rows: int = 0  # rows stored in all
    problems: list[str] = field(default_factory=list)


def table_path(store: EventStore, name: str) -> Path:
    return store.path / DERIVED_DIR / f"{name}.parquet"


def stored_table(
    store: EventStore, name: str, schema: pa.Schema, problems: list[str] | None = None
) -> dict[str, str]:
    """``{name: its Parquet file}``; empty when there is none, or it cannot be read or holds
    other columns (then one line in ``problems``)."""
    path = table_path(store, name)
    if not path.is_file():
        return {}
    try:
        usable, why = pq.read_schema(path).equals(schema), "other columns"
    except (OSError, pa.ArrowException) as exc:
        usable, why = False, f"unreadable ({type(exc).__name__})"
    if not usable and problems is not None:
        problems.append(f"{path}: stored {name} left out: {why}; "
                        f"`replay reindex STORE --{name}` makes it again")  # fmt: skip
    return {name: str(path)} if usable else {}


def update_table(
    store: EventStore, name: str, schema: pa.Schema, key: str, compute: Compute, jobs: int = 1
) -> TableUpdate:
    """Store ``compute``'s rows of every game not yet stored with settings ``key`` (see the
    module); ``compute``'s rows carry every column of ``schema`` but ``settings`` and
    ``events``. The table is written as it is read and computed, a batch at a time: a store of
    a million hands (4M rows) is never in memory whole."""
    listing = store.list_games_table().select(["game_id", "events"]).to_pylist()
    events = {r["game_id"]: int(r["events"]) for r in listing}
    update = TableUpdate()
    old = _stored_file(store, name, schema, update.problems)
    kept, stale = _kept(old, key, events) if old is not None else (set(), True)
    todo = [g for g in events if g not in kept]
    update.kept, update.computed = len(kept), len(todo)
    if old is not None and not todo and not stale:  # nothing to add or drop: left as it is
        update.rows = old.metadata.num_rows
        return update
    target = table_path(store, name)
    target.parent.mkdir(exist_ok=True)
    partial = target.with_suffix(".parquet.partial")
    try:
        with pq.ParquetWriter(partial, schema, compression="zstd") as writer:
            if old is not None and kept:
                update.rows += _copy_kept(old, kept, writer)
            rows: list[dict[str, Any]] = []
            for game, (new, why) in zip(todo, _computed(store, todo, compute, jobs), strict=True):
                rows += [{**r, "settings": key, "events": events[game]} for r in new]
                if why:
                    update.problems.append(f"{store.path}: game {shown(game)}: {name} up to: {why}")
                if len(rows) >= BATCH * 64:  # as Arrow columns, not Python objects
                    update.rows += _write_rows(writer, rows, schema)
                    rows = []
            update.rows += _write_rows(writer, rows, schema)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    os.replace(partial, target)
    return update


def _write_rows(writer: pq.ParquetWriter, rows: list[dict[str, Any]], schema: pa.Schema) -> int:
    if rows:
        writer.write_table(pa.Table.from_pylist(rows, schema))
    return len(rows)


def _copy_kept(old: pq.ParquetFile, kept: set[str], writer: pq.ParquetWriter) -> int:
    """Write the rows of the ``kept`` games of ``old``, a batch at a time; the rows written."""
    wanted, written = pa.array(sorted(kept), pa.string()), 0
    for batch in old.iter_batches(BATCH * 64):
        mine = batch.filter(pc.is_in(batch.column("game_id"), wanted))
        writer.write_batch(mine)
        written += mine.num_rows
    return written


def _kept(old: pq.ParquetFile, key: str, events: dict[str, int]) -> tuple[set[str], bool]:
    """The games ``old`` holds with settings ``key`` and their events unchanged, and whether it
    holds other rows too (of other settings, or of games changed or gone)."""
    kept: set[str] = set()
    stale = False
    for batch in old.iter_batches(BATCH * 64, columns=["game_id", "settings", "events"]):
        games = pa.Table.from_batches([batch]).group_by(["game_id", "settings", "events"])
        for r in games.aggregate([]).to_pylist():
            if r["settings"] == key and events.get(r["game_id"]) == r["events"]:
                kept.add(r["game_id"])
            else:
                stale = True
    return kept, stale


#: Games loaded at once: a store of a million hands is never in memory whole.
BATCH = 512


def _computed(
    store: EventStore, todo: list[str], compute: Compute, jobs: int
) -> Iterator[tuple[list[dict[str, Any]], str]]:
    """``compute`` of every game of ``todo`` in order, :data:`BATCH` games read at a time (one
    read of the store's files a batch), spread over ``jobs`` worker processes."""
    batches = (_loaded(store, todo[i : i + BATCH]) for i in range(0, len(todo), BATCH))
    if jobs <= 1 or len(todo) <= 1:
        for batch in batches:
            yield from (compute(events) for events in batch)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(jobs, mp_context=fork_context()) as pool:
        for batch in batches:
            yield from pool.map(compute, batch, chunksize=max(1, len(batch) // (4 * jobs)))


def _loaded(store: EventStore, game_ids: list[str]) -> list[list[Event]]:
    """The games' events in seq order, in the order of ``game_ids`` (a game still in the live
    journal read from it)."""
    games: dict[str, list[Event]] = {g: [] for g in game_ids}
    for event in events_from_table(store.load_games_table(game_ids)):
        games[event.game_id].append(event)
    return [games[g] or store.load_game(g) for g in game_ids]


def _stored_file(
    store: EventStore, name: str, schema: pa.Schema, problems: list[str]
) -> pq.ParquetFile | None:
    """The stored table's file; None when missing or unusable (every game is then computed
    again, and ``problems`` says why)."""
    tables = stored_table(store, name, schema, problems)
    if tables:
        try:
            return pq.ParquetFile(tables[name])
        except (OSError, pa.ArrowException) as exc:
            problems.append(f"{store.path}: stored {name} unreadable ({exc}): computed again")
    return None
