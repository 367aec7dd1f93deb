"""The DuckDB runner: a connection with the ``events`` view and every view of the plan.

Over a store, ``events`` reads the Parquet files of the current Delta snapshot with
``read_parquet([...], hive_partitioning = true)`` (the ``kind`` column comes from the partition
directory; no ``delta`` extension, which DuckDB would download). Over an Arrow table, it reads
the registered table. Once the views exist the connection is *sealed*: file access is limited to
the files the views read (``allowed_paths``), every other external access is off and the
configuration is locked, so a query can read nothing but the views.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import duckdb
import pyarrow as pa

from replay.analytics import catalog
from replay.model.events import COLUMNS, SCHEMA, conform_events


class QueryRefused(ValueError):
    """A query that is not a read-only SELECT (``replay sql``)."""


#: Statement types a read-only query may have.
_READ_ONLY = frozenset({duckdb.StatementType.SELECT})


def quote(text: str) -> str:
    """A SQL string literal (for file paths the runner writes into view definitions)."""
    return "'" + text.replace("'", "''") + "'"


def parquet_events_sql(paths: Sequence[str]) -> str:
    """The ``events`` view over Parquet files, columns in :data:`SCHEMA` order."""
    files = ", ".join(quote(p) for p in paths)
    return f"SELECT {_columns()} FROM read_parquet([{files}], hive_partitioning = true)"


def _columns() -> str:
    return ", ".join(f'"{c}"' for c in COLUMNS)


def connect(
    events: pa.Table | Sequence[str],
    derived: Mapping[str, str] | None = None,
    *,
    threads: int | None = None,
) -> duckdb.DuckDBPyConnection:
    """A connection with ``events`` (an Arrow table, or Parquet paths) and the plan's views.

    ``derived`` maps a view name to a Parquet file that holds it (see :mod:`.derived`): the view
    reads that file instead of its SQL. Not sealed: call :func:`seal` when done adding views.
    """
    con = duckdb.connect(config={"threads": threads} if threads else {})
    run_script(con, catalog.PRELUDE_DUCKDB.read_text(encoding="utf-8"))
    if isinstance(events, pa.Table):
        con.register("events_table", conform_events(events))
        con.execute(f"CREATE VIEW events AS SELECT {_columns()} FROM events_table")
    elif events:
        con.execute(f"CREATE VIEW events AS {parquet_events_sql(events)}")
    else:
        con.register("events_table", SCHEMA.empty_table())
        con.execute(f"CREATE VIEW events AS SELECT {_columns()} FROM events_table")
    for name, sql in catalog.view_plan():
        create_view(con, name, sql, (derived or {}).get(name))
    return con


def create_view(
    con: duckdb.DuckDBPyConnection, name: str, sql: str, parquet: str | None = None
) -> None:
    """``CREATE OR REPLACE VIEW name`` over its SQL, or over the Parquet file that holds it."""
    body = f"SELECT * FROM read_parquet({quote(parquet)})" if parquet else catalog.duckdb_sql(sql)
    con.execute(f'CREATE OR REPLACE VIEW "{name}" AS {body}')


def materialize(con: duckdb.DuckDBPyConnection, names: Sequence[str]) -> None:
    """Compute each view once into an in-memory table that the view then reads (in order, so
    that later views read the earlier tables)."""
    for name in names:
        con.execute(f'CREATE TABLE "{name}__table" AS SELECT * FROM "{name}"')
        con.execute(f'CREATE OR REPLACE VIEW "{name}" AS SELECT * FROM "{name}__table"')


def run_script(con: duckdb.DuckDBPyConnection, script: str) -> None:
    """Run every statement of a script (the prelude)."""
    for statement in duckdb.extract_statements(script):
        con.execute(statement)


def seal(con: duckdb.DuckDBPyConnection, paths: Sequence[str]) -> None:
    """Allow reading only ``paths``, turn every other external access off, lock the settings."""
    listed = ", ".join(quote(p) for p in paths)
    con.execute(f"SET allowed_paths = [{listed}]")
    con.execute("SET enable_external_access = false")
    con.execute("SET autoinstall_known_extensions = false")
    con.execute("SET autoload_known_extensions = false")
    con.execute("SET lock_configuration = true")


def check_read_only(query: str) -> str:
    """The query if it is one read-only SELECT (WITH ... SELECT included); else QueryRefused."""
    try:
        statements = duckdb.extract_statements(query)
    except duckdb.Error as exc:
        raise QueryRefused(f"the query does not parse: {first_line(exc)}") from None
    if len(statements) != 1:
        raise QueryRefused(f"one statement expected, {len(statements)} given")
    kind = statements[0].type
    if kind not in _READ_ONLY:
        raise QueryRefused(f"only a read-only SELECT may run here, not {kind.name}")
    return query


def run(
    con: duckdb.DuckDBPyConnection, sql: str, params: Mapping[str, object] | None = None
) -> pa.Table:
    """A file's query (``:name`` parameters) with the parameters it uses bound."""
    used = catalog.parameters_of(sql)
    bound: dict[str, Any] = {k: (params or {}).get(k) for k in used}
    return tidy(con.sql(catalog.duckdb_sql(sql), params=bound).to_arrow_table())


def tidy(table: pa.Table) -> pa.Table:
    """Decimals as int64 (whole numbers: DuckDB's type for a sum of integers) or float64;
    times with a zone in UTC (DuckDB names it ``Etc/UTC``, Spark ``UTC``)."""
    for i, f in enumerate(table.schema):
        wanted: pa.DataType | None = None
        if pa.types.is_decimal(f.type):
            wanted = pa.int64() if f.type.scale == 0 else pa.float64()
        elif pa.types.is_timestamp(f.type) and f.type.tz not in (None, "UTC"):
            wanted = pa.timestamp(f.type.unit, tz="UTC")
        if wanted is not None:
            table = table.set_column(i, f.name, table.column(i).cast(wanted, safe=False))
    return table


def first_line(exc: BaseException) -> str:
    """The first line of an error message."""
    return (str(exc).splitlines() or [type(exc).__name__])[0]


class Runner(Protocol):
    """What :class:`~replay.analytics.Analytics` needs of an engine: DuckDB here, Spark in
    :mod:`replay.spark.stats`. Both run the same files of :mod:`.catalog`."""

    def run(self, sql: str, params: Mapping[str, object]) -> pa.Table:
        """A file's query (``:name`` parameters) over the views and the filter tables."""

    def choose(self, params: Mapping[str, object]) -> None:
        """Build the filter tables (``chosen``, ``chosen_seats``) for these parameters."""

    def query(self, query: str, params: Mapping[str, object] | None = None) -> pa.Table:
        """A user's read-only query in the engine's own dialect; QueryRefused otherwise."""


class DuckDBRunner:
    """The local engine: one sealed DuckDB connection, one query at a time."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        self._lock = threading.Lock()

    def run(self, sql: str, params: Mapping[str, object]) -> pa.Table:
        with self._lock:
            return run(self.con, sql, params)

    def choose(self, params: Mapping[str, object]) -> None:
        with self._lock:
            for file in catalog.filter_files():
                used = {k: v for k, v in params.items() if k in catalog.parameters_of(file.sql)}
                body = catalog.duckdb_sql(file.sql)
                self.con.execute(f'CREATE OR REPLACE TEMP TABLE "{file.name}" AS {body}', used)

    def query(self, query: str, params: Mapping[str, object] | None = None) -> pa.Table:
        """``$name`` parameters, DuckDB's form."""
        check_read_only(query)
        with self._lock:
            return tidy(self.con.sql(query, params=dict(params or {}) or None).to_arrow_table())
