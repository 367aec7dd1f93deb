"""The event store: a Delta Lake table of finished games plus a live journal.

The table (partitioned by ``kind``, Parquet with zstd and dictionary encoding, rows sorted by
game id and seq) gets atomic commits, snapshot isolation and compaction from ``deltalake``;
queries run in DuckDB over the snapshot's file list. Every commit of the store (ingest, seal,
compact) also holds ``_store.lock`` so that the duplicate check and the commit are one step.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from deltalake import ColumnProperties, DeltaTable, WriterProperties
from deltalake.exceptions import DeltaError

from replay.model.decode import events_from_table
from replay.model.events import COLUMNS, SCHEMA, Event, events_to_table
from replay.model.violation import LogRule, RuleId
from replay.store.errors import (
    AmbiguousGameId,
    GameNotFound,
    InvalidGame,
    StorageFailure,
    StoreNotFound,
    StoreRule,
)
from replay.store.journal import Journal
from replay.store.storage import storage_cause, storage_guard
from replay.store.validate import Rejection, check_games, conform, first_difference
from replay.store.writer import write_files
from replay.text import shown
from replay.words import counted, did_you_mean

LIVE_DIR = "_live"
LOCK_FILE = "_store.lock"
LOG_DIR = "_delta_log"
ROW_GROUP_ROWS = 1 << 20
COMPACT_FILE_BYTES = 256 << 20


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


@dataclass(frozen=True, slots=True)
class DataFile:
    """One Parquet file of the current table snapshot."""

    path: str
    kind: str
    size: int
    rows: int | None  # None: the log has no statistics
    min_game: str | None
    max_game: str | None


@dataclass(slots=True)
class IngestReport:
    """What an ingest did: games stored, games already stored identically, games rejected."""

    ingested: list[str] = field(default_factory=list)
    events: int = 0
    skipped: list[str] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)
    #: Games stored before without their end, whose later events this ingest appended.
    continued: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every game of the input was stored (or already was)."""
        return not self.rejected

    def summary(self) -> str:
        continued = f" ({len(self.continued)} continued)" if self.continued else ""
        return (
            f"{counted(len(self.ingested), 'game')}{continued} ({counted(self.events, 'event')}) "
            "ingested, "
            f"{len(self.skipped)} already stored, {len(self.rejected)} rejected"
        )


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One row of :meth:`EventStore.list_games`."""

    game_id: str
    kind: str
    players: tuple[str, ...]
    events: int
    rounds: int
    started: datetime | None
    result: tuple[int, ...] | None
    winners: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class KindInfo:
    """Figures of one game kind in :meth:`EventStore.info`."""

    kind: str
    games: int
    events: int
    files: int
    bytes: int
    first: datetime | None
    last: datetime | None

    @property
    def bytes_per_event(self) -> float:
        return self.bytes / self.events if self.events else 0.0


@dataclass(frozen=True, slots=True)
class StoreInfo:
    """Figures of a whole store."""

    path: str
    version: int
    kinds: tuple[KindInfo, ...]
    live_games: int
    disk_bytes: int

    @property
    def games(self) -> int:
        return sum(k.games for k in self.kinds)

    @property
    def events(self) -> int:
        return sum(k.events for k in self.kinds)

    @property
    def files(self) -> int:
        return sum(k.files for k in self.kinds)

    @property
    def data_bytes(self) -> int:
        return sum(k.bytes for k in self.kinds)

    @property
    def bytes_per_event(self) -> float:
        return self.data_bytes / self.events if self.events else 0.0


_SUMMARY_SQL = """
WITH g AS (
  SELECT game_id, any_value(kind) AS kind, count(*) AS events,
         count(DISTINCT round) AS rounds,
         min(ts) FILTER (WHERE type = 'game_start') AS started,
         any_value(data) FILTER (WHERE type = 'game_start') AS setup,
         any_value("values") FILTER (WHERE type = 'game_end') AS result
  FROM read_parquet($files, hive_partitioning = true)
  GROUP BY game_id
), n AS (
  SELECT *, coalesce(CASE WHEN json_valid(setup)
                     THEN TRY_CAST(json_extract(setup, '$.names') AS VARCHAR[]) END, []) AS players
  FROM g
)
SELECT game_id, kind, players, events, rounds, started, result,
       coalesce(list_transform(result, lambda s: coalesce(
         CASE WHEN s >= 0 THEN players[s::BIGINT + 1] END, 'seat ' || s)), []) AS winners
