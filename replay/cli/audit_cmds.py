"""``replay audit`` and ``replay explain``: check recorded games against the rules."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from replay.cli.app import app
from replay.cli.common import (
    Engine,
    EngineOpt,
    GameOpt,
    InputsArg,
    KindOpt,
    MasterOpt,
    echo_problems,
    fail,
    game_of,
    load_one_game,
    progress_bar,
    read_inputs,
)
from replay.cli.output import Format, FormatOpt, JsonOpt, dump, echo, records_text
from replay.review import DEFAULT_IMPACT_SAMPLES
from replay.text import shown

if TYPE_CHECKING:
    from replay.audit import GameAudit
    from replay.audit.spool import SpooledReport
    from replay.model.events import Event
    from replay.review.impact import Impact

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


ImpactOpt = Annotated[
    bool,
    typer.Option(
        "--impact",
        help="The adjusted result of a faulty event: rollouts to the end of the game from the "
        "rules' ruling (docs/review.md).",
    ),
]
SamplesOpt = Annotated[
    int, typer.Option("--samples", "-n", min=1, help="Rollouts per finding (with --impact).")
]
SeedOpt = Annotated[int, typer.Option("--seed", help="The rollouts' seed (with --impact).")]


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
    impact: ImpactOpt = False,
    samples: SamplesOpt = DEFAULT_IMPACT_SAMPLES,
    seed: SeedOpt = 0,
) -> None:
    """Check every decision and recompute every ruling. Exit 0 clean, 1 findings, 2 unreadable.

    A log that stops before its game ended (a live game, a cut file) is reported as incomplete,
    with what the game waits for, unless ``--complete``. With ``--impact``, each finding's
    adjusted result (``replay explain --impact``) beside it (not with ``--engine spark``)."""
    from replay.audit import audit_game
    from replay.audit.report import write_report
    from replay.audit.spool import SpooledReport
    from replay.cli.spark_engine import audit_with_spark

    impacts = _Impacts(samples, seed) if impact else None
    with SpooledReport() as report:
        if engine is Engine.local and game is None:  # every game, files streamed
            where, described = _audit_inputs(report, inputs, kind, jobs, complete, impacts)
        else:
            sources = read_inputs(inputs)
            if engine is Engine.spark:
                report.add(audit_with_spark(sources, game, kind, master).games)
            else:
                _, events = game_of(sources, game)
                report.add([audit_game(events, complete=complete)])
                if impacts is not None:
                    impacts.add(events)
            report.problems.extend(sources.collect_problems())
            where, described = sources.origin, sources.describe()
        if not report.counts().games and not report.problems:
            report.problems.append(f"{described}: no events")
        write_report(report, fmt.value, sys.stdout, where, impacts.found if impacts else None)
        sys.stdout.write("\n")
        if fmt is AuditFormat.csv:  # a CSV of findings has no row for unreadable input
            echo_problems(report.problems, "error")
    raise typer.Exit(report.exit_code)


class _Impacts:
    """The adjusted results of the findings met (``replay audit --impact``)."""

    def __init__(self, samples: int, seed: int) -> None:
        self.samples, self.seed = samples, seed
        self.found: dict[tuple[str, int], Impact] = {}

    def add(self, events: list[Event]) -> None:
        """The adjusted results of one game's findings (events in any order)."""
        from replay.review.impact import game_impacts

        ordered = sorted(events, key=lambda e: e.seq)
        for found in game_impacts(ordered, samples=self.samples, seed=self.seed):
            self.found[(found.game_id, found.seq)] = found


class _Owners:
    """Which input each game is audited from: the first that holds it (a later copy is a
    problem, and left out, as :class:`~replay.sources.Sources` says). Ids are kept only when
    there are several inputs."""

    def __init__(self, inputs: int, report: SpooledReport) -> None:
        self.several = inputs > 1
        self.origins: dict[str, str] = {}
        self.report = report
        self.only = ""

    def fresh(self, game_id: str, origin: str) -> bool:
        """Whether the game is met for the first time (then it is this input's)."""
        self.only = origin
        if not self.several:
            return True
        known = self.origins.setdefault(game_id, origin)
        if known != origin:
            self.report.problems.append(
                f"{origin}: game {game_id}: also in {known}; this copy is left out "
                "(import --prefix stores both)"
            )
        return known == origin

    def origin(self, game_id: str) -> str:
        return self.origins.get(game_id, "") if self.several else self.only


