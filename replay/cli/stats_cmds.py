"""Statistics commands: ``stats``, ``sql``, ``reindex`` (thin over :mod:`replay.analytics`).

Every filter value is a query parameter; ``replay sql`` runs one read-only SELECT over the views
and refuses anything else (writes, ATTACH, COPY, INSTALL, LOAD, PRAGMA, SET...), and the
connection can read no file but the store's.
"""

from __future__ import annotations

import datetime
import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from replay.cli.app import app
from replay.cli.common import (
    AlternativesOpt,
    Engine,
    EngineOpt,
    KindOpt,
    MasterOpt,
    PolicyOpt,
    SamplesOpt,
    SeedOpt,
    echo_problems,
    fail,
    os_error,
)
from replay.cli.output import Format, FormatOpt, dump, echo, plain, records_text
from replay.review import DEFAULT_ALTERNATIVES, DEFAULT_POLICY, DEFAULT_SAMPLES
from replay.text import aligned, escaped, shown
from replay.words import did_you_mean

if TYPE_CHECKING:
    import pyarrow as pa

    from replay.analytics import Analytics, StatResult
    from replay.analytics.luck import LuckSettings
    from replay.analytics.per_game import TableUpdate
    from replay.review.engine import Settings
    from replay.sources import Sources
    from replay.store import EventStore


SourcePaths = Annotated[
    list[str],
    typer.Argument(help="Stores, JSON Lines files, folders (searched recursively) or - (stdin)."),
]
SourcePath = Annotated[str, typer.Argument(help="A store, a JSON Lines file, a folder or -.")]


def _date(value: str | None, option: str) -> datetime.date | None:
    if value is None:
        return None
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        fail(f"{option} {value!r}: expected a date YYYY-MM-DD")


def open_analytics(
    paths: Sequence[str], engine: Engine = Engine.local, master: str | None = None
) -> Analytics:
    """Statistics over the inputs (replay/sources.py), their problems reported, or exit 2.

    One store alone is read through its own files (and derived tables); anything else is read
    into one table (a game met twice counts once, as the sources decide). ``--engine spark``
    reads one store in place."""
    from replay.analytics import Analytics
    from replay.cli.spark_engine import analytics_with_spark
    from replay.sources import StoreInput, open_sources

    sources = open_sources(paths)
    echo_problems(sources.problems)
    if not sources.inputs:
        fail("no input to read")
    only = sources.inputs[0]
    if engine is Engine.spark:
        analytics = analytics_with_spark(sources, master)
        echo_problems(analytics.problems)
        return analytics
    try:
        if len(sources.inputs) == 1 and isinstance(only, StoreInput):
            analytics = Analytics.open(only.store)
        else:
            analytics = Analytics.open(_one_table(sources))
    except Exception as exc:  # an unreadable input must not end in a traceback
        fail(f"{sources.describe()}: cannot read the events: {type(exc).__name__}: {exc}")
    echo_problems(analytics.problems)
    echo_problems(analytics.notes, "note")
    return analytics


def _one_table(sources: Sources) -> pa.Table:
    """Every input's events in one table (:meth:`replay.sources.Sources.events_table`), the
    problems of the stores read on the way printed."""
    seen = len(sources.problems)
    table = sources.events_table()
    echo_problems(sources.collect_problems()[seen:])
    return table


