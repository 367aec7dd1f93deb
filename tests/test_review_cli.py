"""``replay review``: a dispute file is reviewed up to its finding and says so, the JSON output
follows docs/schemas/cli-review.json, bad input gets one clear line, nothing is written to a
store, and the same seed gives the same review whatever the number of worker processes."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from typer.testing import CliRunner, Result

from replay.cli import app
from replay.review.engine import Settings, review_games
from replay.review.report import review_document
from replay.store import EventStore
from replay.store.jsonl import event_to_line
from tests.review_support import first_hand

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "cli-review.json").read_text(encoding="utf-8"))
DISPUTE = ROOT / "sample_logs" / "disputes" / "hearts" / "HEARTS-FOLLOW.jsonl"
RUNNER = CliRunner()


def run(*args: object) -> Result:
    return RUNNER.invoke(app, ["--color", "never", "review", *(str(a) for a in args)])


def test_a_dispute_is_reviewed_up_to_its_finding_and_says_so() -> None:
    cheap = ("-n", "2", "--alternatives", "3")
    data = json.loads(run(DISPUTE, *cheap, "-f", "json").stdout)
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.validate(data, SCHEMA)
    (game,) = data["games"]
    assert game["reviewed_to"] == 10 and game["stop_reason"].startswith("HEARTS-FOLLOW")
    assert game["decisions"] and all(d["seq"] < 10 for d in game["decisions"])
    assert sum(s["decisions"] for s in game["seats"]) == len(game["decisions"])
    table = run(DISPUTE, *cheap, "--seat", "0")
    assert table.exit_code == 0
    assert "reviewed up to step 10, the first audit finding: HEARTS-FOLLOW" in table.stdout
    for fmt in ("markdown", "html"):
        assert "HEARTS-FOLLOW" in run(DISPUTE, *cheap, "--seat", "0", "-f", fmt).stdout


def test_bad_input_gets_one_clear_line(tmp_path: Path) -> None:
    cut = tmp_path / "cut.jsonl"
    lines = DISPUTE.read_text(encoding="utf-8").splitlines()
    cut.write_text("\n".join(lines[3:]) + "\n", encoding="utf-8")
    for args, words in (
        ((DISPUTE, "--seat", "7"), "HEARTS-FOLLOW.jsonl: game hearts-HEARTS-FOLLOW: no seat 7"),
        ((DISPUTE, "--policy", "nonesuch"), "no policy 'nonesuch' for hearts"),
        ((tmp_path / "missing.jsonl",), "missing.jsonl"),
    ):
        result = run(*args)
        assert result.exit_code == 2, result.output
        assert words in result.stderr and result.stderr.count("\n") == 1, result.stderr
        assert "Traceback" not in result.output
    headless = run(cut, "-f", "json")  # no game_start: nothing to review, and it says so
    assert headless.exit_code == 0, headless.output
    (game,) = json.loads(headless.stdout)["games"]
    assert game["reviewed_to"] <= 3 and not game["decisions"] and game["stop_reason"]


def test_nothing_is_written_to_a_store(tmp_path: Path) -> None:
    store = tmp_path / "store"
    EventStore.open(store, create=True).ingest([first_hand(1, None)[:30]])

    def files() -> dict[str, tuple[int, int]]:
        return {
            str(p.relative_to(store)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in store.rglob("*")
        }

    before = files()
    result = run(store, "--seat", "0", "-n", "1", "-f", "csv")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("game_id,kind,seq,seat,type,played,best,legal,loss")
    assert files() == before


def test_the_same_seed_gives_the_same_review_with_any_jobs() -> None:
    hand = first_hand(2, None)[:40]
    settings = Settings(samples=3, seed=5, max_alternatives=3)
    one = review_document(review_games([hand], settings, [1, 2], jobs=1))
    two = review_document(review_games([hand], settings, [1, 2], jobs=2))
    assert one == two and one["games"][0]["decisions"]
    other = review_document(review_games([hand], Settings(3, 6, max_alternatives=3), [1, 2]))
    assert other != one  # the seed is used


def test_jsonl_is_one_decision_a_line(tmp_path: Path) -> None:
    path = tmp_path / "hand.jsonl"
    path.write_text("".join(event_to_line(e) + "\n" for e in first_hand(3, None)[:24]))
    out = run(path, "-n", "1", "--alternatives", "2", "-f", "jsonl").stdout.splitlines()
    rows = [json.loads(line) for line in out]
    assert rows and all(r["type"] in ("pass", "play") for r in rows)
    decision = SCHEMA["$defs"]["decision"]
    for row in rows:
        jsonschema.validate(row, {**decision, "$defs": SCHEMA["$defs"]})
