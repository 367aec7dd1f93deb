"""Reading the store: games by id or prefix, the list of games, every event as Arrow batches,
and the store's figures.

The reads that analytics, Spark, the CLI and the dashboard use; a data file that cannot be read
is reported in :attr:`~replay.store.core.StoreCore.problems` and skipped.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from replay.model.decode import events_from_table
from replay.model.events import COLUMNS, SCHEMA, Event
from replay.store.core import StoreCore
from replay.store.errors import AmbiguousGameId, GameNotFound, InvalidGame
from replay.store.files import distinct_strings, string_leaves, with_kind
from replay.store.validate import conform
from replay.text import shown
from replay.words import did_you_mean


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One row of :meth:`StoreReads.list_games`."""

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
    """Figures of one game kind in :meth:`StoreReads.info`."""

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


class StoreReads(StoreCore):
    """The read API of a store: games, listings, scans, figures."""

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
        found = distinct_strings(self._query(sql, self.files(), prefix=prefix).column("game_id"))
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
        return [str(g) for g in distinct_strings(self._query(sql, self.files()).column("game_id"))]

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
                        f.path, read_dictionary=string_leaves(parquet.schema, wanted)
                    )
                # Row group by row group: a batch across two of them would hold two dictionaries
                # of a column, which Arrow cannot read into a list column ("Nested data
                # conversions not implemented for chunked array outputs").
                for group in range(parquet.num_row_groups):
                    for batch in parquet.iter_batches(row_groups=[group], columns=wanted):
                        yield with_kind(batch, f.kind, names, dictionary)
            except (OSError, pa.ArrowException) as exc:
                self._problem(f.path, f"corrupt Parquet file: {exc}")

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

    def live_games(self) -> list[str]:
        """Ids of the games in progress."""
        return self.journal.games()

    def _stored_counts(self, game_ids: Sequence[str]) -> dict[str, int]:
        """The number of stored events of each of ``game_ids`` that the table holds."""
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
        """The number of stored events of a game (None: not stored)."""
        return self._stored_counts([game_id]).get(game_id)
