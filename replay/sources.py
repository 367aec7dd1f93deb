"""Any input as one source of games: stores, JSON Lines files, folders, standard input.

Every reading command of the CLI takes one or more paths and opens them here:

- a **store** (a directory holding ``_delta_log/``) gives its stored games;
- a **JSON Lines file** (any name, when given by name) gives the games of its events;
- a **folder** is searched recursively for stores and ``.jsonl`` files, in name order at each
  level (a store is not searched inside; a link back into a folder being searched, a loop, is
  a problem named once and not followed, as ``find -L`` does);
- ``-`` is standard input, read as JSON Lines (named ``<stdin>`` in messages).

Each game knows the input it came from (:attr:`GameRef.origin`), so findings and errors can
name the file. Input that cannot be used (a missing path, a file that is not JSON Lines at all,
unreadable lines, a game id met twice) becomes :attr:`Sources.problems`, never an exception;
the rest is still read.

>>> import tempfile, pathlib
>>> from replay.engine.simulate import simulate_game
>>> from replay.games import get_rules
>>> from replay.store.jsonl import event_to_line
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> game = simulate_game(get_rules("hez2"), "g1", players=2, seed=1)
>>> _ = (folder / "a.jsonl").write_text("".join(event_to_line(e) + "\\n" for e in game))
>>> sources = open_sources([folder])
>>> [(g.game_id, pathlib.Path(g.origin).name) for g in sources.games()]
[('g1', 'a.jsonl')]
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any

import pyarrow as pa

from replay.model.decode import events_from_table
from replay.model.events import Event, conform_events, seat_names
from replay.store import EventStore, StoreError
from replay.store.jsonl import read_jsonl
from replay.words import did_you_mean

#: The name of standard input, as a path argument and in messages.
STDIN = "-"
STDIN_NAME = "<stdin>"
#: A file whose first this many non-blank lines are all unreadable is not JSON Lines at all:
#: it is reported once and left out (a README, a binary), instead of one line per line.
SNIFF_LINES = 5


class SourceError(Exception):
    """A game that cannot be found (no such id, an ambiguous prefix) in the inputs."""


@dataclass(frozen=True, slots=True)
class GameRef:
    """One game of the inputs: its id, kind and the input (file or store) it came from."""

    game_id: str
    kind: str
    origin: str


@dataclass(slots=True)
class FileInput:
    """The games of one JSON Lines file (or of standard input), in first-seen order."""

    origin: str
    table: pa.Table
    games: dict[str, list[Event]]
    lines: int


@dataclass(slots=True)
class StoreInput:
    """One event store."""

    origin: str
    store: Any  # replay.store.EventStore (imported lazily: opening a file needs no Delta)


Input = FileInput | StoreInput


@dataclass(slots=True)
class Sources:
    """The inputs of one command, as one source of games.

    A game id met in two inputs is a problem; the later copy is left out. The games of the
    inputs are indexed on first use (one store alone resolves an id with its own query).
    """

    inputs: list[Input] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    _refs: dict[str, tuple[GameRef, Input]] | None = None

    # ------------------------------------------------------------------ the games
    def games(self, kind: str | None = None) -> list[GameRef]:
        """Every game (of ``kind``), in input order, then each input's own order."""
        return [ref for ref, _ in self._index().values() if kind is None or ref.kind == kind]

    def resolve(self, prefix: str) -> GameRef:
        """The one game whose id is ``prefix`` or, failing that, the only one starting with
        it (``SourceError``, or the store's ``StoreError``, otherwise)."""
        if self._refs is None and len(self.inputs) == 1 and isinstance(self.inputs[0], StoreInput):
            only = self.inputs[0]
            game_id = only.store.resolve_game_id(prefix)
            return GameRef(game_id, "", only.origin)
        refs = self._index()
        if prefix in refs:
            return refs[prefix][0]
        matching = sorted(g for g in refs if g.startswith(prefix))
        if len(matching) == 1:
            return refs[matching[0]][0]
        where = self.describe()
        if not matching:
            hint = did_you_mean(prefix, refs)
            raise SourceError(f"{where}: no game id starts with {prefix!r}{hint}")
        raise SourceError(
            f"{where}: game id prefix {prefix!r} matches several games: {cut_list(matching)}"
        )

    def load(self, ref: GameRef) -> list[Event]:
        """The events of one game, in recorded order (a file's) or seq order (a store's)."""
        source = self._input_of(ref)
        if isinstance(source, FileInput):
            return source.games[ref.game_id]
        events: list[Event] = source.store.load_game(ref.game_id)
        self._take_store_problems(source)
        return events

    def iter_games(self, kind: str | None = None) -> Iterator[tuple[GameRef, list[Event]]]:
        """Every game (of ``kind``) with its events."""
        for ref in self.games(kind):
            yield ref, self.load(ref)

    def origin(self, game_id: str) -> str:
        """The input a game came from ('' if unknown; one input alone: that input, without
        indexing its games)."""
        if self._refs is None and len(self.inputs) == 1:
            return self.inputs[0].origin
        found = self._index().get(game_id)
        return found[0].origin if found else ""

    def describe(self) -> str:
        """The inputs in a few words, for messages (``a.jsonl``, ``3 inputs``)."""
        if len(self.inputs) == 1:
            return self.inputs[0].origin
        return f"{len(self.inputs)} inputs"

    def summaries(self, kind: str | None = None, player: str | None = None) -> list[dict[str, Any]]:
        """One row per game, as ``EventStore.list_games_table`` gives for a store (game_id,
        kind, players, events, rounds, started, result, winners), plus ``file``; ordered by
        start time, then id."""
        refs = self._index()
        rows: list[dict[str, Any]] = []
        for source in self.inputs:
            if isinstance(source, StoreInput):
                listed = source.store.list_games_table(kind, player).to_pylist()
                self._take_store_problems(source)
            else:
                listed = [summarise(events) for events in source.games.values()]
                listed = [
                    r
                    for r in listed
                    if (kind is None or r["kind"] == kind)
                    and (player is None or player in r["players"])
                ]
            for row in listed:
                if refs.get(row["game_id"], (None, None))[1] is source:
                    rows.append({**row, "file": source.origin})
        rows.sort(key=lambda r: (r["started"] is None, r["started"] or _EPOCH, r["game_id"]))
        return rows

    def events_table(self) -> pa.Table:
        """Every input's events in one table (the statistics' columns), each game from the
        input the sources kept it from (a store's problems met on the way added)."""
        import pyarrow.compute as pc

        kept: dict[str, list[str]] = {}
        for ref in self.games():
            kept.setdefault(ref.origin, []).append(ref.game_id)
        tables = []
        for source in self.inputs:
            if isinstance(source, FileInput):
                table = source.table
            else:
                table = pa.Table.from_batches(list(source.store.scan()))
                self._take_store_problems(source)
            ids = pa.array(kept.get(source.origin, []), pa.string())
            table = conform_events(table)
            tables.append(table.filter(pc.is_in(table.column("game_id"), value_set=ids)))
        return pa.concat_tables(tables)

    # ------------------------------------------------------------------ building
    def add(self, source: Input) -> None:
        """Add an input."""
        self.inputs.append(source)
        self._refs = None
        if isinstance(source, StoreInput):
            self._take_store_problems(source)

    def _index(self) -> dict[str, tuple[GameRef, Input]]:
        if self._refs is not None:
            return self._refs
        refs: dict[str, tuple[GameRef, Input]] = {}
        for source in self.inputs:
            for ref in _refs_of(source, self.problems):
                known = refs.get(ref.game_id)
                if known is not None:
                    self.problems.append(
                        f"{source.origin}: game {ref.game_id}: also in {known[0].origin}; "
                        "this copy is left out (import --prefix stores both)"
                    )
                    continue
                refs[ref.game_id] = (ref, source)
            if isinstance(source, StoreInput):
                self._take_store_problems(source)
        self._refs = refs
        return refs

    def _input_of(self, ref: GameRef) -> Input:
        if self._refs is None and len(self.inputs) == 1:
            return self.inputs[0]
        return self._index()[ref.game_id][1]

    def collect_problems(self) -> list[str]:
        """:attr:`problems`, with every store's problems met so far added (once each)."""
        for source in self.inputs:
            if isinstance(source, StoreInput):
                self._take_store_problems(source)
        return self.problems

    def _take_store_problems(self, source: StoreInput) -> None:
        for problem in source.store.problems:
            text = str(problem)
            if text not in self.problems:
                self.problems.append(text)


