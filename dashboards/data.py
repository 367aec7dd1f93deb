"""Everything the pages read, through the library, cached across reruns and sessions.

The source (a store or a JSON Lines file) is opened once per server (``st.cache_resource``);
game lists, audits, replay cursors, verdicts and statistics are cached by their parameters, so
moving one step of a replay re-reduces nothing (the cursor's snapshots) and a filter that comes
back is not recomputed. Nothing here knows a rule, writes SQL or parses an event: views come
from :class:`replay.cursor.Cursor`, findings from :mod:`replay.audit`, verdicts from
:mod:`replay.explain`, statistics from :mod:`replay.analytics`.
"""

from __future__ import annotations

import datetime
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc
import streamlit as st

from replay.audit import AuditReport, Finding, audit_game, audit_many, group_games
from replay.cursor import Cursor, Jump
from replay.events import Event, events_from_table
from replay.explain import Verdict, explain_step
from replay.games import UnknownGame, get_rules

if TYPE_CHECKING:
    from replay.store import EventStore

#: The environment variable naming the source (``replay dashboard`` sets it).
SOURCE_ENV = "REPLAY_DASHBOARD_SOURCE"
#: The most games a game picker lists at once (search narrows it).
PICKER_LIMIT = 500
#: The session key holding how long the last page took to run on the server.
PAGE_SECONDS = "page_seconds"
#: The columns of a games table, whatever the source.
GAME_COLUMNS = ("game_id", "kind", "players", "seats", "events", "started", "winners")


def source_path() -> str:
    """The store or file the dashboard was started on: :data:`SOURCE_ENV`, else
    ``streamlit run app.py -- PATH``, else ``sample_logs/store``."""
    if os.environ.get(SOURCE_ENV):
        return os.environ[SOURCE_ENV]
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    return args[0] if args else "sample_logs/store"


@dataclass
class Source:
    """An opened store, or the games of one JSON Lines file."""

    path: str
    store: EventStore | None = None
    games: dict[str, list[Event]] = field(default_factory=dict)  # a file's games by id
    table: pa.Table | None = None  # a file's events
    opening_problems: list[str] = field(default_factory=list)

    @property
    def problems(self) -> list[str]:
        """Everything that could not be read so far (the store adds files as it meets them)."""
        store = [str(p) for p in self.store.problems] if self.store is not None else []
        return [*self.opening_problems, *dict.fromkeys(store)]

    @property
    def label(self) -> str:
        return f"{'store' if self.store is not None else 'file'} {self.path}"


@st.cache_resource(show_spinner="Opening the source…")
def open_source(path: str) -> Source:
    """Open a store directory or a JSON Lines file, read-only; a source that cannot be read is
    an empty source with one problem naming it (the pages show it)."""
    from replay.store import EventStore, StoreError
    from replay.store.jsonl import read_jsonl

    target = Path(path)
    try:
        if target.is_file():
            read = read_jsonl(target)
            games = group_games(events_from_table(read.table))
            return Source(
                path,
                games={g[0].game_id: g for g in games},
                table=read.table,
                opening_problems=[str(r) for r in read.rejected],
            )
        return Source(path, store=EventStore.open(target))
    except (StoreError, OSError) as exc:
        return Source(path, opening_problems=[str(exc) or f"{path}: cannot be read"])
    except Exception as exc:  # a damaged input must be a message, never a traceback
        return Source(path, opening_problems=[f"{path}: cannot be read: {exc}"])


# --------------------------------------------------------------------- filters
@dataclass(frozen=True)
class Chosen:
    """The sidebar's filters (every page honours them): :class:`replay.analytics.Filters`'s
    fields."""

    kind: str | None = None
    player: str | None = None
    players: int | None = None
    since: datetime.date | None = None
    until: datetime.date | None = None

    def analytics(self) -> Any:
        from replay.analytics import Filters

        return Filters(self.kind, self.player, self.players, self.since, self.until)


# --------------------------------------------------------------------- games
@st.cache_resource(show_spinner="Listing the games…", max_entries=32)
def all_games(path: str, kind: str | None) -> pa.Table:
    """One row per game of the source (:data:`GAME_COLUMNS`)."""
    source = open_source(path)
    if source.store is not None:
        try:
            table = source.store.list_games_table(kind)
        except Exception as exc:  # reported on the page by the store's problems
            source.opening_problems.append(f"{path}: cannot list the games: {exc}")
            return _empty_games()
        seats = pc.list_value_length(table.column("players"))
        return table.append_column("seats", seats).select(list(GAME_COLUMNS))
    rows = [_file_game_row(g) for g in source.games.values() if kind in (None, g[0].kind)]
    return pa.Table.from_pylist(rows, schema=_empty_games().schema) if rows else _empty_games()


