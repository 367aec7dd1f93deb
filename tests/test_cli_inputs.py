"""Every reading command takes a store, a file, several files, a folder or standard input and
gives the same games; JSON output validates against the schemas of docs/schemas/; bad input
is one line; a closed pipe ends quietly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner, Result

from replay.cli import app
from replay.engine.simulate import simulate_game
from replay.games import get_rules
from replay.model.events import Event
from replay.store import EventStore
from replay.store.jsonl import event_to_line

RUNNER = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "docs" / "schemas"
DISPUTES = ROOT / "sample_logs" / "disputes"
GAMES = [("hearts-a", "hearts", 4), ("hez2-b", "hez2", 2), ("fou-c", "fou", 4)]


def run(*args: str | Path, input: bytes | str | None = None) -> Result:
    return RUNNER.invoke(app, [str(a) for a in args], input=input)


def lines(events: list[Event]) -> str:
    return "".join(event_to_line(e) + "\n" for e in events)


def schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SCHEMAS / f"{name}.json").read_text(encoding="utf-8"))
    return loaded


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The same three games as a store, one file, two files in a folder tree, and text."""
    root = tmp_path_factory.mktemp("inputs")
    games = [simulate_game(get_rules(k), g, players=n, seed=3) for g, k, n in GAMES]
    store = root / "store"
    assert EventStore.open(store, create=True).ingest(games).ok
    one = root / "all.jsonl"
    one.write_text("".join(lines(g) for g in games))
    folder = root / "folder"
    (folder / "sub").mkdir(parents=True)
    first = folder / "a.jsonl"
    first.write_text(lines(games[0]))
    second = folder / "sub" / "b.jsonl"
    second.write_text(lines(games[1]) + lines(games[2]))
    (folder / "README.md").write_text("not searched: only .jsonl files and stores\n")
    return {
        "store": [store],
        "file": [one],
        "files": [first, second],
        "folder": [folder],
        "stdin": ["-"],
        "text": one.read_text(),
    }


FORMS = ["store", "file", "files", "folder", "stdin"]


def invoke(corpus: dict[str, Any], form: str, *args: str) -> Result:
    stdin = corpus["text"] if form == "stdin" else None
    cmd, *rest = args
    return run(cmd, *corpus[form], *rest, input=stdin)


