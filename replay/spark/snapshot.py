"""The store's current Delta snapshot as plain Parquet files, for a reader without Delta.

The Delta Lake connector for Spark is a jar fetched from Maven when a session starts; instead,
``deltalake`` resolves the snapshot (the data files and their ``kind`` partition values) and
Spark reads those files with ``spark.read.parquet``. That is exact for the tables ``replay``
writes: every row of a listed file is live and every column has its own name. A table where
that does not hold (deletion vectors, column mapping, a reader feature not known here) is
refused, naming the feature.

The files are the ones the local engine reads: a data file the store finds unreadable (see
:meth:`replay.store.EventStore.scan`) is left out and reported in the store's ``problems``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import unquote, urlparse

from replay.spark.errors import UnsupportedTable
from replay.store import DataFile, EventStore

#: Reader features that change nothing for a reader of the snapshot's Parquet files (the log's
#: own format, or a type Spark reads as is).
HARMLESS_READER_FEATURES: Final = frozenset({"timestampNtz", "v2Checkpoint", "vacuumProtocolCheck"})

#: What each refused feature would break, for the error message.
_WHY: Final = {
    "deletionVectors": "rows deleted by a deletion vector would be read as live",
    "columnMapping": "the Parquet column names are not the table's",
}


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The readable data files of one version of a store's table, in the log's order."""

    root: Path
    version: int
    files: tuple[DataFile, ...]

    def kinds(self) -> list[str]:
        """The partition values, sorted."""
        return sorted({f.kind for f in self.files})

    def paths(self, kind: str) -> list[str]:
        """The absolute paths of one partition's files."""
        return [str(Path(f.path).absolute()) for f in self.files if f.kind == kind]

    def order(self) -> dict[str, int]:
        """Each file's place in the snapshot, by absolute path: the order the local engine
        reads the files in, which decides between two rows of a game with the same seq."""
        return {str(Path(f.path).absolute()): i for i, f in enumerate(self.files)}


def snapshot(store: EventStore, kind: str | None = None) -> Snapshot:
    """The current snapshot of the store's table (optionally one ``kind``); raises
    :class:`UnsupportedTable` for a table whose files cannot be read as plain Parquet."""
    table = store.table()
    refused = unsupported_features(table.protocol(), table.metadata().configuration)
    if refused:
        reasons = "; ".join(f"{name} ({_WHY.get(name, 'unknown to this reader')})"
                            for name in refused)  # fmt: skip
        raise UnsupportedTable(
            f"{store.path}: the Delta table uses {reasons}: read it with the Delta Lake "
            "connector (docs/scale-out.md), not as plain Parquet files"
        )
    files = store.readable_files(kind)  # the local engine's choice of files
    return Snapshot(store.path, table.version(), tuple(files))


def unsupported_features(protocol: Any, configuration: dict[str, str]) -> list[str]:
    """The table features (from its protocol and configuration) that make its Parquet files
    differ from its rows: deletion vectors, column mapping, any other reader feature."""
    found: list[str] = [
        name for name in protocol.reader_features or () if name not in HARMLESS_READER_FEATURES
    ]
    if configuration.get("delta.columnMapping.mode", "none") != "none":
        found.append("columnMapping")
    if (
        configuration.get("delta.enableDeletionVectors") == "true"
        and "deletionVectors" not in found
    ):
        found.append("deletionVectors")
    return sorted(found)


def local_path(spark_path: str) -> str:
    """A path as Spark reports it (``_metadata.file_path``: a URI, percent-encoded) as the
    plain absolute path :meth:`Snapshot.order` knows."""
    return unquote(urlparse(spark_path).path)