def _file_game_row(events: list[Event]) -> dict[str, Any]:
    """A file game's row, its names from the state view at step 0 (the rules read the setup)."""
    names: list[str] = []
    try:
        rules = get_rules(events[0].kind)
        first = next(iter(rules.walk(events[:1])))
        if first.applied is not None:
            names = [str(n) for n in rules.view(first.state)["names"]]
    except Exception:  # an unknown kind or a bad setup: the game is listed without names
        names = []
    return {
        "game_id": events[0].game_id, "kind": events[0].kind, "players": names,
        "seats": len(names), "events": len(events), "started": events[0].ts, "winners": [],
    }  # fmt: skip


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
def chosen_games(path: str, chosen: Chosen) -> pa.Table:
    """The games the filters choose (kind, player, seat count, dates)."""
    table = all_games(path, chosen.kind)
    mask: Any = pa.array([True] * table.num_rows, pa.bool_())
    if chosen.player is not None:
        mask = pc.and_(mask, _has_player(table, chosen.player))
    if chosen.players is not None:
        seats: Any = table.column("seats")
        mask = pc.and_(mask, pc.equal(seats, pa.scalar(chosen.players, pa.int32())))
    day: Any = pc.cast(table.column("started"), pa.date32())
    if chosen.since is not None:
        since = pa.scalar(chosen.since, pa.date32())
        mask = pc.and_(mask, pc.fill_null(pc.greater_equal(day, since), False))
    if chosen.until is not None:
        until = pa.scalar(chosen.until, pa.date32())
        mask = pc.and_(mask, pc.fill_null(pc.less_equal(day, until), False))
    return table.filter(mask)


def _has_player(table: pa.Table, player: str) -> Any:
    """Per game: ``player`` sits at it (a boolean array)."""
    players: Any = table.column("players")
    flat: Any = pc.list_flatten(players)
    parents: Any = pc.list_parent_indices(players)
    hits: Any = pc.filter(parents, pc.equal(flat, pa.scalar(player, pa.string())))
    rows = pa.array(range(table.num_rows), pa.int64())
    return pc.is_in(rows, value_set=pc.cast(pc.unique(hits), pa.int64()))


@st.cache_data(max_entries=16)
def player_names(path: str, kind: str | None) -> list[str]:
    """Every player of the source's games (of ``kind``), alphabetically."""
    flat = pc.list_flatten(all_games(path, kind).column("players"))
    return sorted(str(p) for p in pc.unique(flat).to_pylist() if p is not None)


@st.cache_data(max_entries=16)
def seat_counts(path: str, kind: str | None) -> list[int]:
    """The table sizes of the source's games (of ``kind``)."""
    seats = pc.unique(all_games(path, kind).column("seats")).to_pylist()
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

    def jump(self, step: int, where: Jump) -> int:
        """The step a jump from ``step`` lands on."""
        with self.lock:
            return self.cursor.seek(step).jump(where, self.finding_seqs).step

    def can_jump(self, step: int, where: Jump) -> bool:
        with self.lock:
            return self.cursor.seek(step).can_jump(where, self.finding_seqs)

    def event(self, step: int) -> Event:
        return self.cursor.events[step]


def load_events(path: str, game_id: str) -> list[Event]:
    """One game's events (a problem reading it leaves the store's problem list longer)."""
    source = open_source(path)
    if source.store is not None:
        return source.store.load_game(game_id)
    return source.games[game_id]


@st.cache_resource(show_spinner="Replaying the game…", max_entries=64)
def game_replay(path: str, game_id: str) -> Replay | str:
    """The replay of one game, or the reason it cannot be replayed (one line)."""
    try:
        events = load_events(path, game_id)
        cursor = Cursor(get_rules(events[0].kind), events)
    except UnknownGame as exc:
        return f"game {game_id}: unknown game kind {exc}"
    except (KeyError, ValueError, IndexError) as exc:
        return f"game {game_id}: cannot be replayed: {exc}"
    except Exception as exc:
        return f"{path}: game {game_id} cannot be read: {exc}"
    return Replay(cursor, audit_game(events).findings)


@st.cache_data(max_entries=64)
def score_track(path: str, game_id: str) -> pa.Table:
    """Totals per seat at the end of every round (step, round, seat, name, total)."""
    replay = game_replay(path, game_id)
    if isinstance(replay, str):
        return pa.table({"step": [], "round": [], "seat": [], "name": [], "total": []})
    rows = []
    with replay.lock:
        steps = [0, *replay.cursor.round_stops]
        for step in steps:
            view = replay.cursor.seek(step).view()
            for seat, total in enumerate(view["totals"]):
                name = view["names"][seat] if seat < len(view["names"]) else f"seat {seat}"
                rows.append(
                    {"step": step, "round": view["round"] or 0, "seat": seat, "name": name,
                     "total": total}
                )  # fmt: skip
    return pa.Table.from_pylist(rows)


