"""Everything the pages read, through the library, cached across reruns and sessions.

The source (a store, a JSON Lines file or a folder, as the CLI reads them: :mod:`replay.sources`)
is opened once per server (``st.cache_resource``);
game lists, audits, replay cursors, verdicts and statistics are cached by their parameters, so
moving one step of a replay re-reduces nothing (the cursor's snapshots) and a filter that comes
back is not recomputed. What covers the whole store (its figures, the games, the statistics, the
findings) is also keyed by the store's :func:`snapshot`, so an import shows on the next run.
Nothing here knows a rule, writes SQL or parses an event: views come from
:class:`replay.engine.cursor.Cursor`, findings from :mod:`replay.audit` (a store's slice by slice:
:mod:`replay.audit.store`), verdicts from :mod:`replay.audit.explain`, statistics from
:mod:`replay.analytics`.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc
import streamlit as st

from replay.analytics import Analytics, Filters
from replay.audit import AuditReport, Finding, audit_game
from replay.audit.explain import Verdict, explain_step
from replay.audit.report import Counts
from replay.audit.store import audit_slices
from replay.engine.cursor import Cursor, Jump, Outcome
from replay.games import UnknownGame, get_rules
from replay.model.events import Event
from replay.model.rulebook import rule_text
from replay.model.violation import RuleViolation
from replay.review.impact import Impact, game_impacts
from replay.sources import SourceError, Sources, StoreInput, open_sources

if TYPE_CHECKING:
    from replay.store import EventStore, StoreInfo

#: The environment variable naming the source (``replay dashboard`` sets it).
SOURCE_ENV = "REPLAY_DASHBOARD_SOURCE"
#: The most games a game picker lists at once (search narrows it).
PICKER_LIMIT = 500
#: The session key holding how long the last page took to run on the server.
PAGE_SECONDS = "page_seconds"
#: The columns of a games table, whatever the source.
GAME_COLUMNS = ("game_id", "kind", "players", "seats", "events", "started", "winners")
#: The columns of the findings table the pages show.
FINDING_COLUMNS = ("game_id", "kind", "seq", "rule", "rule_text", "message")
#: What the store-wide figures were read from (:func:`snapshot`): part of their cache keys.
Snapshot = tuple[Any, ...]


def source_path() -> str:
    """The store or file the dashboard was started on: :data:`SOURCE_ENV`, else
    ``streamlit run app.py -- PATH``, else ``sample_logs/store``."""
    if os.environ.get(SOURCE_ENV):
        return os.environ[SOURCE_ENV]
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    return args[0] if args else "sample_logs/store"


@dataclass
class Source:
    """The inputs the dashboard was started on, opened as the CLI opens them
    (:func:`replay.sources.open_sources`): one store alone is read in place; anything else (JSON
    Lines files, a folder of stores and files) is read by :class:`~replay.sources.Sources`."""

    path: str
    sources: Sources = field(default_factory=Sources)
    what: str = "file"

    @property
    def store(self) -> EventStore | None:
        """The one input, when it is a store."""
        inputs = self.sources.inputs
        return inputs[0].store if len(inputs) == 1 and isinstance(inputs[0], StoreInput) else None

    @property
    def problems(self) -> list[str]:
        """Everything that could not be read so far (a store adds files as it meets them)."""
        return list(self.sources.collect_problems())

    @property
    def label(self) -> str:
        return f"{self.what} {self.path}"


@st.cache_resource(show_spinner="Opening the source…")
def open_source(path: str) -> Source:
    """Open the inputs ``path`` names as every command of the CLI does (a store, a JSON Lines
    file, a folder searched for both), read-only; what cannot be read is one problem each, in
    the CLI's words (the pages show them), the rest is read."""
    folder = Path(path).is_dir() and not (Path(path) / "_delta_log").is_dir()
    try:
        sources = open_sources([path])
    except Exception as exc:  # a damaged input must be a message, never a traceback
        return Source(path, Sources(problems=[f"{path}: cannot be read: {exc}"]))
    source = Source(path, sources, "folder" if folder else "file")
    if source.store is not None:
        source.what = "store"
    return source


