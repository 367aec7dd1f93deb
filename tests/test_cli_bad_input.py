"""Bad input through the CLI: one clear error line naming file, game and step, the documented
exit code (2: input could not be read), never the last-resort ``unexpected`` handler, and no
journal deleted unless the table holds exactly its events."""

from __future__ import annotations

import errno
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from replay.cli import app
from replay.model.events import Event
from replay.store import EventStore
from replay.store.jsonl import event_to_line
from tests.store_helpers import hearts_game

RUNNER = CliRunner()
KNOWN = "known kinds: hearts, hez2, hiifuu, fou"


def run(*args: str | Path) -> Result:
    return RUNNER.invoke(app, [str(a) for a in args])


def lines(events: list[Event] | tuple[Event, ...]) -> bytes:
    return "".join(event_to_line(e) + "\n" for e in events).encode()


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """A store holding one finished Hearts game, ``h-000``."""
    path = tmp_path / "store"
    EventStore.open(path, create=True).ingest([hearts_game("h-000")])
    return path


def journal(store: Path, game_id: str, data: bytes) -> Path:
    """Write a raw journal file for ``game_id`` (as a writer, or a crash, would leave it)."""
    path = store / "_live" / f"{game_id}.jsonl"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(data)
    return path


def assert_clean_error(result: Result, *parts: str) -> None:
    """Exit 2 with ``error:`` lines on stderr naming every part, no escaped exception."""
    assert result.exit_code == 2, (result.exception, result.output)
    assert "error:" in result.stderr and "unexpected" not in result.stderr
    for part in parts:
        assert part in result.stderr


# ----------------------------------------------------------------- 1: journals are never lost
def test_read_only_command_keeps_a_journal_that_differs_from_the_stored_game(
    store: Path,
) -> None:
    other = [replace(e, game_id="h-000") for e in hearts_game("x", seed=9)[:5]]
    path = journal(store, "h-000", lines(other))
    before = path.read_bytes()
    result = run("info", store)
    assert path.read_bytes() == before  # the live data is still there
    assert result.exit_code == 1
    assert f"{path}: game h-000 seq 0: journal kept" in result.stderr
    assert "STORE-JOURNAL" in result.stderr
    shown = run("show", store, "--game", "h-000", "--json")
    assert shown.exit_code == 0 and "STORE-JOURNAL" in shown.stderr  # the table's copy is shown


def test_a_journal_holding_part_of_the_stored_game_is_kept_naming_where_it_ends(
    store: Path,
) -> None:
    path = journal(store, "h-000", lines(hearts_game("h-000")[:7]))
    reopened = EventStore.open(store)
    assert path.exists() and reopened.live_games() == ["h-000"]
    (problem,) = reopened.problems
    assert (problem.rule, problem.game_id, problem.seq) == ("STORE-JOURNAL", "h-000", 7)
    assert problem.source == str(path)


def test_a_journal_identical_to_the_stored_game_is_still_recovered(store: Path) -> None:
    path = journal(store, "h-000", lines(hearts_game("h-000")))  # a seal killed after commit
    result = run("info", store)
    assert result.exit_code == 0, result.stderr
    assert not path.exists()


def test_a_journal_that_cannot_be_opened_is_kept_and_the_store_still_opens(store: Path) -> None:
    path = store / "_live" / "h-000.jsonl"
    path.mkdir(parents=True)  # not a file: no descriptor can lock it
    reopened = EventStore.open(store)
    (problem,) = reopened.problems
    assert (problem.rule, problem.game_id, problem.source) == ("STORE-JOURNAL", "h-000", str(path))
    assert "cannot open it" in problem.reason and path.is_dir()
    assert [g.game_id for g in reopened.list_games()] == ["h-000"]


def test_recovery_needs_no_write_access(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = journal(store, "h-000", lines(hearts_game("h-000")))
    real_open = os.open

    def read_only(file: Any, flags: int, *args: Any) -> int:
        if flags & (os.O_RDWR | os.O_WRONLY) and str(file) == str(path):
            raise PermissionError(errno.EACCES, "Permission denied", str(file))
        return real_open(file, flags, *args)

    def no_unlink(file: Any) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(file))

    monkeypatch.setattr(os, "open", read_only)
    monkeypatch.setattr(os, "unlink", no_unlink)
    result = run("info", store)
    assert result.exit_code == 0, (result.exception, result.stderr)
    assert path.exists()  # kept quietly: a copy of what is stored


# ----------------------------------------------------------------- 2: audit/explain --game
LIVE = lines(hearts_game("live-1")[:12])


@pytest.mark.parametrize("command", [["audit"], ["explain", "--step", "1"], ["show"]])
@pytest.mark.parametrize(
    ("case", "reason"),
    [
        ("garbage line", "corrupt line 11"),
        ("empty", "no complete event"),
        ("directory", "cannot read the journal"),
    ],
)
def test_an_unreadable_journal_is_a_clean_error(
    store: Path, command: list[str], case: str, reason: str
) -> None:
    path = store / "_live" / "live-1.jsonl"
    if case == "directory":
        path.mkdir(parents=True)
    else:
        rows = LIVE.splitlines(keepends=True)
        rows[10] = b"{oops\n"
        journal(store, "live-1", b"".join(rows) if case == "garbage line" else b"")
    result = run(command[0], store, "--game", "live-1", *command[1:])
    assert_clean_error(result, f"{path}: game live-1: {reason}", "STORE-JOURNAL")


