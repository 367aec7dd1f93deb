"""The statistics library: views over the events, statistics, rates and ratings.

>>> from replay.games import get_rules
>>> from replay.engine.simulate import simulate_game
>>> from replay.model.events import events_to_table
>>> table = events_to_table(simulate_game(get_rules("hearts"), "g1", players=4, seed=1))
>>> stats = Analytics.open(table)
>>> stats.overview(Filters()).column("games").to_pylist()
[1]
"""

from __future__ import annotations

import datetime
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from replay.analytics import catalog, derived, engine, fairplay, luck, ratings, reviews
from replay.analytics.rates import MIN_SAMPLE, with_rates

if TYPE_CHECKING:
    from replay.store import EventStore
    from replay.store.validate import Rejection

#: The columns a seat row can be grouped by in :meth:`Analytics.insight`.
DIMENSIONS: tuple[str, ...] = ("player", "seat", "players", "bot", "from_dealer", "kind")
#: A store of at most this many events without fresh derived tables is computed in memory.
MATERIALIZE_ROWS = 5_000_000
#: The note of a statistic over the reviews when none are stored.
NO_REVIEWS = "no stored reviews: `replay reindex STORE --reviews` makes them (docs/review.md)"
#: The note of a statistic over the luck when none is stored.
NO_LUCK = "no stored luck: `replay reindex STORE --luck` computes it (docs/review.md)"
#: The note of a statistic over the fair-play counts when none are stored.
NO_FAIRPLAY = (
    "no stored fair-play counts: `replay reindex STORE --fairplay` makes them (docs/review.md)"
)
#: Dimensions that exist only for kinds with a ``round_dealers.sql``.
_DEALER_DIMENSIONS = ("from_dealer",)


@dataclass(frozen=True)
class Filters:
    """Which games the statistics count; every field is bound as a query parameter."""

    kind: str | None = None
    player: str | None = None  # a player name from game_start (a player id across games)
    players: int | None = None  # seat count
    since: datetime.date | None = None
    until: datetime.date | None = None

    def params(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "player": self.player,
            "players": self.players,
            "since": self.since,
            "until": self.until,
        }


@dataclass(frozen=True)
class StatResult:
    """One statistic computed over the chosen games."""

    name: str
    title: str
    description: str
    kind: str | None  # None: common to all games
    table: pa.Table
    games: int  # how many games it rests on
    chart: str | None  # a hint for the dashboard: "bar", "histogram", "heatmap", "rate"...
    source: str = ""  # its SQL file
    section: str = "More"  # where a screen lists it (its file's ``section`` header)
    words: dict[str, str] = field(default_factory=dict)  # column -> what people call it
    note: str | None = None  # why it has no rows, where that is known (no stored reviews)


@dataclass(frozen=True)
class Metric:
    """A rate for the metric x dimension view: hits / opportunities per seat row."""

    name: str
    title: str
    description: str
    kind: str | None
    unit: str  # what one opportunity is: "seat in a game", "seat in a round"...


class UnknownStatistic(KeyError):
    """A statistic, metric or dimension name that does not exist."""


