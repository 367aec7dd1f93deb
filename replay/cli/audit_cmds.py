"""``replay audit`` and ``replay explain``: check recorded games against the rules."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

import typer

from replay.cli import app
from replay.cli.common import (
    Engine,
    EngineOpt,
    GameOpt,
    InputsArg,
    KindOpt,
    MasterOpt,
    fail,
    game_of,
    load_one_game,
    progress_bar,
    read_inputs,
)
from replay.cli.output import Format, FormatOpt, JsonOpt, dump, echo, records_text
from replay.text import shown

if TYPE_CHECKING:
    from replay.audit import GameAudit
    from replay.sources import Sources
    from replay.spool import SpooledReport

DEFAULT_JOBS = os.cpu_count() or 1


class AuditFormat(StrEnum):
    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"
    markdown = "markdown"


class ExplainFormat(StrEnum):
    table = "table"
    json = "json"
    jsonl = "jsonl"
    markdown = "markdown"
    html = "html"


@app.command()
def audit(
    inputs: InputsArg,
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="One game (id or unique prefix).")
    ] = None,
    kind: KindOpt = None,
    fmt: Annotated[
        AuditFormat,
        typer.Option(
            "--format", "-f", help="table, json, jsonl (one finding a line), csv, markdown."
        ),
    ] = AuditFormat.table,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, help="Worker processes (default: all cores).")
    ] = DEFAULT_JOBS,
    engine: EngineOpt = Engine.local,
    master: MasterOpt = None,
    complete: Annotated[
        bool,
        typer.Option(
            "--complete", help="Judge finished games: a log that stops before its end is a finding."
        ),
    ] = False,
) -> None:
    """Check every decision and recompute every ruling. Exit 0 clean, 1 findings, 2 unreadable.

    A log that stops before its game ended (a live game, a cut file) is reported as incomplete,
    with what the game waits for, unless ``--complete``."""
    from replay.audit import audit_game
    from replay.report import write_report
    from replay.spark.cli import audit_with_spark
    from replay.spool import SpooledReport

    sources = read_inputs(inputs)
    with SpooledReport() as report:
        if engine is Engine.spark:
            report.add(audit_with_spark(sources, game, kind, master).games)
        elif game is not None:
            _, events = game_of(sources, game)
            report.add([audit_game(events, complete=complete)])
        else:
            _audit_sources(report, sources, kind, jobs, complete)
        report.problems.extend(sources.collect_problems())
        if not report.counts().games and not report.problems:
            report.problems.append(f"{sources.describe()}: no events")
        write_report(report, fmt.value, sys.stdout, sources.origin)
        sys.stdout.write("\n")
    raise typer.Exit(report.exit_code)


def _audit_sources(
    report: SpooledReport, sources: Sources, kind: str | None, jobs: int, complete: bool
) -> None:
    """Every game of every input (a store's in worker processes), each game once."""
    from replay.audit import audit_game
    from replay.sources import FileInput, StoreInput

    several = len(sources.inputs) > 1  # a game id met twice is audited once (its first input)
    owners = {ref.game_id: ref.origin for ref in sources.games()} if several else {}

    def owned(game_id: str, origin: str) -> bool:
        return not several or owners.get(game_id) == origin

    for source in sources.inputs:
        if isinstance(source, StoreInput):
            for games in _audit_store(source.store, kind, jobs, complete):
                report.add(g for g in games if owned(g.game_id, source.origin))
            continue
        assert isinstance(source, FileInput)
        for game_id, events in source.games.items():
            if owned(game_id, source.origin) and (kind is None or events[0].kind == kind):
                report.add([audit_game(events, complete=complete)])


def _audit_store(
    store: Any, kind: str | None, jobs: int, complete: bool
) -> Iterator[list[GameAudit]]:
    """The audits of every game of a store, a slice at a time
    (:func:`replay.store_audit.audit_slices`), with a progress bar. The slices are read into
    Arrow's jemalloc pool: each slice's memory handed back once freed (the default pool kept
    about 150 MB more of it resident, in this process and in every worker forked from it)."""
    from replay.store.stream import lean_memory_pool
    from replay.store_audit import audit_slices

    # No refresh thread in the progress bar: audit_many forks.
    with lean_memory_pool(), progress_bar(auto_refresh=False) as progress:
        task = progress.add_task("auditing", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total, refresh=True)

        for report in audit_slices(store, kind, complete=complete, jobs=jobs, on_progress=advance):
            yield report.games


@app.command()
def explain(
    inputs: InputsArg,
    step: Annotated[
        int,
        typer.Option(
            "--step", "-s", help="Step N: the event of seq N (judged in the state before it)."
        ),
    ],
    game: GameOpt = None,
    fmt: Annotated[
        ExplainFormat,
        typer.Option(
            "--format",
            "-f",
            help="table, json, jsonl, or a report to send: markdown, html.",
        ),
    ] = ExplainFormat.table,
    as_json: JsonOpt = False,
) -> None:
    """The disputed-ruling view: the state before the event, the event, and the verdict.

    Exit 0 when the event stands, 1 when it breaks a rule, 2 when it cannot be judged.
    """
    from replay.explain import explain_step

    _, ref, events = load_one_game(inputs, game)
    try:
        verdict = explain_step(events, step)
    except (IndexError, ValueError) as exc:
        fail(f"{ref.origin}: game {shown(ref.game_id)}: {exc}")
    fmt = ExplainFormat.json if as_json else fmt
    if fmt is ExplainFormat.json:
        typer.echo(dump({**verdict.to_dict(), "file": ref.origin}))
    elif fmt is ExplainFormat.jsonl:
        typer.echo(json.dumps({**verdict.to_dict(), "file": ref.origin}, ensure_ascii=False))
    elif fmt in (ExplainFormat.markdown, ExplainFormat.html):
        from replay.htmlreport import dispute_report

        typer.echo(dispute_report(events, verdict, ref.origin, fmt.value), nl=False)
    else:
        typer.echo(verdict.render())
    raise typer.Exit(0 if verdict.ok else 1)


@app.command("rules")
def rules_cmd(
    which: Annotated[
        str | None,
        typer.Argument(
            metavar="[ID]",
            help="A rule ID (HEARTS-FOLLOW), an ID's start (HEARTS-, LOG-) or a game kind "
            "(hearts); all rules when left out.",
        ),
    ] = None,
    fmt: FormatOpt = Format.table,
) -> None:
    """Print a rule of RULES.md, the rules of a game, or all of them."""
    from replay.rulebook import rules

    book = rules()
    wanted = (which or "").upper()
    chosen_ids = [r for r in book if r == wanted] or [
        r
        for r in book
        if r.startswith(wanted if wanted.endswith("-") or not wanted else f"{wanted}-")
    ]
    if not chosen_ids:
        fail(f"no rule {which!r} in RULES.md; rules start with {_prefixes(book)}")
    rows = [{"rule": r, "text": book[r]} for r in chosen_ids]
    if fmt is Format.table:
        for row in rows:
            typer.echo(f"{row['rule']}: {row['text']}")
    else:
        echo(records_text(rows, fmt, ("rule", "text")))


def _prefixes(book: dict[str, str]) -> str:
    return ", ".join(sorted({r.split("-")[0] + "-" for r in book}))
