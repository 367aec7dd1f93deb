"""The data files of an ingest, written by Arrow's Parquet writer, streaming.

deltalake's ``write_deltalake`` pulls a stream of batches into its Rust runtime faster than it
writes them: the batches it has taken wait there (and its jemalloc keeps what they freed), so
its memory grew with the stream, not with a batch (about 440 MB over the base for a stream of
4M synthetic rows, 150 MB for 1M). :class:`DataWriter` writes each checked table as it comes
with ``pyarrow.parquet.ParquetWriter`` (one file per kind, in Arrow's memory pool: a row group
per table, nothing held after it), keeps the Delta statistics of each file (row count, exact
minimum, maximum and null count of every flat column), and gives the ``add`` actions that
:meth:`~replay.store.EventStore.ingest_batches` commits, all in one Delta commit, with
``DeltaTable.create_write_transaction``. The files are named as deltalake names them
(``kind=<kind>/part-NNNNN-<uuid>-c000.zstd.parquet``) and have the file schema of
:data:`~replay.store.files.FILE_TYPES` and the layout of deltalake's ingest: zstd level 9,
dictionaries (list items too), ``seq`` delta-coded, 16 MB pages, row groups up to 1M rows.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from deltalake.transaction import AddAction, RemoveAction

#: The Parquet settings of ingest (compaction rewrites with deltalake's writer, level 19).
LEVEL = 9
PAGE_BYTES = 16 << 20
#: A file is closed and another begun past this size (compaction's target size).
FILE_BYTES = 256 << 20
#: String statistics longer than this are left out of the log (a bound, never a wrong one:
#: a minimum is cut to this length, which keeps it a lower bound; a maximum is omitted).
STATS_CHARS = 256
_SAFE_KIND = re.compile(r"[A-Za-z0-9_.-]+")


@dataclass(slots=True)
class _Stats:
    """Delta statistics of one file, kept up to date as tables are written to it."""

    rows: int = 0
    low: dict[str, Any] = field(default_factory=dict)
    high: dict[str, Any] = field(default_factory=dict)
    nulls: dict[str, int] = field(default_factory=dict)

    def add(self, table: pa.Table) -> None:
        self.rows += table.num_rows
        for name in table.column_names:
            column = table.column(name)
            if pa.types.is_list(column.type):
                continue  # Delta keeps no statistics of nested columns
            self.nulls[name] = self.nulls.get(name, 0) + column.null_count
            if column.null_count == len(column):
                continue
            bounds: Any = pc.min_max(column)
            low, high = bounds["min"].as_py(), bounds["max"].as_py()
            if name not in self.low or low < self.low[name]:
                self.low[name] = low
            if name not in self.high or high > self.high[name]:
                self.high[name] = high

    def to_json(self) -> str:
        """The ``stats`` text of the file's ``add`` action."""
        low = {k: _stat(v, cut=True) for k, v in self.low.items()}
        high = {k: _stat(v, cut=False) for k, v in self.high.items()}
        stats = {
            "numRecords": self.rows,
            "minValues": {k: v for k, v in low.items() if v is not None},
            "maxValues": {k: v for k, v in high.items() if v is not None},
            "nullCount": self.nulls,
        }
        return json.dumps(stats, separators=(",", ":"), ensure_ascii=False)


def _stat(value: Any, *, cut: bool) -> Any:
    """A statistic as Delta writes it in the log (times in ISO 8601 UTC to the millisecond);
    None when it is left out (a long string's maximum)."""
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    if isinstance(value, str) and len(value) > STATS_CHARS:
        return value[:STATS_CHARS] if cut else None
    return value


@dataclass(slots=True)
class _File:
    path: Path
    relative: str
    kind: str
    writer: pq.ParquetWriter
    stats: _Stats = field(default_factory=_Stats)


