"""Hostile input: deep nesting, control characters in ids, ids no file name can hold."""

from __future__ import annotations

import dataclasses
import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from replay.audit import audit_game, audit_many
from replay.engine.simulate import simulate_game
from replay.games import get_rules
from replay.model.events import Event, events_to_table
from replay.store import EventStore, InvalidGame, stream
from replay.store.journal import MAX_QUOTED, file_name
from replay.store.jsonl import event_to_line, read_jsonl, write_lines
from replay.store.synthetic import hearts_like_table
from replay.text import escaped, shown
from tests.store_helpers import hearts_game, run_cli

#: Ids a hostile platform may send: long, path-like, control characters, bidi, unicode.
HOSTILE_IDS = [
    "x" * 10_000,
    "a/b",
    "..",
    "../../etc/passwd",
    ".",
    "",
    "g\x1b]0;pwned\x07",
    "tab\there\nnewline\r",
    "right\u202eto-left",
    "\u00e9\u4e2d\U0001f0a1",
    "%2F",
    "#hash",
    "\x7f\x85\u2028",
]


def _file(tmp_path: Path, *lines: str | bytes) -> Path:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join((x.encode() if isinstance(x, str) else x) + b"\n" for x in lines))
    return path


def _game_lines(game_id: str = "h-1") -> list[str]:
    return [event_to_line(dataclasses.replace(e, game_id=game_id)) for e in hearts_game("h")]


DEEP = {
    "bare": lambda d: "[" * d + "]" * d,
    "values": lambda d: '{"game_id":"d","seq":0,"values":' + "[" * d + "]" * d + "}",
    "unknown key": lambda d: '{"game_id":"d","seq":0,"zz":' + '{"a":' * d + "1" + "}" * d + "}",
}


@pytest.mark.parametrize("depth", [1_000, 100_000])
@pytest.mark.parametrize("shape", sorted(DEEP))
def test_a_deeply_nested_line_is_one_error_and_the_rest_is_read(
    tmp_path: Path, depth: int, shape: str
) -> None:
    good = _game_lines()
    path = _file(tmp_path, *good[:5], DEEP[shape](depth), *good[5:])
    read = read_jsonl(path)
    assert read.table.num_rows == len(good)
    assert [(r.line, r.rule) for r in read.rejected] == [(6, "STORE-JSON")]
    for command in (["audit", str(path)], ["import", str(path), "--into", str(tmp_path / "s")]):
        result = run_cli(*command)
        assert result.exit_code in (1, 2), result.output
        assert f"{path}:6:" in result.output
    result = run_cli("audit", str(tmp_path / "s"))
    assert result.exit_code == 0, result.output
    assert "1 game," in result.output


def test_a_line_of_brackets_inside_a_string_is_still_an_event(tmp_path: Path) -> None:
    good = _game_lines()
    start = hearts_game("h")[0]
    names = '{"names": ["' + "[{" * 200 + '"]}'
    good[0] = event_to_line(dataclasses.replace(start, game_id="h-1", data=names))
    read = read_jsonl(_file(tmp_path, *good))
    assert read.rejected == [] and read.table.num_rows == len(good)


def test_shown_escapes_controls_and_bidi_and_names_the_empty_id() -> None:
    assert shown("g\x1b]0;pwned\x07") == "g\\x1b]0;pwned\\x07"
    assert shown("") == '""'
    assert shown("a\u202eb\u2066") == "a\\u202eb\\u2066"
    assert shown("a\\x1b") == "a\\\\x1b"  # the id that spells an escape differs from ESC
    assert shown("\u00e9\u4e2d\U0001f0a1") == "\u00e9\u4e2d\U0001f0a1"
    assert escaped("line\nbreak\x9b") == "line\\x0abreak\\x9b"
    for game_id in HOSTILE_IDS:
        assert shown(game_id).isprintable()


@pytest.mark.parametrize("game_id", ["g\x1b]0;pwned\x07", "x\u202eevil", ""])
def test_a_hostile_id_is_printed_escaped_in_reports_and_errors(
    tmp_path: Path, game_id: str
) -> None:
    lines = _game_lines(game_id)
    lines[9] = lines[9].replace('"seq":9', '"seq":90')  # a gap: a finding and a rejection
    path = _file(tmp_path, *lines)
    audit = run_cli("audit", str(path))
    imported = run_cli("import", str(path), "--into", str(tmp_path / "s"))
    markdown = run_cli("audit", str(path), "--format", "markdown")
    for result in (audit, imported, markdown):
        assert result.exit_code == 1, result.output
        assert "\x1b" not in result.output and "\u202e" not in result.output
        assert "\x07" not in result.output
        assert f"{shown(game_id)}" in result.output
    assert "game  seq" not in imported.output
    json_report = run_cli("audit", str(path), "--format", "json")
    assert {f["game_id"] for f in json.loads(json_report.output)["findings"]} == {game_id}


