"""Inputs and outputs that fail: a folder with a symlink loop, output to a full disk (stdout,
a file, a tiny disk), each one clean line with its exit code and no half-written file."""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import itertools
import json
import os
import shutil
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from replay.cli import main
from replay.model.decode import events_from_table
from replay.model.events import Event
from replay.sources import open_sources
from replay.store.jsonl import event_to_line
from tests.store_helpers import hearts_game, run_cli, tmpfs

EXIT_OUTPUT = 4  # README: exit codes (an output that cannot be written)
SAMPLE = Path(__file__).parent.parent / "sample_logs" / "jsonl" / "hez22.jsonl"


def _folder_with_a_loop(tmp_path: Path) -> Path:
    """A folder holding one game and a link back to itself (``ln -s . d/self``)."""
    folder = tmp_path / "d"
    folder.mkdir()
    shutil.copy(SAMPLE, folder / "a.jsonl")
    (folder / "self").symlink_to(".")
    (folder / "sub").mkdir()
    (folder / "sub" / "up").symlink_to("..")
    return folder


def test_a_symlink_loop_is_named_once_and_the_rest_is_read(tmp_path: Path) -> None:
    folder = _folder_with_a_loop(tmp_path)
    sources = open_sources([folder])
    assert [Path(g.origin).name for g in sources.games()] == ["a.jsonl"]
    real = os.path.realpath(folder)
    assert sources.problems == [
        f"{folder / 'self'}: a link back into {real} (a loop): not followed",
        f"{folder / 'sub' / 'up'}: a link back into {real} (a loop): not followed",
    ]


@pytest.mark.parametrize("command", ["audit", "games", "info", "stats", "show"])
def test_commands_on_a_folder_with_a_loop_read_its_game(tmp_path: Path, command: str) -> None:
    folder = _folder_with_a_loop(tmp_path)
    result = run_cli(command, str(folder))
    assert result.exit_code in (0, 1, 2), result.output
    assert result.output.count(f"{folder / 'self'}: a link back into") == 1
    assert "Too many levels" not in result.output
    assert "hez2" in result.output or "1 game," in result.output  # the game was read