@app.command("stats")
def stats_cmd(
    sources: SourcePaths,
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
        str | None, typer.Option("--stat", help="Only this statistic (by name: see --list).")
    ] = None,
    every: Annotated[
        bool, typer.Option("--all", help="Every statistic (the table's default is a summary).")
    ] = False,
    listing: Annotated[
        bool,
        typer.Option(
            "--list",
            is_eager=True,
            callback=lambda on: on and list_statistics(),
            help="List the statistics (name, kind, title) and stop; no SOURCE needed.",
        ),
    ] = False,
    fmt: FormatOpt = Format.table,
    engine: EngineOpt = Engine.local,
    master: MasterOpt = None,
) -> None:
    """Trick and scoring statistics of the chosen games (docs/statistics.md lists them).

    As a table: a summary of each kind (games, players, dates), who wins most and bots against
    humans; --all prints every statistic, --stat NAME one (json, jsonl, csv: every statistic
    unless --stat). SOURCE may be left out with --list.
    """
    from replay.analytics import Filters, UnknownStatistic
    from replay.analytics.catalog import SUMMARY, statistic_files
    from replay.cli.spark_engine import spark_failures

    f = Filters(kind, player, players, _date(since, "--since"), _date(until, "--until"))
    analytics = open_analytics(sources, engine, master)
    summary = fmt is Format.table and not every and not name
    try:
        with spark_failures(engine):
            if name:
                results = [analytics.statistic(name, f)]
            elif summary:
                results = [analytics.statistic(n, f) for n in SUMMARY]
            else:
                results = analytics.statistics(f)
    except UnknownStatistic:
        known = [s.name for s in statistic_files()]
        fail(f"unknown statistic {name!r}{did_you_mean(name or '', known)} (replay stats --list)")
    from replay.analytics.api import describe

    if fmt is Format.json:
        echo(dump([describe(r) for r in results]))
        return
    if fmt is Format.jsonl:
        echo("\n".join(json.dumps(plain(describe(r)), ensure_ascii=False) for r in results))
        return
    if summary:
        typer.echo("The games of each kind")
        typer.echo(to_text(analytics.overview(f)))
        typer.echo("")
    for r in results:
        if fmt is Format.csv:
            typer.echo(f"# {r.name}: {r.title} ({r.games} games)")
            echo(records_text(r.table.to_pylist(), fmt, r.table.column_names))
        else:
            _echo_result(r)
        typer.echo("")
    if summary:
        more = len(statistic_files()) - len(SUMMARY)
        typer.echo(f"{more} more statistics: replay stats --list names them; --stat NAME shows "
                   "one, --all every one.")  # fmt: skip


def list_statistics() -> None:
    """``replay stats --list``: every statistic's name, the kind it is of, and its title;
    then exit."""
    from replay.analytics.catalog import statistic_files

    rows = [(s.name, s.kind or "every kind", s.title) for s in statistic_files()]
    widths = [max(len(r[i]) for r in rows) for i in range(2)]
    for stat_name, scope, title in rows:
        typer.echo(f"{stat_name.ljust(widths[0])}  {scope.ljust(widths[1])}  {title}")
    raise typer.Exit()


def _echo_result(r: StatResult) -> None:
    scope = f"{r.kind} " if r.kind else ""
    typer.echo(f"{r.title} [{r.name}: {r.games} {scope}games]")
    if r.note and not r.table.num_rows:
        typer.echo(f"  {r.note}")
        return
    typer.echo(to_text(r.table, words=r.words) if r.table.num_rows else "  (no rows)")


@app.command("sql")
def sql_cmd(
    source: SourcePath,
    query: Annotated[str, typer.Argument(help="One read-only SELECT over the views.")],
    fmt: FormatOpt = Format.table,
    engine: EngineOpt = Engine.local,
    master: MasterOpt = None,
) -> None:
    """Run one read-only query with the views in place (games, seats, rounds, tricks, plays...):
    DuckDB SQL, or Spark SQL with --engine spark."""
    import duckdb

    from replay.analytics import QueryRefused
    from replay.cli.spark_engine import error_line

    try:  # refused before the source is opened
        _check_query(query, engine)
    except QueryRefused as exc:
        fail(f"query refused: {exc}")
    analytics = open_analytics([source], engine, master)
    try:
        table = analytics.sql(query)
    except QueryRefused as exc:
        fail(f"query refused: {exc}")
    except duckdb.Error as exc:
        fail(f"query failed: {error_line(exc)}")
    except Exception as exc:  # Spark's errors: a parse or analysis error, a failed job
        if engine is not Engine.spark:
            raise
        fail(f"query failed: {error_line(exc)}")
    if fmt is Format.table:
        typer.echo(to_text(table))
    else:
        echo(records_text(table.to_pylist(), fmt, table.column_names))