@st.cache_resource(max_entries=256)
def verdict(path: str, game_id: str, seq: int) -> Verdict | str:
    """``replay explain``'s verdict on one event, or why it cannot be judged."""
    try:
        return explain_step(load_events(path, game_id), seq)
    except (IndexError, ValueError, KeyError) as exc:
        return str(exc)


# --------------------------------------------------------------------- audit
def audit_report(path: str, progress: Callable[[int, int], None] | None = None) -> AuditReport:
    """The audit of every game of the source, once per server (one process: the server runs
    threads, which a fork must not copy); ``progress(done, total)`` as games are audited."""
    with _AUDIT_LOCK:
        report = _REPORTS.get(path)
        if report is None:
            report = _REPORTS[path] = _audit(path, progress)
        return report


_REPORTS: dict[str, AuditReport] = {}
_AUDIT_LOCK = threading.Lock()


def _audit(path: str, progress: Callable[[int, int], None] | None) -> AuditReport:
    source = open_source(path)
    if source.store is None:
        games = list(source.games.values())
        report = AuditReport(games=[audit_game(g) for g in games])
    else:
        try:
            batches = list(source.store.scan(dictionary=True))
        except Exception as exc:
            return AuditReport(problems=[f"{path}: cannot be read: {exc}"])
        if not batches:
            return AuditReport()
        table = pa.Table.from_batches(batches)
        total = len(set(pc.unique(pc.cast(table.column("game_id"), pa.string())).to_pylist()))
        done = [0]

        def advance(games: int) -> None:
            done[0] += games
            if progress is not None:
                progress(done[0], total)

        report = audit_many(table, 1, advance)
    report.problems.extend(source.problems)
    return report


@st.cache_resource(max_entries=64)
def findings_table(path: str, chosen: Chosen) -> pa.Table:
    """The findings of the chosen games: game, kind, seq, rule, rule text, message."""
    report = audit_report(path)
    keep = set(chosen_games(path, chosen).column("game_id").to_pylist())
    rows = [
        {"game_id": f.game_id, "kind": f.kind, "seq": f.seq, "rule": f.rule,
         "rule_text": f.rule_text, "message": f.message}
        for f in report.findings
        if chosen == Chosen() or f.game_id in keep  # unfiltered: also games no list shows
    ]  # fmt: skip
    schema = pa.schema(
        [pa.field("seq", pa.int64()) if n == "seq" else pa.field(n, pa.string())
         for n in ("game_id", "kind", "seq", "rule", "rule_text", "message")]
    )  # fmt: skip
    return pa.Table.from_pylist(rows, schema=schema)


# --------------------------------------------------------------------- statistics
@st.cache_resource(show_spinner="Preparing the statistics…")
def analytics(path: str) -> Any:
    """The statistics library over the source (``None`` when it is not available)."""
    try:
        from replay.analytics import Analytics
    except ImportError:
        return None
    source = open_source(path)
    if source.store is not None:
        return Analytics.open(source.store)
    if source.table is not None:
        return Analytics.open(source.table)
    return None


@contextmanager
def warned(what: str) -> Iterator[None]:
    """Show a failure of one part of a page as a warning box (the rest still renders)."""
    try:
        yield
    except Exception as exc:
        st.warning(f"{what}: {type(exc).__name__}: {exc}")


# --------------------------------------------------------------------- page helpers
def page_context() -> tuple[str, Chosen]:
    """The source path and the filters the entry point put in the session."""
    path = str(st.session_state.get("source") or source_path())
    chosen = st.session_state.get("chosen")
    return path, chosen if isinstance(chosen, Chosen) else Chosen()


def show_problems(path: str) -> None:
    """Bad input (a damaged file, a malformed line) as one warning box naming each file."""
    problems = open_source(path).problems
    if problems:
        shown = "\n".join(f"- {p}" for p in problems[:20])
        more = f"\n- … and {len(problems) - 20} more" if len(problems) > 20 else ""
        st.warning(f"Some input could not be read and is left out:\n{shown}{more}")


def audited(path: str) -> bool:
    """Whether the source's audit has run in this server (its findings are at hand)."""
    return path in _REPORTS


def run_audit(path: str) -> AuditReport:
    """The audit, with a progress bar the first time."""
    if path in _REPORTS:
        return audit_report(path)
    bar = st.progress(0.0, text="Auditing the games…")

    def progress(done: int, total: int) -> None:
        bar.progress(min(done / max(total, 1), 1.0), text=f"Auditing: {done:,} of {total:,} games")

    report = audit_report(path, progress)
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