def test_a_link_that_links_to_itself_is_one_problem(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    shutil.copy(SAMPLE, tmp_path / "d" / "a.jsonl")
    (tmp_path / "d" / "x.jsonl").symlink_to("x.jsonl")
    sources = open_sources([tmp_path / "d"])
    assert len(sources.games()) == 1
    assert sources.problems == [f"{tmp_path / 'd' / 'x.jsonl'}: Too many levels of symbolic links"]


# --------------------------------------------------------------------- a full output
@contextlib.contextmanager
def _stdout_on_dev_full(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Standard output on /dev/full for :func:`replay.cli.main` run in this process (set in
    the test's body: pytest's capture sets its own stdout when the test starts)."""
    with open("/dev/full", "w", encoding="utf-8") as full:
        monkeypatch.setattr(sys, "stdout", full)
        monkeypatch.setattr(signal, "signal", lambda *args: None)
        yield


def _main(*args: str) -> int:
    """The exit code of :func:`replay.cli.main` (the console script) run in this process."""
    saved = sys.argv
    sys.argv = ["replay", *args]
    try:
        with pytest.raises(SystemExit) as ended:
            main()
    finally:
        sys.argv = saved
    return int(ended.value.code or 0)


STDOUT_COMMANDS = [
    ["rules"],
    ["stats", str(SAMPLE)],
    ["sql", str(SAMPLE), "SELECT game_id FROM games"],
    ["audit", str(SAMPLE)],
    ["explain", str(SAMPLE), "--step", "3"],
    ["explain", str(SAMPLE), "--step", "3", "--format", "html"],
    ["show", str(SAMPLE)],
    ["games", str(SAMPLE), "--format", "csv"],
    ["info", str(SAMPLE)],
    ["export", str(SAMPLE), "--out", "-"],
    ["simulate", "hiifuu", "-n", "1", "--out", "-"],
]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("args", STDOUT_COMMANDS, ids=lambda a: " ".join(a[:1] + a[2:]))
def test_output_to_a_full_disk_is_one_line_naming_stdout_and_exit_4(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    with _stdout_on_dev_full(monkeypatch):
        assert _main(*args) == EXIT_OUTPUT
    assert capsys.readouterr().err == (
        "error: <stdout>: no space left on device: the output is incomplete\n"
    )


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "hearts", "-n", "1", "--out"],
        ["export", str(SAMPLE), "--out"],
        ["export", str(SAMPLE), "--format", "html", "--out"],
    ],
    ids=lambda a: " ".join(a[:1] + a[2:-1]),
)
def test_a_file_on_a_full_disk_is_one_line_naming_it_and_exit_4(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    link = tmp_path / ("f.html" if "html" in args else "f.jsonl")
    link.symlink_to("/dev/full")
    assert _main(*args, str(link)) == EXIT_OUTPUT
    err = capsys.readouterr().err
    assert err == f"error: {link}: no space left on device: the output is incomplete\n"
    assert link.is_symlink()


# --------------------------------------------------------------------- a small disk
@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 kB tmpfs (root only; skipped where it cannot be mounted)."""
    with tmpfs(tmp_path / "tiny", "64k") as mount:
        yield mount


def test_a_file_that_does_not_fit_is_not_written_and_the_old_one_is_kept(
    tiny_disk: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.jsonl"
    big.write_text("".join(event_to_line(e) + "\n" for e in hearts_game("h")), "utf-8")
    out = tiny_disk / "games.jsonl"
    out.write_text("the old file\n", "utf-8")
    commands = {
        "simulate": ["simulate", "hearts", "-n", "3", "--out", str(out)],
        "export": ["export", str(big), str(SAMPLE), "--out", str(out)],
        "html": ["export", str(big), "--format", "html", "--out", str(out)],
    }
    for name, args in commands.items():
        assert _main(*args) == EXIT_OUTPUT, name
        err = capsys.readouterr().err
        assert err.endswith(f"error: {out}: no space left on device: nothing written\n"), err
        assert out.read_text("utf-8") == "the old file\n", name
        assert [p.name for p in tiny_disk.iterdir()] == ["games.jsonl"], name  # no temporary
    assert _main("simulate", "hiifuu", "-n", "1", "--out", str(out)) == 0
    assert out.read_text("utf-8").count("\n") == 314 and oct(out.stat().st_mode)[-3:] == "644"


# --------------------------------------------------------------------- hostile text out
#: Names a hostile platform may send: a terminal-title escape, CR, BS, right-to-left, C1.
HOSTILE_NAMES = ["t\x1b]0;title\x07", "cr\rx", "bs\x08y", "rtl\u202ez"]
HOSTILE_ID = "g\x1b[2J\u202e\x85"


def _hostile_log(tmp_path: Path) -> Path:
    """A Hearts game under a hostile id, seated by hostile names, with one finding (seq 13)."""
    events = [dataclasses.replace(e, game_id=HOSTILE_ID) for e in hearts_game("h")]
    setup = {**json.loads(events[0].data or "{}"), "names": HOSTILE_NAMES}
    events[0] = dataclasses.replace(events[0], data=json.dumps(setup))
    lines = [event_to_line(e) for e in events]
    lines[13] = lines[13].replace('"seq":13', '"seq":130')
    path = tmp_path / "hostile.jsonl"
    path.write_text("".join(line + "\n" for line in lines), "utf-8")
    return path


def _raw_controls(text: str) -> list[str]:
    """The characters of ``text`` that reach a terminal raw: controls (but the line end),
    bidirectional and other unprintable ones."""
    return [c for c in text if c != "\n" and not c.isprintable()]


def test_every_text_output_escapes_control_characters(tmp_path: Path) -> None:
    path = str(_hostile_log(tmp_path))
    query = "SELECT game_id, player FROM seats"
    outputs = {
        "stats": run_cli("stats", path, "--stat", "games_played"),
        "stats csv": run_cli("stats", path, "--stat", "games_played", "--format", "csv"),
        "sql": run_cli("sql", path, query),
        "sql csv": run_cli("sql", path, query, "--format", "csv"),
        "games csv": run_cli("games", path, "--format", "csv"),
        "audit csv": run_cli("audit", path, "--format", "csv"),
        "explain html": run_cli("explain", path, "--step", "12", "--format", "html"),
    }
    for command, result in outputs.items():
        assert result.exit_code in (0, 1), (command, result.output)
        assert _raw_controls(result.output) == [], (command, result.output)
    for command in ("stats", "sql", "sql csv", "games csv", "explain html"):
        assert "t\\x1b]0;title\\x07" in outputs[command].output, command
    assert "g\\x1b[2J\\u202e\\x85" in outputs["audit csv"].output


def test_a_value_cannot_end_or_comment_out_the_replay_page_script() -> None:
    from replay.render.pages import replay_frames, replay_page

    names = ["</script><script>alert(1)</script>", "<!--", "a&b\u2028", "<script>"]
    events = [dataclasses.replace(e, game_id="<!--<script>") for e in hearts_game("h")]
    setup = {**json.loads(events[0].data or "{}"), "names": names}
    events[0] = dataclasses.replace(events[0], data=json.dumps(setup))
    page = replay_page(events, "hostile.jsonl")
    opening = '<script type="application/json" id="replay-data">'
    payload = page[page.index(opening) + len(opening) :].split("</script>")[0]
    assert not {"<", ">", "&", "\u2028"} & set(payload)  # nothing the HTML parser acts on
    assert json.loads(payload) == json.loads(json.dumps(replay_frames(events)))
    assert page.count("<script") == 2 and page.count("</script>") == 2


# --------------------------------------------------------------------- a store not written
def _fail_writes_after(monkeypatch: pytest.MonkeyPatch, good: int) -> None:
    """The store's data writer fails on a full disk after ``good`` writes that succeed."""
    from replay.store import ingest as store_ingest
    from replay.store import writer as store_writer
    from tests.test_reliability_storage import _failing_write

    real, failing, calls = store_writer.write_files, _failing_write(errno.ENOSPC), [0]

    def write(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return (real if calls[0] <= good else failing)(*args, **kwargs)

    monkeypatch.setattr(store_ingest, "write_files", write)


@pytest.mark.parametrize("command", ["simulate", "import"])
def test_a_new_store_that_cannot_be_written_exits_4_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    _fail_writes_after(monkeypatch, 0)
    store = tmp_path / "new" / "store"
    args = (
        ["simulate", "hiifuu", "-n", "1", "--out", str(store)]
        if command == "simulate"
        else ["import", str(SAMPLE), "--into", str(store)]
    )
    result = run_cli(*args)
    assert result.exit_code == EXIT_OUTPUT, result.output
    assert f"{store}: no space left on device: nothing was committed" in result.output
    assert list(tmp_path.iterdir()) == []  # no skeleton: not "an empty store" later


@pytest.mark.parametrize("command", ["simulate", "import"])
def test_a_store_on_a_read_only_disk_exits_4(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    def read_only(*args: Any, **kwargs: Any) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(tmp_path / "s"))

    monkeypatch.setattr(Path, "mkdir", read_only)
    args = (
        ["simulate", "hiifuu", "-n", "1", "--out", str(tmp_path / "s")]
        if command == "simulate"
        else ["import", str(SAMPLE), "--into", str(tmp_path / "s")]
    )
    result = run_cli(*args)
    assert result.exit_code == EXIT_OUTPUT, result.output
    assert "cannot create the store: read-only file system" in result.output


def test_simulate_says_which_games_were_committed_when_a_later_batch_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from replay.cli import sim_cmds
    from replay.store import EventStore

    monkeypatch.setattr(sim_cmds, "BATCH", 2)
    _fail_writes_after(monkeypatch, 1)
    result = run_cli("simulate", "hez2", "-n", "3", "--out", str(tmp_path / "s"))
    assert result.exit_code == EXIT_OUTPUT, result.output
    assert result.output == (
        f"error: {tmp_path / 's'}: no space left on device: the first 2 games were "
        "committed, the next 1 were not\n"
    )
    assert len(EventStore.open(tmp_path / "s").list_games()) == 2


def test_a_new_store_on_a_full_disk_exits_4_and_leaves_nothing(tiny_disk: Path) -> None:
    (tiny_disk / "filler").write_bytes(b"\0" * (64 * 1024 - 4096))
    for args in (
        ["simulate", "hiifuu", "-n", "2", "--out", str(tiny_disk / "new" / "s")],
        ["import", str(SAMPLE), "--into", str(tiny_disk / "s")],
    ):
        result = run_cli(*args)
        assert result.exit_code == EXIT_OUTPUT, result.output
        assert [p.name for p in tiny_disk.iterdir()] == ["filler"], result.output


def test_import_writes_every_problem_to_the_problems_file(tmp_path: Path) -> None:
    lines = [event_to_line(e) for e in hearts_game("h")]
    log = tmp_path / "bad.jsonl"
    bad = [f"garbage {n}" for n in range(25)]
    log.write_text("\n".join(lines[:5] + bad + lines[5:]) + "\n", "utf-8")
    problems = tmp_path / "problems.jsonl"
    result = run_cli("import", str(log), "--into", str(tmp_path / "s"), "--problems", str(problems))
    assert result.exit_code == 1, result.output
    assert "... and 5 more" in result.output  # the terminal's list is cut
    written = [json.loads(line) for line in problems.read_text("utf-8").splitlines()]
    assert [(p["file"], p["line"], p["rule"]) for p in written] == [
        (str(log), n, "STORE-JSON") for n in range(6, 31)
    ]
    assert set(written[0]) == {"file", "line", "game_id", "seq", "rule", "reason"}


# --------------------------------------------------------------------- a file audit's memory
def test_a_file_audit_reads_whole_games_a_part_of_the_file_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file spread by game over parts (its games interleaved): the audit holds a part's
    games at a time, not the file's, and says what it says of the file read whole."""
    import replay.model.decode as decode_module
    from replay.store import stream

    games = [[event_to_line(e) for e in hearts_game(f"g{i}", seed=i)] for i in range(4)]
    games[2][40] = games[2][40].replace('"seq":40', '"seq":4')  # a finding
    lines = [line for row in itertools.zip_longest(*games) for line in row if line]
    lines.insert(100, "not json")
    path = tmp_path / "interleaved.jsonl"
    path.write_text("".join(line + "\n" for line in lines), "utf-8")
    whole = run_cli("audit", str(path), "--format", "json")
    monkeypatch.setattr(stream, "PART_BYTES", path.stat().st_size // 3)
    monkeypatch.setattr(stream, "PIECE_BYTES", 32 * 1024)
    rows: list[int] = []
    real = events_from_table

    def counted(table: pa.Table) -> list[Event]:
        rows.append(table.num_rows)
        return real(table)

    monkeypatch.setattr(decode_module, "events_from_table", counted)  # read where it runs
    parted = run_cli("audit", str(path), "--format", "json")
    assert parted.exit_code == whole.exit_code == 2, parted.output
    assert json.loads(parted.output) == json.loads(whole.output)
    assert len(rows) >= 2 and max(rows) < len(lines) - 1  # never the whole file at once


def test_the_problems_of_standard_input_name_their_lines(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from replay.cli import app

    lines = [event_to_line(e) for e in hearts_game("h")]
    text = "\n".join([*lines[:5], "not json", *lines[5:]]) + "\n"
    problems = tmp_path / "problems.jsonl"
    args = ["import", "-", "--into", str(tmp_path / "s"), "--problems", str(problems)]
    result = CliRunner().invoke(app, args, input=text)
    assert result.exit_code == 1, result.output
    written = [json.loads(line) for line in problems.read_text("utf-8").splitlines()]
    assert [(p["file"], p["line"], p["rule"]) for p in written] == [("<stdin>", 6, "STORE-JSON")]
