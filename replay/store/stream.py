"""The streaming import: a JSON Lines file of any size into a store, in bounded memory.

The file is read in pieces of :data:`PIECE_BYTES` (cut after a newline), each parsed by
:func:`~replay.store.jsonl.parse_jsonl` (bad lines named by their line number in the file).
A file of at most :data:`PART_BYTES` is ingested as one table. A larger one whose games each
lie in one run of lines goes straight on in tables of whole games of about that size (each
table's last game held back for the next). One that interleaves its games (a platform logs its
tables as they play) is found out at the first game id that comes back, nothing committed, and
read again: a game is only judged whole, so the rows of each piece are spread over ``n`` Arrow
IPC files in a temporary directory by a hash of their game id (every game in one of them, ``n``
such that each holds about :data:`PART_BYTES` of the file). Either way the tables are checked
and written one after the other by
:meth:`~replay.store.EventStore.ingest_batches` (each part's rows go to the data files as it
comes, :mod:`replay.store.writer`), **all in one Delta commit**: an import killed midway
leaves the store as it was (and a new import of the file stores it whole); it is never half
stored, and a re-import converges as before. Memory is bounded by a piece and a part (plus
the largest game), not by the file: no piece, part or table is held once the next one is
read, and Arrow's memory comes from :func:`import_pool`, which gives freed memory back to the
system. ``benchmarks/bench_memory.py`` measures it, ``tests/test_reliability.py`` checks it.
"""

from __future__ import annotations

import contextlib
import tempfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.ipc as ipc

from replay.model.events import SCHEMA
from replay.store.jsonl import parse_jsonl
from replay.store.slices import last_game_start, run_ids
from replay.store.table import EventStore, IngestReport
from replay.store.validate import Rejection

#: Bytes of the file parsed at once.
PIECE_BYTES = 16 << 20
#: Bytes of the file (about) whose games one part holds.
PART_BYTES = 32 << 20

Transform = Callable[[pa.Table], pa.Table]
#: The schema of the part files: SCHEMA with every column nullable, as the JSON reader gives it
#: (the nulls are the checks' to reject).
SPILLED = pa.schema([f.with_nullable(True) for f in SCHEMA])


@dataclass(slots=True)
class Imported:
    """What :func:`import_jsonl` read and stored."""

    lines: int = 0
    events: int = 0
    unreadable: list[Rejection] = field(default_factory=list)
    report: IngestReport = field(default_factory=IngestReport)


def pieces(path: Path, size: int | None = None) -> Iterator[tuple[int, bytes, int]]:
    """The file in pieces of about ``size`` bytes (:data:`PIECE_BYTES`), each ending after a
    newline (the last may not), with the number of its first line and its newlines."""
    size = size or PIECE_BYTES
    line = 1
    carry: list[bytes] = []  # the start of a line cut by the end of a block
    with path.open("rb") as file:
        while block := file.read(size):
            cut = block.rfind(b"\n") + 1
            if not cut:  # one line longer than a piece: read on
                carry.append(block)
                continue
            # one copy of the piece, and only it held while it is parsed
            data = b"".join([*carry, memoryview(block)[:cut]])
            carry = [block[cut:]] if cut < len(block) else []
            del block
            newlines = data.count(b"\n")
            yield line, data, newlines
            line += newlines
            del data
    if carry:
        data = b"".join(carry)
        yield line, data, data.count(b"\n")


