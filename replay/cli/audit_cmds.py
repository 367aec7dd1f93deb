"""``replay audit`` and ``replay explain``: check recorded games against the rules."""

from __future__ import annotations

import json
import os
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import pyarrow as pa
import typer

from replay.audit import (
    AuditReport,
    audit_game,
    audit_many,
    count_games,
    group_games,
    sort_report,
)
from replay.cli import app
from replay.cli.common import (
    KindOpt,
    echo_problems,
    fail,
    load_stored_game,
    open_store,
    pick_game,
    progress_bar,
    read_events_file,
)
from replay.explain import explain_step
from replay.report import format_report

DEFAULT_JOBS = os.cpu_count() or 1


class Format(StrEnum):
    table = "table"
    json = "json"
    markdown = "markdown"


@app.command()
def audit(
    store_path: Annotated[Path, typer.Argument(metavar="STORE", help="The event store.")],
    game: Annotated[str | None, typer.Option("--game", help="One game (id or prefix).")] = None,
    kind: KindOpt = None,
    fmt: Annotated[Format, typer.Option("--format")] = Format.table,
    jobs: Annotated[
        int, typer.Option("--jobs", min=1, help="Worker processes (default: all cores).")
    ] = DEFAULT_JOBS,
) -> None:
    """Check every decision and recompute every ruling. Exit 0 clean, 1 findings, 2 unreadable.

    STORE may also be a JSON Lines file of events (as written by ``replay export``).
    """
    if store_path.is_file():
        report = _audit_file(store_path, game, kind)
        typer.echo(format_report(sort_report(report), fmt.value))
        raise typer.Exit(report.exit_code)
    if game is not None:
        store, events = load_stored_game(store_path, game)
        report = AuditReport(games=[audit_game(events)])
    else:
        store = open_store(store_path)
        report = _audit_all(store, kind, jobs)
    report.problems.extend(str(p) for p in store.problems)
    typer.echo(format_report(sort_report(report), fmt.value))
    raise typer.Exit(report.exit_code)


def _audit_file(path: Path, game: str | None, kind: str | None) -> AuditReport:
    events, problems = read_events_file(path)
    if not events and not problems:
        problems = [f"{path}: no events"]
    games = group_games(events)
    if game is not None:
        games = [pick_game(path, games, game)]
    games = [g for g in games if kind is None or g[0].kind == kind]
    return AuditReport(games=[audit_game(g) for g in games], problems=problems)


def _audit_all(store: Any, kind: str | None, jobs: int) -> AuditReport:
    batches = list(store.scan(kind, dictionary=True))  # strings read once per distinct value
    if not batches:
        return AuditReport()
    table = pa.Table.from_batches(batches)
    games = count_games(table)
    with progress_bar(auto_refresh=False) as progress:  # audit_many forks: no refresh thread
        task = progress.add_task("auditing", total=games)
        return audit_many(
            table, jobs, lambda done: progress.update(task, advance=done, refresh=True)
        )


@app.command()
def explain(
    store_path: Annotated[Path, typer.Argument(metavar="STORE", help="The event store.")],
    game: Annotated[str, typer.Option("--game", help="Game id or unique prefix.")],
    step: Annotated[int, typer.Option("--step", help="Sequence number of the disputed event.")],
    as_json: Annotated[bool, typer.Option("--json", help="The verdict as data.")] = False,
) -> None:
    """The disputed-ruling view: the state before the event, the event, and the verdict."""
    if store_path.is_file():
        events, problems = read_events_file(store_path)
        echo_problems(problems, "unreadable")  # a lost line may be why a step cannot be judged
        events = pick_game(store_path, group_games(events), game)
    else:
        store, events = load_stored_game(store_path, game)
        echo_problems(store.problems)
    try:
        verdict = explain_step(events, step)
    except (IndexError, ValueError) as exc:
        fail(str(exc))
    if as_json:
        typer.echo(json.dumps(verdict.to_dict(), indent=2))
    else:
        typer.echo(verdict.render())
    raise typer.Exit(0 if verdict.ok else 1)
