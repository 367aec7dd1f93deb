"""The statistics on Spark are the local engine's: every view, statistic, rate and rating.

The same ``.sql`` files run on both engines (``replay/analytics/sql``: a subset of SQL both
run, DuckDB with the macros of its prelude); these tests run every file on both over the same
stores and compare the results row for row (order aside where a file sets none).
"""

from __future__ import annotations

import datetime
import json
import math
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from replay.analytics import Analytics, Filters, catalog
from replay.store import EventStore
from tests.spark_support import needs_spark
from tests.store_helpers import run_cli

pytestmark = pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas")


def on_spark(spark: Any, path: Path) -> Analytics:
    from replay.spark.stats import analytics_on_spark

    return analytics_on_spark(spark, EventStore.open(path))


def on_duckdb(path: Path) -> Analytics:
    return Analytics.open(EventStore.open(path))


def rows(table: pa.Table) -> list[tuple[Any, ...]]:
    """The rows as tuples, floats to 9 decimals, in a set order."""

    def cell(v: Any) -> Any:
        if isinstance(v, float):
            return None if math.isnan(v) else round(v, 9)
        return v

    return sorted((tuple(cell(v) for v in r.values()) for r in table.to_pylist()), key=repr)


def columns(table: pa.Table) -> list[tuple[str, pa.DataType]]:
    """Each column's name and type (not its nullability, which the engines set apart)."""
    return list(zip(table.column_names, table.schema.types, strict=True))


def assert_same(local: pa.Table, spark: pa.Table, what: str) -> None:
    assert columns(spark) == columns(local), what
    assert rows(spark) == rows(local), what


DAY_END = datetime.date(2026, 9, 30)
FILTERS = [
    Filters(),
    Filters(kind="hearts"),
    Filters(kind="fou", players=8),
    Filters(kind="hez2", players=4),
    Filters(player="p1"),
]


@needs_spark
@pytest.mark.parametrize("store", ["corpus_store", "dispute_store"])
def test_every_statistic_is_the_local_one(
    spark: Any, store: str, request: pytest.FixtureRequest
) -> None:
    path = request.getfixturevalue(store)
    local, remote = on_duckdb(path), on_spark(spark, path)
    for f in FILTERS if store == "corpus_store" else FILTERS[:1]:
        assert_same(local.overview(f), remote.overview(f), f"overview {f}")
        assert remote.players(f) == local.players(f)
        for mine, theirs in zip(local.statistics(f), remote.statistics(f), strict=True):
            assert (theirs.name, theirs.games) == (mine.name, mine.games)
            assert_same(mine.table, theirs.table, f"{mine.name} {f}")
        assert_same(local.ratings(f), remote.ratings(f), f"ratings {f}")


@needs_spark
def test_the_derived_tables_are_read_on_spark_as_locally(
    spark: Any, corpus_store: Path, tmp_path: Path
) -> None:
    """After ``replay reindex``, both engines read the store's derived Parquet tables (and the
    stored ratings) instead of computing the views."""
    import shutil

    from replay.analytics import derived

    path = Path(shutil.copytree(corpus_store, tmp_path / "store"))
    derived.rebuild(EventStore.open(path))
    local, remote = on_duckdb(path), on_spark(spark, path)
    assert local.derived and remote.derived
    f = Filters(kind="hez2")
    for mine, theirs in zip(local.statistics(f), remote.statistics(f), strict=True):
        assert_same(mine.table, theirs.table, mine.name)
    assert local.stored_ratings and remote.stored_ratings
    for g in (f, Filters(since=datetime.date(2026, 6, 1)), Filters(players=4, until=DAY_END)):
        assert_same(local.ratings(g), remote.ratings(g), f"ratings {g}")
    from replay.spark.stats import SparkRunner

    assert isinstance(remote.runner, SparkRunner)
    files = remote.runner.spark.sql("SELECT * FROM plays").inputFiles()
    assert files and all("/_analytics/" in f for f in files)  # the table, not computed


@needs_spark
def test_the_statistics_read_games_of_every_kind(spark: Any, corpus_store: Path) -> None:
    """Not a comparison of empty results: the corpus gives every kind's statistics rows."""
    stats = on_spark(spark, corpus_store).statistics(Filters())
    assert {s.kind for s in stats if s.table.num_rows} == {None, *catalog.kinds()}


@needs_spark
def test_every_metric_and_dimension_is_the_local_one(spark: Any, corpus_store: Path) -> None:
    local, remote = on_duckdb(corpus_store), on_spark(spark, corpus_store)
    metrics = [m.name for m in local.metrics()]
    dimensions = local.dimensions()
    pairs = {(m, "seat") for m in metrics} | {("win", d) for d in dimensions}
    for metric, dimension in sorted(pairs):
        f = Filters(kind=next(m.kind for m in local.metrics() if m.name == metric))
        mine, theirs = local.insight(metric, dimension, f), remote.insight(metric, dimension, f)
        assert mine.num_rows > 0, (metric, dimension)
        assert_same(mine, theirs, f"{metric} by {dimension}")