def _audit_inputs(
    report: SpooledReport,
    inputs: list[str],
    kind: str | None,
    jobs: int,
    complete: bool,
    impacts: _Impacts | None = None,
) -> tuple[Callable[[str], str], str]:
    """Every game of the inputs, each once: a store's a slice at a time (in worker
    processes), a JSON Lines file's streamed in tables of whole games
    (:func:`replay.store.stream.game_tables`: memory bounded by a part of the file, not the
    file), standard input's read whole. Returns the input of each game and the inputs in a
    few words; when no input can be read at all, exits 2 naming why."""
    from replay.sources import STDIN, expand, is_store, open_store_input, read_stream

    found, problems = expand(inputs)
    report.problems.extend(problems)
    owners = _Owners(len(found), report)
    opened: list[str] = []
    for item in found:
        if item == STDIN:
            read = read_stream(sys.stdin.buffer, report.problems)
            if read is not None:
                opened.append(read.origin)
                _audit_groups(
                    report, read.games.values(), read.origin, owners, kind, complete, impacts
                )
        elif is_store(Path(item)):
            source = open_store_input(Path(item), report.problems)
            if source is not None:
                opened.append(source.origin)
                for games in _audit_store(source.store, kind, jobs, complete):
                    mine = [g for g in games if owners.fresh(g.game_id, source.origin)]
                    report.add(mine)
                    if impacts is not None:
                        for g in mine:
                            if g.findings:
                                impacts.add(source.store.load_game(g.game_id))
                report.problems += [
                    p for p in map(str, source.store.problems) if p not in report.problems
                ]
        elif _audit_file(report, Path(item), owners, kind, complete, impacts):
            opened.append(str(item))
    if not opened:
        echo_problems(report.problems, "error")
        raise typer.Exit(2)
    return owners.origin, opened[0] if len(opened) == 1 else f"{len(opened)} inputs"


def _audit_file(
    report: SpooledReport,
    path: Path,
    owners: _Owners,
    kind: str | None,
    complete: bool,
    impacts: _Impacts | None = None,
) -> bool:
    """Audit a JSON Lines file, streamed; False (and a problem) when it is no log at all."""
    from replay.audit import group_games
    from replay.model.decode import events_from_table
    from replay.sources import unreadable_start
    from replay.store.stream import game_tables
    from replay.store.validate import Rejection

    origin = str(path)
    try:
        unreadable = unreadable_start(path)
        if unreadable:
            report.problems.append(f"{origin}: not JSON Lines: first {unreadable} lines unreadable")
            return False
        rejected: list[Rejection] = []
        for table in game_tables(path, rejected):
            games = group_games(events_from_table(table))
            del table
            _audit_groups(report, games, origin, owners, kind, complete, impacts)
            del games
    except OSError as exc:
        report.problems.append(f"{origin}: {exc.strerror or exc}")
        return False
    report.problems += [str(r) for r in rejected]
    return True


def _audit_groups(
    report: SpooledReport,
    games: Iterable[list[Event]],
    origin: str,
    owners: _Owners,
    kind: str | None,
    complete: bool,
    impacts: _Impacts | None = None,
) -> None:
    """Audit the games (of ``kind``) this input owns (and adjust their findings' results)."""
    from replay.audit import audit_game

    for events in games:
        if (kind is None or events[0].kind == kind) and owners.fresh(events[0].game_id, origin):
            audited = audit_game(events, complete=complete)
            report.add([audited])
            if impacts is not None and audited.findings:
                impacts.add(events)


def _audit_store(
    store: Any, kind: str | None, jobs: int, complete: bool
) -> Iterator[list[GameAudit]]:
    """The audits of every game of a store, a slice at a time
    (:func:`replay.audit.store.audit_slices`), with a progress bar. The slices are read into
    Arrow's jemalloc pool: each slice's memory handed back once freed (the default pool kept
    about 150 MB more of it resident, in this process and in every worker forked from it)."""
    from replay.audit.store import audit_slices
    from replay.store.stream import lean_memory_pool

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
    impact: ImpactOpt = False,
    samples: SamplesOpt = DEFAULT_IMPACT_SAMPLES,
    seed: SeedOpt = 0,
) -> None:
    """The disputed-ruling view: the state before the event, the event, and the verdict.

    With ``--impact``, the adjusted result of a faulty event: the game played on to its end
    from the rules' ruling (or a legal move for an illegal one), beside the recorded result.
    Exit 0 when the event stands, 1 when it breaks a rule, 2 when it cannot be judged.
    """
    from replay.audit.explain import explain_step

    _, ref, events = load_one_game(inputs, game)
    try:
        verdict = explain_step(events, step)
    except (IndexError, ValueError) as exc:
        fail(f"{ref.origin}: game {shown(ref.game_id)}: {exc}")
    adjusted = _impact_of(events, step, samples, seed) if impact and not verdict.ok else None
    extra = {"impact": adjusted.to_dict() if adjusted else None} if impact else {}
    fmt = ExplainFormat.json if as_json else fmt
    if fmt is ExplainFormat.json:
        typer.echo(dump({**verdict.to_dict(), "file": ref.origin, **extra}))
    elif fmt is ExplainFormat.jsonl:
        typer.echo(
            json.dumps({**verdict.to_dict(), "file": ref.origin, **extra}, ensure_ascii=False)
        )
    elif fmt in (ExplainFormat.markdown, ExplainFormat.html):
        from replay.render.pages import dispute_report

        typer.echo(dispute_report(events, verdict, ref.origin, fmt.value, adjusted), nl=False)
    else:
        typer.echo(verdict.render())
        if adjusted is not None:
            typer.echo("\n" + adjusted.render())
        elif impact:
            typer.echo("\nadjusted result: none (no finding of the audit at this step)")
    raise typer.Exit(0 if verdict.ok else 1)


def _impact_of(events: list[Event], step: int, samples: int, seed: int) -> Impact | None:
    """The adjusted result of the finding at ``step`` (None when the audit finds none there)."""
    from replay.review.impact import game_impacts

    found = game_impacts(sorted(events, key=lambda e: e.seq), samples=samples, seed=seed,
                         steps=[step])  # fmt: skip
    return found[0] if found else None


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
    from replay.model.rulebook import rules

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