def _check_query(query: str, engine: Engine) -> None:
    """QueryRefused unless ``query`` is one read-only query for the engine."""
    if engine is Engine.spark:
        from replay.spark.stats import check_spark_query

        check_spark_query(query)
    else:
        from replay.analytics.engine import check_read_only

        check_read_only(query)


@app.command("reindex")
def reindex_cmd(
    store_path: Annotated[Path, typer.Argument(help="The store directory.")],
    memory_limit: Annotated[
        str | None,
        typer.Option(
            "--memory-limit",
            help="DuckDB's memory limit (default: 1GB; e.g. 4GB, or 80% of the RAM, DuckDB's "
            "own default): beyond it, its work spills to STORE/_analytics/.tmp.",
        ),
    ] = None,
    reviews: Annotated[
        bool,
        typer.Option(
            "--reviews",
            help="Also review the games not yet reviewed with these settings and store the "
            "reviews (views reviews, decisions, review_summary; docs/review.md).",
        ),
    ] = False,
    luck: Annotated[
        bool,
        typer.Option(
            "--luck",
            help="Also compute the luck of the deals and draws of the games not yet valued with "
            "these settings (--seed, --policy) and store it (views luck, luck_units; "
            "docs/review.md).",
        ),
    ] = False,
    luck_playouts: Annotated[
        int,
        typer.Option(
            "--luck-playouts",
            min=0,
            help="With --luck: value the chance events after a unit's deal (Hez2's draws) by N "
            "playouts of the policy per draw instead of the hand model (0); slower, less "
            "variance left (docs/review.md, Luck).",
        ),
    ] = 0,
    fairplay: Annotated[
        bool,
        typer.Option(
            "--fairplay",
            help="Also judge the telling plays of the games not yet judged (--policy) and store "
            "the fair-play signal's counts (view fairplay, statistic fairplay_players; "
            "docs/review.md).",
        ),
    ] = False,
    samples: SamplesOpt = DEFAULT_SAMPLES,
    seed: SeedOpt = 0,
    policy: PolicyOpt = DEFAULT_POLICY,
    alternatives: AlternativesOpt = DEFAULT_ALTERNATIVES,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes.")] = 1,
) -> None:
    """Rebuild the derived tables of the statistics (the layer views as Parquet files) unless
    they already match the store's snapshot; with
    --reviews, review the games not yet reviewed with the same settings and store the reviews;
    with --luck and --fairplay, the same for the luck of the deals and draws and for the
    fair-play signal's counts."""
    import duckdb

    from replay.analytics import derived
    from replay.cli.common import open_store
    from replay.review.engine import Settings

    store = open_store(store_path)
    limit = memory_limit or derived.DEFAULT_MEMORY_LIMIT
    try:
        rows, done = derived.up_to_date(store), "up to date"
        if rows is None:
            rows, done = derived.rebuild(store, memory_limit=limit), "rebuilt"
    except OSError as exc:
        fail(os_error(exc, store_path), code=1)
    except duckdb.OutOfMemoryException as exc:
        fail(f"{store_path}: {exc} (--memory-limit {limit}: give it more, e.g. 4GB)", code=1)
    except duckdb.Error as exc:  # a limit DuckDB does not read
        fail(f"{store_path}: {exc}", code=1)
    echo_problems(store.problems)
    summary = ", ".join(f"{name} {count}" for name, count in rows.items())
    typer.echo(f"{store_path}: derived tables {done} ({summary} rows)")
    if reviews:
        _reindex_reviews(store, store_path, Settings(samples, seed, policy, alternatives), jobs)
    if luck:
        from replay.analytics.luck import LuckSettings

        settings = LuckSettings(seed=seed, policy=policy, playouts=luck_playouts)
        _reindex_luck(store, store_path, settings, jobs)
    if fairplay:
        _reindex_fairplay(store, store_path, policy, jobs)