class DataWriter:
    """Data files of one ingest under ``root`` (a store): :meth:`write` tables in the table
    schema (``kind`` included), :meth:`close` for the ``add`` actions; :meth:`abort` (or an
    exception inside ``with``) removes the files written."""

    def __init__(self, root: Path, file_schema: pa.Schema, *, row_group_rows: int) -> None:
        self.root = root
        self.file_schema = file_schema
        self.row_group_rows = row_group_rows
        self.token = uuid.uuid4()
        self.open: dict[str, _File] = {}
        self.done: list[tuple[_File, int]] = []
        self.written: list[Path] = []
        self.count = 0

    def __enter__(self) -> DataWriter:
        return self

    def __exit__(self, kind: object, *rest: object) -> None:
        if kind is not None:
            self.abort()

    def write(self, table: pa.Table) -> None:
        """Write the rows of ``table`` (a row group per kind in it), in their order."""
        if not table.num_rows:
            return
        kinds = table.column("kind")
        names = [str(k) for k in pc.unique(kinds).to_pylist()]
        for kind in names:
            rows = table if len(names) == 1 else table.filter(pc.equal(kinds, pa.scalar(kind)))
            self._write_kind(kind, rows.drop_columns(["kind"]).cast(self.file_schema))

    def _write_kind(self, kind: str, rows: pa.Table) -> None:
        file = self.open.get(kind) or self._start(kind)
        file.writer.write_table(rows, row_group_size=self.row_group_rows)
        file.stats.add(rows)
        if file.path.stat().st_size >= FILE_BYTES:
            self._finish(kind)

    def _start(self, kind: str) -> _File:
        if not _SAFE_KIND.fullmatch(kind):  # the checks admit only the games' own kinds
            raise ValueError(f"kind {kind!r} cannot name a partition directory")
        name = f"part-{self.count:05d}-{self.token}-c000.zstd.parquet"
        self.count += 1
        relative = f"kind={kind}/{name}"
        path = self.root / relative
        path.parent.mkdir(exist_ok=True)
        self.written.append(path)
        options: dict[str, Any] = {"use_dictionary": _dictionary_columns(self.file_schema)}
        writer = pq.ParquetWriter(
            str(path),
            self.file_schema,
            compression="zstd",
            compression_level=LEVEL,
            **options,  # a list of columns (the stubs know only a bool)
            column_encoding={"seq": "DELTA_BINARY_PACKED"},
            data_page_size=PAGE_BYTES,
            max_rows_per_page=self.row_group_rows,
            write_batch_size=1 << 16,
        )
        file = self.open[kind] = _File(path, relative, kind, writer)
        return file

    def _finish(self, kind: str) -> None:
        file = self.open.pop(kind)
        file.writer.close()
        self.done.append((file, file.path.stat().st_size))

    def close(self) -> list[AddAction | RemoveAction]:
        """Close the files; their ``add`` actions (none when nothing was written)."""
        for kind in list(self.open):
            self._finish(kind)
        now = int(time.time() * 1000)
        return [
            AddAction(f.relative, size, {"kind": f.kind}, now, True, f.stats.to_json())
            for f, size in self.done
        ]

    def abort(self) -> None:
        """Close and remove every file written (none of them is committed)."""
        for file in self.open.values():
            with contextlib.suppress(Exception):
                file.writer.close()
        self.open.clear()
        for path in self.written:
            with contextlib.suppress(OSError):
                os.unlink(path)


def _dictionary_columns(schema: pa.Schema) -> list[str]:
    """The Parquet column paths to dictionary-encode: all but ``seq`` (delta-coded), list items
    by their path (``cards.list.element``).

    >>> _dictionary_columns(pa.schema([("seq", pa.int32()), ("cards", pa.list_(pa.string()))]))
    ['cards.list.element']
    """
    return [
        f"{f.name}.list.element" if pa.types.is_list(f.type) else f.name
        for f in schema
        if f.name != "seq"
    ]


def write_files(
    root: Path, tables: Iterable[pa.Table], file_schema: pa.Schema, rows: int
) -> list[AddAction | RemoveAction]:
    """Write ``tables`` (checked, in the table schema) as data files under ``root``: their
    ``add`` actions, uncommitted (the files are removed when writing fails)."""
    with DataWriter(root, file_schema, row_group_rows=rows) as writer:
        for table in tables:
            writer.write(table)
        return writer.close()