@needs_spark
def test_every_view_is_the_local_one(spark: Any, corpus_store: Path) -> None:
    local, remote = on_duckdb(corpus_store), on_spark(spark, corpus_store)
    for name, _ in catalog.view_plan():
        query = f"SELECT * FROM {name}"
        assert_same(local.sql(query), remote.sql(query), name)


@needs_spark
def test_a_hostile_player_name_is_only_a_value_on_spark(spark: Any, corpus_store: Path) -> None:
    remote = on_spark(spark, corpus_store)
    for name in ["O'Brien", "x'; DROP VIEW games; --", "名前 \u202e"]:
        f = Filters(player=name)
        assert remote.overview(f).num_rows == 0
        assert all(s.table.num_rows == 0 for s in remote.statistics(f) if s.kind is None)
    assert remote.overview(Filters()).num_rows == 4


# --------------------------------------------------------------------------- the commands
@needs_spark
def test_replay_stats_engine_spark_prints_the_local_figures(spark: Any, corpus_store: Path) -> None:
    for args in [[], ["--kind", "hiifuu", "--players", "5"]]:
        local = run_cli("stats", str(corpus_store), "--format", "json", *args)
        remote = run_cli("stats", str(corpus_store), "--format", "json", "--engine", "spark",
                         "--master", "local[2]", *args)  # fmt: skip
        assert remote.exit_code == local.exit_code == 0, remote.output
        mine, theirs = json.loads(local.stdout), json.loads(remote.stdout)
        assert [s["name"] for s in theirs] == [s["name"] for s in mine]
        for a, b in zip(mine, theirs, strict=True):
            assert sorted(map(repr, b["rows"])) == sorted(map(repr, a["rows"])), a["name"]


@needs_spark
def test_replay_sql_engine_spark_runs_spark_sql_over_the_views(
    spark: Any, corpus_store: Path
) -> None:
    query = "SELECT kind, count(*) AS games FROM games GROUP BY kind ORDER BY kind"
    local = run_cli("sql", str(corpus_store), query, "--format", "json")
    remote = run_cli("sql", str(corpus_store), query, "--format", "json", "--engine", "spark")
    assert remote.exit_code == 0, remote.output
    assert json.loads(remote.stdout) == json.loads(local.stdout)
    assert [r["kind"] for r in json.loads(remote.stdout)] == list(catalog.kinds())


#: Anything but one query: refused before Spark starts (DuckDB's parser reads it as a write)
#: or by Spark's own parser, where only a query can stand.
REFUSED = [
    "INSERT INTO games SELECT * FROM games",
    "CREATE TABLE t AS SELECT 1 AS x",
    "DROP VIEW games",
    "SELECT 1; SELECT 2",
    "",
]
#: Refused by Spark itself: a write in Spark's own syntax, a file read by path.
FAILED_ON_SPARK = [
    "SET spark.sql.runSQLOnFiles = true",
    "INSERT OVERWRITE DIRECTORY '/tmp/out' USING parquet SELECT * FROM games",
    "SELECT * FROM parquet.`/etc`",
]


@pytest.mark.parametrize("query", REFUSED)
def test_replay_sql_engine_spark_refuses_a_write_before_it_starts(
    pristine: Path, query: str
) -> None:
    result = run_cli("sql", str(pristine), query, "--engine", "spark")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: query refused: "), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


@needs_spark
def test_replay_sql_engine_spark_fails_a_write_in_spark_syntax_in_one_line(
    spark: Any, corpus_store: Path
) -> None:
    for query in FAILED_ON_SPARK:
        result = run_cli("sql", str(corpus_store), query, "--engine", "spark")
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith("error: query failed: "), result.stderr
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not Path("/tmp/out").exists()
    check = run_cli("sql", str(corpus_store), "SELECT count(*) AS n FROM games", "--engine",
                    "spark", "--format", "json")  # fmt: skip
    assert json.loads(check.stdout)[0]["n"] > 0


def test_stats_engine_spark_refuses_a_file_in_one_line(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    log.write_text("")
    for command in (["stats", str(log)], ["sql", str(log), "SELECT 1"]):
        result = run_cli(*command, "--engine", "spark")
        assert result.exit_code == 2
        assert result.stderr.strip() == (
            f"error: {log}: --engine spark reads one event store, not files "
            "(replay import them into a store first)"
        )


def test_a_spark_query_is_wrapped_where_only_a_query_can_stand() -> None:
    from replay.analytics import QueryRefused
    from replay.spark.stats import check_spark_query

    assert check_spark_query(" SELECT 1 ;\n") == "SELECT * FROM (\nSELECT 1\n) AS user_query"
    assert check_spark_query("SELECT `kind` FROM games").endswith("AS user_query")
    for refused in ["", " ; ", "DELETE FROM games", "ATTACH 'x.db'"]:
        with pytest.raises(QueryRefused):
            check_spark_query(refused)
