"""A store damaged on disk: a data file of the wrong schema, an empty Delta commit file, an
unreadable Delta log, stored values the summary SQL used to choke on. Each is reported naming
the file, the rest of the store is still read, and nothing is rewritten or deleted."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from deltalake import DeltaTable, write_deltalake

from replay.model.events import events_to_table
from replay.store import EventStore
from replay.store.jsonl import event_to_line
from tests.store_helpers import hearts_games, run_cli

GAMES = {"h-000", "h-001", "h-002"}


def _exported(store: Path, out: Path) -> tuple[int, set[str]]:
    result = run_cli("export", str(store), "--out", str(out))
    return result.exit_code, {json.loads(line)["game_id"] for line in out.open()}


def _commits(store: Path) -> list[Path]:
    return sorted((store / "_delta_log").glob("*.json"))


# ---------------------------------------------------------------- a data file of the wrong schema
def _column(table: pa.Table, name: str, values: pa.Array[Any] | pa.ChunkedArray[Any]) -> pa.Table:
    return table.set_column(table.schema.get_field_index(name), name, values)


def _strings_of(table: pa.Table, name: str) -> pa.Array[Any]:
    return pa.array([None if v is None else str(v) for v in table.column(name).to_pylist()])


DAMAGES: dict[str, Callable[[pa.Table], pa.Table]] = {
    "seq as string": lambda t: _column(t, "seq", _strings_of(t, "seq")),
    "seq as int64": lambda t: _column(t, "seq", t.column("seq").cast(pa.int64())),
    "cards as string": lambda t: _column(t, "cards", _strings_of(t, "cards")),
    "player as int64": lambda t: _column(t, "player", t.column("player").cast(pa.int64())),
    "ts as string": lambda t: _column(t, "ts", _strings_of(t, "ts")),
    "no type column": lambda t: t.drop_columns(["type"]),
    "null seq": lambda t: _column(t, "seq", pa.nulls(t.num_rows, pa.int32())),
    "unknown column": lambda t: t.append_column("extra", pa.array([1] * t.num_rows)),
}


def _add_file(
    store: Path, table: pa.Table, *, statistics: bool = True, name: str = "foreign.parquet"
) -> Path:
    """Write ``table`` as a Parquet file ``name`` of the hearts partition and commit it by hand,
    as another tool could (deltalake itself would not write a file of another schema)."""
    path = store / "kind=hearts" / name
    pq.write_table(table, path, write_statistics=statistics)
    stats = {"numRecords": table.num_rows, "minValues": {"game_id": "x"}}
    add = {
        "path": f"kind=hearts/{name}",
        "partitionValues": {"kind": "hearts"},
        "size": path.stat().st_size,
        "modificationTime": 1767225600000,
        "dataChange": True,
        "stats": json.dumps({**stats, "maxValues": {"game_id": "x~"}, "nullCount": {}}),
    }
    info = {"timestamp": 1767225600000, "operation": "WRITE", "operationParameters": {}}
    version = len(_commits(store))
    lines = [json.dumps({"commitInfo": info}), json.dumps({"add": add})]
    (store / "_delta_log" / f"{version:020d}.json").write_text("\n".join(lines) + "\n")
    return path


def _foreign_game() -> pa.Table:
    """Game h-001's rows as game x-001 in the file schema Delta writes: without the ``kind``
    partition column, ``ts`` in microseconds."""
    table = events_to_table(hearts_games(2)[1]).drop_columns(["kind"])
    table = _column(table, "ts", table.column("ts").cast(pa.timestamp("us", tz="UTC")))
    return _column(table, "game_id", pa.array(["x-001"] * table.num_rows))


def test_a_file_in_the_schema_written_by_another_tool_is_read(copy: Path) -> None:
    """The control of the damages below: only the damage makes a file unreadable."""
    _add_file(copy, _foreign_game())
    store = EventStore.open(copy)
    assert {g.game_id for g in store.list_games()} == {*GAMES, "x-001"} and not store.problems


@pytest.mark.parametrize("damage", list(DAMAGES))
@pytest.mark.slow
def test_a_data_file_of_the_wrong_schema_is_named_and_the_other_games_served(
    copy: Path, tmp_path: Path, damage: str
) -> None:
    bad = str(_add_file(copy, DAMAGES[damage](_foreign_game())))
    store = str(copy)
    for args in (["info", store], ["games", store]):
        result = run_cli(*args)
        assert result.exit_code == 1 and f"error: {bad}: wrong schema" in result.output, args
        assert "(STORE-SCHEMA)" in result.output
    assert all(g in run_cli("games", store).output for g in GAMES)
    assert _exported(copy, tmp_path / "out.jsonl") == (1, GAMES)
    result = run_cli("audit", store, "--jobs", "1")
    assert result.exit_code == 2 and bad in result.output and "3 games" in result.output


def test_nulls_in_a_required_column_are_found_without_statistics(copy: Path) -> None:
    table = _foreign_game()
    bad = _add_file(
        copy, _column(table, "game_id", pa.nulls(table.num_rows, pa.string())), statistics=False
    )
    store = EventStore.open(copy)
    assert {g.game_id for g in store.list_games()} == GAMES
    [problem] = store.problems
    assert problem.source == str(bad) and problem.rule == "STORE-SCHEMA"
    assert f"{table.num_rows} null(s) in column 'game_id'" in problem.reason


def test_compact_leaves_a_file_of_the_wrong_schema_as_it_is(copy: Path) -> None:
    bad = _add_file(copy, DAMAGES["cards as string"](_foreign_game()))
    content = bad.read_bytes()
    result = run_cli("compact", str(copy))
    assert result.exit_code == 1 and "not compacted" in result.output
    assert f"{bad}: wrong schema" in result.output
    assert bad.read_bytes() == content  # not rewritten into the schema, not vacuumed
    assert len(EventStore.open(copy).files()) == 4


def test_a_file_footer_is_checked_once(copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = EventStore.open(copy)
    calls: list[str] = []
    read_metadata = pq.read_metadata

    def counting(path: str, *args: object, **kwargs: object) -> pq.FileMetaData:
        calls.append(path)
        return read_metadata(path)

    monkeypatch.setattr(pq, "read_metadata", counting)
    for _ in range(3):
        assert len(store.list_games()) == 3
    assert sum(batch.num_rows for batch in store.scan()) > 0
    assert sorted(calls) == sorted(store.parquet_files())


# ---------------------------------------------------------------- an empty Delta commit file
@pytest.mark.parametrize("which", [-1, -2])
def test_an_empty_commit_file_is_named_and_the_other_games_served(
    copy: Path, tmp_path: Path, which: int
) -> None:
    commit = _commits(copy)[which]
    commit.write_bytes(b"")
    lost = "h-002" if which == -1 else "h-001"
    store = str(copy)
    expected = f"error: {commit}: empty Delta commit file (0 bytes)"
    for args in (["info", store], ["games", store]):
        result = run_cli(*args)
        assert result.exit_code == 1 and expected in result.output, args
        assert "(STORE-CORRUPT)" in result.output
    assert _exported(copy, tmp_path / "out.jsonl") == (1, GAMES - {lost})
    result = run_cli("audit", store, "--jobs", "1")
    assert result.exit_code == 2 and str(commit) in result.output and "2 games" in result.output


def test_with_an_empty_commit_file_nothing_is_written_or_vacuumed(
    copy: Path, tmp_path: Path
) -> None:
    data = set((copy / "kind=hearts").iterdir())
    _commits(copy)[-1].write_bytes(b"")
    result = run_cli("compact", str(copy))
    assert result.exit_code == 1 and "not compacted: " in result.output
    game = hearts_games(4)[3]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(event_to_line(e) + "\n" for e in game))
    result = run_cli("import", str(source), "--into", str(copy))
    assert result.exit_code == 1 and "game h-003: not stored: " in result.output
    assert set((copy / "kind=hearts").iterdir()) == data  # the lost commit's file is kept
    assert len(_commits(copy)) == 4


# ---------------------------------------------------------------- an unreadable Delta log
DELTA_MESSAGE = (
    "Kernel error -> Generic LocalFileSystem error\n"
    "          \x1b[31m↳\x1b[0m Unable to open file {path}\n"
    "           \x1b[31m↳\x1b[0m Permission denied (os error 13)\n"
)


def test_deltalakes_io_error_is_one_line_naming_the_store_and_file(
    copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    commit = _commits(copy)[-1]

    class Unreadable(DeltaTable):
        def __init__(self, *args: object, **kwargs: object) -> None:
            raise OSError(DELTA_MESSAGE.format(path=commit))  # as deltalake raises it

    monkeypatch.setattr("replay.store.core.DeltaTable", Unreadable)
    for args, code in ((["info", str(copy)], 1), (["audit", str(copy)], 2)):
        result = run_cli(*args)
        assert result.exit_code == code, result.output
        expected = (
            f"error: {copy}: Delta Lake error: cannot read {commit}: "
            "Permission denied (os error 13) (STORE-CORRUPT)"
        )
        assert result.output.strip() == expected


def _without_read_override(probe: Path) -> list[str]:
    """A command prefix under which root's read override is dropped (skip when impossible)."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: permissions are not enforced")
        caps = "-dac_override,-dac_read_search"
        prefix = [setpriv, "--bounding-set", caps, "--inh-caps", caps]
    if subprocess.run([*prefix, "cat", str(probe)], capture_output=True).returncode == 0:
        pytest.skip("the permissions are not enforced here")
    return prefix


