"""``replay stats --format json|jsonl`` validates against docs/schemas/cli-stats.json, on the
sample store and on a filter that leaves no game; the schema refuses a misshapen statistic."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.store_helpers import run_cli

ROOT = Path(__file__).resolve().parents[1]
STORE = ROOT / "sample_logs" / "store"
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "cli-stats.json").read_text(encoding="utf-8"))


@cache
def sample_stats() -> list[dict[str, Any]]:
    result = run_cli("stats", str(STORE), "--format", "json")
    assert result.exit_code == 0, result.output
    stats: list[dict[str, Any]] = json.loads(result.stdout)
    return stats


def test_stats_json_of_the_sample_store_validates_against_its_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    stats = sample_stats()
    jsonschema.validate(stats, SCHEMA)
    names = [s["name"] for s in stats]
    assert len(names) == len(set(names))
    assert {s["kind"] for s in stats} == {None, "hearts", "hez2", "hiifuu", "fou"}
    assert any(s["chart"] == "rate" and s["rows"] for s in stats)
    # The sample store has no stored reviews nor luck: the statistics over them alone are
    # empty, and say how to make them; every other has rows.
    assert all(s["rows"] and s["games"] > 0 for s in stats if s["note"] is None)
    empty = {s["name"]: s for s in stats if s["note"] is not None}
    assert sorted(empty) == ["fairplay_players", "luck_players", "review_players"]
    assert all(not s["rows"] for s in empty.values())
    assert "replay reindex STORE --reviews" in empty["review_players"]["note"]
    assert "replay reindex STORE --luck" in empty["luck_players"]["note"]
    assert "replay reindex STORE --fairplay" in empty["fairplay_players"]["note"]


@pytest.mark.parametrize(
    "args",
    [("--format", "jsonl", "--kind", "hez2"), ("--format", "json", "--player", "nobody")],
)
def test_stats_jsonl_and_an_empty_choice_validate_too(args: tuple[str, ...]) -> None:
    result = run_cli("stats", str(STORE), *args)
    assert result.exit_code == 0, result.output
    text = result.stdout
    stats = json.loads(text) if "json" in args else [json.loads(x) for x in text.splitlines()]
    assert stats
    jsonschema.validate(stats, SCHEMA)


def _rate_stat(stats: list[dict[str, Any]]) -> dict[str, Any]:
    return next(s for s in stats if s["chart"] == "rate" and s["rows"])


Damage = Callable[[dict[str, Any]], object]
DAMAGES: dict[str, Damage] = {
    "no rows": lambda s: s.pop("rows"),
    "an unknown key": lambda s: s.update(extra=1),
    "an unknown chart": lambda s: s.update(chart="pie"),
    "negative games": lambda s: s.update(games=-1),
    "a rate without its interval": lambda s: s["rows"][0].pop("low"),
    "a rate above 1": lambda s: s["rows"][0].update(rate=1.5),
    "a count as text": lambda s: s["rows"][0].update(hits="3"),
    "a nested cell": lambda s: s["rows"][0].update(note={"a": 1}),
    "a common row without its kind": lambda s: s["rows"][0].pop("kind"),
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_the_stats_schema_refuses_a_misshapen_statistic(damage: str) -> None:
    stats = copy.deepcopy(sample_stats())
    target = _rate_stat([s for s in stats if s["kind"] is None])
    DAMAGES[damage](target)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(stats, SCHEMA)
