"""The store commands: import/export round trip, info, games, compact, errors without
tracebacks and with a non-zero exit code."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
from typer.testing import CliRunner

from replay.cli import app
from replay.model.events import SCHEMA
from replay.store import EventStore
from replay.store.jsonl import event_to_line, row_to_line, table_lines, table_text
from tests.store_helpers import hearts_games

runner = CliRunner()


def _jsonl(path: Path, count: int) -> Path:
    lines = [event_to_line(e) for game in hearts_games(count) for e in game]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_import_export_round_trip_is_byte_identical(tmp_path: Path) -> None:
    source = _jsonl(tmp_path / "in.jsonl", 2)
    result = runner.invoke(app, ["import", str(source), "--into", str(tmp_path / "s")])
    assert result.exit_code == 0, result.output
    out = tmp_path / "out.jsonl"
    assert runner.invoke(app, ["export", str(tmp_path / "s"), "--out", str(out)]).exit_code == 0
    assert out.read_bytes() == source.read_bytes()
    one = tmp_path / "one.jsonl"
    args = ["export", str(tmp_path / "s"), "--out", str(one), "--game", "h-001"]
    assert runner.invoke(app, args).exit_code == 0
    assert {json.loads(line)["game_id"] for line in one.read_text().splitlines()} == {"h-001"}


def test_import_with_bad_lines_imports_the_rest_and_fails(tmp_path: Path) -> None:
    source = _jsonl(tmp_path / "in.jsonl", 2)
    lines = source.read_text().splitlines()
    lines[3] = "{not json"
    source.write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["import", str(source), "--into", str(tmp_path / "s")])
    assert result.exit_code == 1
    assert f"{source}:4: malformed JSON" in result.output
    assert f"{source}: game h-000 seq 3: missing seq 3 (LOG-SEQUENCE)" in result.output
    assert "Traceback" not in result.output
    assert [g.game_id for g in EventStore.open(tmp_path / "s").list_games()] == ["h-001"]


def test_info_games_and_compact(tmp_path: Path) -> None:
    store = EventStore.open(tmp_path / "s", create=True)
    for game in hearts_games(3):
        store.ingest([game])
    info = runner.invoke(app, ["info", str(store.path)])
    assert info.exit_code == 0 and "hearts" in info.output and "B/event" in info.output
    listed = runner.invoke(app, ["games", str(store.path), "--json", "--limit", "2"])
    rows = [json.loads(line) for line in listed.output.splitlines()]
    assert [r["game_id"] for r in rows] == ["h-000", "h-001"]
    assert rows[0]["players"] == ["p0", "p1", "p2", "p3"] and rows[0]["winners"]
    compact = runner.invoke(app, ["compact", str(store.path)])
    assert compact.exit_code == 0 and "3 files -> 1 files" in compact.output


def test_missing_store_and_unknown_game_fail_cleanly(tmp_path: Path) -> None:
    result = runner.invoke(app, ["info", str(tmp_path / "none")])
    assert result.exit_code == 1 and "no event store" in result.output
    EventStore.open(tmp_path / "s", create=True)
    out = str(tmp_path / "o.jsonl")
    result = runner.invoke(app, ["export", str(tmp_path / "s"), "--out", out, "--game", "x"])
    assert result.exit_code == 1 and "no game id starts with 'x'" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_lines_built_by_arrow_are_the_canonical_lines_of_awkward_values() -> None:
    """Quotes, backslashes, control characters, non-ASCII, empty lists, negative numbers,
    years before 1000, plain and dictionary-encoded strings: the export's column-wise lines
    are :func:`row_to_line`'s, byte for byte."""
    rows = [
        {"game_id": 'g"\\1\n\x01é☃', "seq": 0, "kind": "hearts", "type": "x",
         "cards": ['a"b', "\\", "\x1f"], "values": [1, -2],
         "ts": datetime(5, 1, 1, tzinfo=UTC), "data": '{"a": "\\u0001"}'},
        {"game_id": "g", "seq": -1, "kind": "k", "type": "t", "cards": [], "values": [],
         "ts": datetime(2024, 5, 1, 1, 2, 3, 456000, tzinfo=UTC), "player": -3,
         "data": "\u2028"},
        {"game_id": "g", "seq": 2, "kind": "k", "type": "t"},
    ]  # fmt: skip
    table = pa.Table.from_pylist(rows, schema=SCHEMA)
    encoded = table.set_column(0, "game_id", pc.dictionary_encode(table.column("game_id")))
    expected = [row_to_line(row) for row in table.to_pylist()]
    assert table_lines(table) == expected
    assert table_lines(encoded) == expected
    assert table_text(table.slice(1)) == "".join(line + "\n" for line in expected[1:])
    assert table_lines(table.slice(0, 0)) == [] and table_text(table.slice(0, 0)) == ""