#: Player names a hostile platform may send: an ESC sequence, rich markup, bidi, a backslash.
HOSTILE_NAMES = ["n\x1b[2J", "[red]r[/red]", "bidi\u202e", "p\\x1b"]


@pytest.mark.parametrize("game_id", ["g\x1b]0;pwned\x07", "x\u202eevil", "", "[bold]b[/bold]"])
def test_hostile_ids_and_names_are_printed_escaped_by_games_export_show_and_explain(
    tmp_path: Path, game_id: str
) -> None:
    events = [dataclasses.replace(e, game_id=game_id) for e in hearts_game("h")]
    setup = {**json.loads(events[0].data or "{}"), "names": HOSTILE_NAMES}
    events[0] = dataclasses.replace(events[0], data=json.dumps(setup))
    path = _file(tmp_path, *(event_to_line(e) for e in events))
    html = tmp_path / "game.html"
    outputs = {
        "games": run_cli("games", str(path)),
        "export": run_cli("export", str(path), "--format", "html", "--out", str(html)),
        "show": run_cli("show", str(path)),  # the last step: the score sheet too
        "show at a turn": run_cli("show", str(path), "--step", "20"),
        "explain": run_cli("explain", str(path), "--step", "20"),
    }
    for command, result in outputs.items():
        assert result.exit_code == 0, (command, result.output)
        for raw in ("\x1b", "\x07", "\u202e"):
            assert raw not in result.output, (command, result.output)
        assert shown(game_id) in result.output, (command, result.output)  # markup kept as text
    for command in ("games", "show", "show at a turn", "explain"):
        for name in HOSTILE_NAMES:
            assert shown(name) in outputs[command].output, (command, name)
    assert f"({shown(HOSTILE_NAMES[3])})" in outputs["show at a turn"].output  # whose turn
    assert f"seat 1 ({shown(HOSTILE_NAMES[1])})" in outputs["show"].output  # score sheet
    assert f"game {shown(game_id)} written to" in outputs["export"].output


@pytest.mark.parametrize("game_id", HOSTILE_IDS, ids=lambda g: repr(g)[:20])
def test_journal_of_a_hostile_id_stays_in_live_and_round_trips(
    tmp_path: Path, game_id: str
) -> None:
    store = EventStore.open(tmp_path / "s", create=True)
    events = [dataclasses.replace(e, game_id=game_id) for e in hearts_game("h")]
    assert store.append(game_id, events[:10], expected_seq=0) == 10
    name = file_name(game_id)
    assert "/" not in name and len(name.encode()) <= MAX_QUOTED + 70
    assert [p.parent for p in (tmp_path / "s").rglob("*.jsonl")] == [tmp_path / "s" / "_live"]
    assert store.live_games() == [game_id]
    assert store.append(game_id, events[10:], expected_seq=10) == len(events)
    assert EventStore.open(tmp_path / "s").load_game(game_id) == events
    assert store.seal(game_id) == len(events)
    assert store.live_games() == [] and store.load_game(game_id) == events


def test_a_hashed_journal_without_a_complete_line_is_no_live_game(tmp_path: Path) -> None:
    store = EventStore.open(tmp_path / "s", create=True)
    (tmp_path / "s" / "_live").mkdir()
    (tmp_path / "s" / "_live" / file_name("x" * 500)).write_bytes(b'{"game_id": "xx')
    assert store.live_games() == []


@pytest.mark.slow
def test_an_event_of_a_hostile_id_round_trips_through_import_and_export(tmp_path: Path) -> None:
    lines = [line for game_id in HOSTILE_IDS for line in _game_lines(game_id)]
    path = _file(tmp_path, *lines)
    assert run_cli("import", str(path), "--into", str(tmp_path / "s")).exit_code == 0
    out = tmp_path / "out.jsonl"
    assert run_cli("export", str(tmp_path / "s"), "--out", str(out)).exit_code == 0
    assert sorted(out.read_text("utf-8").split("\n")[:-1]) == sorted(lines)


def _simulated(kind: str) -> list[Event]:
    players = {"hearts": 4, "hez2": 3, "hiifuu": 4, "fou": 4}[kind]
    return simulate_game(get_rules(kind), f"{kind}-stray", players=players, seed=2)