def cut_list(items: Sequence[str], limit: int = 10) -> str:
    """Items joined by commas, cut after ``limit`` with the number left out.

    >>> cut_list(["a", "b", "c"], 2)
    'a, b and 1 more'
    """
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


_EPOCH = datetime(1, 1, 1)


def _refs_of(source: Input, problems: list[str]) -> list[GameRef]:
    """The games of an input (a journal that cannot be read: one of ``problems``)."""
    if isinstance(source, FileInput):
        return [GameRef(g, events[0].kind, source.origin) for g, events in source.games.items()]
    table = source.store.list_games_table()
    ids = [str(v) for v in table.column("game_id").to_pylist()]
    kinds = [str(v) for v in table.column("kind").to_pylist()]
    live = [g for g in source.store.live_games() if g not in set(ids)]
    refs = [GameRef(g, k, source.origin) for g, k in zip(ids, kinds, strict=True)]
    for game_id in live:
        try:
            events = source.store.journal.read(game_id)
        except StoreError as exc:  # an unreadable journal: named, the other games served
            problems.append(str(exc))
            continue
        if events:
            refs.append(GameRef(game_id, events[0].kind, source.origin))
    return refs


def summarise(events: Sequence[Event]) -> dict[str, Any]:
    """A game's listing row from its events (the columns of ``EventStore.list_games_table``)."""
    start = next((e for e in events if e.type == "game_start"), None)
    end = next((e for e in events if e.type == "game_end"), None)
    names = seat_names(events)
    result = list(end.values) if end is not None and end.values is not None else None
    winners = [names[s] if 0 <= s < len(names) else f"seat {s}" for s in (result or [])]
    return {
        "game_id": events[0].game_id,
        "kind": events[0].kind,
        "players": names,
        "events": len(events),
        "rounds": len({e.round for e in events if e.round is not None}),
        "started": start.ts if start is not None else None,
        "result": result,
        "winners": winners,
    }