FROM n WHERE $player IS NULL OR list_contains(players, $player)
ORDER BY started NULLS LAST, game_id
"""


class EventStore:
    """A directory holding the Delta table of finished games and ``_live/`` journals."""

    def __init__(self, path: str | Path, *, create: bool = False) -> None:
        self.path = Path(path)
        self.journal = Journal(self.path / LIVE_DIR)
        #: Problems met while reading (corrupt files...), for the caller to report.
        self.problems: list[Rejection] = []
        self._verdicts: dict[tuple[str, int, int], Fault] = {}
        self._pinned: list[DataFile] | None = None
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

    # ----------------------------------------------------------------- internals
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
        if not _within(f.path, self.path):  # a log entry with "../": no file of this store
            return StoreRule.CORRUPT, "the Delta log lists a data file outside the store"
        try:
            stat = os.stat(f.path)
        except FileNotFoundError:
            return StoreRule.CORRUPT, "missing data file (the Delta log still lists it)"
        except OSError as exc:
            return StoreRule.CORRUPT, f"corrupt or truncated Parquet file: {exc}"
        key = (f.path, stat.st_size, stat.st_mtime_ns)
        if key not in self._verdicts:
            self._verdicts[key] = _file_fault(f, stat.st_size)
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

    # ----------------------------------------------------------------- live games
    def append(self, game_id: str, events: Iterable[Event], expected_seq: int) -> int:
        """Append events to a live game; ``expected_seq`` must be the stream's next seq
        (else :class:`ConcurrencyConflict`). Durable on return; returns the next seq."""
        return self.journal.append(game_id, list(events), expected_seq, self._stored_length)

    def live_games(self) -> list[str]:
        """Ids of the games in progress."""
        return self.journal.games()

    def seal(self, game_id: str, *, require_end: bool = True) -> int:
        """Move a finished live game into the table (one commit), then drop its journal.

        Returns the number of events sealed. A crash between the commit and the removal leaves
        a journal that :meth:`recover` drops.
        """
        with self.journal.locked(game_id) as fd:
            if fd is None:
                raise GameNotFound(f"game {shown(game_id)}: no live game with this id")
            events = self.journal.read(game_id)
            if require_end and (not events or events[-1].type != "game_end"):
                last = events[-1].seq if events else None
                raise InvalidGame(LogRule.ORDER, "no game_end yet", game_id=game_id, seq=last)
            report = self.ingest(events_to_table(events), source=str(self.journal.path(game_id)))
            if report.rejected:
                raise report.rejected[0].error()
            self.journal.remove(game_id)
        return len(events)

    def recover(self) -> list[str]:
        """Drop journals of games already in the table (a seal interrupted after its commit),
        when the table holds exactly their events; others are kept and reported."""
        live = self.live_games()
        if not live:
            return []
        stored = set(self._stored_counts(live))
        dropped = []
        for game_id in live:
            if game_id in stored and self._settle_locked(game_id):
                dropped.append(game_id)
        return dropped

    def _settle_locked(self, game_id: str) -> bool:
        """:meth:`_settle` under the journal's lock; a journal that cannot be opened (a
        directory, no permission) is kept and reported, and the store still opens."""
        try:
            with self.journal.locked(game_id) as fd:
                return fd is not None and self._settle(game_id)
        except OSError as exc:
            reason = f"journal kept: cannot open it: {exc.strerror or exc}"
            path = str(self.journal.path(game_id))
            self._report(Rejection(StoreRule.JOURNAL, reason, game_id, None, path))
            return False

    def _settle(self, game_id: str) -> bool:
        """Delete the journal of a stored game if the table holds exactly its events; else
        keep it and report it (STORE-JOURNAL). Whether it was deleted."""
        problem = self.journal.unsettled(game_id, events_from_table(self.load_game_table(game_id)))
        if problem is not None:
            self._report(problem)
            return False
        return self.journal.remove(game_id)

    def _stored_counts(self, game_ids: Sequence[str]) -> dict[str, int]:
        sql = (
            "SELECT game_id, count(*) AS n FROM read_parquet($files, hive_partitioning = true) "
            "WHERE game_id IN (SELECT unnest($ids::VARCHAR[])) GROUP BY game_id"
        )
        files = self.files()
        if not files:
            return {}
        rows = self._query(sql, files, ids=list(game_ids)).to_pylist()
        return {str(r["game_id"]): int(r["n"]) for r in rows}

    def _stored_length(self, game_id: str) -> int | None:
        return self._stored_counts([game_id]).get(game_id)

    # ----------------------------------------------------------------- finished games
    def ingest(
        self, games: pa.Table | Iterable[Sequence[Event]], *, source: str | None = None
    ) -> IngestReport:
        """Store many finished games in one atomic commit, after the integrity checks.

        Bad games are rejected with their reason, the good ones stored; a game already stored
        identically is skipped; an id stored with other content is rejected (STORE-GAME-ID).
        """
        table = games if isinstance(games, pa.Table) else _events_table(games)
        return self.ingest_batches([table], source=source)

    def ingest_batches(
        self, tables: Iterable[pa.Table], *, source: str | None = None
    ) -> IngestReport:
        """:meth:`ingest` of a stream of tables, each holding whole games (no game in two of
        them), in ONE commit: each table is checked and its rows written to the data files as
        it comes (:mod:`replay.store.writer`), so memory is bounded by a table, not by the
        stream (the streaming import, :mod:`replay.store.stream`); the files are committed
        together at the end. Nothing is committed when no table holds a game to store."""
        report = IngestReport()
        with self._locked():
            blocker = self._write_blocker()
            with self._delta_errors(), self._guarded(), self._pinned_files():
                fresh = self._fresh_tables(tables, report, source, blocker)
                actions = write_files(self.path, fresh, FILE_SCHEMA, ROW_GROUP_ROWS)
                if actions:  # nothing to store: no commit at all
                    table = self.table()
                    table.create_write_transaction(
                        actions, mode="append", schema=table.schema(), partition_by=["kind"]
                    )
        return report

    @contextlib.contextmanager
    def _pinned_files(self) -> Iterator[None]:
        """:meth:`files` answers from the current snapshot, read once, while the block runs
        (under the store lock, no other commit can come)."""
        self._pinned = self.files()
        try:
            yield
        finally:
            self._pinned = None

    def _fresh_tables(
        self,
        tables: Iterable[pa.Table],
        report: IngestReport,
        source: str | None,
        blocker: str | None,
    ) -> Iterator[pa.Table]:
        """The rows to store from each table: checked, without the games stored before (the
        report filled in as they go). No table is held once the next one is asked for."""
        for table in tables:
            fresh = self._fresh(table, report, source, blocker)
            del table
            if fresh is not None and fresh.num_rows:
                yield fresh
            del fresh

    def _fresh(
        self, table: pa.Table, report: IngestReport, source: str | None, blocker: str | None
    ) -> pa.Table | None:
        """One table of :meth:`_fresh_tables` (None when it has nothing to store)."""
        try:
            checked = check_games(table, source)
        except InvalidGame as exc:
            report.rejected.append(Rejection(exc.rule, exc.message, source=source))
            return None
        report.rejected.extend(checked.rejected)
        if blocker is not None:
            reason = f"not stored: {blocker}"
            ids = _strings(checked.table.column("game_id"))
            report.rejected.extend(
                Rejection(StoreRule.CORRUPT, reason, g, None, source) for g in ids
            )
            return None
        fresh = self._drop_stored(checked.table, report, source)
        report.ingested.extend(_strings(fresh.column("game_id")))
        report.events += fresh.num_rows
        return fresh

    def _drop_stored(self, table: pa.Table, report: IngestReport, source: str | None) -> pa.Table:
        """``table`` without the games already stored (skipped, or rejected when different)."""
        if table.num_rows == 0:
            return table
        ids = _strings(table.column("game_id"))
        stored = self._stored_counts(ids)
        old = self.load_games_table(list(stored)) if stored else SCHEMA.empty_table()
        drop = self._unverifiable(ids, report, source)
        keep = pa.array(np.ones(table.num_rows, dtype=bool))
        for game_id in sorted(set(stored) - set(drop)):
            key = pa.scalar(game_id, pa.string())
            of_game = pc.equal(table.column("game_id"), key)
            new_rows = table.filter(of_game)
            old_rows = old.filter(pc.equal(old.column("game_id"), key))
            if _continues(new_rows, old_rows):  # append the rest: seq >= what is stored
                report.continued.append(game_id)
                stored_seq = pc.less(table.column("seq"), pa.scalar(old_rows.num_rows))
                keep = pc.and_not(keep, pc.and_(of_game, stored_seq))
                continue
            if new_rows.equals(old_rows):
                report.skipped.append(game_id)
            else:
                seq = first_difference(new_rows.to_pylist(), old_rows.to_pylist())
                where = "" if seq is None else f" from seq {seq} on"  # None: only Arrow types
                reason = f"game id already stored with different content{where}"
                report.rejected.append(Rejection(StoreRule.GAME_ID, reason, game_id, seq, source))
            drop.append(game_id)
        if drop:
            keep = pc.and_not(keep, pc.is_in(table.column("game_id"), pa.array(drop)))
        return table.filter(keep) if pc.any(pc.invert(keep)).as_py() else table

    def _unverifiable(self, ids: list[str], report: IngestReport, source: str | None) -> list[str]:
        """The ids that an unreadable data file may hold (by its game id range in the log):
        rejected, since storing them again could duplicate a game."""
        bad_paths = {p.source for p in self.problems}
        bad = [f for f in self.files() if f.path in bad_paths]
        out = []
        for game_id in ids:
            for f in bad:
                if (f.min_game or "") <= game_id and (f.max_game is None or game_id <= f.max_game):
                    reason = f"not stored: {f.path} may hold this game and cannot be read"
                    rejection = Rejection(StoreRule.CORRUPT, reason, game_id, None, source)
                    report.rejected.append(rejection)
                    out.append(game_id)
                    break
        return out

    def load_games_table(self, game_ids: list[str]) -> pa.Table:
        """The stored rows of some games (``game_ids`` not empty), sorted by game and seq, in
        SCHEMA; the files that cannot be read are reported in :attr:`problems`."""
        wanted = pa.array(game_ids, pa.string())
        lo, hi = min(game_ids), max(game_ids)
        parts = []
        # Delta's min/max statistics are bounds even when truncated.
        files = [
            f
            for f in self.files()
            if not (f.max_game is not None and f.max_game < lo)
            and not (f.min_game is not None and f.min_game > hi)
        ]
        for f in self._readable(files):
            try:
                t = self._read(f, filters=pc.is_in(pc.field("game_id"), wanted))
            except InvalidGame as exc:
                self._problem(f.path, f"corrupt or truncated Parquet file: {exc.message}")
                continue
            if t.num_rows:
                parts.append(t)
        if not parts:
            return SCHEMA.empty_table()
        return conform(pa.concat_tables(parts)).sort_by(
            [("game_id", "ascending"), ("seq", "ascending")]
        )

    def load_game_table(self, game_id: str) -> pa.Table:
        """One stored game's events as an Arrow table in seq order (empty when absent)."""
        return self.load_games_table([game_id])

    def load_game(self, game_id: str) -> list[Event]:
        """A game's events in seq order, from the table or else from the live journal."""
        events = events_from_table(self.load_game_table(game_id))
        if not events:
            events = self.journal.read(game_id)
        if not events:
            raise GameNotFound(f"game {shown(game_id)}: no such game")
        return events

    def resolve_game_id(self, prefix: str) -> str:
        """The one game id (stored or live) equal to or starting with ``prefix``."""
        sql = (
            "SELECT DISTINCT game_id FROM read_parquet($files, hive_partitioning = true) "
            "WHERE starts_with(game_id, $prefix) ORDER BY game_id LIMIT 11"
        )
        found = _strings(self._query(sql, self.files(), prefix=prefix).column("game_id"))
        found += [g for g in self.live_games() if g.startswith(prefix) and g not in found]
        if prefix in found:
            return prefix
        if not found:
            hint = did_you_mean(prefix, [*self._game_ids(), *self.live_games()])
            raise GameNotFound(f"game {shown(prefix)}: no game id starts with {prefix!r}{hint}")
        if len(found) > 1:
            listed = ", ".join(shown(g) for g in found[:10])
            raise AmbiguousGameId(f"game id prefix {prefix!r} matches several games: {listed}")
        return str(found[0])

    def _game_ids(self) -> list[str]:
        """Every stored game id (a scan of one column: for a suggestion after a typo)."""
        sql = "SELECT DISTINCT game_id FROM read_parquet($files, hive_partitioning = true)"
        return [str(g) for g in _strings(self._query(sql, self.files()).column("game_id"))]

    def list_games_table(self, kind: str | None = None, player: str | None = None) -> pa.Table:
        """One row per stored game: game_id, kind, players, events, rounds, started, result
        (game_end values) and winners (their names)."""
        return self._query(_SUMMARY_SQL, self.files(kind), player=player)

    def list_games(self, kind: str | None = None, player: str | None = None) -> list[GameSummary]:
        """:meth:`list_games_table` as dataclass rows."""
        rows = self.list_games_table(kind, player).to_pylist()
        return [
            GameSummary(
                r["game_id"],
                r["kind"],
                tuple(r["players"]),
                r["events"],
                r["rounds"],
                r["started"],
                tuple(r["result"]) if r["result"] is not None else None,
                tuple(r["winners"]),
            )
            for r in rows
        ]

    def scan(
        self, kind: str | None = None, columns: list[str] | None = None, *, dictionary: bool = False
    ) -> Iterator[pa.RecordBatch]:
        """All stored events as Arrow record batches (file by file; a corrupt file is reported
        in :attr:`problems` and skipped).

        With ``dictionary``, string columns (``data`` excepted) keep the dictionary encoding they
        have in Parquet: each distinct value is read once instead of copied into every row (the
        audit's fast path, see :mod:`replay.model.decode`). Some Arrow compute functions refuse such
        columns (sorting, ``count_distinct``); ``pc.cast`` to the plain type restores them.
        """
        names = columns or list(COLUMNS)
        wanted = [c for c in names if c != "kind"]
        for f in self._readable(self.files(kind)):
            try:
                parquet = pq.ParquetFile(f.path)
                if dictionary:
                    parquet = pq.ParquetFile(
                        f.path, read_dictionary=_string_leaves(parquet.schema, wanted)
                    )
                # Row group by row group: a batch across two of them would hold two dictionaries
                # of a column, which Arrow cannot read into a list column ("Nested data
                # conversions not implemented for chunked array outputs").
                for group in range(parquet.num_row_groups):
                    for batch in parquet.iter_batches(row_groups=[group], columns=wanted):
                        yield _with_kind(batch, f.kind, names, dictionary)
            except (OSError, pa.ArrowException) as exc:
                self._problem(f.path, f"corrupt Parquet file: {exc}")

    # ----------------------------------------------------------------- maintenance
    def info(self) -> StoreInfo:
        """Games and events per kind, time range, files, size on disk, bytes per event."""
        files = self.files()
        sql = (
            "SELECT kind, count(DISTINCT game_id) AS games, count(*) AS events, "
            "min(ts) AS first, max(ts) AS last "
            "FROM read_parquet($files, hive_partitioning = true) GROUP BY kind ORDER BY kind"
        )
        kinds = []
        for r in self._query(sql, files).to_pylist():
            of_kind = [f for f in files if f.kind == r["kind"]]
            size = sum(f.size for f in of_kind)
            kinds.append(
                KindInfo(
                    r["kind"], r["games"], r["events"], len(of_kind), size, r["first"], r["last"]
                )
            )
        disk = sum(p.stat().st_size for p in self.path.rglob("*") if p.is_file())
        version = self.table().version()
        return StoreInfo(str(self.path), version, tuple(kinds), len(self.live_games()), disk)

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


