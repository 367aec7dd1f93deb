"""Store commands: ``import``, ``export``, ``info``, ``compact``, ``games``.

Every command prints problems as ``file: game G seq N: reason (RULE)`` lines on stderr, exits
with code 1 when it could not do everything asked (the rest is still done), and never shows a
traceback for bad input.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, TypeVar

import pyarrow as pa
import typer

from replay.cli import app
from replay.cli.common import KindOpt, echo_problems, fail
from replay.games.base import RuleViolation
from replay.store import EventStore, Rejection, StoreError
from replay.store.jsonl import read_jsonl, row_to_line

F = TypeVar("F", bound=Callable[..., Any])


def _clean_errors(func: F) -> F:
    """Turn store errors and I/O errors into a message and exit code 1."""

    @wraps(func)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (StoreError, RuleViolation, OSError) as exc:
            fail(str(exc), code=1)

    return run  # type: ignore[return-value]


def _report(problems: list[Rejection]) -> bool:
    """Print problems on stderr; True when there were none."""
    echo_problems(problems, "error")
    return not problems


StorePath = Annotated[Path, typer.Argument(help="The store directory.")]


@app.command("import")
@_clean_errors
def import_cmd(
    file: Annotated[Path, typer.Argument(help="A JSON Lines file, one event per line.")],
    into: Annotated[Path, typer.Option("--into", help="The store (created if missing).")],
) -> None:
    """Import games from a JSON Lines file; bad lines and bad games are reported, the rest
    is stored in one commit."""
    read = read_jsonl(file)
    store = EventStore.open(into, create=True)
    report = store.ingest(read.table, source=str(file))
    typer.echo(f"{file}: {read.lines} lines; {report.summary()}")
    if not _report(read.rejected + report.rejected + store.problems):
        raise typer.Exit(1)


def _export_batches(store: EventStore, game: str | None, kind: str | None) -> Iterator[pa.Table]:
    if game is not None:
        yield store.load_game_table(store.resolve_game_id(game))
        return
    ids = store.list_games_table(kind).column("game_id")
    names = sorted(str(v) for v in ids.to_pylist())
    step = 2000
    for i in range(0, len(names), step):
        yield store._load_tables(names[i : i + step])


@app.command("export")
@_clean_errors
def export_cmd(
    store_path: StorePath,
    out: Annotated[Path, typer.Option("--out", help="The JSON Lines file to write ('-': stdout).")],
    game: Annotated[str | None, typer.Option("--game", help="One game (id or prefix).")] = None,
    kind: KindOpt = None,
) -> None:
    """Export games as canonical JSON Lines, ordered by game id and seq."""
    store = EventStore.open(store_path)
    sink = sys.stdout if str(out) == "-" else out.open("w", encoding="utf-8")
    count = 0
    try:
        for table in _export_batches(store, game, kind):
            for row in table.to_pylist():
                sink.write(row_to_line(row) + "\n")
                count += 1
    finally:
        if sink is not sys.stdout:
            sink.close()
    typer.echo(f"{count} events written to {out}", err=str(out) == "-")
    if not _report(store.problems):
        raise typer.Exit(1)


@app.command("info")
@_clean_errors
def info_cmd(store_path: StorePath) -> None:
    """Games and events per kind, date range, files, size on disk, bytes per event."""
    store = EventStore.open(store_path)
    info = store.info()
    typer.echo(f"store {info.path} (table version {info.version}, {info.live_games} live games)")
    for k in info.kinds:
        span = f"{_day(k.first)} .. {_day(k.last)}"
        typer.echo(
            f"  {k.kind:8} {k.games:8} games {k.events:11} events  {k.files:4} files "
            f"{k.bytes:12} bytes  {k.bytes_per_event:6.2f} B/event  {span}"
        )
    typer.echo(
        f"  {'total':8} {info.games:8} games {info.events:11} events  {info.files:4} files "
        f"{info.data_bytes:12} bytes  {info.bytes_per_event:6.2f} B/event  "
        f"({info.disk_bytes} bytes on disk)"
    )
    if not _report(store.problems):
        raise typer.Exit(1)


def _day(value: Any) -> str:
    return value.strftime("%Y-%m-%d") if value is not None else "-"


@app.command("compact")
@_clean_errors
def compact_cmd(store_path: StorePath) -> None:
    """Merge small files into large ones and delete the files no longer referenced."""
    store = EventStore.open(store_path)
    before = len(store.files())
    try:
        metrics = store.compact()
    except StoreError:
        _report(store.problems)
        raise
    after = len(store.files())
    typer.echo(f"{before} files -> {after} files ({metrics['vacuumed']} old files deleted)")


@app.command("games")
@_clean_errors
def games_cmd(
    store_path: StorePath,
    kind: KindOpt = None,
    player: Annotated[
        str | None, typer.Option("--player", help="Only games of this player.")
    ] = None,
    limit: Annotated[int | None, typer.Option("--limit", help="At most N games.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line.")] = False,
) -> None:
    """List stored games: id, kind, players, date, length, result."""
    store = EventStore.open(store_path)
    table = store.list_games_table(kind, player)
    if limit is not None:
        table = table.slice(0, max(limit, 0))
    for row in table.to_pylist():
        started = row["started"].isoformat() if row["started"] is not None else None
        if as_json:
            row["started"] = started
            typer.echo(json.dumps(row, separators=(",", ":")))
            continue
        typer.echo(
            f"{row['game_id']}  {row['kind']:7} {started or '-':25} {row['events']:6} events "
            f"{row['rounds']:3} rounds  players {','.join(row['players'])}  "
            f"winners {','.join(row['winners']) or '-'}"
        )
    if not _report(store.problems):
        raise typer.Exit(1)
