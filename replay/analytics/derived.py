"""Derived tables: the layer views materialised as Parquet files next to the event table.

``replay reindex STORE`` writes each view whose file says ``derived: true`` to
``STORE/_analytics/<view>.parquet`` and a manifest naming what they were built from (the
snapshot's data files and the SQL text). :func:`fresh_tables` gives them to the runner only while
the manifest still matches; otherwise the views read the raw events (slower, same rows).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb
import pyarrow.parquet as pq

from replay.analytics import catalog, engine
from replay.analytics.ratings import ALL_RESULTS, LOG_FORMAT, LOG_SCHEMA, rating_log_parts

if TYPE_CHECKING:
    import duckdb

    from replay.store import EventStore

DERIVED_DIR = "_analytics"
#: The rating log (:func:`replay.analytics.ratings.rating_log`): every player's rating at the end
#: of each day played, in one ladder per kind and one per kind and seat count, from which
#: ``Analytics.ratings`` reads the ratings under any filter.
RATING_LOG = "rating_log"
MANIFEST = "manifest.json"
#: DuckDB's memory limit of ``replay reindex`` unless told otherwise: beyond it, its work
#: spills to ``_analytics/.tmp``, so that the peak memory is bounded by this, not by the store.
DEFAULT_MEMORY_LIMIT = "1GB"
#: The least memory a DuckDB thread needs, by DuckDB's rule of thumb (its guide, "Environment":
#: 125 MB a thread): ``reindex`` runs no more threads than its memory limit gives this each.
MEMORY_PER_THREAD = 125 * 10**6
#: Data files of at least this many bytes in all get a DuckDB connection per derived table (on
#: one connection for all, a 1M-hand store's ninth table ran out of the default 1GB in two runs
#: of four, though it fits alone); a smaller store keeps one, sparing each table the views'
#: set-up.
PER_TABLE_BYTES = 64 << 20
#: Rows of results the rating log is computed from at a time.
LOG_BATCH_ROWS = 1 << 20
#: The stored tables whose content is made by Python code, not by the SQL files, and the
#: version of it: a manifest naming another version does not give them.
_FORMATS_KEY = "formats"


def fingerprint(paths: Sequence[str]) -> str:
    """What derived tables depend on: the data files (path, size, mtime) and the SQL files."""
    digest = hashlib.sha256()
    for path in sorted(paths):
        stat = os.stat(path)
        digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    for file in sorted(catalog.SQL_DIR.rglob("*.sql")):
        digest.update(file.read_bytes())
    return digest.hexdigest()


def _manifest(store: EventStore) -> Path:
    return store.path / DERIVED_DIR / MANIFEST


def fresh_tables(store: EventStore, paths: Sequence[str]) -> dict[str, str]:
    """View name -> Parquet file of the derived tables, if built from exactly ``paths``."""
    try:
        manifest = json.loads(_manifest(store).read_text(encoding="utf-8"))
        if manifest.get("fingerprint") != fingerprint(paths):
            return {}
        tables = {name: str(store.path / DERIVED_DIR / f) for name, f in manifest["tables"].items()}
        formats = manifest.get(_FORMATS_KEY) or {}
        for name, version in _formats().items():
            if formats.get(name) != version:
                tables.pop(name, None)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}
    return tables if all(os.path.isfile(p) for p in tables.values()) else {}


def up_to_date(store: EventStore) -> dict[str, int] | None:
    """Rows per table of the stored derived tables when every one of them is still what
    :func:`rebuild` would write (the manifest matches the snapshot, the SQL files and the
    formats); ``None`` when one must be written again."""
    tables = fresh_tables(store, [f.path for f in store.readable_files()])
    if set(tables) != {*catalog.derived_views(), RATING_LOG}:
        return None
    try:
        rows = json.loads(_manifest(store).read_text(encoding="utf-8"))["rows"]
        return {name: int(rows[name]) for name in tables}
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _formats() -> dict[str, int]:
    return {RATING_LOG: LOG_FORMAT}


def _write_rating_log(con: duckdb.DuckDBPyConnection, target: Path) -> int:
    """The rating log of every game, per kind and per kind and seat count, written to
    ``target`` a slice of results at a time (:data:`LOG_BATCH_ROWS`; DuckDB sorts them within
    its memory limit); returns its rows."""
    results = con.sql(ALL_RESULTS).to_arrow_reader(LOG_BATCH_ROWS)
    partial = target.with_suffix(".parquet.partial")
    rows = 0
    with pq.ParquetWriter(partial, LOG_SCHEMA, compression="zstd") as writer:
        for part in rating_log_parts(results, whole=True, split=True):
            writer.write_table(part)
            rows += part.num_rows
    os.replace(partial, target)
    return rows


def _fit_threads(con: duckdb.DuckDBPyConnection) -> None:
    """No more DuckDB threads than the memory limit gives :data:`MEMORY_PER_THREAD` each (with
    one thread a core, the default 1GB would not do on a machine of more than 8 cores)."""
    limit, threads = con.sql(
        "SELECT current_setting('memory_limit'), current_setting('threads')"
    ).fetchall()[0]
    fitting = _bytes(str(limit)) / MEMORY_PER_THREAD + 0.01  # the size is shown rounded
    if fitting < int(threads):
        con.execute(f"SET threads = {max(1, int(fitting))}")


#: The units DuckDB shows a size in.
_UNITS = {"bytes": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40,
          "PiB": 1 << 50}  # fmt: skip


def _bytes(size: str) -> float:
    """Bytes of a size as DuckDB shows a setting (``953.6 MiB``, ``18.8 GiB``); infinite for
    a form it is not known to use."""
    number, _, unit = size.partition(" ")
    try:
        return float(number) * _UNITS[unit]
    except (ValueError, KeyError):
        return float("inf")


def _write_derived(con: duckdb.DuckDBPyConnection, name: str, target: Path) -> None:
    """The view ``name`` written to ``target`` (whole or not at all); a table past DuckDB's
    memory limit is named in the error."""
    partial = target.with_suffix(".parquet.partial")
    try:
        con.execute(
            f'COPY (SELECT * FROM "{name}") TO {engine.quote(str(partial))} '
            "(FORMAT parquet, COMPRESSION zstd)"
        )
    except duckdb.OutOfMemoryException as exc:  # named: which table did not fit
        first = str(exc).splitlines()[0]
        raise duckdb.OutOfMemoryException(f"the derived table {name}: {first}") from exc
    os.replace(partial, target)


def rebuild(
    store: EventStore,
    *,
    threads: int | None = None,
    memory_limit: str | None = DEFAULT_MEMORY_LIMIT,
) -> dict[str, int]:
    """Write every derived table from the current snapshot; returns rows per table.

    ``memory_limit`` (DuckDB's, e.g. ``"4GB"``; ``None``: DuckDB's own, 80% of the RAM):
    beyond it DuckDB spills to ``_analytics/.tmp``."""
    paths = [f.path for f in store.readable_files()]
    folder = store.path / DERIVED_DIR
    folder.mkdir(exist_ok=True)
    rows: dict[str, int] = {}
    files: dict[str, str] = {}

    def connection() -> duckdb.DuckDBPyConnection:
        """A new connection, its views reading the tables written before."""
        written = {n: str(folder / f) for n, f in files.items()}
        con = engine.connect(paths, written, threads=threads)
        con.execute(f"SET temp_directory = {engine.quote(str(folder / '.tmp'))}")
        if memory_limit:
            con.execute(f"SET memory_limit = {engine.quote(memory_limit)}")
        _fit_threads(con)
        return con

    per_table = sum(os.path.getsize(p) for p in paths) >= PER_TABLE_BYTES
    con = connection()
    try:
        for name in catalog.derived_views():
            target = folder / f"{name}.parquet"
            _write_derived(con, name, target)
            rows[name] = pq.ParquetFile(target).metadata.num_rows
            files[name] = target.name
            if per_table:  # what this query left held does not count against the next
                con.close()
                con = connection()  # its views read the tables written so far
            else:
                engine.create_view(con, name, "", str(target))  # later tables read this one
        rows[RATING_LOG] = _write_rating_log(con, folder / f"{RATING_LOG}.parquet")
    finally:
        con.close()
    files[RATING_LOG] = f"{RATING_LOG}.parquet"
    manifest = {
        "fingerprint": fingerprint(paths),
        "tables": files,
        "rows": rows,
        _FORMATS_KEY: _formats(),
    }
    temporary = _manifest(store).with_suffix(".partial")
    temporary.write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    os.replace(temporary, _manifest(store))
    (folder / "ratings.parquet").unlink(missing_ok=True)  # the final ratings, stored before
    return rows
