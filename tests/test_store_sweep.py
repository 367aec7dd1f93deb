"""Bad input on a whole store, through every command that reads it: a one-line error naming the
file (and game, seq where they apply), a non-zero exit code, no traceback, the other games kept."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from replay.model.events import Event
from replay.store import EventStore
from replay.store.jsonl import event_to_line
from tests.store_helpers import hearts_games, run_cli


def _victim(store: Path) -> Path:
    """The data file holding game h-001 (one file per game in the fixture)."""
    files = EventStore.open(store).files()
    return Path(next(f.path for f in files if f.min_game == "h-001"))


def _truncate(store: Path) -> str:
    path = _victim(store)
    path.write_bytes(path.read_bytes()[:-100])
    return str(path)


def _garbage(store: Path) -> str:
    path = _victim(store)
    path.write_bytes(os.urandom(path.stat().st_size))
    return str(path)


def _garbage_inside(store: Path) -> str:
    """Bytes overwritten in the data pages, those of every column (a quarter of the file in
    the middle would miss the columns a command reads, as the layout of the file has it): the
    footer still reads."""
    path = _victim(store)
    data = bytearray(path.read_bytes())
    footer = int.from_bytes(data[-8:-4], "little")
    end = len(data) - 8 - footer  # after "PAR1", up to the footer
    data[4:end] = b"\x5a" * (end - 4)
    path.write_bytes(bytes(data))
    return str(path)


def _delete(store: Path) -> str:
    path = _victim(store)
    path.unlink()
    return str(path)


def _break_log(store: Path) -> str:
    last = sorted((store / "_delta_log").glob("*.json"))[-1]
    last.write_text("garbage{")
    return str(store)


CORRUPTIONS: dict[str, Callable[[Path], str]] = {
    "truncated file": _truncate,
    "garbage file": _garbage,
    "garbage inside file": _garbage_inside,
    "deleted file": _delete,
}


def _jsonl(path: Path, events: list[Event]) -> Path:
    path.write_text("".join(event_to_line(e) + "\n" for e in events))
    return path


@pytest.mark.parametrize("case", list(CORRUPTIONS))
@pytest.mark.slow
def test_a_bad_data_file_is_named_and_the_other_games_served(
    copy: Path, tmp_path: Path, case: str
) -> None:
    bad = CORRUPTIONS[case](copy)
    store = str(copy)
    for args in (["info", store], ["games", store]):
        result = run_cli(*args)
        assert result.exit_code == 1 and f"error: {bad}: " in result.output, args
    assert (
        "h-000" in run_cli("games", store).output and "h-001" not in run_cli("games", store).output
    )

    out = tmp_path / "out.jsonl"
    result = run_cli("export", store, "--out", str(out))
    assert result.exit_code == 1 and bad in result.output
    assert {line.split('"')[3] for line in out.read_text().splitlines()} == {"h-000", "h-002"}

    result = run_cli("show", store, "--game", "h-001")
    assert result.exit_code == 2 and bad in result.output
    assert run_cli("show", store, "--game", "h-000", "--json").exit_code == 0

    result = run_cli("audit", store, "--jobs", "1")
    assert result.exit_code == 2 and bad in result.output and "2 games" in result.output

    result = run_cli("compact", store)
    assert result.exit_code == 1 and "not compacted" in result.output
    assert len(EventStore.open(copy).files()) == 3  # the table is left as it was


@pytest.mark.parametrize("case", list(CORRUPTIONS))
def test_import_of_a_game_a_bad_file_may_hold_is_refused(
    copy: Path, tmp_path: Path, case: str
) -> None:
    """Storing it again could duplicate it once the file is restored; other games go in."""
    bad = CORRUPTIONS[case](copy)
    games = hearts_games(4)
    source = _jsonl(tmp_path / "in.jsonl", [*games[1], *games[3]])
    result = run_cli("import", str(source), "--into", str(copy))
    assert result.exit_code == 1
    assert f"{source}: game h-001: not stored: {bad} may hold this game" in result.output
    assert "1 game (841 events) ingested" in result.output
    assert "h-003" in run_cli("games", str(copy)).output


def test_a_corrupt_delta_log_is_one_clean_error_everywhere(copy: Path, tmp_path: Path) -> None:
    _break_log(copy)
    source = _jsonl(tmp_path / "in.jsonl", hearts_games(1)[0])
    store = str(copy)
    for args, code in (
        (["info", store], 1),
        (["games", store], 1),
        (["export", store, "--out", str(tmp_path / "o.jsonl")], 1),
        (["compact", store], 1),
        (["import", str(source), "--into", store], 1),
        (["audit", store], 2),
        (["show", store, "--game", "h-000"], 2),
    ):
        result = run_cli(*args)
        assert result.exit_code == code, args
        assert f"error: {store}: Delta Lake error: " in result.output, args
        assert len(result.output.strip().splitlines()) == 1, result.output


def test_an_empty_directory_is_no_store(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    for args, code in (
        (["info", str(empty)], 1),
        (["games", str(empty)], 1),
        (["compact", str(empty)], 1),
        (["audit", str(empty)], 2),
        (["show", str(empty), "--game", "x"], 2),
    ):
        result = run_cli(*args)
        assert result.exit_code == code and f"{empty}: no event store here" in result.output


def _altered(event: Event) -> Event:
    """The same event with another valid card or player: only the content differs."""
    if event.card is not None:
        return replace(event, card="3C" if event.card == "2C" else "2C")
    return replace(event, player=((event.player or 0) + 1) % 4)


def test_a_reused_game_id_names_the_first_differing_seq(copy: Path, tmp_path: Path) -> None:
    game = hearts_games(3)[1]
    reused = _jsonl(tmp_path / "reused.jsonl", [*game[:40], _altered(game[40]), *game[41:]])
    result = run_cli("import", str(reused), "--into", str(copy))
    assert result.exit_code == 1
    expected = f"{reused}: game h-001 seq 40: game id already stored with different content"
    assert expected in result.output
    short = _jsonl(tmp_path / "short.jsonl", game[:100])
    result = run_cli("import", str(short), "--into", str(copy))
    assert result.exit_code == 1 and "game h-001 seq 100: " in result.output
    out = tmp_path / "out.jsonl"
    assert run_cli("export", str(copy), "--out", str(out), "--game", "h-001").exit_code == 0
    assert out.read_text() == "".join(event_to_line(e) + "\n" for e in game)  # untouched


def test_a_stray_parquet_file_the_log_does_not_list_is_ignored(copy: Path) -> None:
    stray = copy / "kind=hearts" / "stray.parquet"
    stray.write_bytes(os.urandom(3000))
    result = run_cli("games", str(copy))
    assert result.exit_code == 0 and result.output.count("hearts") == 3
    assert run_cli("compact", str(copy)).exit_code == 0
    assert run_cli("games", str(copy)).output.count("hearts") == 3
