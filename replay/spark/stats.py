"""``replay stats|sql --engine spark``: the statistics as Spark SQL over the store in place.

The same files as the local engine (:mod:`replay.analytics.catalog`), written in the subset of
SQL both engines run: each view of the plan becomes a temporary view of the session, the filter
tables are the filter files run with their parameters bound, and every statistic is its file
run with ``spark.sql(sql, args=...)``: a filter value is always a parameter, never text spliced
into the query. Rates, ratings and everything else computed over the results run the same
Python code on the driver (:class:`replay.analytics.Analytics`).

>>> check_spark_query("SELECT kind, count(*) FROM games GROUP BY kind;")
'SELECT * FROM (\\nSELECT kind, count(*) FROM games GROUP BY kind\\n) AS user_query'
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

import pyarrow as pa

from replay.analytics import Analytics, QueryRefused, catalog, engine
from replay.analytics.derived import RATING_LOG, fresh_tables
from replay.analytics.fairplay import FAIRPLAY, stored_fairplay
from replay.analytics.luck import LUCK, stored_luck
from replay.analytics.reviews import REVIEWS, stored_reviews
from replay.spark.frame import events_frame
from replay.spark.snapshot import snapshot

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

    from replay.store import EventStore

#: Session settings of the statistics: no ``SELECT ... FROM parquet.`/any/path```, so that a
#: user's query reads the views and nothing else.
STATS_SETTINGS: Final[dict[str, str]] = {"spark.sql.runSQLOnFiles": "false"}


def check_spark_query(query: str) -> str:
    """The user's query wrapped as a subquery, where only one query can stand (an INSERT, a
    CREATE, a SET or a second statement is a parse error); QueryRefused for an empty query or
    one that DuckDB's parser reads as anything but a SELECT (the local engine's check)."""
    body = query.strip().rstrip(";").strip()
    if not body:
        raise QueryRefused("the query is empty")
    try:
        engine.check_read_only(body)
    except QueryRefused as exc:
        if "does not parse" not in str(exc):  # Spark SQL that DuckDB cannot read is let by
            raise
    return f"SELECT * FROM (\n{body}\n) AS user_query"


class SparkRunner:
    """The Spark engine of :class:`~replay.analytics.Analytics`: the plan's views as temporary
    views of one session, one query at a time.

    As the local engine materialises them, the derived views (and the filter tables) are
    computed once and checkpointed where the executors keep them (``localCheckpoint``): a
    statistic then plans over a few small tables, not the whole tree of views down to the
    Parquet files.
    """

    def __init__(
        self, spark: SparkSession, events: DataFrame, tables: Mapping[str, str] | None = None
    ) -> None:
        """``tables``: views held by Parquet files (the store's derived tables, ``replay
        reindex``), read instead of computed."""
        self.spark = spark
        self._lock = threading.Lock()
        self._kept: dict[str, DataFrame] = {}
        for key, value in STATS_SETTINGS.items():
            spark.conf.set(key, value)
        events.createOrReplaceTempView("events")
        derived = set(catalog.derived_views())
        for name, sql in catalog.view_plan():
            if tables and name in tables:
                spark.read.parquet(tables[name]).createOrReplaceTempView(name)
            else:
                self._view(name, spark.sql(sql), keep=name in derived)
        if tables and RATING_LOG in tables:
            spark.read.parquet(tables[RATING_LOG]).createOrReplaceTempView(RATING_LOG)

    def _view(self, name: str, frame: DataFrame, *, keep: bool) -> None:
        """``frame`` as the temporary view ``name``; with ``keep``, computed once and held
        (what it replaces is let go)."""
        if keep:
            frame = frame.localCheckpoint(eager=True)
            old = self._kept.pop(name, None)
            if old is not None:
                old.unpersist()
            self._kept[name] = frame
        frame.createOrReplaceTempView(name)

    def _arrow(self, frame: DataFrame) -> pa.Table:
        return engine.tidy(frame.toArrow())

    def run(self, sql: str, params: Mapping[str, object]) -> pa.Table:
        used = catalog.parameters_of(sql)
        args: dict[str, Any] = {k: params.get(k) for k in used}
        with self._lock:
            return self._arrow(self.spark.sql(sql, args=args or None))

    def choose(self, params: Mapping[str, object]) -> None:
        with self._lock:
            for file in catalog.filter_files():
                used = catalog.parameters_of(file.sql)
                args: dict[str, Any] = {k: params.get(k) for k in used}
                self._view(file.name, self.spark.sql(file.sql, args=args or None), keep=True)

    def query(self, query: str, params: Mapping[str, object] | None = None) -> pa.Table:
        """Spark SQL (``:name`` parameters), wrapped by :func:`check_spark_query`."""
        wrapped = check_spark_query(query)
        with self._lock:
            return self._arrow(self.spark.sql(wrapped, args=dict(params or {}) or None))


def analytics_on_spark(
    spark: SparkSession, store: EventStore, *, use_derived: bool = True
) -> Analytics:
    """The statistics of a store on Spark: the same files, the same results as
    ``Analytics.open(store)``, reading the store's derived tables where they are up to date
    (``replay reindex``), as the local engine does; the store's unreadable files are left out
    and reported."""
    snap = snapshot(store)
    tables = fresh_tables(store, [f.path for f in store.readable_files()])
    stored = stored_reviews(store) | stored_luck(store) | stored_fairplay(store)
    frame = events_frame(spark, snap)
    runner = SparkRunner(spark, frame, {**(tables if use_derived else {}), **stored})
    return Analytics(
        runner, list(store.problems), derived=use_derived and bool(tables),
        stored_ratings=use_derived and RATING_LOG in tables, stored_reviews=REVIEWS in stored,
        stored_luck=LUCK in stored, stored_fairplay=FAIRPLAY in stored,
    )  # fmt: skip