@dataclass
class Analytics:
    """Views over one source of events, and the statistics over them.

    Thread-safe: one query at a time runs on the connection.
    """

    #: The engine the files run on (DuckDB, or Spark: :mod:`replay.spark.stats`).
    runner: engine.Runner
    #: Unreadable files etc. met while opening (shown, never raised).
    problems: list[Rejection] = field(default_factory=list)
    #: Whether the layer views read derived Parquet tables (``replay reindex``).
    derived: bool = False
    #: Advice for the user (derived tables missing or stale on a large store...).
    notes: list[str] = field(default_factory=list)
    #: Whether the ratings read the stored rating log (``replay reindex``) instead of rating the
    #: games again.
    stored_ratings: bool = False
    #: Whether the store's reviews are stored (``replay reindex --reviews``): the views
    #: ``reviews``, ``decisions``... read them; otherwise they are empty.
    stored_reviews: bool = False
    #: Whether the store's luck is stored (``replay reindex --luck``): the view ``luck`` reads it.
    stored_luck: bool = False
    #: Whether the fair-play counts are stored (``replay reindex --fairplay``).
    stored_fairplay: bool = False
    min_sample: int = MIN_SAMPLE
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _chosen: Filters | None = field(default=None, repr=False)

    # ----------------------------------------------------------------- opening
    @classmethod
    def open(
        cls,
        source: EventStore | pa.Table,
        *,
        use_derived: bool = True,
        materialize: bool | None = None,
    ) -> Analytics:
        """Views over a store's current snapshot (its derived tables when fresh) or a table.

        ``materialize``: compute the derived views once, in memory (default: for a table, and
        for a store of at most :data:`MATERIALIZE_ROWS` events without fresh derived tables).
        ``use_derived=False, materialize=False``: every query reads the raw events.
        """
        if isinstance(source, pa.Table):
            con = engine.connect(source)
            if materialize is not False:
                engine.materialize(con, catalog.derived_views())
            engine.seal(con, [])
            return cls(engine.DuckDBRunner(con))
        files = source.readable_files()
        paths = [f.path for f in files]
        tables = derived.fresh_tables(source, paths) if use_derived else {}
        notes: list[str] = []
        stored = reviews.stored_reviews(source, notes)
        stored |= luck.stored_luck(source, notes)
        stored |= fairplay.stored_fairplay(source, notes)
        con = engine.connect(paths, {**tables, **stored})
        if derived.RATING_LOG in tables:
            engine.create_view(con, derived.RATING_LOG, "", tables[derived.RATING_LOG])
        if not tables and paths:
            small = sum(f.rows or 0 for f in files) <= MATERIALIZE_ROWS
            if materialize or (materialize is None and small):
                engine.materialize(con, catalog.derived_views())
            elif materialize is None:
                notes.append(f"{source.path}: no up-to-date derived tables; statistics read the "
                             "raw events (slow): run `replay reindex` to build them")  # fmt: skip
        engine.seal(con, [*paths, *tables.values(), *stored.values()])
        return cls(
            engine.DuckDBRunner(con), list(source.problems), derived=bool(tables), notes=notes,
            stored_ratings=derived.RATING_LOG in tables, stored_reviews=reviews.REVIEWS in stored,
            stored_luck=luck.LUCK in stored, stored_fairplay=fairplay.FAIRPLAY in stored,
        )  # fmt: skip

    # ----------------------------------------------------------------- queries
    def sql(self, query: str, params: dict[str, object] | None = None) -> pa.Table:
        """A read-only query over the views in the engine's dialect (DuckDB: ``$name``
        parameters); QueryRefused otherwise."""
        return self.runner.query(query, params)

    def _run(self, file: catalog.SqlFile | str, f: Filters) -> pa.Table:
        sql = file if isinstance(file, str) else file.sql
        with self._lock:
            if self._chosen != f:  # the filter tables, built once per change of filters
                self.runner.choose(f.params())
                self._chosen = f
            return self.runner.run(sql, f.params())

    def overview(self, f: Filters) -> pa.Table:
        """Per kind: games, events, distinct players, rounds, first and last date."""
        return self._run(_OVERVIEW, f)

    def players(self, f: Filters) -> list[str]:
        """The players of the chosen games, alphabetically."""
        table = self._run(_PLAYERS, f)
        return [p for p in table.column("player").to_pylist() if p is not None]

    def chosen_game_ids(self, f: Filters) -> list[str]:
        """The ids of the games the filters choose (the ``chosen`` view every statistic counts
        from), in id order: a list of games that agrees with the statistics."""
        return [str(g) for g in self._run(_CHOSEN_IDS, f).column("game_id").to_pylist()]

    def player_counts(self, f: Filters) -> pa.Table:
        """Distinct players of the chosen games per kind (kind, players; every seat, so a
        chosen player's opponents too), then of every kind together (a last row, kind null)."""
        return self._run(_PLAYER_COUNTS, f)

    def _games_by_kind(self, f: Filters) -> dict[str | None, int]:
        rows = self._run(_GAMES_BY_KIND, f).to_pylist()
        counts: dict[str | None, int] = {r["kind"]: r["games"] for r in rows}
        counts[None] = sum(counts.values())
        return counts

    def statistic_files(self, f: Filters) -> list[catalog.SqlFile]:
        """The statistics that apply to ``f`` (the common ones and those of its kind)."""
        return [s for s in catalog.statistic_files() if s.kind is None or f.kind in (None, s.kind)]

    def statistics(self, f: Filters) -> list[StatResult]:
        """Every statistic that applies to the filters."""
        games = self._games_by_kind(f)
        return [self._result(s, f, games) for s in self.statistic_files(f)]

    def statistic(self, name: str, f: Filters) -> StatResult:
        """One statistic by name."""
        for s in catalog.statistic_files():
            if s.name == name:
                return self._result(s, f, self._games_by_kind(f))
        raise UnknownStatistic(name)

    def _result(self, s: catalog.SqlFile, f: Filters, games: dict[str | None, int]) -> StatResult:
        table = with_rates(self._run(s, f), self.min_sample)
        note = NO_REVIEWS if s.needs_reviews and not self.stored_reviews else None
        needs = s.headers.get("needs")
        if needs == "luck" and not self.stored_luck:
            note = NO_LUCK
        if needs == "fairplay" and not self.stored_fairplay:
            note = NO_FAIRPLAY
        return StatResult(
            s.name, s.title, s.description, s.kind, table, games.get(s.kind, 0), s.chart,
            s.relative, s.section, s.words, note,
        )  # fmt: skip

    # ----------------------------------------------------------------- metric x dimension
    def metrics(self, kind: str | None = None) -> list[Metric]:
        """The rates of the metric picker: the common ones and those of ``kind`` (or all)."""
        return [
            Metric(m.name, m.title, m.description, m.kind, m.headers.get("unit", "seat"))
            for m in catalog.metric_files()
            if m.kind is None or kind in (None, m.kind)
        ]

    def dimensions(self, kind: str | None = None) -> list[str]:
        """The columns a metric can be broken down by (``from_dealer``: kinds with a dealer)."""
        dealt = [k for k in catalog.kinds() if (catalog.SQL_DIR / k / "round_dealers.sql").exists()]
        has_dealer = kind in dealt if kind is not None else bool(dealt)
        return [d for d in DIMENSIONS if has_dealer or d not in _DEALER_DIMENSIONS]

    def insight(self, metric: str, dimension: str, f: Filters) -> pa.Table:
        """A metric per value of a dimension: hits, opportunities, rate, low, high, flagged."""
        files = {m.name: m for m in catalog.metric_files()}
        if metric not in files:
            raise UnknownStatistic(metric)
        if dimension not in DIMENSIONS:  # an identifier from a fixed list, never user text
            raise UnknownStatistic(dimension)
        sql = _INSIGHT.format(metric=catalog._strip(files[metric].sql), dimension=dimension)
        return with_rates(self._run(sql, f), self.min_sample)

    # ----------------------------------------------------------------- ratings
    def rating_results(self, f: Filters) -> pa.Table:
        """(game_id, kind, started, day, players, player, place) of every seat of the chosen
        games."""
        return self._run(_RESULTS, f)

    def ratings(self, f: Filters, *, luck_adjusted: bool = False) -> pa.Table:
        """OpenSkill Plackett-Luce ratings (kind, player, mu, sigma, conservative = mu - 3
        sigma, games), one ladder per kind, or per kind and seat count when ``f.players`` is
        given, of the ratings at the end of the window (``f.until``; with no date filter, after
        the last game) of the players who played in it (from ``f.since``), with their games in
        it; only ``f.player``'s rows when a player is given. docs/statistics.md#ratings.

        ``luck_adjusted``: the places are those of the games' luck-adjusted results (the
        stored luck, ``replay reindex --luck``: :func:`replay.analytics.luck.adjusted_places`);
        only the games whose luck is stored are rated."""
        if luck_adjusted:
            results = luck.adjusted_places(self._run(luck.LADDER_SCORES, f))
            log = ratings.rating_log(results, whole=f.players is None, split=f.players is not None)
            table = ratings.ratings_of_log(log, f.params())
        elif self.stored_ratings:  # the rating log of replay reindex
            table = self._run(ratings.LOG_RATINGS, f)
        else:
            results = self._run(_LADDER_RESULTS, f)
            log = ratings.rating_log(results, whole=f.players is None, split=f.players is not None)
            table = ratings.ratings_of_log(log, f.params())
        return table.cast(ratings.RATINGS_SCHEMA)

    def rating_history(self, f: Filters) -> pa.Table:
        """The chosen player's (every player's, without one) rating at the end of every day
        they played, in the ladder the filters choose (the kind, the seat count), within the
        dates: kind, player, day, games, mu, sigma, conservative (ratings.HISTORY)."""
        if self.stored_ratings:
            log = self._run(ratings.STORED_LOG, f)
        else:
            results = self._run(_LADDER_RESULTS, f)
            log = ratings.rating_log(results, whole=f.players is None, split=f.players is not None)
        return ratings.ratings_of_log(log, f.params(), ratings.HISTORY)


