"""``replay stats``, ``replay sql`` and ``replay reindex``: formats, filters, refusals, errors
as one line."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from replay.store import EventStore
from replay.store.jsonl import event_to_line
from tests.store_helpers import run_cli
from tests.test_analytics import corpus


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "store"
    EventStore.open(path, create=True).ingest([list(g) for g in corpus()])
    return path


@pytest.fixture(scope="module")
def jsonl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "games.jsonl"
    path.write_text("".join(event_to_line(e) + "\n" for g in corpus() for e in g))
    return path


def test_stats_json_over_a_store_and_a_file_agree(store: Path, jsonl: Path) -> None:
    a = run_cli("stats", str(store), "--format", "json", "--kind", "hez2")
    b = run_cli("stats", str(jsonl), "--format", "json", "--kind", "hez2")
    assert a.exit_code == 0 and b.exit_code == 0, a.output + b.output
    assert json.loads(a.stdout) == json.loads(b.stdout)
    names = [s["name"] for s in json.loads(a.stdout)]
    assert "games_played" in names and all(
        s["kind"] in (None, "hez2") for s in json.loads(a.stdout)
    )


def test_stats_filters_and_csv(store: Path) -> None:
    result = run_cli("stats", str(store), "--stat", "games_played", "--player", "O'Brien",
                     "--since", "2026-01-01", "--format", "csv")  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("# games_played:")
    table = list(csv.DictReader(io.StringIO("\n".join(lines[1:]))))
    assert table and {r["player"] for r in table} == {"O'Brien"}


def test_stats_table_output(store: Path) -> None:
    result = run_cli("stats", str(store), "--stat", "seat_advantage", "--players", "7")
    assert result.exit_code == 0, result.output
    assert "Wins by seat" in result.stdout and "sample" in result.stdout  # the flag, in words
    assert "fou" in result.stdout and "hearts" not in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--since", "yesterday"], "expected a date"),
        (["--stat", "nope"], "unknown statistic"),
        (["--kind", "chess"], "unknown game kind"),
    ],
)
def test_stats_bad_options_are_one_line(store: Path, args: list[str], message: str) -> None:
    result = run_cli("stats", str(store), *args)
    assert result.exit_code == 2 and message in result.output


def test_stats_of_a_missing_store(tmp_path: Path) -> None:
    result = run_cli("stats", str(tmp_path / "none"))
    assert result.exit_code == 2 and "error:" in result.output


def test_sql_formats(store: Path) -> None:
    query = "SELECT kind, count(*) AS games FROM games GROUP BY kind ORDER BY kind"
    result = run_cli("sql", str(store), query, "--format", "json")
    assert result.exit_code == 0, result.output
    assert [r["kind"] for r in json.loads(result.stdout)] == ["fou", "hearts", "hez2", "hiifuu"]
    text = run_cli("sql", str(store), query)
    assert text.stdout.splitlines()[0].split() == ["kind", "games"]
    assert run_cli("sql", str(store), query, "--format", "csv").stdout.startswith("kind,games\n")


@pytest.mark.parametrize(
    "query",
    ["DROP VIEW games", "COPY games TO 'x.csv'", "ATTACH 'x.db'", "INSTALL httpfs", "LOAD httpfs",
     "SELECT * FROM read_csv('/etc/passwd')", "SELECT nonsense FROM nowhere", "SELEC 1"],
)  # fmt: skip
def test_sql_refusals_and_errors_are_one_line(store: Path, query: str) -> None:
    result = run_cli("sql", str(store), query)
    assert result.exit_code == 2
    assert result.output.startswith("error: query") and len(result.output.splitlines()) == 1


def test_reindex(store: Path) -> None:
    result = run_cli("reindex", str(store))
    assert result.exit_code == 0, result.output
    assert "derived tables rebuilt" in result.stdout
    again = run_cli("sql", str(store), "SELECT count(*) AS n FROM tricks", "--format", "json")
    assert json.loads(again.stdout)[0]["n"] > 100


def test_reindex_of_a_large_store_gives_each_table_a_connection_of_its_own(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store past a size builds each derived table on a new connection (what earlier
    queries left held would count against it): the tables are the same either way."""
    import duckdb
    import pyarrow.parquet as pq

    from replay.analytics import catalog, derived, engine

    def tables() -> dict[str, list[str]]:  # each table's rows, in no particular order
        folder = store / derived.DERIVED_DIR
        return {
            p.name: sorted(map(repr, pq.read_table(p).to_pylist()))
            for p in sorted(folder.glob("*.parquet"))
        }

    assert run_cli("reindex", str(store)).exit_code == 0
    shared = tables()
    opened: list[int] = []
    connect = engine.connect

    def counted(*args: Any, **kwargs: Any) -> duckdb.DuckDBPyConnection:
        opened.append(1)
        return connect(*args, **kwargs)

    monkeypatch.setattr(engine, "connect", counted)
    monkeypatch.setattr(derived, "PER_TABLE_BYTES", 0)  # every store "large": a connection each
    _made_stale(store)
    assert run_cli("reindex", str(store)).exit_code == 0
    assert len(opened) == len(catalog.derived_views()) + 1  # and the rating log's
    assert tables() == shared