def import_jsonl(
    store: EventStore,
    path: Path,
    *,
    source: str | None = None,
    transform: Transform | None = None,
) -> Imported:
    """Import a JSON Lines file into ``store`` in one commit, streaming (see the module).
    ``transform`` may rename games (it must keep each game whole)."""
    name = source or str(path)
    out = Imported()
    size = path.stat().st_size
    parts = max(1, -(-size // PART_BYTES))

    def parsed() -> Iterator[pa.Table]:
        for first, data, newlines in pieces(path):
            read = parse_jsonl(data, name, first, newlines)
            del data  # not held while the table is spread
            out.lines += read.lines
            out.events += read.table.num_rows
            out.unreadable += read.rejected
            table = transform(read.table) if transform is not None else read.table
            del read
            yield table
            del table

    with lean_memory_pool():
        if parts == 1:  # its pieces in one table (a game may lie across two of them)
            tables = list(parsed())
            whole = pa.concat_tables(tables) if tables else SCHEMA.empty_table()
            del tables
            if whole.num_rows:
                out.report = store.ingest_batches([whole], source=name)
            return out
        with contextlib.suppress(_Interleaved):
            out.report = store.ingest_batches(_whole_games(parsed()), source=name)
            return out
        out.lines, out.events, out.unreadable = 0, 0, []  # read again, spread by game
        with tempfile.TemporaryDirectory(prefix="replay-import-") as spill:
            files = _spread(parsed(), Path(spill), parts)
            out.report = store.ingest_batches(_read_parts(files), source=name)
    return out


def game_tables(
    path: Path, unreadable: list[Rejection], *, source: str | None = None
) -> Iterator[pa.Table]:
    """The events of a JSON Lines file as tables that each hold whole games (every row of a
    game in one table, in the file's order), for reading a file of any size in bounded memory
    (the file audit): a file of at most :data:`PART_BYTES` in one table, a larger one spread
    over part files by game id (as an interleaved import is). The lines that cannot be read
    are added to ``unreadable`` (named by ``source``, else the path) as they are met."""
    name = source or str(path)
    parts = max(1, -(-path.stat().st_size // PART_BYTES))

    def parsed() -> Iterator[pa.Table]:
        for first, data, newlines in pieces(path):
            read = parse_jsonl(data, name, first, newlines)
            del data
            unreadable.extend(read.rejected)
            table = read.table
            del read
            yield table
            del table

    with lean_memory_pool():
        if parts == 1:
            tables = list(parsed())
            if tables:
                yield pa.concat_tables(tables)
            return
        with tempfile.TemporaryDirectory(prefix="replay-read-") as spill:
            yield from _read_parts(_spread(parsed(), Path(spill), parts))


class _Interleaved(Exception):
    """A game's rows come back after another game's: the file interleaves its games."""


def _whole_games(tables: Iterator[pa.Table]) -> Iterator[pa.Table]:
    """The rows of a file whose games each lie in one run of lines (the common case: no
    spreading needed) as tables of whole games of about :data:`PART_BYTES` of the file: the
    pieces in order, the last game of each table held back for the next one. Raises
    :class:`_Interleaved` as soon as a game id comes back after another game's rows (nothing
    is committed then: the caller spreads the file by game instead)."""
    met: set[str] = set()
    last: str | None = None
    held: list[pa.Table] = []
    per_part = max(1, PART_BYTES // PIECE_BYTES)
    for table in tables:
        runs = run_ids(table.column("game_id").combine_chunks())
        for i, game_id in enumerate(runs):
            if game_id in met and not (i == 0 and game_id == last):
                raise _Interleaved
            met.add(game_id)
        last = runs[-1] if runs else last
        held.append(table)
        del table
        if len(held) >= per_part:
            whole = pa.concat_tables(held)
            cut = last_game_start(whole)
            held = [whole.slice(cut)]
            if cut:
                yield whole.slice(0, cut)
            del whole
    if held:
        yield pa.concat_tables(held)


def import_pool() -> pa.MemoryPool:
    """The Arrow memory pool of an import: Arrow's jemalloc pool when this build of Arrow has
    it (it hands freed memory back to the system at once: Arrow sets its decay to 0, where the
    default mimalloc pool kept 80-140 MB more of the freed pieces and parts resident), else the
    default pool (its unused memory then released after each part)."""
    try:
        return pa.jemalloc_memory_pool()
    except NotImplementedError:
        return pa.default_memory_pool()


@contextlib.contextmanager
def lean_memory_pool() -> Iterator[None]:
    """:func:`import_pool` as Arrow's default pool while the block runs."""
    before = pa.default_memory_pool()
    pa.set_memory_pool(import_pool())
    try:
        yield
    finally:
        pa.set_memory_pool(before)
        import_pool().release_unused()


def _spread(tables: Iterator[pa.Table], directory: Path, parts: int) -> list[Path]:
    """Write the rows of ``tables`` into ``parts`` IPC files, by a hash of their game id."""
    paths = [directory / f"part-{i:04d}.arrow" for i in range(parts)]
    writers = [ipc.new_file(str(p), SPILLED) for p in paths]
    try:
        for table in tables:
            if table.num_rows:
                _spread_one(table, writers)
            del table  # not held while the next piece is parsed
    finally:
        for writer in writers:
            writer.close()
    return paths


def _spread_one(table: pa.Table, writers: list[ipc.RecordBatchFileWriter]) -> None:
    """The rows of one table into the part files (each part's rows in one batch)."""
    parts = len(writers)
    part = _part_of_rows(table.column("game_id"), parts)
    order = np.argsort(part, kind="stable")
    bounds = np.searchsorted(part[order], np.arange(parts + 1))
    sorted_rows = table.take(order).cast(SPILLED)
    for i in range(parts):
        if bounds[i + 1] > bounds[i]:
            writers[i].write_table(
                sorted_rows.slice(int(bounds[i]), int(bounds[i + 1] - bounds[i]))
            )


def _part_of_rows(ids: pa.ChunkedArray[Any], parts: int) -> np.ndarray:
    """Per row, the part of its game id (a CRC-32 of the id: the same in every piece, and in
    every run, where Python's ``hash`` of a text changes from one process to the next)."""
    encoded: Any = pc.dictionary_encode(ids).combine_chunks()
    values = encoded.dictionary.to_pylist()
    per_id = np.array([_stable_hash(v) % parts for v in values] + [0], dtype=np.int64)  # null: 0
    codes = encoded.indices.fill_null(len(values)).to_numpy(zero_copy_only=False)
    parts_of_rows: np.ndarray = per_id[codes]
    return parts_of_rows


def _stable_hash(game_id: str) -> int:
    return zlib.crc32(game_id.encode("utf-8", "surrogatepass"))


def _read_parts(paths: list[Path]) -> Iterator[pa.Table]:
    """Each part file as one table (memory mapped), then deleted; the table is not held here
    while it is checked and written, nor once the next one is asked for."""
    for path in paths:
        with pa.memory_map(str(path)) as source:
            table = ipc.open_file(source).read_all()
        held = [table] if table.num_rows else []
        del table
        if held:
            yield held.pop()
        path.unlink()
        pa.default_memory_pool().release_unused()
