"""The table's data files: the schema each must have, and why one cannot be read.

Every check here reads a file's footer only (its Parquet metadata), never its rows, except a
null count that the row groups' statistics do not give. :class:`~replay.store.core.StoreCore`
asks once per version of a file and reports the files left out.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from replay.model.events import SCHEMA
from replay.model.violation import RuleId
from replay.store.errors import StoreRule

#: Rows of a Parquet row group (the ingest's writer and compaction).
ROW_GROUP_ROWS = 1 << 20


def _as_written(type_: pa.DataType) -> pa.DataType:
    """The Arrow type a Delta write gives a column of ``type_`` (timestamps in microseconds)."""
    return pa.timestamp("us", tz=type_.tz) if pa.types.is_timestamp(type_) else type_


#: The columns of a data file and their Arrow types, as Delta writes :data:`SCHEMA` (``kind`` is
#: the partition, not in the file). Every file must have exactly these: Arrow batches of other
#: types do not concatenate, and compaction would rewrite such a file into the schema.
FILE_TYPES: dict[str, pa.DataType] = {
    f.name: _as_written(f.type) for f in SCHEMA if f.name != "kind"
}
#: The schema of a data file as the ingest writes it (:mod:`replay.store.writer`).
FILE_SCHEMA = pa.schema(
    [pa.field(f.name, FILE_TYPES[f.name], f.nullable) for f in SCHEMA if f.name != "kind"]
)
#: The file columns that may hold no null.
NOT_NULL: tuple[str, ...] = tuple(f.name for f in SCHEMA if not f.nullable and f.name != "kind")
#: A verdict on a data file: None (usable) or the rule and reason it is left out.
Fault = tuple[RuleId, str] | None


@dataclass(frozen=True, slots=True)
class DataFile:
    """One Parquet file of the current table snapshot."""

    path: str
    kind: str
    size: int
    rows: int | None  # None: the log has no statistics
    min_game: str | None
    max_game: str | None


def file_fault(f: DataFile, size: int) -> Fault:
    """Why a data file of ``size`` bytes cannot be read (None: it can), from its footer."""
    if size != f.size:
        return (
            StoreRule.CORRUPT,
            f"corrupt or truncated Parquet file: size {size} bytes, the log says {f.size}",
        )
    try:
        metadata = pq.read_metadata(f.path)
        faults = _schema_faults(metadata.schema.to_arrow_schema())
        faults = faults or _null_faults(metadata, f.path)
        elsewhere = None if faults else log_mismatch(f, metadata)
    except PermissionError:
        return StoreRule.CORRUPT, "cannot read the file: permission denied"
    except (OSError, pa.ArrowException) as exc:
        return StoreRule.CORRUPT, f"corrupt or truncated Parquet file: {exc}"
    if elsewhere is not None:
        return StoreRule.CORRUPT, f"not the file the Delta log added: {elsewhere}"
    if not faults:
        return None
    more = f" and {len(faults) - 3} more" if len(faults) > 3 else ""
    return StoreRule.SCHEMA, "wrong schema, file not read: " + ", ".join(faults[:3]) + more


def within(path: str, root: Path) -> bool:
    """Whether ``path`` names a file under ``root`` once its ``..`` are resolved (lexically:
    a symbolic link inside the store may lead elsewhere).

    >>> within("/s/kind=hearts/a.parquet", Path("/s")), within("/s/../etc/x", Path("/s"))
    (True, False)
    """
    root_text = os.path.normpath(root.absolute())
    return os.path.normpath(os.path.join(root_text, path)).startswith(root_text + os.sep)


def log_mismatch(f: DataFile, metadata: pq.FileMetaData) -> str | None:
    """How a readable file's footer contradicts what the log recorded of it (another file put
    in its place): its row count, or game ids outside the log's bounds (None: it agrees)."""
    if f.rows is not None and metadata.num_rows != f.rows:
        return f"{metadata.num_rows} rows, the log says {f.rows}"
    leaf = metadata.schema.names.index("game_id")
    for r in range(metadata.num_row_groups):
        stats = metadata.row_group(r).column(leaf).statistics
        if stats is None or not stats.has_min_max:
            continue
        low, high = str(stats.min), str(stats.max)
        if low < (f.min_game or low) or high > (f.max_game or high):
            return f"game ids {low}..{high}, the log says {f.min_game}..{f.max_game}"
    return None


def _schema_faults(schema: pa.Schema) -> list[str]:
    """How a data file's columns differ from :data:`FILE_TYPES` (in any order)."""
    found = {f.name: f.type for f in schema}
    faults = [f"no column {name!r}" for name in FILE_TYPES if name not in found]
    for name, type_ in found.items():
        expected = FILE_TYPES.get(name)
        if expected is None:
            faults.append(f"unknown column {name!r}")
        elif type_ != expected:
            faults.append(f"column {name!r} is {type_}, expected {expected}")
    return faults


def _null_faults(metadata: pq.FileMetaData, path: str) -> list[str]:
    """The :data:`NOT_NULL` columns that hold nulls, e.g. ``3 null(s) in column 'seq'``."""
    leaves = {metadata.schema.column(i).path: i for i in range(metadata.num_columns)}
    counts = {name: _null_count(metadata, path, name, leaves[name]) for name in NOT_NULL}
    return [f"{n} null(s) in column {name!r}" for name, n in counts.items() if n]


def _null_count(metadata: pq.FileMetaData, path: str, name: str, leaf: int) -> int:
    """Nulls of a flat column: none when Parquet declares it required, else by the row groups'
    statistics, or (a row group without them) by reading the column."""
    if metadata.schema.column(leaf).max_definition_level == 0:
        return 0
    groups = (metadata.row_group(r).column(leaf) for r in range(metadata.num_row_groups))
    counts = [g.statistics.null_count if g.statistics is not None else None for g in groups]
    if None not in counts:
        return sum(c or 0 for c in counts)
    return int(pq.read_table(path, columns=[name]).column(name).null_count)


def with_kind(
    batch: pa.RecordBatch, kind: str, names: list[str], dictionary: bool = False
) -> pa.RecordBatch:
    """The batch with its ``kind`` column (the partition value, not stored in the file)."""
    rows = batch.num_rows
    if dictionary:
        codes = np.zeros(rows, dtype=np.int32)
        kinds: pa.Array[Any] = pa.DictionaryArray.from_arrays(codes, pa.array([kind]))
    else:
        kinds = pa.array([kind] * rows, pa.string())
    arrays = [kinds if n == "kind" else batch.column(n) for n in names]
    return pa.RecordBatch.from_arrays(arrays, names=names)


def string_leaves(schema: pq.ParquetSchema, names: list[str]) -> list[str]:
    """Parquet paths of the string columns (list elements included) of ``names``, but ``data``
    (rare JSON texts: a dictionary would not share anything)."""
    leaves = (schema.column(i) for i in range(len(schema)))
    return [
        leaf.path
        for leaf in leaves
        if leaf.physical_type == "BYTE_ARRAY" and leaf.path.split(".")[0] in names
        and leaf.path != "data"
    ]  # fmt: skip


def distinct_strings(column: pa.ChunkedArray[Any] | pa.Array[Any]) -> list[str]:
    """The distinct non-null strings of a column, in order of appearance."""
    return [str(v) for v in pc.unique(column).to_pylist() if v is not None]