def _made_stale(store: Path) -> None:
    """The derived tables no longer match the snapshot (a data file's time moved on): the next
    reindex rebuilds them."""
    data = next(store.glob("kind=*/**/*.parquet"))
    stat = data.stat()
    os.utime(data, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))


def _duckdb_limit(value: str) -> str:
    import duckdb

    con = duckdb.connect()
    con.execute(f"SET memory_limit = '{value}'")
    return str(con.sql("SELECT current_setting('memory_limit')").fetchall()[0][0])


@pytest.mark.parametrize(
    "option",
    [(), ("--memory-limit", "300MB"), ("--memory-limit", "200MB"), ("--memory-limit", "80%")],
)
def test_reindex_bounds_duckdb_memory_by_default_and_the_option_overrides_it(
    store: Path, option: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without --memory-limit, reindex works within derived.DEFAULT_MEMORY_LIMIT (its peak
    bounded by a setting, not by the store); --memory-limit sets another (80%: DuckDB's own).
    It runs no more DuckDB threads than the limit gives 125 MB each (200MB: one thread)."""
    from replay.analytics import derived

    settings: list[tuple[str, int]] = []  # of each connection, as the tables are built
    fit = derived._fit_threads

    def recorded(con: Any) -> None:
        fit(con)
        query = "SELECT current_setting('memory_limit'), current_setting('threads')"
        limit, threads = con.sql(query).fetchall()[0]
        settings.append((str(limit), int(threads)))

    monkeypatch.setattr(derived, "_fit_threads", recorded)
    _made_stale(store)
    result = run_cli("reindex", str(store), *option)
    assert result.exit_code == 0, result.output
    wanted = option[1] if option else derived.DEFAULT_MEMORY_LIMIT
    assert {limit for limit, _ in settings} == {_duckdb_limit(wanted)}
    threads = {n for _, n in settings}
    most = {"1GB": 8, "300MB": 2, "200MB": 1, "80%": 1 << 16}[wanted]
    assert min(threads) >= 1 and max(threads) <= most
    assert wanted != "200MB" or threads == {1}
    assert _duckdb_limit(wanted) != _duckdb_limit("80%") or wanted == "80%"


def test_reindex_past_its_memory_limit_names_the_table_and_the_option(store: Path) -> None:
    """A derived table that does not fit the limit: one line naming the store, the table and
    the option to raise; the tables built before stay as they were."""
    manifest = store / "_analytics" / "manifest.json"
    assert run_cli("reindex", str(store)).exit_code == 0
    before = manifest.read_bytes()
    _made_stale(store)
    result = run_cli("reindex", str(store), "--memory-limit", "2MB")
    assert result.exit_code == 1
    (line,) = result.output.strip().splitlines()
    assert line.startswith(f"error: {store}: the derived table ")
    assert "Out of Memory" in line and line.endswith("(--memory-limit 2MB: give it more, e.g. 4GB)")
    assert manifest.read_bytes() == before


def test_stats_over_several_inputs_count_each_game_once(store: Path, jsonl: Path) -> None:
    one = run_cli("stats", str(store), "--stat", "game_length", "--format", "json")
    both = run_cli("stats", str(store), str(jsonl), "--stat", "game_length", "--format", "json")
    assert both.exit_code == 0, both.output
    assert json.loads(both.stdout)[0]["rows"] == json.loads(one.stdout)[0]["rows"]
    folder = run_cli("stats", str(jsonl.parent), "--stat", "game_length", "--format", "jsonl")
    assert json.loads(folder.stdout.splitlines()[0])["rows"] == json.loads(one.stdout)[0]["rows"]


def test_sql_decimals_and_jsonl(store: Path) -> None:
    result = run_cli("sql", str(store), "SELECT 1.5 AS x, sum(seat) AS s FROM seats", "-f", "jsonl")
    assert result.exit_code == 0, result.output
    row = json.loads(result.stdout)
    assert row["x"] == 1.5 and isinstance(row["s"], int)
