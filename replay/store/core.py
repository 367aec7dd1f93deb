"""The store's base: its folder, lock and Delta table, the data files of the current snapshot,
and DuckDB queries over those that can be read.

Every other part of :class:`~replay.store.EventStore` stands on this one: a file that cannot be
read (missing, truncated, another schema, not the file the log added) is reported once in
:attr:`StoreCore.problems` and left out of every read, and deltalake's errors become one line
naming the store (STORE-CORRUPT).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from deltalake import DeltaTable
from deltalake.exceptions import DeltaError

from replay.model.events import COLUMNS, SCHEMA
from replay.model.violation import RuleId
from replay.store.errors import InvalidGame, StorageFailure, StoreRule
from replay.store.files import DataFile, Fault, file_fault, within
from replay.store.journal import Journal
from replay.store.storage import storage_cause, storage_guard
from replay.store.validate import Rejection

LIVE_DIR = "_live"
LOCK_FILE = "_store.lock"
LOG_DIR = "_delta_log"


class StoreCore:
    """A store's folder, its Delta table and the readable files of its current snapshot."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.journal = Journal(self.path / LIVE_DIR)
        #: Problems met while reading (corrupt files...), for the caller to report.
        self.problems: list[Rejection] = []
        self._verdicts: dict[tuple[str, int, int], Fault] = {}
        self._pinned: list[DataFile] | None = None

    def table(self) -> DeltaTable:
        """The latest snapshot of the Delta table."""
        with self._delta_errors():
            return DeltaTable(str(self.path))

    @contextlib.contextmanager
    def _delta_errors(self) -> Iterator[None]:
        """Turn deltalake's errors (a corrupt log, an unreadable log file, a data file missing
        when rewriting...) into a one-line STORE-CORRUPT error naming the store (and the file)."""
        try:
            yield
        except (DeltaError, OSError) as exc:
            if isinstance(exc, OSError) and exc.errno is not None:
                raise  # Python's own I/O error (the lock file...), not deltalake's
            reason = f"Delta Lake error: {_delta_reason(exc)}"
            raise InvalidGame(StoreRule.CORRUPT, reason, source=str(self.path)) from None

    def _log_faults(self) -> list[Rejection]:
        """The empty (0-byte) commit files since the last checkpoint: deltalake reads one as a
        commit without actions, so the files it added would drop out of the table unsaid."""
        commits: dict[int, os.DirEntry[str]] = {}
        checkpoint = -1
        with contextlib.suppress(OSError), os.scandir(self.path / LOG_DIR) as entries:
            for entry in entries:
                version, _, rest = entry.name.partition(".")
                if version.isdigit() and rest == "json":
                    commits[int(version)] = entry
                elif version.isdigit() and rest.startswith("checkpoint."):
                    checkpoint = max(checkpoint, int(version))
        reason = (
            "empty Delta commit file (0 bytes): the data files it added are still on disk but "
            "left out of the table; ingest and compact are refused until it is restored"
        )
        return [
            Rejection(StoreRule.CORRUPT, reason, source=commits[v].path)
            for v in sorted(commits)
            if v > checkpoint and _size(commits[v]) == 0
        ]

    def _write_blocker(self) -> str | None:
        """Why the table must not be written (an empty commit file), or None."""
        faults = self._log_faults()
        for fault in faults:
            self._report(fault)
        return f"{faults[0].source} is an empty Delta commit file" if faults else None

    def _guarded(self) -> contextlib.AbstractContextManager[None]:
        """Around a write of the table: :func:`~replay.store.storage.storage_guard`."""
        return storage_guard(self.path, lambda: self.table().version())

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """The store lock (``_store.lock``), held by every writer of the table."""
        try:
            fd = os.open(self.path / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            cause = storage_cause(exc)
            if cause is None:
                raise
            raise StorageFailure(str(self.path), f"cannot take the store lock: {cause}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def files(self, kind: str | None = None) -> list[DataFile]:
        """The data files of the current snapshot (optionally of one kind); during a streamed
        write, the snapshot it started from (deltalake cannot be called from its writer)."""
        if self._pinned is not None:
            return [f for f in self._pinned if kind is None or f.kind == kind]
        actions = pa.table(self.table().get_add_actions(flatten=True))
        rows = actions.select(
            ["path", "partition.kind", "size_bytes", "num_records", "min.game_id", "max.game_id"]
        ).to_pylist()
        out = []
        for r in rows:
            if kind is not None and r["partition.kind"] != kind:
                continue
            out.append(
                DataFile(
                    str(self.path / r["path"]),
                    r["partition.kind"],
                    r["size_bytes"],
                    r["num_records"],
                    r["min.game_id"],
                    r["max.game_id"],
                )
            )
        return out

    def parquet_files(self, kind: str | None = None) -> list[str]:
        """Paths of the current Parquet files, for DuckDB ``read_parquet([...],
        hive_partitioning=true)`` (the ``kind`` column comes from the directory name)."""
        return [f.path for f in self.files(kind)]

    def readable_files(self, kind: str | None = None) -> list[DataFile]:
        """The data files of the current snapshot (optionally of one kind) that can be read:
        size as the log says, footer readable and in the schema. The others are reported in
        :attr:`problems`, and the readers that take this list (the statistics, Spark) skip them
        as the store's own reads do."""
        return self._readable(self.files(kind))

    def _readable(self, files: Sequence[DataFile]) -> list[DataFile]:
        """The files whose size matches the log and whose footer reads and fits the schema;
        the others are reported."""
        good = []
        for f in files:
            fault = self._fault(f)
            if fault is None:
                good.append(f)
            else:
                self._problem(f.path, fault[1], fault[0])
        return good

    def _fault(self, f: DataFile) -> Fault:
        """Why a data file cannot be read (None: it can); its footer is checked once per
        version of the file (path, size, modification time)."""
        if not within(f.path, self.path):  # a log entry with "../": no file of this store
            return StoreRule.CORRUPT, "the Delta log lists a data file outside the store"
        try:
            stat = os.stat(f.path)
        except FileNotFoundError:
            return StoreRule.CORRUPT, "missing data file (the Delta log still lists it)"
        except OSError as exc:
            return StoreRule.CORRUPT, f"corrupt or truncated Parquet file: {exc}"
        key = (f.path, stat.st_size, stat.st_mtime_ns)
        if key not in self._verdicts:
            self._verdicts[key] = file_fault(f, stat.st_size)
        return self._verdicts[key]

    def _problem(self, path: str, reason: str, rule: RuleId = StoreRule.CORRUPT) -> None:
        """Report an unreadable data file once (first line of the reason)."""
        self._report(Rejection(rule, reason.splitlines()[0], source=path))

    def _report(self, problem: Rejection) -> None:
        """Add a problem to :attr:`problems`, once per file it names."""
        if all(p.source != problem.source for p in self.problems):
            self.problems.append(problem)

    def _query(self, sql: str, files: Sequence[DataFile], **params: Any) -> pa.Table:
        """Run ``sql`` with ``$files`` bound to readable files; a failing file is reported and
        left out."""
        import duckdb  # here: DuckDB takes about 70 ms to load, and most commands never query

        files = self._readable(files)
        try:
            return self._run(sql, [f.path for f in files], params)
        except duckdb.Error:
            pass
        good = []
        for f in files:
            try:
                self._run(sql, [f.path], params)
                good.append(f.path)
            except duckdb.Error as exc:
                self._problem(f.path, f"corrupt or truncated Parquet file: {exc}")
        return self._run(sql, good, params)

    @staticmethod
    def _run(sql: str, paths: list[str], params: dict[str, Any]) -> pa.Table:
        import duckdb

        if not paths:
            sql = sql.replace(
                "read_parquet($files, hive_partitioning = true)", "(SELECT * FROM empty_events)"
            )
        con = duckdb.connect()
        con.register("empty_events", SCHEMA.empty_table())
        bound = {k: v for k, v in {"files": paths, **params}.items() if f"${k}" in sql}
        result: pa.Table = con.sql(sql, params=bound).to_arrow_table()
        return result

    def _read(self, f: DataFile, columns: list[str] | None = None, **kw: Any) -> pa.Table:
        """One file as a table in SCHEMA order (``kind`` added from the partition)."""
        wanted = [c for c in (columns or COLUMNS) if c != "kind"]
        try:
            table = pq.read_table(f.path, columns=wanted, **kw)
        except (OSError, pa.ArrowException) as exc:
            raise InvalidGame(StoreRule.CORRUPT, str(exc), source=f.path) from None
        kind = pa.array([f.kind] * table.num_rows, pa.string())
        names = columns or list(COLUMNS)
        arrays = [kind if n == "kind" else table.column(n) for n in names]
        return pa.Table.from_arrays(arrays, names=names)


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_UNREADABLE = re.compile(r"(?:Unable to open file|IO error for operation on) (.+)")


def _delta_reason(exc: Exception) -> str:
    """deltalake's message on one line: its first line and chain of causes ("↳" lines; not a
    backtrace) joined, or, for a log file that cannot be opened, ``cannot read FILE: cause``."""
    first, *rest = [*_ANSI.sub("", str(exc)).splitlines(), ""]
    causes = [line.strip() for line in rest if line.strip().startswith("↳")]
    parts = [first.strip(), *(cause.lstrip("↳").strip() for cause in causes)]
    for part in parts:
        unreadable = _UNREADABLE.fullmatch(part)
        if unreadable:
            return f"cannot read {unreadable.group(1)}: {parts[-1]}"
    return ": ".join(parts)


def _size(entry: os.DirEntry[str]) -> int | None:
    """The size of a directory entry (None when it cannot be read)."""
    try:
        return entry.stat().st_size
    except OSError:
        return None