_OVERVIEW = """
WITH p AS (SELECT kind, count(DISTINCT player) AS players FROM chosen_seats GROUP BY kind)
SELECT g.kind, count(*) AS games, sum(g.events) AS events,
  coalesce(max(p.players), 0) AS players,
  sum(g.rounds) AS rounds, min(g.day) AS first, max(g.day) AS last
FROM games g
JOIN chosen c ON c.gno = g.gno
LEFT JOIN p ON p.kind = g.kind
GROUP BY g.kind
ORDER BY g.kind
"""

_PLAYERS = """
SELECT DISTINCT s.player FROM seats s JOIN chosen c ON c.gno = s.gno ORDER BY s.player
"""

_PLAYER_COUNTS = """
SELECT s.kind, count(DISTINCT s.player) AS players
FROM seats s
JOIN chosen c ON c.gno = s.gno
GROUP BY GROUPING SETS ((s.kind), ())
ORDER BY s.kind NULLS LAST
"""

_GAMES_BY_KIND = "SELECT kind, count(*) AS games FROM chosen GROUP BY kind"
_CHOSEN_IDS = "SELECT game_id FROM chosen ORDER BY game_id"

_INSIGHT = """
SELECT d.{dimension} AS {dimension}, sum(m.hit) AS hits, count(*) AS opportunities
FROM ({metric}) m
JOIN chosen_seats d ON d.gno = m.gno AND d.seat = m.seat
GROUP BY d.{dimension}
ORDER BY d.{dimension}
"""


_RESULTS = ratings.ALL_RESULTS.replace(
    "FROM seats s\n", "FROM seats s\nJOIN chosen c ON c.gno = s.gno\n"
)
#: Those of the ladder the filters choose (the kind, the seat count; every date).
_LADDER_RESULTS = """
SELECT s.game_id, s.kind, s.started, s.day, s.players, s.player, s.place
FROM seats s
WHERE s.place IS NOT NULL AND s.player IS NOT NULL
  AND (:kind IS NULL OR s.kind = :kind) AND (:players IS NULL OR s.players = :players)
ORDER BY s.started, s.game_id, s.seat, s.place
"""


def describe(result: StatResult) -> dict[str, Any]:
    """A statistic as plain data (JSON output)."""
    return {
        "name": result.name,
        "title": result.title,
        "description": result.description,
        "kind": result.kind,
        "games": result.games,
        "chart": result.chart,
        "source": result.source,
        "note": result.note,
        "rows": result.table.to_pylist(),
    }
