"""Statistics commands: ``stats``, ``sql``, ``reindex`` (thin over :mod:`replay.analytics`).

Every filter value is a query parameter; ``replay sql`` runs one read-only SELECT over the views
and refuses anything else (writes, ATTACH, COPY, INSTALL, LOAD, PRAGMA, SET...), and the
connection can read no file but the store's.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import math
from decimal import Decimal
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from replay.cli import app
from replay.cli.common import KindOpt, echo_problems, fail, os_error

if TYPE_CHECKING:
    import pyarrow as pa

    from replay.analytics import Analytics, StatResult


class Format(StrEnum):
    table = "table"
    json = "json"
    csv = "csv"


SourcePath = Annotated[Path, typer.Argument(help="A store directory or a JSON Lines file.")]
FormatOpt = Annotated[Format, typer.Option("--format", help="Output: table, json or csv.")]


def _date(value: str | None, option: str) -> datetime.date | None:
    if value is None:
        return None
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        fail(f"{option} {value!r}: expected a date YYYY-MM-DD")


def open_analytics(path: Path) -> Analytics:
    """Statistics over a store, or over a JSON Lines file (its bad lines reported), or exit 2."""
    from replay.analytics import Analytics

    if path.is_file():
        from replay.store.jsonl import read_jsonl

        try:
            read = read_jsonl(path)
        except OSError as exc:
            fail(os_error(exc, path))
        echo_problems(read.rejected)
        return Analytics.open(read.table)
    from replay.cli.common import open_store

    store = open_store(path)
    try:
        analytics = Analytics.open(store)
    except Exception as exc:  # an unreadable store must not end in a traceback
        echo_problems(store.problems, "error")
        fail(f"{path}: cannot read the event store: {type(exc).__name__}: {exc}")
    echo_problems(analytics.problems)
    echo_problems(analytics.notes, "note")
    return analytics


@app.command("stats")
def stats_cmd(
    source: SourcePath,
    kind: KindOpt = None,
    player: Annotated[
        str | None, typer.Option("--player", help="Only games this player sat in.")
    ] = None,
    players: Annotated[int | None, typer.Option("--players", help="Only N-seat games.")] = None,
    since: Annotated[
        str | None, typer.Option("--since", help="Games started on or after this date.")
    ] = None,
    until: Annotated[
        str | None, typer.Option("--until", help="Games started on or before this date.")
    ] = None,
    name: Annotated[
        str | None, typer.Option("--stat", help="Only this statistic (by name).")
    ] = None,
    fmt: FormatOpt = Format.table,
) -> None:
    """Trick and scoring statistics of the chosen games (docs/statistics.md lists them)."""
    from replay.analytics import Filters, UnknownStatistic

    f = Filters(kind, player, players, _date(since, "--since"), _date(until, "--until"))
    analytics = open_analytics(source)
    try:
        results = [analytics.statistic(name, f)] if name else analytics.statistics(f)
    except UnknownStatistic:
        fail(f"unknown statistic {name!r}; see docs/statistics.md")
    if fmt is Format.json:
        from replay.analytics.api import describe

        typer.echo(json.dumps([describe(r) for r in results], default=_json_value, indent=1))
        return
    for r in results:
        if fmt is Format.csv:
            typer.echo(f"# {r.name}: {r.title} ({r.games} games)")
            typer.echo(to_csv(r.table), nl=False)
        else:
            _echo_result(r)
        typer.echo("")


def _echo_result(r: StatResult) -> None:
    scope = f"{r.kind} " if r.kind else ""
    typer.echo(f"{r.title} [{r.name}: {r.games} {scope}games]")
    typer.echo(to_text(r.table) if r.table.num_rows else "  (no rows)")


@app.command("sql")
def sql_cmd(
    source: SourcePath,
    query: Annotated[str, typer.Argument(help="One read-only SELECT over the views.")],
    fmt: FormatOpt = Format.table,
) -> None:
    """Run one read-only query with the views in place (games, seats, rounds, tricks, plays...)."""
    import duckdb

    from replay.analytics import QueryRefused

    analytics = open_analytics(source)
    try:
        table = analytics.sql(query)
    except QueryRefused as exc:
        fail(f"query refused: {exc}")
    except duckdb.Error as exc:
        fail(f"query failed: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
    if fmt is Format.json:
        typer.echo(json.dumps(table.to_pylist(), default=_json_value, indent=1))
    elif fmt is Format.csv:
        typer.echo(to_csv(table), nl=False)
    else:
        typer.echo(to_text(table))


@app.command("reindex")
def reindex_cmd(
    store_path: Annotated[Path, typer.Argument(help="The store directory.")],
) -> None:
    """Rebuild the derived tables of the statistics (the layer views as Parquet files)."""
    from replay.analytics import derived
    from replay.cli.common import open_store

    store = open_store(store_path)
    try:
        rows = derived.rebuild(store)
    except OSError as exc:
        fail(os_error(exc, store_path), code=1)
    echo_problems(store.problems)
    summary = ", ".join(f"{name} {count}" for name, count in rows.items())
    typer.echo(f"{store_path}: derived tables rebuilt ({summary} rows)")


# --------------------------------------------------------------------- output
def _json_value(value: object) -> object:
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return str(value)


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.3f}"
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    return str(value)


def to_text(table: pa.Table) -> str:
    """An aligned text table (numbers right-aligned)."""
    names = table.column_names
    rows = [[_cell(v) for v in row.values()] for row in table.to_pylist()]
    widths = [max([len(n)] + [len(r[i]) for r in rows]) for i, n in enumerate(names)]
    numeric = [
        str(t).startswith(("int", "uint", "double", "float", "decimal")) for t in table.schema.types
    ]
    lines = ["  ".join(n.ljust(w) for n, w in zip(names, widths, strict=True)).rstrip()]
    for r in rows:
        cells = [
            c.rjust(w) if num else c.ljust(w) for c, w, num in zip(r, widths, numeric, strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def to_csv(table: pa.Table) -> str:
    """CSV with a header line (empty cell for null)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(table.column_names)
    for row in table.to_pylist():
        writer.writerow(["" if v is None else v for v in row.values()])
    return out.getvalue()
