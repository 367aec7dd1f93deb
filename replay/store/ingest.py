"""Storing finished games: the integrity checks, the games already stored, one commit.

An ingest checks each table of games (:mod:`replay.store.validate`), drops the games stored
before (skipped when identical, continued when the stored one is their start, rejected when
different), writes the rest to data files as they come (:mod:`replay.store.writer`) and commits
them together, under the store lock, so the duplicate check and the commit are one step.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from replay.model.events import SCHEMA, Event, events_to_table
from replay.store.errors import InvalidGame, StoreRule
from replay.store.files import FILE_SCHEMA, ROW_GROUP_ROWS, distinct_strings
from replay.store.reads import StoreReads
from replay.store.validate import Rejection, check_games, first_difference
from replay.store.writer import write_files
from replay.words import counted


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


class StoreIngest(StoreReads):
    """Finished games into the table: :meth:`ingest`, :meth:`ingest_batches`."""

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
            ids = distinct_strings(checked.table.column("game_id"))
            report.rejected.extend(
                Rejection(StoreRule.CORRUPT, reason, g, None, source) for g in ids
            )
            return None
        fresh = self._drop_stored(checked.table, report, source)
        report.ingested.extend(distinct_strings(fresh.column("game_id")))
        report.events += fresh.num_rows
        return fresh

    def _drop_stored(self, table: pa.Table, report: IngestReport, source: str | None) -> pa.Table:
        """``table`` without the games already stored (skipped, or rejected when different)."""
        if table.num_rows == 0:
            return table
        ids = distinct_strings(table.column("game_id"))
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


def _continues(new: pa.Table, old: pa.Table) -> bool:
    """Whether a stored game (``old``, sorted) is the start of ``new`` (sorted, and longer): it
    was stored without its end (``new`` passed the checks, so nothing follows a game_end)."""
    return new.num_rows > old.num_rows and bool(new.slice(0, old.num_rows).equals(old))


def _events_table(games: Iterable[Sequence[Event]]) -> pa.Table:
    """The events of some games as one table in SCHEMA."""
    events = [e for game in games for e in game]
    return events_to_table(events) if events else SCHEMA.empty_table()
