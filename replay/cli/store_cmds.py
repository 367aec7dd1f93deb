"""Store commands: ``import``, ``export``, ``info``, ``compact``, ``games``.

Every command prints problems as ``file: game G seq N: reason (RULE)`` lines on stderr, exits
with code 1 when it could not do everything asked (the rest is still done), and never shows a
traceback for bad input.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from enum import StrEnum
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeAlias, TypeVar

import typer

from replay.cli.app import app
from replay.cli.common import (
    InputsArg,
    KindOpt,
    StoreArg,
    echo_problems,
    fail,
    game_of,
    progress_bar,
    read_inputs,
    removed_when_failed,
)
from replay.cli.output import Format, FormatOpt, echo, records_text
from replay.cli.sink import atomic_output
from replay.review import DEFAULT_SAMPLES
from replay.text import aligned, escaped, shown

if TYPE_CHECKING:
    import pyarrow as pa

    from replay.model.events import Event
    from replay.review.engine import GameReview
    from replay.sources import FileInput, Sources
    from replay.store import EventStore, Rejection

F = TypeVar("F", bound=Callable[..., Any])


def _clean_errors(func: F) -> F:
    """Turn store errors and I/O errors into a message and exit code 1."""

    @wraps(func)
    def run(*args: Any, **kwargs: Any) -> Any:
        from replay.games.base import RuleViolation
        from replay.sources import SourceError
        from replay.store import StorageFailure, StoreError

        try:
            return func(*args, **kwargs)
        except StorageFailure as exc:  # disk full, quota, permission...: its own exit code
            fail(str(exc), code=exc.exit_code)
        except (StoreError, RuleViolation, OSError, SourceError) as exc:
            fail(str(exc), code=1)

    return run  # type: ignore[return-value]


def _report(problems: list[Rejection]) -> bool:
    """Print problems on stderr; True when there were none."""
    echo_problems(problems, "error")
    return not problems


@app.command("import")
@_clean_errors
def import_cmd(
    inputs: Annotated[
        list[str],
        typer.Argument(
            metavar="INPUT...",
            help="JSON Lines files, folders (searched for .jsonl files) or - for standard input.",
        ),
    ],
    into: Annotated[
        Path, typer.Option("--into", "-o", metavar="STORE", help="The store (created if missing).")
    ],
    prefix: Annotated[
        str | None,
        typer.Option(
            "--prefix", "-p", help="Store every game as PREFIX + its id (ids that collide)."
        ),
    ] = None,
    rename: Annotated[
        list[str] | None,
        typer.Option("--rename", help="OLD=NEW: store game OLD as NEW (repeatable)."),
    ] = None,
    problems_file: Annotated[
        Path | None,
        typer.Option(
            "--problems",
            metavar="FILE",
            help="Write every problem (rejected line or game) to FILE as JSON Lines: file, "
            "line, game_id, seq, rule, reason ('-': stdout).",
        ),
    ] = None,
) -> None:
    """Import games from JSON Lines; bad lines and bad games are reported, the rest is stored
    in one commit per input. Nothing stored: said so, and no new empty store is left."""
    from replay.sources import STDIN, expand, is_store

    renames = parse_renames(rename or [])
    found, texts = expand(inputs)
    problems: list[Problem] = list(texts)
    stores = [f for f in found if f != STDIN and is_store(Path(f))]
    problems += [
        f"{f}: an event store, not a JSON Lines file (replay export reads it)" for f in stores
    ]
    files = [f for f in found if f not in stores]
    try:
        with removed_when_failed(into):
            _import_all(files, inputs, into, problems, prefix, renames)
    finally:
        if problems_file is not None:
            _write_problems(problems_file, problems)


#: A problem of an import: a store's rejection (file, line, game, seq, rule) or a line of text.
Problem: TypeAlias = "Rejection | str"


def _write_problems(path: Path, problems: list[Problem]) -> None:
    """Every problem as one JSON object a line (``replay.audit.problem_object``)."""
    from replay.audit import problem_object

    with atomic_output(path) as out:
        out.writelines(json.dumps(problem_object(p), ensure_ascii=False) + "\n" for p in problems)


def _import_all(
    files: list[str | Path],
    inputs: list[str],
    into: Path,
    problems: list[Problem],
    prefix: str | None,
    renames: dict[str, str],
) -> None:
    """Each file (or standard input) in its own commit; the problems and outcome said."""
    from replay.store import StorageFailure

    existed = into.exists()
    store: EventStore | None = None
    stored = events = 0
    with progress_bar() as progress:
        task = progress.add_task("importing", total=len(files))
        for item in files:
            try:
                imported = _import_one(item, into, problems, prefix, renames)
            except StorageFailure as exc:  # say what the inputs before this one stored
                before = f"the {stored} games of the inputs before {shown(str(item))}"
                fail(exc.after(before, "its games") if stored else str(exc), exc.exit_code)
            progress.advance(task)
            if imported is not None:
                store = store or imported[0]
                stored += imported[1]
                events += imported[2]
    if store is not None:
        problems += store.problems
    if not stored and not existed and store is not None:
        shutil.rmtree(into, ignore_errors=True)
    if not events and not problems:
        fail(f"{' '.join(inputs)}: no events")
    echo_problems(problems, "error")
    if not stored:
        typer.echo(f"nothing stored in {into}" + ("" if existed else " (no store created)"))
    if problems:
        raise typer.Exit(1)


def _import_one(
    item: str | Path,
    into: Path,
    problems: list[Problem],
    prefix: str | None,
    renames: dict[str, str],
) -> tuple[EventStore, int, int] | None:
    """Import one input, streamed (standard input through a temporary copy): the store, the
    games stored and the events read; None when the input is no log at all."""
    from replay.sources import STDIN, STDIN_NAME

    if item != STDIN:
        return _import_file(Path(item), into, problems, prefix, renames)
    with tempfile.TemporaryDirectory(prefix="replay-stdin-") as folder:
        copy = Path(folder) / "stdin.jsonl"
        with copy.open("wb") as out:
            shutil.copyfileobj(sys.stdin.buffer, out)
        return _import_file(copy, into, problems, prefix, renames, name=STDIN_NAME)


def _import_file(
    path: Path,
    into: Path,
    problems: list[Problem],
    prefix: str | None,
    renames: dict[str, str],
    *,
    name: str | None = None,
) -> tuple[EventStore, int, int] | None:
    """Import one JSON Lines file (named ``name`` in messages, else its path), streamed
    (:func:`replay.store.stream.import_jsonl`): the store, the games stored and the events
    read; None when the file is no log at all."""
    from replay.sources import unreadable_start
    from replay.store import EventStore
    from replay.store.stream import import_jsonl

    origin = name or str(path)
    try:
        unreadable = unreadable_start(path)
    except OSError as exc:
        problems.append(f"{origin}: {exc.strerror or exc}")
        return None
    if unreadable:
        problems.append(f"{origin}: not JSON Lines: first {unreadable} lines unreadable")
        return None
    store = EventStore.open(into, create=True)
    done = import_jsonl(store, path, source=origin, transform=lambda t: renamed(t, prefix, renames))
    typer.echo(f"{origin}: {done.lines} lines; {done.report.summary()}")
    problems += done.unreadable + done.report.rejected
    return store, len(done.report.ingested), done.events


def parse_renames(items: list[str]) -> dict[str, str]:
    """``--rename OLD=NEW`` options as a mapping (exit 2 on a malformed one)."""
    out: dict[str, str] = {}
    for item in items:
        old, sep, new = item.partition("=")
        if not sep or not old or not new:
            fail(f"--rename {item!r}: expected OLD=NEW")
        out[old] = new
    return out


def renamed(table: pa.Table, prefix: str | None, renames: dict[str, str]) -> pa.Table:
    """The events with their game ids renamed (``--rename``), then prefixed (``--prefix``)."""
    import pyarrow as pa

    if not prefix and not renames:
        return table
    ids = [str(g) if g is not None else None for g in table.column("game_id").to_pylist()]
    new = [None if g is None else (prefix or "") + renames.get(g, g) for g in ids]
    index = table.schema.get_field_index("game_id")
    return table.set_column(index, table.schema.field(index), pa.array(new, pa.string()))


def _export_batches(store: EventStore, game: str | None, kind: str | None) -> Iterator[pa.Table]:
    if game is not None:
        yield store.load_game_table(store.resolve_game_id(game))
        return
    ids = store.list_games_table(kind).column("game_id")
    names = sorted(str(v) for v in ids.to_pylist())
    step = 2000
    for i in range(0, len(names), step):
        yield store.load_games_table(names[i : i + step])


class ExportFormat(StrEnum):
    jsonl = "jsonl"
    html = "html"


@app.command("export")
@_clean_errors
def export_cmd(
    inputs: InputsArg,
    out: Annotated[Path, typer.Option("--out", "-o", help="The file to write ('-': stdout).")],
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="One game (id or prefix).")
    ] = None,
    kind: KindOpt = None,
    fmt: Annotated[
        ExportFormat,
        typer.Option(
            "--format",
            "-f",
            help="jsonl: canonical JSON Lines; html: one game (--game, unless the input holds "
            "one) as a self-contained page that steps through it.",
        ),
    ] = ExportFormat.jsonl,
    review: Annotated[
        bool,
        typer.Option(
            "--review", help="html: the page shows the game's review (replay review) too."
        ),
    ] = False,
    samples: Annotated[
        int,
        typer.Option(min=1, help="--review: deals of the hidden cards per decision."),
    ] = DEFAULT_SAMPLES,
    seed: Annotated[int, typer.Option(help="--review: the same seed, the same review.")] = 0,
) -> None:
    """Export games as canonical JSON Lines (each input's games by id and seq), or one game
    as a shareable HTML replay (with its review: --review)."""
    from replay.store.jsonl import table_text

    sources = read_inputs(inputs, code=1)
    if review and fmt is not ExportFormat.html:
        fail("--review needs --format html")
    if fmt is ExportFormat.html:  # one game: --game, or the inputs' only game
        ref, events = game_of(sources, game, code=2)
        from replay.render.pages import replay_page

        reviewed = _reviewed(events, samples, seed) if review else None
        _write_text(out, replay_page(events, ref.origin, reviewed))
        typer.echo(f"game {shown(ref.game_id)} written to {out}", err=str(out) == "-")
        return
    count = 0
    with atomic_output(out) as sink, progress_bar() as progress:
        total = 1 if game is not None else len(sources.games(kind))
        task = progress.add_task("exporting", total=total)
        for table in _export_tables(sources, game, kind):
            sink.write(table_text(table))
            count += table.num_rows
            progress.advance(task, len(set(table.column("game_id").to_pylist())))
    typer.echo(f"{count} events written to {out}", err=str(out) == "-")
    if not _report_texts(sources.collect_problems()):
        raise typer.Exit(1)


def _reviewed(events: list[Event], samples: int, seed: int) -> GameReview:
    """The review of one game for its HTML page (exit 2 with one line when it has none)."""
    from replay.review.engine import Settings, review_game

    ordered = sorted(events, key=lambda e: e.seq)
    try:
        return review_game(ordered, Settings(samples=samples, seed=seed))
    except ValueError as exc:
        fail(f"game {shown(ordered[0].game_id)}: no review: {exc}")


def _write_text(out: Path, text: str) -> None:
    with atomic_output(out) as sink:
        sink.write(text + "\n")


def _export_tables(sources: Sources, game: str | None, kind: str | None) -> Iterator[pa.Table]:
    """Each input's games (owned by it: a duplicate id is left out), by id and seq."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from replay.model.events import events_to_table
    from replay.sources import FileInput, StoreInput

    if game is not None:
        _ref, events = game_of(sources, game, code=1)
        yield events_to_table(sorted(events, key=lambda e: e.seq))
        return
    owners = {ref.game_id: ref.origin for ref in sources.games(kind)}
    for source in sources.inputs:
        if isinstance(source, StoreInput):
            for table in _export_batches(source.store, None, kind):
                mine = pc.is_in(
                    table.column("game_id"),
                    pa.array([g for g, o in owners.items() if o == source.origin], pa.string()),
                )
                yield table.filter(mine)
            continue
        assert isinstance(source, FileInput)
        for game_id in sorted(source.games):
            if owners.get(game_id) == source.origin:
                yield events_to_table(sorted(source.games[game_id], key=lambda e: e.seq))


def _report_texts(problems: list[str]) -> bool:
    echo_problems(problems, "error")
    return not problems


INFO_COLUMNS = (
    "input",
    "kind",
    "games",
    "events",
    "first",
    "last",
    "files",
    "bytes",
    "bytes_per_event",
)


@app.command("info")
@_clean_errors
def info_cmd(inputs: InputsArg, fmt: FormatOpt = Format.table) -> None:
    """Games and events per kind, date range, files, size on disk, bytes per event."""
    from replay.sources import FileInput, StoreInput

    sources = read_inputs(inputs, code=1)
    rows: list[dict[str, Any]] = []
    for source in sources.inputs:
        if isinstance(source, StoreInput):
            rows += _store_info(source.store, fmt)
        else:
            assert isinstance(source, FileInput)
            rows += _file_info(source, fmt)
    if fmt is not Format.table:
        echo(records_text(rows, fmt, INFO_COLUMNS))
    if not _report_texts(sources.collect_problems()):
        raise typer.Exit(1)


def _store_info(store: EventStore, fmt: Format) -> list[dict[str, Any]]:
    info = store.info()
    rows = [
        {
            "input": str(info.path),
            "kind": k.kind,
            "games": k.games,
            "events": k.events,
            "first": k.first,
            "last": k.last,
            "files": k.files,
            "bytes": k.bytes,
            "bytes_per_event": round(k.bytes_per_event, 2),
        }
        for k in info.kinds
    ]
    if fmt is not Format.table:
        return rows
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
    return rows


def _file_info(source: FileInput, fmt: Format) -> list[dict[str, Any]]:
    per_kind: dict[str, list[list[Event]]] = {}
    for events in source.games.values():
        per_kind.setdefault(events[0].kind, []).append(events)
    rows = []
    for kind in sorted(per_kind):
        games = per_kind[kind]
        times = [e.ts for g in games for e in g if e.ts is not None]
        rows.append(
            {
                "input": source.origin,
                "kind": kind,
                "games": len(games),
                "events": sum(len(g) for g in games),
                "first": min(times, default=None),
                "last": max(times, default=None),
                "files": None,
                "bytes": None,
                "bytes_per_event": None,
            }
        )
    if fmt is Format.table:
        typer.echo(f"file {source.origin} ({source.lines} lines)")
        for r in rows:
            typer.echo(
                f"  {r['kind']:8} {r['games']:8} games {r['events']:11} events  "
                f"{_day(r['first'])} .. {_day(r['last'])}"
            )
    return rows


def _day(value: Any) -> str:
    return value.strftime("%Y-%m-%d") if value is not None else "-"


@app.command("compact")
@_clean_errors
def compact_cmd(store_path: StoreArg) -> None:
    """Merge small files into large ones and delete the files no longer referenced."""
    from replay.store import EventStore, StoreError

    store = EventStore.open(store_path)
    before = len(store.files())
    try:
        with progress_bar() as progress:
            progress.add_task("compacting", total=None)
            metrics = store.compact()
    except StoreError:
        _report(store.problems)
        raise
    after = len(store.files())
    typer.echo(f"{before} files -> {after} files ({metrics['vacuumed']} old files deleted)")


GAMES_COLUMNS = ("game_id", "kind", "started", "events", "rounds", "players", "winners", "file")


@app.command("games")
@_clean_errors
def games_cmd(
    inputs: InputsArg,
    kind: KindOpt = None,
    player: Annotated[
        str | None, typer.Option("--player", "-p", help="Only games of this player.")
    ] = None,
    limit: Annotated[int | None, typer.Option("--limit", "-n", help="At most N games.")] = None,
    fmt: FormatOpt = Format.table,
    as_json: Annotated[bool, typer.Option("--json", help="Short for --format jsonl.")] = False,
) -> None:
    """List games: id, kind, date, length, players, winners, the input each came from."""
    from replay.audit.results import recomputed_result

    sources = read_inputs(inputs, code=1)
    rows = sources.summaries(kind, player)
    if limit is not None:
        rows = rows[: max(limit, 0)]
    fmt = Format.jsonl if as_json else fmt
    if fmt is not Format.table:
        results = {
            ref.game_id: recomputed_result(events) for ref, events in sources.iter_games(kind)
        }
        for row in rows:
            row["recomputed"] = results.get(row["game_id"])  # the result as the rules give it
        echo(records_text(rows, fmt, GAMES_COLUMNS))
    elif rows:
        echo(games_table(rows, several=len(sources.inputs) > 1))
    if not _report_texts(sources.collect_problems()):
        raise typer.Exit(1)


def games_table(rows: list[dict[str, Any]], *, several: bool) -> str:
    """``replay games`` for people: one line per game under a header, every column aligned
    (the players last, as their list is the longest); ids and names escaped (replay.text)."""
    header = ["game", "kind", "started", "events", "rounds", "winners", "players"]
    lines = [header + (["file"] if several else [])]
    for row in rows:
        started = row["started"].strftime("%Y-%m-%d %H:%M") if row["started"] is not None else "-"
        line = [shown(row["game_id"]), shown(row["kind"]), started, str(row["events"]),
                str(row["rounds"]), ", ".join(shown(w) for w in row["winners"]) or "-",
                ", ".join(shown(p) for p in row["players"]) or "-"]  # fmt: skip
        lines.append(line + ([escaped(str(row["file"]))] if several else []))
    if several:  # the file after the players would start anywhere: put it before them
        lines = [[*line[:-2], line[-1], line[-2]] for line in lines]
    return aligned(lines, right={3, 4})  # events and rounds