def snapshot(path: str) -> Snapshot:
    """What the store-wide figures (its info, the games, the statistics, the findings) are read
    from: a store's Delta table version and its live games with the size of their journals, so
    an import, a compaction or a live game's new events make them be read again; ``()`` for a
    file (read once per server) or a store whose version cannot be read (the pages report why)."""
    store = open_source(path).store
    if store is None:
        return ()
    try:
        version = store.table().version()
        live = tuple((g, _size(store.journal.path(g))) for g in store.live_games())
    except Exception:
        return ()
    return (version, live)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return -1


@st.cache_data(show_spinner="Reading the store's figures…", max_entries=8)
def store_info(path: str, snap: Snapshot) -> StoreInfo | None:
    """The store's :meth:`~replay.store.EventStore.info` (version, files, bytes, live games),
    once per snapshot; None for a file."""
    store = open_source(path).store
    return store.info() if store is not None else None


# --------------------------------------------------------------------- games
@st.cache_resource(show_spinner="Listing the games…", max_entries=32)
def all_games(path: str, kind: str | None, snap: Snapshot) -> pa.Table:
    """One row per game of the source (:data:`GAME_COLUMNS`) at snapshot ``snap``."""
    source = open_source(path)
    if source.store is not None:
        try:
            table = source.store.list_games_table(kind)
        except Exception as exc:  # reported on the page by the store's problems
            source.sources.problems.append(f"{path}: cannot list the games: {exc}")
            return _empty_games()
        seats = pc.list_value_length(table.column("players"))
        return table.append_column("seats", seats).select(list(GAME_COLUMNS))
    rows = [
        {**{c: r.get(c) for c in GAME_COLUMNS}, "seats": len(r["players"])}
        for r in source.sources.summaries(kind)
    ]
    return pa.Table.from_pylist(rows, schema=_empty_games().schema) if rows else _empty_games()


def _empty_games() -> pa.Table:
    return pa.table(
        {
            "game_id": pa.array([], pa.string()),
            "kind": pa.array([], pa.string()),
            "players": pa.array([], pa.list_(pa.string())),
            "seats": pa.array([], pa.int32()),
            "events": pa.array([], pa.int64()),
            "started": pa.array([], pa.timestamp("ms", tz="UTC")),
            "winners": pa.array([], pa.list_(pa.string())),
        }
    )


@st.cache_resource(max_entries=64)
def chosen_games(path: str, chosen: Filters, snap: Snapshot) -> pa.Table:
    """The games the filters choose, as the statistics choose them
    (:meth:`~replay.analytics.Analytics.chosen_game_ids`: the same SQL), listed as
    :func:`all_games` lists them."""
    table = all_games(path, chosen.kind, snap)
    if chosen == Filters(kind=chosen.kind) or table.num_rows == 0:
        return table
    lib = analytics(path, snap)
    ids = lib.chosen_game_ids(chosen) if lib is not None else []
    return table.filter(pc.is_in(table.column("game_id"), value_set=pa.array(ids, pa.string())))


def _has_player(table: pa.Table, player: str) -> Any:
    """Per game: ``player`` sits at it (a boolean array)."""
    players: Any = table.column("players")
    flat: Any = pc.list_flatten(players)
    parents: Any = pc.list_parent_indices(players)
    hits: Any = pc.filter(parents, pc.equal(flat, pa.scalar(player, pa.string())))
    rows = pa.array(range(table.num_rows), pa.int64())
    return pc.is_in(rows, value_set=pc.cast(pc.unique(hits), pa.int64()))


@st.cache_data(max_entries=16)
def player_names(path: str, kind: str | None, snap: Snapshot) -> list[str]:
    """Every player of the source's games (of ``kind``), alphabetically."""
    flat = pc.list_flatten(all_games(path, kind, snap).column("players"))
    return sorted(str(p) for p in pc.unique(flat).to_pylist() if p is not None)


@st.cache_data(max_entries=16)
def seat_counts(path: str, kind: str | None, snap: Snapshot) -> list[int]:
    """The table sizes of the source's games (of ``kind``)."""
    seats = pc.unique(all_games(path, kind, snap).column("seats")).to_pylist()
    return sorted(int(n) for n in seats if n is not None)


def search_games(games: pa.Table, text: str, limit: int = PICKER_LIMIT) -> list[str]:
    """Game ids starting with ``text`` or with a player named ``text`` (first ``limit``)."""
    if text:
        by_id = pc.starts_with(games.column("game_id"), text)
        by_player = _has_player(games, text)
        games = games.filter(pc.or_(by_id, by_player))
    return [str(g) for g in games.column("game_id").slice(0, limit).to_pylist()]