# --------------------------------------------------------------------- opening paths
def is_store(path: Path) -> bool:
    """A directory holding a Delta log: an event store."""
    return (path / "_delta_log").is_dir()


def expand(paths: Sequence[str | Path]) -> tuple[list[str | Path], list[str]]:
    """The inputs the paths name (stores, files, ``-``), folders searched recursively in name
    order; and one problem per path that names nothing usable."""
    found: list[str | Path] = []
    problems: list[str] = []
    for raw in paths:
        if str(raw) == STDIN:
            found.append(STDIN)
            continue
        path = Path(raw)
        if is_store(path) or path.is_file():
            found.append(path)
        elif path.is_dir():
            before = len(problems)
            inside = list(_search(path, [os.path.realpath(path)], problems))
            if not inside and len(problems) == before:
                problems.append(f"{path}: no event store here, and no .jsonl file in this folder")
            found += inside
        elif path.exists():
            problems.append(f"{path}: neither a file nor a folder")
        else:
            problems.append(f"{path}: no event store, file or folder of that name")
    return found, problems


def _search(folder: Path, searching: list[str], problems: list[str]) -> Iterator[Path]:
    """The stores and ``.jsonl`` files under ``folder``, in name order; ``searching``: the real
    paths of the folders being searched (the root first). A link to one of them or into one
    (a loop: ``ln -s . d/self``) is named once in ``problems`` and not followed, as
    ``find -L`` and ripgrep do."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        problems.append(f"{folder}: {exc.strerror or exc}")
        return
    for entry in entries:
        path = Path(entry.path)
        if entry.name.startswith("."):
            continue
        try:
            is_dir, is_file = entry.is_dir(), entry.is_file()
        except OSError as exc:  # a link to itself
            problems.append(f"{path}: {exc.strerror or exc}")
            continue
        if is_dir:
            if is_store(path):
                yield path
                continue
            real = os.path.realpath(path)
            loop = next((a for a in searching if _within(real, a)), None)
            if entry.is_symlink() and loop is not None:
                problems.append(f"{path}: a link back into {loop} (a loop): not followed")
                continue
            yield from _search(path, [*searching, real], problems)
        elif entry.name.endswith(".jsonl") and is_file:
            yield path


def _within(path: str, folder: str) -> bool:
    """Whether the real path ``path`` is ``folder`` or inside it."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def open_sources(paths: Sequence[str | Path], stdin: IO[bytes] | None = None) -> Sources:
    """Open every input the paths name as one :class:`Sources` (problems collected)."""
    found, problems = expand(paths)
    sources = Sources(problems=problems)
    for item in found:
        if item == STDIN:
            source: Input | None = read_stream(stdin or sys.stdin.buffer, sources.problems)
        elif is_store(Path(item)):
            source = open_store_input(Path(item), sources.problems)
        else:
            source = read_file(Path(item), sources.problems)
        if source is not None:
            sources.add(source)
    return sources


