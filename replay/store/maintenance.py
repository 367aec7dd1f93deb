"""Keeping the table small: compaction (small files merged, one atomic commit) and vacuum.

Compaction is refused, the table left as it is, while a data file cannot be read or has a wrong
schema (it would be rewritten into the schema) or the log has an empty commit file (its data
files would be vacuumed).
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from deltalake import ColumnProperties, WriterProperties
from deltalake.exceptions import DeltaError

from replay.store.core import StoreCore
from replay.store.errors import InvalidGame, StoreRule
from replay.store.files import ROW_GROUP_ROWS, DataFile

#: The size of the files compaction writes.
COMPACT_FILE_BYTES = 256 << 20


def writer_properties(level: int) -> WriterProperties:
    """Parquet settings: zstd, dictionaries, delta-coded seq, large pages (about 2 B/event)."""
    return WriterProperties(
        compression="ZSTD",
        compression_level=level,
        max_row_group_size=ROW_GROUP_ROWS,
        data_page_size_limit=16 << 20,
        data_page_row_count_limit=ROW_GROUP_ROWS,
        write_batch_size=1 << 16,
        column_properties={
            "seq": ColumnProperties(dictionary_enabled=False, encoding="DELTA_BINARY_PACKED")
        },
    )


class StoreMaintenance(StoreCore):
    """:meth:`compact`: merge small files, then vacuum."""

    def compact(self, *, vacuum: bool = True) -> dict[str, Any]:
        """Merge small files into large ones (one atomic commit), then delete the files no
        longer referenced. Returns deltalake's metrics plus ``vacuumed`` (files deleted).

        Refused (STORE-CORRUPT, the files in :attr:`problems`) while a data file cannot be
        read or has a wrong schema (compaction would rewrite it into the schema), or while the
        log has an empty commit file (its data files would be vacuumed): the table is left as
        it is."""
        with self._locked(), self._delta_errors(), self._guarded():
            blocker = self._write_blocker()
            if blocker is not None:
                raise InvalidGame(
                    StoreRule.CORRUPT, f"not compacted: {blocker}", source=str(self.path)
                )
            metrics = self._optimize(self.files())
            deleted: list[str] = []
            if vacuum:
                deleted = self.table().vacuum(
                    retention_hours=0, enforce_retention_duration=False, dry_run=False
                )
        metrics["vacuumed"] = len(deleted)
        return metrics

    def _optimize(self, files: list[DataFile]) -> dict[str, Any]:
        """deltalake's compaction, refused when a data file cannot be read."""
        unreadable = len(files) - len(self._readable(files))
        if not unreadable:
            try:
                metrics: dict[str, Any] = self.table().optimize.compact(
                    target_size=COMPACT_FILE_BYTES, writer_properties=writer_properties(19)
                )
                return metrics
            except DeltaError:
                unreadable = sum(not self._reads_fully(f) for f in files)
                if not unreadable:
                    raise
        reason = f"not compacted: {unreadable} data file(s) cannot be read or have a wrong schema"
        raise InvalidGame(StoreRule.CORRUPT, reason, source=str(self.path))

    def _reads_fully(self, f: DataFile) -> bool:
        """Whether every page of a file decodes (else it is reported)."""
        try:
            pq.read_table(f.path)
        except (OSError, pa.ArrowException) as exc:
            self._problem(f.path, f"corrupt Parquet file: {exc}")
            return False
        return True