def test_a_game_in_a_corrupt_file_names_the_file(store: Path) -> None:
    (victim,) = store.glob("kind=hearts/*.parquet")
    data = bytearray(victim.read_bytes())
    for i in range(200, 1200, 7):
        data[i] ^= 0xFF
    victim.write_bytes(bytes(data))
    for command in (["audit"], ["explain", "--step", "3"]):
        result = run(command[0], store, "--game", "h-000", *command[1:])
        assert_clean_error(result, str(victim), "STORE-CORRUPT", "game h-000")


# ----------------------------------------------------------------- 3: --kind
@pytest.mark.parametrize("kind", ["poker", "Hearts"])
@pytest.mark.parametrize(
    "command", [["audit"], ["games"], ["export", "--out", "-"], ["simulate-kind"]]
)
def test_an_unknown_kind_is_an_error_naming_the_known_ones(
    store: Path, tmp_path: Path, kind: str, command: list[str]
) -> None:
    if command == ["simulate-kind"]:
        result = run("simulate", kind, "--games", "1", "--out", tmp_path / "new")
    else:
        result = run(command[0], store, "--kind", kind, *command[1:])
    assert_clean_error(result, f"unknown game kind {kind!r}", KNOWN)
    assert result.stdout == ""


def test_an_unknown_kind_is_an_error_for_a_jsonl_file_too(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_bytes(lines(hearts_game("h-000")))
    assert_clean_error(run("audit", path, "--kind", "poker"), KNOWN)
    assert run("audit", path, "--kind", "hearts").exit_code == 0


# ----------------------------------------------------------------- 4: simulate
def test_simulate_into_a_file_is_a_clean_error(tmp_path: Path) -> None:
    path = tmp_path / "file"
    path.write_text("x")
    assert_clean_error(run("simulate", "hearts", "--games", "1", "--out", path), str(path))


@pytest.mark.parametrize("method", ["open", "ingest"])
def test_simulate_into_a_store_it_may_not_write_is_a_clean_error(
    store: Path, monkeypatch: pytest.MonkeyPatch, method: str
) -> None:
    lock = str(store / "_store.lock")

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError(errno.EACCES, "Permission denied", lock)

    monkeypatch.setattr(EventStore, method, refused)
    result = run("simulate", "hearts", "--games", "1", "--out", store)
    assert_clean_error(result, f"{lock}: Permission denied")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hearts", "--variant", "nope"], 'hearts does not take variant="nope"'),
        (["hearts", "--option", "foo=bar"], 'hearts does not take foo="bar"'),
        (["hiifuu", "--variant", "nope"], "unknown hiifuu variant 'nope' (LOG-SETUP)"),
        (["hearts", "--option", 'names=["a"]'], "one player id per seat (LOG-SETUP)"),
        (["hiifuu", "--option", "tokens=5"], "cannot set up a game with tokens=5"),
        (["hez2", "--players", "0"], "hez2 takes 2 to 4 players, not 0"),
        (["fou", "--players", "9"], "fou takes 4 to 8 players, not 9"),
    ],
)
def test_simulate_rejects_what_the_game_does_not_take(
    tmp_path: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "new"
    result = run("simulate", *args, "--games", "1", "--out", out)
    assert_clean_error(result, message)
    assert not out.exists()  # nothing written


def test_simulate_takes_the_options_a_game_records(tmp_path: Path) -> None:
    out = tmp_path / "new"
    args = ["--option", "dealer=1", "--option", "stakes=[100,null,null]", "--players", "3"]
    result = run("simulate", "hez2", "--games", "1", "--out", out, *args)
    assert result.exit_code == 0, result.output
    result = run("simulate", "hiifuu", "--games", "1", "--out", out, "--variant", "normal")
    assert result.exit_code == 0, result.output


def test_a_huge_recorded_value_is_cut_in_text_reports_and_kept_in_json(tmp_path: Path) -> None:
    game = list(hearts_game("h-000"))
    play = next(i for i, e in enumerate(game) if e.type == "play")
    huge = "Q" * 100_000
    game[play] = replace(game[play], card=huge)
    log = tmp_path / "huge.jsonl"
    log.write_bytes(lines(game))
    for args in (
        ("audit", log),
        ("audit", log, "--format", "markdown"),
        ("import", log, "--into", tmp_path / "s"),
    ):
        result = run(*args)
        assert result.exit_code in (1, 2), result.output
        assert "more characters)" in result.output, args
        assert max(len(line) for line in result.output.splitlines()) < 1_000, args
    assert huge in run("audit", log, "--format", "json").stdout