@pytest.mark.parametrize("target", ["commit file", "log directory"])
@pytest.mark.slow
def test_an_unreadable_delta_log_is_one_clean_error(copy: Path, target: str) -> None:
    commit = _commits(copy)[-1]
    path = commit if target == "commit file" else commit.parent
    path.chmod(0)
    try:
        prefix = _without_read_override(commit)
        cli = [sys.executable, "-c", "from replay.cli import main; main()"]
        for args, code in ((["info", str(copy)], 1), (["audit", str(copy)], 2)):
            done = subprocess.run([*prefix, *cli, *args], capture_output=True, text=True)
            assert done.returncode == code, done.stderr
            [line] = done.stderr.strip().splitlines()
            assert line.startswith(f"error: {copy}: Delta Lake error: cannot read {path}: ")
            assert line.endswith("Permission denied (os error 13) (STORE-CORRUPT)")
    finally:
        path.chmod(0o755)


# ---------------------------------------------------------------- values the summary SQL choked on
def test_bad_setup_json_or_a_huge_result_does_not_hide_the_file(tmp_path: Path) -> None:
    """Stored before ingest rejected them: the summary lists them, and their file's other games."""
    good, no_json, huge = hearts_games(3)
    no_json = [replace(no_json[0], data="not json {"), *no_json[1:]]
    huge = [*huge[:-1], replace(huge[-1], values=(2147483647, -2))]
    path = tmp_path / "store"
    EventStore.open(path, create=True)
    table = events_to_table([*good, *no_json, *huge])  # one file, written past the ingest checks
    write_deltalake(str(path), table, mode="append", partition_by=["kind"])
    store = EventStore.open(path)
    games = {g.game_id: g for g in store.list_games()}
    assert set(games) == GAMES and not store.problems
    assert games["h-001"].players == () and games["h-000"].players == ("p0", "p1", "p2", "p3")
    assert games["h-002"].winners == ("seat 2147483647", "seat -2")
    assert _exported(path, tmp_path / "out.jsonl") == (0, GAMES)
    assert pc.sum(store.list_games_table().column("events")).as_py() == table.num_rows


