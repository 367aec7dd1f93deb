"""The event store: a Delta Lake table of finished games plus a live journal.

The table (partitioned by ``kind``, Parquet with zstd and dictionary encoding, rows sorted by
game id and seq) gets atomic commits, snapshot isolation and compaction from ``deltalake``;
queries run in DuckDB over the snapshot's file list. Every commit of the store (ingest, seal,
compact) also holds ``_store.lock`` so that the duplicate check and the commit are one step.

:class:`EventStore` is made of parts, each a module of this package, from the bottom up:

- :mod:`~replay.store.files`: the data files' schema, and why one cannot be read;
- :mod:`~replay.store.core`: the folder, its lock and Delta table, the readable files of the
  snapshot, DuckDB queries over them, the problems met;
- :mod:`~replay.store.reads`: games by id or prefix, the list of games, scans, figures;
- :mod:`~replay.store.ingest`: finished games stored, checked, in one commit;
- :mod:`~replay.store.live`: games in progress, their journals sealed into the table;
- :mod:`~replay.store.maintenance`: compaction and vacuum.
"""

from __future__ import annotations

from pathlib import Path

from deltalake import DeltaTable

from replay.model.events import SCHEMA
from replay.store.errors import StorageFailure, StoreNotFound
from replay.store.files import DataFile
from replay.store.ingest import IngestReport
from replay.store.live import LiveGames
from replay.store.maintenance import StoreMaintenance
from replay.store.reads import GameSummary, KindInfo, StoreInfo
from replay.store.storage import storage_cause, storage_guard

__all__ = ["DataFile", "EventStore", "GameSummary", "IngestReport", "KindInfo", "StoreInfo"]


class EventStore(LiveGames, StoreMaintenance):
    """A directory holding the Delta table of finished games and ``_live/`` journals."""

    def __init__(self, path: str | Path, *, create: bool = False) -> None:
        super().__init__(path)
        if self.path.exists() and not self.path.is_dir():
            raise StoreNotFound(f"{self.path}: not a directory, so not an event store")
        with self._delta_errors():
            if not DeltaTable.is_deltatable(str(self.path)):
                if not create:
                    raise StoreNotFound(f"{self.path}: no event store here")
                self._make_folder()
                with self._locked():
                    if not DeltaTable.is_deltatable(str(self.path)):
                        with storage_guard(self.path, lambda: -1):
                            DeltaTable.create(str(self.path), schema=SCHEMA, partition_by=["kind"])
        self.table()  # a corrupt Delta log fails here, cleanly
        for fault in self._log_faults():
            self._report(fault)
        self.recover()

    def _make_folder(self) -> None:
        """The store's folder (and its parents), made; a storage fault (a read-only disk, a
        full one) is a :class:`StorageFailure`."""
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            cause = storage_cause(exc)
            if cause is None:
                raise
            raise StorageFailure(str(self.path), f"cannot create the store: {cause}") from None

    @classmethod
    def open(cls, path: str | Path, create: bool = False) -> EventStore:
        """Open a store (``create`` makes an empty one when none exists)."""
        return cls(path, create=create)
