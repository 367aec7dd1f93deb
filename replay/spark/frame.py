"""The event table as a Spark DataFrame: the snapshot's Parquet files, ``kind`` added.

Each partition's files are read with the file schema given (no footer sampled to infer it)
and ``kind`` set from the partition value the Delta log records, then the partitions are
stacked: the columns of :data:`replay.model.events.SCHEMA`, in its order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import pyarrow as pa

from replay.model.events import COLUMNS
from replay.spark.snapshot import Snapshot
from replay.store.files import FILE_TYPES

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

#: Where each row comes from (for the audit's order): the file, as a URI, and the row's place
#: in it.
FILE_COLUMN: Final = "_file"
ROW_COLUMN: Final = "_row"


def spark_type(type_: pa.DataType) -> str:
    """The Spark SQL type that reads a Parquet column written from ``type_``."""
    if pa.types.is_list(type_):
        return f"ARRAY<{spark_type(type_.value_type)}>"
    names = {
        pa.string(): "STRING",
        pa.int8(): "TINYINT",
        pa.int16(): "SMALLINT",
        pa.int32(): "INT",
        pa.int64(): "BIGINT",
        pa.float64(): "DOUBLE",
        pa.bool_(): "BOOLEAN",
    }
    if pa.types.is_timestamp(type_):
        return "TIMESTAMP" if type_.tz else "TIMESTAMP_NTZ"
    if type_ not in names:
        raise TypeError(f"no Spark type for the event column type {type_}")
    return names[type_]


def file_schema() -> str:
    """The data files' columns as a Spark DDL schema (every name quoted: ``values`` is a
    keyword)."""
    return ", ".join(f"`{name}` {spark_type(type_)}" for name, type_ in FILE_TYPES.items())


def events_frame(spark: SparkSession, snap: Snapshot, *, positions: bool = False) -> DataFrame:
    """The events of the snapshot (columns in SCHEMA order); with ``positions``, also
    :data:`FILE_COLUMN` and :data:`ROW_COLUMN`."""
    from pyspark.sql import functions as F

    extra = (
        [F.col("_metadata.file_path").alias(FILE_COLUMN),
         F.col("_metadata.row_index").alias(ROW_COLUMN)]
        if positions else []
    )  # fmt: skip
    parts = []
    for kind in snap.kinds():
        files = spark.read.schema(file_schema()).parquet(*snap.paths(kind))
        columns = [F.lit(kind).alias(n) if n == "kind" else F.col(f"`{n}`") for n in COLUMNS]
        parts.append(files.select(*columns, *extra))
    if not parts:
        return empty_frame(spark, positions=positions)
    frame = parts[0]
    for part in parts[1:]:
        frame = frame.unionByName(part)
    return frame


def empty_frame(spark: SparkSession, *, positions: bool = False) -> DataFrame:
    """A frame with the event columns and no row."""
    types = dict(FILE_TYPES)
    ddl = ", ".join(
        f"`{n}` STRING NOT NULL" if n == "kind" else f"`{n}` {spark_type(types[n])}"
        for n in COLUMNS
    )
    if positions:
        ddl += f", {FILE_COLUMN} STRING, {ROW_COLUMN} BIGINT"
    return spark.createDataFrame([], ddl)