# --------------------------------------------------------------------- one game
@dataclass
class Replay:
    """A game's cursor (built once, its snapshots reused by every step) and its findings."""

    cursor: Cursor
    findings: list[Finding]
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def finding_seqs(self) -> list[int]:
        return [f.seq for f in self.findings]

    def view(self, step: int, seat: int | None) -> dict[str, Any]:
        """The state view at ``step`` (``docs/state.md``) as ``seat`` sees it."""
        with self.lock:
            return self.cursor.seek(step).view(seat)

    def jump(self, step: int, where: Jump, mistakes: Sequence[int] = ()) -> int:
        """The step a jump from ``step`` lands on (``mistakes``: a review's labelled seqs)."""
        with self.lock:
            return self.cursor.seek(step).jump(where, self.finding_seqs, mistakes).step

    def can_jump(self, step: int, where: Jump, mistakes: Sequence[int] = ()) -> bool:
        with self.lock:
            return self.cursor.seek(step).can_jump(where, self.finding_seqs, mistakes)

    def event(self, step: int) -> Event:
        return self.cursor.events[step]

    def state_before(self, step: int) -> Any:
        """The state the event of ``step`` was applied to (a snapshot: do not modify it)."""
        with self.lock:
            return self.cursor.state_at(step - 1)

    def outcome(self, step: int) -> Outcome:
        """The event of ``step`` as recorded, the rules' verdict, what play continues from."""
        with self.lock:
            return self.cursor.outcome(step)


def load_events(path: str, game_id: str) -> list[Event]:
    """One game's events (a problem reading it leaves the store's problem list longer)."""
    source = open_source(path)
    if source.store is not None:
        return source.store.load_game(game_id)
    try:
        return source.sources.load(source.sources.resolve(game_id))
    except SourceError as exc:
        raise KeyError(game_id) from exc


@st.cache_resource(show_spinner="Replaying the game…", max_entries=64)
def game_replay(path: str, game_id: str) -> Replay | str:
    """The replay of one game, or the reason it cannot be replayed (one line)."""
    try:
        events = load_events(path, game_id)
        cursor = Cursor(get_rules(events[0].kind), events)
    except UnknownGame as exc:
        return f"game {game_id}: unknown game kind {exc}"
    except RuleViolation as exc:  # the first event starts no game: no state to show
        return f"game {game_id}: cannot be replayed: recorded {events[0].describe()}: {exc}"
    except (KeyError, ValueError, IndexError) as exc:
        return f"game {game_id}: cannot be replayed: {exc}"
    except Exception as exc:
        return f"{path}: game {game_id} cannot be read: {exc}"
    return Replay(cursor, audit_game(events).findings)


#: The most steps a game's standing is read at for its chart.
TRACK_POINTS = 240