STRAYS = [
    ("hearts", "play", {"cards": ("ZZ",)}),  # an unknown code in a field play does not use
    ("hearts", "deal", {"amount": 3}),
    ("hez2", "play", {"target": 1}),
    ("hiifuu", "play", {"values": (1,)}),
    ("fou", "round_scored", {"card": "G2"}),
    ("fou", "game_start", {"player": 0}),
]


@pytest.mark.parametrize(("kind", "event_type", "stray"), STRAYS)
def test_a_field_the_type_does_not_use_is_one_verdict_in_audit_import_and_append(
    tmp_path: Path, kind: str, event_type: str, stray: dict[str, object]
) -> None:
    events = _simulated(kind)
    index = next(i for i, e in enumerate(events) if e.type == event_type)
    events[index] = dataclasses.replace(events[index], **stray)  # type: ignore[arg-type]
    name = next(iter(stray))
    path = _file(tmp_path, *(event_to_line(e) for e in events))
    report = audit_game(events)
    assert [(f.rule, f.seq) for f in report.findings][-1:] == [("LOG-ORDER", index)]
    assert name in report.findings[-1].message
    store = EventStore.open(tmp_path / "s", create=True)
    ingest = store.ingest(read_jsonl(path).table, source=str(path))
    assert [(r.rule, r.seq) for r in ingest.rejected] == [("LOG-ORDER", index)]
    assert name in ingest.rejected[0].reason
    audited = run_cli("audit", str(path))
    assert audited.exit_code == 1 and f"seq {index}  LOG-ORDER" in audited.output
    with pytest.raises(InvalidGame, match="LOG-ORDER"):
        store.append(events[0].game_id, events, expected_seq=0)
    # the bulk audit (clean path for the others) finds it too
    clean = [dataclasses.replace(e, game_id="clean") for e in _simulated("hearts")]
    table = events_to_table([*clean, *events])
    bulk = audit_many(table)
    assert [(g.game_id, [f.rule for f in g.findings][-1:]) for g in bulk.games if g.findings] == [
        (events[0].game_id, ["LOG-ORDER"])
    ]


def _imported_whole(
    tmp_path: Path, lines: list[str], games: list[list[str]], bad: list[int]
) -> tuple[Path, EventStore]:
    """Import ``lines`` (``games`` with bad lines at ``bad``, 1-based): each bad line named
    once, every game stored whole, in one commit, no data file left over."""
    from replay.store.storage import data_files

    path = _file(tmp_path, *lines)
    store = EventStore.open(tmp_path / "s", create=True)
    done = stream.import_jsonl(store, path)
    assert [r.line for r in done.unreadable] == bad
    assert done.lines == len(lines) and done.events == len(lines) - len(bad)
    assert done.report.rejected == []
    assert sorted(done.report.ingested) == sorted(json.loads(g[0])["game_id"] for g in games)
    assert store.table().version() == 1  # one commit for the whole file
    for game in games:
        loaded = store.load_game(json.loads(game[0])["game_id"])
        assert [event_to_line(e) for e in loaded] == game
    listed = {str(Path(f.path).resolve()) for f in store.files()}
    assert {str(Path(f).resolve()) for f in data_files(tmp_path / "s")} == listed
    return path, store


def test_a_large_interleaved_file_is_imported_in_parts_in_one_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stream, "PIECE_BYTES", 20_000)
    monkeypatch.setattr(stream, "PART_BYTES", 60_000)
    games = [_game_lines(f"g-{i}") for i in range(6)]
    lines = [line for row in itertools.zip_longest(*games) for line in row if line]
    lines.insert(1000, "[" * 50_000)  # a deep line in the middle of a piece
    lines.insert(2000, "not json")
    path, store = _imported_whole(tmp_path, lines, games, [1001, 2001])
    assert path.stat().st_size > 5 * stream.PART_BYTES
    again = stream.import_jsonl(store, path)
    assert len(again.report.skipped) == 6 and store.table().version() == 1