def open_store_input(path: Path, problems: list[str]) -> StoreInput | None:
    """A store as an input, or ``None`` (and a problem) when it cannot be opened."""
    try:
        return StoreInput(str(path), EventStore.open(path))
    except StoreError as exc:
        problems.append(str(exc))
    except OSError as exc:
        problems.append(f"{exc.filename or path}: {exc.strerror or exc}")
    return None


def read_stream(stream: IO[bytes], problems: list[str]) -> FileInput | None:
    """Standard input as a JSON Lines input named ``<stdin>``."""
    data = stream.read()
    with tempfile.TemporaryDirectory(prefix="replay-stdin-") as tmp:
        path = Path(tmp) / "stdin.jsonl"
        path.write_bytes(data)
        return read_file(path, problems, name=STDIN_NAME)


def read_file(path: Path, problems: list[str], *, name: str | None = None) -> FileInput | None:
    """A JSON Lines file as an input; ``None`` when it cannot be read or is not JSON Lines at
    all (one problem). Unreadable lines are problems naming the file and line."""
    origin = name or str(path)
    try:
        refusal = not_json_lines(path, origin)
        if refusal:
            problems.append(refusal)
            return None
        read = read_jsonl(path)
    except OSError as exc:
        problems.append(f"{origin}: {exc.strerror or exc}")
        return None
    problems += [str(dataclasses.replace(r, source=origin)) for r in read.rejected]
    events = events_from_table(read.table)
    games: dict[str, list[Event]] = {}
    for event in events:
        games.setdefault(event.game_id, []).append(event)
    return FileInput(origin, read.table, games, read.lines)


def not_json_lines(path: Path, origin: str | None = None) -> str | None:
    """The one line refusing a file that is no JSON Lines at all (:func:`unreadable_start`),
    or None."""
    unreadable = unreadable_start(path)
    if not unreadable:
        return None
    return f"{origin or path}: not JSON Lines: first {unreadable} lines unreadable"


def unreadable_start(path: Path, lines: int = SNIFF_LINES) -> int:
    """How many lines open a file before its first JSON object, when that is all of its
    first ``lines`` non-blank lines (or all its lines, if fewer); else 0. Non-zero means not
    a log with a few bad lines, but no log at all (a README, a binary)."""
    seen = 0
    with path.open("rb") as stream:
        for raw in stream:
            if not raw.strip():
                continue
            try:
                if isinstance(json.loads(raw.removeprefix(b"\xef\xbb\xbf")), dict):
                    return 0
            except (ValueError, RecursionError):  # RecursionError: nested too deeply
                pass
            seen += 1
            if seen >= lines:
                break
    return seen