def _file_fault(f: DataFile, size: int) -> Fault:
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
        elsewhere = None if faults else _log_mismatch(f, metadata)
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


def _within(path: str, root: Path) -> bool:
    """Whether ``path`` names a file under ``root`` once its ``..`` are resolved (lexically:
    a symbolic link inside the store may lead elsewhere).

    >>> _within("/s/kind=hearts/a.parquet", Path("/s")), _within("/s/../etc/x", Path("/s"))
    (True, False)
    """
    root_text = os.path.normpath(root.absolute())
    return os.path.normpath(os.path.join(root_text, path)).startswith(root_text + os.sep)


def _log_mismatch(f: DataFile, metadata: pq.FileMetaData) -> str | None:
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


def _with_kind(
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


def _string_leaves(schema: pq.ParquetSchema, names: list[str]) -> list[str]:
    """Parquet paths of the string columns (list elements included) of ``names``, but ``data``
    (rare JSON texts: a dictionary would not share anything)."""
    leaves = (schema.column(i) for i in range(len(schema)))
    return [
        leaf.path
        for leaf in leaves
        if leaf.physical_type == "BYTE_ARRAY" and leaf.path.split(".")[0] in names
        and leaf.path != "data"
    ]  # fmt: skip


def _continues(new: pa.Table, old: pa.Table) -> bool:
    """Whether a stored game (``old``, sorted) is the start of ``new`` (sorted, and longer): it
    was stored without its end (``new`` passed the checks, so nothing follows a game_end)."""
    return new.num_rows > old.num_rows and bool(new.slice(0, old.num_rows).equals(old))


def _strings(column: pa.ChunkedArray[Any] | pa.Array[Any]) -> list[str]:
    """The distinct non-null strings of a column, in order of appearance."""
    return [str(v) for v in pc.unique(column).to_pylist() if v is not None]


def _events_table(games: Iterable[Sequence[Event]]) -> pa.Table:
    events = [e for game in games for e in game]
    return events_to_table(events) if events else SCHEMA.empty_table()