def _reindex_luck(store: EventStore, store_path: Path, settings: LuckSettings, jobs: int) -> None:
    from replay.analytics.luck import update_luck

    _stored(store_path, "luck", "valued", "unit x seat", settings.key,
            lambda: update_luck(store, settings, jobs=jobs))  # fmt: skip


def _reindex_fairplay(store: EventStore, store_path: Path, policy: str, jobs: int) -> None:
    from replay.analytics.fairplay import FairplaySettings, update_fairplay

    settings = FairplaySettings(policy=policy)
    _stored(store_path, "fair-play counts", "judged", "game x seat", settings.key,
            lambda: update_fairplay(store, settings, jobs=jobs))  # fmt: skip


def _stored(
    store_path: Path, what: str, done: str, rows: str, key: str, update: Callable[[], TableUpdate]
) -> None:
    """Run a per-game table's update (:mod:`replay.analytics.per_game`) and say what it did."""
    try:
        made = update()
    except OSError as exc:
        fail(os_error(exc, store_path), code=1)
    echo_problems(made.problems, "warning")
    typer.echo(f"{store_path}: {what} stored ({made.computed} games {done}, {made.kept} already "
               f"{done} with {key}; {made.rows} {rows} rows)")  # fmt: skip


def _reindex_reviews(store: EventStore, store_path: Path, settings: Settings, jobs: int) -> None:
    from replay.analytics.reviews import update_reviews

    try:
        update = update_reviews(store, settings, jobs=jobs)
    except OSError as exc:
        fail(os_error(exc, store_path), code=1)
    failed = not update.reviewed and len(update.problems) > 0
    echo_problems(update.problems, "error" if failed else "warning")
    if failed:
        raise typer.Exit(2)
    typer.echo(
        f"{store_path}: reviews stored ({len(update.reviewed)} games reviewed, {update.kept} "
        f"already reviewed with {settings.key}; {update.decisions} decisions)"
    )


# --------------------------------------------------------------------- output
#: Column words of a statistic printed for people: (header, word for false, word for true)
#: for a yes/no column; any other column's header is its name in words (``avg place``).
YES_NO_WORDS: dict[str, tuple[str, str, str]] = {
    "bot": ("seats", "humans", "bots"),
    "flagged": ("sample", "", "small"),
}


def _cell(value: Any, column: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        _, no, yes = YES_NO_WORDS.get(column, ("", "no", "yes"))
        return yes if value else no
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.3f}"
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    return shown(value) if isinstance(value, str) else escaped(str(value))


def to_text(table: pa.Table, *, words: dict[str, str] | None = None) -> str:
    """An aligned text table (numbers right-aligned); with ``words`` (a statistic's, maybe
    empty), the headers in words: those given, :data:`YES_NO_WORDS`, else the words every
    screen gives a column (:func:`replay.analytics.words.column_words`: ``avg_place`` ->
    ``average place``)."""
    from replay.analytics.words import column_words

    columns = table.column_names

    def header(column: str) -> str:
        yes_no = YES_NO_WORDS.get(column, (column_words(column),))[0]
        return yes_no if words is None else words.get(column, yes_no)

    names = [escaped(n) for n in (columns if words is None else map(header, columns))]
    rows = [[_cell(v, c) for c, v in row.items()] for row in table.to_pylist()]
    numeric = {
        i
        for i, t in enumerate(table.schema.types)
        if str(t).startswith(("int", "uint", "double", "float", "decimal"))
    }
    return aligned([names, *rows], right=numeric, header_left=True)