# ---------------------------------------------------------------- another file in a file's place
def test_a_valid_file_put_in_another_ones_place_is_named_and_left_out(copy: Path) -> None:
    store = EventStore.open(copy)
    first, second = sorted(store.files(), key=lambda f: f.min_game or "")[:2]
    assert first.rows != second.rows
    shutil.copy(second.path, first.path)
    for commit in _commits(copy):  # the log's size of the file, made to match
        text = commit.read_text()
        name = Path(first.path).name
        if name in text:
            size = Path(first.path).stat().st_size
            commit.write_text(text.replace(f'"size":{first.size}', f'"size":{size}'))
    reopened = EventStore.open(copy)
    assert [g.game_id for g in reopened.list_games()] == sorted(GAMES - {"h-000"})
    (problem,) = reopened.problems
    assert (problem.rule, problem.source) == ("STORE-CORRUPT", first.path)
    assert "not the file the Delta log added" in problem.reason


def test_game_ids_outside_the_logs_bounds_are_a_mismatch(copy: Path) -> None:
    from replay.store.files import DataFile, log_mismatch

    (f, *_) = EventStore.open(copy).files()
    metadata = pq.read_metadata(f.path)
    assert log_mismatch(f, metadata) is None
    game = str(f.min_game)  # one game a file here
    assert log_mismatch(DataFile(f.path, f.kind, f.size, f.rows, "a", "z"), metadata) is None
    for bounds in ((game + "0", "z"), ("a", game[:-1]), ("a", "b")):
        moved = DataFile(f.path, f.kind, f.size, f.rows, *bounds)
        assert f"game ids {game}..{game}" in str(log_mismatch(moved, metadata)), bounds


def test_a_log_entry_naming_a_file_outside_the_store_is_not_read(copy: Path) -> None:
    outside = _add_file(copy, _foreign_game(), name="../../outside.parquet")
    assert outside.resolve().parent == copy.parent.resolve()
    store = EventStore.open(copy)
    assert {g.game_id for g in store.list_games()} == GAMES  # not x-001
    (problem,) = store.problems
    assert problem.rule == "STORE-CORRUPT" and "outside the store" in problem.reason