@st.cache_data(max_entries=64)
def standing_track(path: str, game_id: str) -> pa.Table:
    """Where each seat stands (the game's first figure of ``standing``: Hearts' points, Hez2's
    cards left...) at the ends of tricks and rounds, or for a game without them at up to
    :data:`TRACK_POINTS` steps spread over it: (step, seat, name, figure, value)."""
    replay = game_replay(path, game_id)
    rows: list[dict[str, Any]] = []
    if isinstance(replay, str):
        return pa.table({"step": [], "seat": [], "name": [], "figure": [], "value": []})
    with replay.lock:
        cursor = replay.cursor
        steps = sorted({0, *cursor.round_stops, *cursor.trick_stops})
        if len(steps) < 20:
            steps = list(range(0, cursor.last_step + 1, max(1, cursor.last_step // TRACK_POINTS)))
        for step in steps:
            rows += standing_rows(cursor.seek(step).view())[0]
    return pa.Table.from_pylist(rows)


def standing_rows(view: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict[str, list[Any]]]:
    """The rows of the game's first ``standing`` figure at the view's step, and every figure."""
    figures = get_rules(str(view["kind"])).standing(view)
    figure, values = next(iter(figures.items()))
    names = list(view.get("names") or [])
    rows = [
        {"step": view["step"], "seat": seat, "name": names[seat] if seat < len(names) else
         f"seat {seat}", "figure": figure, "value": value}
        for seat, value in enumerate(values)
    ]  # fmt: skip
    return rows, figures


@st.cache_resource(max_entries=64)
def final_result(path: str, game_id: str) -> dict[str, Any]:
    """The game's result as its rules give it at its last step (winners, places, payouts,
    totals: the keys the game has); empty when it cannot be replayed."""
    replay = game_replay(path, game_id)
    if isinstance(replay, str):
        return {}
    with replay.lock:
        state = replay.cursor.seek(replay.cursor.last_step).state
        return dict(get_rules(replay.cursor.events[0].kind).result(state))


@st.cache_resource(max_entries=256)
def verdict(path: str, game_id: str, seq: int) -> Verdict | str:
    """``replay explain``'s verdict on one event, or why it cannot be judged."""
    try:
        return explain_step(load_events(path, game_id), seq)
    except (IndexError, ValueError, KeyError) as exc:
        return str(exc)


#: Rollouts of the audit page's adjusted result (fewer than the CLI's: an answer in a second).
DASHBOARD_IMPACT_SAMPLES = 64


@st.cache_resource(show_spinner="Playing the game on from the rules' ruling…", max_entries=64)
def adjusted_result(path: str, game_id: str, seq: int) -> Impact | str | None:
    """``replay explain --impact``'s adjusted result of the finding at ``seq`` (seed 0), None
    when there is no finding there, or why it cannot be computed."""
    try:
        events = sorted(load_events(path, game_id), key=lambda e: e.seq)
        found = game_impacts(events, samples=DASHBOARD_IMPACT_SAMPLES, steps=[seq])
    except (IndexError, ValueError, KeyError) as exc:
        return str(exc)
    return found[0] if found else None


# --------------------------------------------------------------------- audit
@dataclass(frozen=True)
class Audited:
    """The audit of every game of a source, as the pages keep it: how many games and events,
    and the findings (game, kind, seq, rule, message: no state, no event; a verdict is recomputed
    when a finding is selected), in ``replay audit``'s order (kind, game id, then as found)."""

    counts: Counts
    findings: pa.Table
    problems: tuple[str, ...] = ()

    @property
    def games(self) -> int:
        return self.counts.games

    @property
    def events(self) -> int:
        return self.counts.events


def audit_report(
    path: str, snap: Snapshot, progress: Callable[[int, int], None] | None = None
) -> Audited:
    """The audit of every game of the source, once per snapshot (a store's, slice by slice:
    memory bounded by a slice, :func:`replay.audit.store.audit_slices`; in this process, as the
    server runs threads, which a fork must not copy); ``progress(done, total)`` as games are
    audited."""
    with _AUDIT_LOCK:
        held = _AUDITS.get(path)
        if held is None or held[0] != snap:
            held = _AUDITS[path] = (snap, _audit(path, progress))  # the last snapshot only
        return held[1]


_AUDITS: dict[str, tuple[Snapshot, Audited]] = {}
_AUDIT_LOCK = threading.Lock()


def _audit(path: str, progress: Callable[[int, int], None] | None) -> Audited:
    source = open_source(path)
    reports: Iterator[AuditReport]
    if source.store is None:
        games = [audit_game(events) for _, events in source.sources.iter_games()]
        reports = iter([AuditReport(games=games)])
    else:
        reports = audit_slices(source.store, on_progress=progress)
    counts = Counts()
    parts = [_finding_rows([])]
    try:
        for report in reports:  # each slice's audits dropped once counted, its findings kept
            for game in report.games:
                counts.add(game)
            if report.findings:
                parts.append(_finding_rows(report.findings))
    except Exception as exc:
        return Audited(Counts(), parts[0], (f"{path}: cannot be read: {exc}",))
    found = pa.concat_tables(parts).sort_by([("kind", "ascending"), ("game_id", "ascending")])
    return Audited(counts, found)  # a stable sort: a game's findings stay in order


def _finding_rows(findings: list[Finding]) -> pa.Table:
    return pa.table(
        {"game_id": pa.array([f.game_id for f in findings], pa.string()),
         "kind": pa.array([f.kind for f in findings], pa.string()),
         "seq": pa.array([f.seq for f in findings], pa.int64()),
         "rule": pa.array([f.rule for f in findings], pa.string()),
         "message": pa.array([f.message for f in findings], pa.string())}
    )  # fmt: skip


@st.cache_resource(max_entries=64)
def findings_table(path: str, chosen: Filters, snap: Snapshot) -> pa.Table:
    """The findings of the chosen games (:data:`FINDING_COLUMNS`)."""
    table = audit_report(path, snap).findings
    if chosen != Filters():  # unfiltered: also games no list shows (live games)
        keep = chosen_games(path, chosen, snap).column("game_id")
        table = table.filter(pc.is_in(table.column("game_id"), value_set=keep.combine_chunks()))
    rules = pc.unique(table.column("rule"))
    texts = pa.array([rule_text(str(r)) for r in rules.to_pylist()], pa.string())
    where = pc.index_in(table.column("rule"), value_set=rules)
    table = table.append_column("rule_text", pc.take(texts, where))
    return table.select(list(FINDING_COLUMNS))


# --------------------------------------------------------------------- statistics
@st.cache_resource(show_spinner="Preparing the statistics…", max_entries=4)
def analytics(path: str, snap: Snapshot) -> Analytics | None:
    """The statistics library over the source at snapshot ``snap`` (``None`` for a source
    without games)."""
    source = open_source(path)
    if source.store is not None:
        return Analytics.open(source.store)
    if source.sources.games():
        return Analytics.open(source.sources.events_table())
    return None


def library(path: str, snap: Snapshot) -> Analytics:
    """:func:`analytics`, for a page that has checked that the source has games."""
    lib = analytics(path, snap)
    if lib is None:
        raise LookupError(f"{path}: no games to count")
    return lib


@st.cache_data(max_entries=64)
def player_counts(path: str, chosen: Filters, snap: Snapshot) -> dict[str | None, int]:
    """Distinct players of the chosen games per kind, and in all (key None), counted by the
    statistics library (every seat, so a chosen player's opponents too); empty without it."""
    lib = analytics(path, snap)
    if lib is None:
        return {}
    rows = lib.player_counts(chosen).to_pylist()
    return {r["kind"]: int(r["players"]) for r in rows}


@contextmanager
def warned(what: str) -> Iterator[None]:
    """Show a failure of one part of a page as a warning box (the rest still renders)."""
    try:
        yield
    except Exception as exc:
        st.warning(f"{what}: {type(exc).__name__}: {exc}")


# --------------------------------------------------------------------- page helpers
def page_context() -> tuple[str, Filters, Snapshot]:
    """The source path, the filters and the snapshot the entry point put in the session."""
    path = str(st.session_state.get("source") or source_path())
    chosen = st.session_state.get("chosen")
    snap = st.session_state.get("snapshot")
    return (
        path,
        chosen if isinstance(chosen, Filters) else Filters(),
        snap if isinstance(snap, tuple) else snapshot(path),
    )


def show_problems(path: str) -> None:
    """Bad input (a damaged file, a malformed line) as one warning box naming each file."""
    problems = open_source(path).problems
    if problems:
        shown = "\n".join(f"- {p}" for p in problems[:20])
        more = f"\n- … and {len(problems) - 20} more" if len(problems) > 20 else ""
        st.warning(f"Some input could not be read and is left out:\n{shown}{more}")


def audited(path: str, snap: Snapshot) -> bool:
    """Whether the source's audit at this snapshot has run in this server (its findings are at
    hand)."""
    held = _AUDITS.get(path)
    return held is not None and held[0] == snap


def run_audit(path: str, snap: Snapshot) -> Audited:
    """The audit, with a progress bar the first time at a snapshot."""
    if audited(path, snap):
        return audit_report(path, snap)
    bar = st.progress(0.0, text="Auditing the games…")

    def progress(done: int, total: int) -> None:
        bar.progress(min(done / max(total, 1), 1.0), text=f"Auditing: {done:,} of {total:,} games")

    report = audit_report(path, snap, progress)
    bar.empty()
    return report


def csv_bytes(table: pa.Table) -> bytes:
    """A table as CSV (for the download buttons); list columns joined by spaces."""
    import pyarrow.csv as pacsv

    columns: dict[str, Any] = {}
    for name in table.column_names:
        column: Any = table.column(name)
        if pa.types.is_list(column.type):
            column = pa.array([" ".join(map(str, v)) if v is not None else None
                               for v in column.to_pylist()], pa.string())  # fmt: skip
        columns[name] = column
    sink = pa.BufferOutputStream()
    pacsv.write_csv(pa.table(columns), sink)
    return bytes(sink.getvalue().to_pybytes())
