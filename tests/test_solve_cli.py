"""``replay solve``: the position, each legal card's value and the best line; JSON valid against
docs/schemas/cli-solve.json; a step with no card to play, or a game the solver does not know,
is one error line naming the file, the game and the step (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from typer.testing import CliRunner, Result

from replay.cli import app

ROOT = Path(__file__).resolve().parents[1]
HEARTS = ROOT / "sample_logs" / "jsonl" / "hearts4.jsonl"
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "cli-solve.json").read_text(encoding="utf-8"))


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


def test_solve_prints_every_legal_card_and_the_best_line() -> None:
    result = run("--ascii", "solve", HEARTS, "--step", "58")  # hand 1, trick 11: 3 cards each
    assert result.exit_code == 0, result.output
    assert "seat 1 to play" in result.stdout
    assert "* QD          17       2       0       7      0" in result.stdout
    assert "best line: 1:QD 2:4D 3:9D 0:6C" in result.stdout


def test_solve_json_follows_its_schema() -> None:
    result = run("solve", HEARTS, "--step", "58", "--format", "json")
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    assert [c["card"] for c in data["cards"]] == ["QD", "KD", "AD"]
    assert data["better"] == "lower" and data["best"] == "QD"
    csv = run("solve", HEARTS, "--step", "58", "--format", "csv").stdout.splitlines()
    assert csv[0] == "step,seat,card,best,loss,values" and len(csv) == 4


def test_no_card_to_play_is_one_error_line() -> None:
    for path, step, why in [
        (HEARTS, "3", "deal is due"),
        (ROOT / "sample_logs" / "jsonl" / "hez22.jsonl", "10", "not hez2"),
    ]:
        result = run("solve", path, "--step", step)
        assert result.exit_code == 2
        assert result.stderr.count("\n") == 1 and f"{path}: game " in result.stderr
        assert f"step {step}: " in result.stderr and why in result.stderr