@pytest.mark.parametrize("form", FORMS)
def test_games_lists_the_same_games_from_every_input(corpus: dict[str, Any], form: str) -> None:
    result = invoke(corpus, form, "games", "--format", "json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    jsonschema.validate(rows, schema("cli-games"))
    assert sorted(r["game_id"] for r in rows) == sorted(g for g, _, _ in GAMES)
    assert all(r["file"] for r in rows)
    if form == "stdin":
        assert {r["file"] for r in rows} == {"<stdin>"}
    if form == "files":
        assert {r["game_id"]: Path(r["file"]).name for r in rows}["hez2-b"] == "b.jsonl"


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.slow
def test_show_explain_audit_info_and_export_agree_on_every_input(
    corpus: dict[str, Any], form: str
) -> None:
    baseline = {k: invoke(corpus, "store", *a).stdout for k, a in READS.items()}
    for key, args in READS.items():
        if key == "step" and form == "stdin":
            assert invoke(corpus, form, *args).exit_code == 2  # its keys come from stdin
            continue
        result = invoke(corpus, form, *args)
        assert result.exit_code == 0, (key, result.output)
        assert normalised(key, result.stdout) == normalised(key, baseline[key]), key


READS = {
    "show": ("show", "-g", "hez2", "--step", "7", "--format", "json"),
    "explain": ("explain", "-g", "fou-c", "-s", "12", "--format", "json"),
    "audit": ("audit", "--format", "json", "--jobs", "1"),
    "info": ("info", "--format", "json"),
    "export": ("export", "--out", "-"),
    "step": ("step", "-g", "hearts-a"),
}


def normalised(key: str, text: str) -> Any:
    """The output without what names the input (the file column), lines in a stable order."""
    if key == "step":
        return None  # the stepper reads stdin for keys: compared in its own test
    if key == "export":
        return sorted(text.splitlines())
    data = json.loads(text)
    if key == "explain":
        data.pop("file")
    if key == "audit":
        for finding in data["findings"]:
            finding.pop("file")
    if key == "info":
        data = sorted((r["kind"], r["games"], r["events"]) for r in data)
    return data


def test_json_outputs_validate_against_their_schemas(corpus: dict[str, Any]) -> None:
    store = corpus["store"][0]
    shown = run("show", store, "-g", "hearts-a", "--json")
    jsonschema.validate(json.loads(shown.stdout), schema("cli-show"))
    verdict = run("explain", store, "-g", "hearts-a", "--step", "20", "--format", "json")
    jsonschema.validate(json.loads(verdict.stdout), schema("cli-explain"))
    info = run("info", *corpus["files"], "--format", "json")
    jsonschema.validate(json.loads(info.stdout), schema("cli-info"))
    jsonl = run("games", store, "--format", "jsonl").stdout.splitlines()
    jsonschema.validate([json.loads(line) for line in jsonl], schema("cli-games"))
    disputes = sorted(DISPUTES.glob("*/*.jsonl"))[:6]
    audited = json.loads(run("audit", *disputes, "--format", "json").stdout)
    assert audited["findings"]
    jsonschema.validate(audited, schema("cli-audit"))
    jsonschema.validate(json.loads(run("rules", "-f", "json").stdout), schema("cli-rules"))


def test_csv_has_a_header_and_one_row_per_record(corpus: dict[str, Any]) -> None:
    out = run("games", corpus["store"][0], "-f", "csv").stdout.splitlines()
    assert out[0] == "game_id,kind,started,events,rounds,players,winners,file"
    assert len(out) == 1 + len(GAMES)
    seats = run("show", corpus["store"][0], "-g", "hez2", "-f", "csv").stdout.splitlines()
    assert seats[0] == "step,seat,name,total,hand_size,hand" and len(seats) == 3


def test_a_game_id_in_two_inputs_is_named_and_served_once(corpus: dict[str, Any]) -> None:
    result = run("games", *corpus["store"], *corpus["file"], "--format", "json")
    assert result.exit_code == 1
    assert len(json.loads(result.stdout)) == len(GAMES)
    assert "game hez2-b: also in " in result.stderr and "left out" in result.stderr


def test_findings_name_the_file_each_game_came_from() -> None:
    files = [DISPUTES / "hearts" / "HEARTS-FOLLOW.jsonl", DISPUTES / "hez2" / "HEZ2-MATCH.jsonl"]
    result = run("audit", *files)
    assert result.exit_code == 1
    for path in files:
        assert f"{path}: " in result.stdout
    data = json.loads(run("audit", *files, "--format", "json").stdout)
    assert {Path(f["file"]).name for f in data["findings"]} == {p.name for p in files}
    csv_out = run("audit", *files, "--format", "csv").stdout.splitlines()
    assert csv_out[0].startswith("file,game_id,kind,seq,rule") and len(csv_out) >= 3
    records = [json.loads(line) for line in run("audit", *files, "-f", "jsonl").stdout.splitlines()]
    assert {r["record"] for r in records} == {"finding"}


def test_a_file_that_is_not_json_lines_is_one_error_line(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# A readme\n\nwith\nseveral\nlines\nof\ntext\n" * 20)
    binary = tmp_path / "blob.bin"
    binary.write_bytes(bytes(range(256)) * 50)
    for path in (readme, binary):
        for command in ("audit", "games", "info"):
            result = run(command, path)
            assert result.exit_code in (1, 2), result.output
            assert result.stderr.strip().splitlines() == [
                f"error: {path}: not JSON Lines: first 5 lines unreadable"
            ], (command, result.stderr)


def test_a_long_list_of_problems_is_cut(tmp_path: Path) -> None:
    game = simulate_game(get_rules("hez2"), "g", players=2, seed=1)
    text = lines(game).splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([text[0], *["{broken" for _ in range(40)], *text[1:]]) + "\n")
    result = run("audit", bad)
    assert result.exit_code == 2
    result = run("games", bad)
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 21 and errors[-1] == "error: ... and 20 more"


def test_missing_paths_are_named_and_the_rest_is_read(corpus: dict[str, Any]) -> None:
    result = run("games", corpus["file"][0], "/no/such/file.jsonl")
    assert result.exit_code == 1 and "hearts-a" in result.stdout
    assert "/no/such/file.jsonl: no event store, file or folder of that name" in result.stderr


def test_empty_input_is_the_same_outcome_for_import_and_audit(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    audited = run("audit", empty)
    imported = run("import", empty, "--into", tmp_path / "s")
    assert audited.exit_code == imported.exit_code == 2
    assert f"{empty}: no events" in audited.stdout and f"{empty}: no events" in imported.stderr
    assert not (tmp_path / "s").exists()


def test_an_import_that_stores_nothing_says_so_and_leaves_no_store(tmp_path: Path) -> None:
    game = simulate_game(get_rules("hez2"), "g", players=2, seed=1)
    cut = tmp_path / "cut.jsonl"
    cut.write_text(lines([game[0], *game[2:]]))  # a seq missing: rejected
    result = run("import", cut, "--into", tmp_path / "s")
    assert result.exit_code == 1 and "nothing stored" in result.stdout
    assert not (tmp_path / "s").exists()


def test_import_with_a_prefix_stores_colliding_dispute_games(tmp_path: Path) -> None:
    files = [DISPUTES / "hearts" / "HEARTS-FOLLOW.jsonl"] * 2  # one game id, stored twice
    store = tmp_path / "s"
    for i, path in enumerate(files):
        result = run("import", path, "--into", store, "--prefix", f"c{i}-")
        assert "1 game " in result.stdout, result.output
    listed = json.loads(run("games", store, "-f", "json").stdout)
    assert len(listed) == 2 and all(r["game_id"].startswith(("c0-", "c1-")) for r in listed)
    renamed = run("import", files[0], "--into", store, "--rename", f"{listed[0]['game_id'][3:]}=x")
    assert renamed.exit_code == 0, renamed.output
    assert "x" in {r["game_id"] for r in json.loads(run("games", store, "-f", "json").stdout)}


def test_import_reads_standard_input(tmp_path: Path, corpus: dict[str, Any]) -> None:
    result = run("import", "-", "--into", tmp_path / "s", input=corpus["text"])
    assert result.exit_code == 0 and "<stdin>: " in result.stdout
    assert len(EventStore.open(tmp_path / "s").list_games()) == len(GAMES)


def test_help_has_a_short_flag_and_names_the_inputs() -> None:
    for command in ("games", "show", "audit", "explain", "info", "export", "step"):
        result = run(command, "-h")
        assert result.exit_code == 0 and "INPUT..." in result.stdout, command
    assert "--install-completion" in run("-h").stdout


def test_colour_follows_color_and_no_color(corpus: dict[str, Any]) -> None:
    store = corpus["store"][0]
    assert "\x1b[" not in run("show", store, "-g", "hearts-a").stdout
    assert "\x1b[" in run("--color", "always", "show", store, "-g", "hearts-a").stdout
    assert "\x1b[" not in run("--color", "never", "show", store, "-g", "hearts-a").stdout
    os.environ["NO_COLOR"] = "1"
    try:
        assert "\x1b[" not in run("show", store, "-g", "hearts-a").stdout
    finally:
        del os.environ["NO_COLOR"]


@pytest.mark.slow
def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    """``replay export ... --out - | head -1`` through a real pipe: no message at all."""
    store = ROOT / "sample_logs" / "store"
    cli = [sys.executable, "-c", "from replay.cli import main; main()"]
    for args in (["export", str(store), "--out", "-"], ["games", str(store), "-f", "jsonl"]):
        process = subprocess.Popen(
            [*cli, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT
        )
        assert process.stdout is not None and process.stderr is not None
        first = process.stdout.readline()
        process.stdout.close()  # as head does after one line
        stderr = process.stderr.read()
        code = process.wait()
        assert first.strip()
        assert stderr == b"", stderr
        # killed by SIGPIPE as git is, unless the output fitted in the pipe before it closed
        assert code in ((-signal.SIGPIPE, 141) if args[0] == "export" else (0, -signal.SIGPIPE))
    shell = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {sys.executable} -m replay.cli games {store} | head -1"],
        capture_output=True,
        cwd=ROOT,
    )
    assert shell.stderr == b"" and shell.stdout.count(b"\n") == 1


def test_simulate_writes_json_lines_and_lists_bots_and_options(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = run("simulate", "hez2", "--games", "2", "--out", out)
    assert result.exit_code == 0, result.output
    listed = json.loads(run("games", out, "-f", "json").stdout)
    assert len(listed) == 2 and not (tmp_path / "games.jsonl" / "_delta_log").exists()
    assert run("simulate", "hez2", "-n", "2", "-o", "-").stdout == out.read_text()
    text = run("simulate", "-h").stdout
    assert "heuristic" in text and 'variant="normal"' in text and "stakes=" in text


def test_the_game_may_be_left_out_when_the_input_holds_one(corpus: dict[str, Any]) -> None:
    one = corpus["files"][0]
    assert run("show", one, "-f", "json").exit_code == 0
    several = run("show", corpus["store"][0])
    assert several.exit_code == 2 and "3 games (" in several.stderr and "--game" in several.stderr