def test_a_large_file_of_whole_games_goes_straight_in_one_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each game in one run of lines: no spreading by game (tables of whole games, each one's
    last game held back for the next), the same verdicts and one commit."""
    monkeypatch.setattr(stream, "PIECE_BYTES", 20_000)
    monkeypatch.setattr(stream, "PART_BYTES", 60_000)

    def no_spread(*args: object) -> None:
        raise AssertionError("a file of whole games was spread by game")

    monkeypatch.setattr(stream, "_spread", no_spread)
    games = [_game_lines(f"g-{i}") for i in range(6)]
    lines = [line for game in games for line in game]
    lines.insert(1000, "[" * 50_000)  # a deep line in the middle of a piece
    lines.insert(2000, "not json")
    path, _ = _imported_whole(tmp_path, lines, games, [1001, 2001])
    assert path.stat().st_size > 5 * stream.PART_BYTES


def test_a_file_that_interleaves_late_is_read_again_and_spread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game that comes back after other games (here, four parts on): the tables written so
    far are dropped uncommitted, and the file is read again and spread by game: every game
    whole, each bad line named once, one commit, no data file left over."""
    monkeypatch.setattr(stream, "PIECE_BYTES", 20_000)
    monkeypatch.setattr(stream, "PART_BYTES", 40_000)
    games = [_game_lines(f"g-{i}") for i in range(6)]
    split = len(games[0]) // 2
    lines = [*games[0][:split], *(line for game in games[1:] for line in game), *games[0][split:]]
    lines.insert(300, "not json")
    spread: list[int] = []
    original = stream._spread

    def spy(tables: Any, directory: Path, parts: int) -> Any:
        spread.append(parts)
        return original(tables, directory, parts)

    monkeypatch.setattr(stream, "_spread", spy)
    _imported_whole(tmp_path, lines, games, [301])
    assert spread  # found out, read again


#: Imports a file in pieces of 64 kB and parts of 256 kB in a fresh process: its events, and
#: the peak of Arrow memory of the import (the import's own pool, not used before it).
_PEAK_OF_IMPORT = """
import sys
from pathlib import Path
from replay.store import EventStore, stream
stream.PIECE_BYTES, stream.PART_BYTES = 1 << 16, 1 << 18
done = stream.import_jsonl(EventStore.open(sys.argv[2], create=True), Path(sys.argv[1]))
print(done.events, stream.import_pool().max_memory())
"""


def test_the_memory_of_an_import_does_not_grow_with_the_file(tmp_path: Path) -> None:
    """A file four times as long (interleaved games: about 4 then 16 parts) peaks at the same
    Arrow memory, bounded by a piece and a part (the parts cut by a stable hash of the game
    id: the same peak in every run). Holding every checked table until the commit makes it
    grow about fourfold (measured: 0.9 MB, then 3.3 MB)."""
    peaks = []
    for games in (12, 48):
        table = hearts_like_table(games=games, seed=5)
        interleaved = table.sort_by([("seq", "ascending"), ("game_id", "ascending")])
        log = tmp_path / f"{games}.jsonl"
        with log.open("w", encoding="utf-8") as out:
            write_lines(interleaved.to_batches(), out)
        assert log.stat().st_size > 3 * (1 << 18)  # several parts
        done = subprocess.run(
            [sys.executable, "-c", _PEAK_OF_IMPORT, str(log), str(tmp_path / f"s{games}")],
            capture_output=True,
            text=True,
            check=True,
        )
        events, peak = (int(x) for x in done.stdout.split())
        assert events == table.num_rows
        peaks.append(peak)
    assert peaks[1] < 1.5 * peaks[0], peaks


def test_the_store_audit_streams_slices_of_whole_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from replay.store import slices

    store = EventStore.open(tmp_path / "s", create=True)
    names = ["hearts", "fou", "hearts", "hez2", "hearts", "hearts", "hearts"]
    games = [
        [dataclasses.replace(e, game_id=f"g-{i}") for e in _simulated(kind)]
        for i, kind in enumerate(names)
    ]
    store.ingest(games[:3])
    store.ingest([games[3], games[4][:40], games[5]])  # g-4 cut short, g-5 after it...
    store.ingest([games[4], games[6]])  # ...continued, g-6 after it: never one run
    runs = slices.game_runs(store, "hearts")
    assert runs.games == 5 and runs.split == {"g-4"}
    monkeypatch.setattr(slices, "SLICE_ROWS", 300)
    cut = [t.num_rows for t in slices.game_slices(store, "hearts", runs, rows=300)]
    assert len(cut) >= 3 and sum(cut) == sum(len(games[i]) for i in (0, 2, 4, 5, 6))
    whole = audit_many(events_to_table([e for g in games for e in g]))
    result = run_cli("audit", str(tmp_path / "s"), "--format", "json")
    streamed = json.loads(result.output)
    assert streamed["games"] == 7
    assert streamed["findings"] == [f.to_dict() for f in whole.findings]
