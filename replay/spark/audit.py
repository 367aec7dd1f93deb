"""``replay audit --engine spark``: every game audited on a Spark worker, one group per game.

The events are grouped by ``game_id`` (one shuffle of the event table); each group reaches a
Python worker as one Arrow table, is put in the order the local engine reads it (by seq, then
by file and row: that order decides between two rows with one seq) and is audited by
:func:`replay.audit.audit_table`, the local engine's own function. Each game's audit comes back
as one row (the audit pickled) and the driver sorts the report as
:func:`replay.audit.findings.sort_report` does: the findings and their order are the local engine's.
"""

from __future__ import annotations

import pickle
from typing import TYPE_CHECKING, Any, Final, Literal, cast

import pyarrow as pa
import pyarrow.compute as pc

from replay.audit import AuditReport, GameAudit, audit_table
from replay.audit.findings import sort_report
from replay.model.events import COLUMNS
from replay.spark.frame import FILE_COLUMN, ROW_COLUMN, events_frame
from replay.spark.session import quiet_pandas_warning
from replay.spark.snapshot import Snapshot, local_path, snapshot

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

    from replay.store import EventStore

#: One game's audit, as the workers return it: the audit pickled, as the local engine's worker
#: processes send theirs (``GameAudit.__reduce__``: every field, findings and waiting point
#: included, so that no copy of the field list can fall behind).
_AUDIT_FIELDS: list[pa.Field[Any]] = [
    pa.field("game_id", pa.string()),
    pa.field("audit", pa.binary()),
]
AUDIT_SCHEMA: Final = pa.schema(_AUDIT_FIELDS)
#: The same as a Spark DDL schema.
AUDIT_DDL: Final = "game_id STRING, audit BINARY"


def audit_on_spark(
    spark: SparkSession, store: EventStore, kind: str | None = None, game_id: str | None = None
) -> AuditReport:
    """Audit the store's games (of one ``kind``, or one game) on Spark; the same report as
    :func:`replay.audit.audit_many` over the same store. The store's unreadable files are in
    ``store.problems``, as with the local engine."""
    snap = snapshot(store, kind)
    if not snap.files:
        return AuditReport()
    return sort_report(AuditReport(games=audit_snapshot(spark, snap, game_id)))


def audit_snapshot(spark: SparkSession, snap: Snapshot, game_id: str | None) -> list[GameAudit]:
    """The audits of the snapshot's games (of one game when ``game_id``), in no set order."""
    from pyspark.sql import functions as F

    frame = events_frame(spark, snap, positions=True)
    if game_id is not None:
        frame = frame.where(F.col("game_id") == F.lit(game_id))
    order = snap.order()
    # A lambda, not functools.partial: pyspark reads the function's signature to tell the
    # forms of Arrow UDF apart, and fails on a partial object.
    with quiet_pandas_warning():
        result = frame.groupBy("game_id").applyInArrow(
            lambda group: audit_group(order, group), AUDIT_DDL
        )
        pickled = cast("list[bytes]", result.toArrow().column("audit").to_pylist())
    return [pickle.loads(audit) for audit in pickled]


def audit_group(order: dict[str, int], group: pa.Table) -> pa.Table:
    """On a worker: the audit of one game's rows (as one row of :data:`AUDIT_SCHEMA`)."""
    audits = audit_table(in_local_order(group, order), [0])
    rows = [{"game_id": audit.game_id, "audit": pickle.dumps(audit)} for audit in audits]
    return pa.Table.from_pylist(rows, schema=AUDIT_SCHEMA)


def in_local_order(group: pa.Table, order: dict[str, int]) -> pa.Table:
    """One game's rows by seq, then in the order the local engine reads them (file by file in
    the snapshot's order, row by row), with only the event columns."""
    files: Any = pc.dictionary_encode(group.column(FILE_COLUMN)).combine_chunks()
    places = [order[local_path(path)] for path in files.dictionary.to_pylist()]
    file_index = pc.take(pa.array(places, pa.int32()), files.indices)
    keyed = group.append_column("_file_index", file_index)
    return keyed.sort_by(LOCAL_ORDER).select(list(COLUMNS))


#: The order of one game's rows in the local engine (file places are unique per file).
LOCAL_ORDER: Final[list[tuple[str, Literal["ascending", "descending"]]]] = [
    ("seq", "ascending"),
    ("_file_index", "ascending"),
    (ROW_COLUMN, "ascending"),
]
