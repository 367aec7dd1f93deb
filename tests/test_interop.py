"""Logs from other platforms (RULES.md "Recording order"): the rules' text and seeds shipped."""

from __future__ import annotations

import json
import random
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from typer.testing import CliRunner

from replay.audit import audit_game
from replay.audit.check import waiting_text
from replay.audit.results import recomputed_result
from replay.cli import app
from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_rules
from replay.model.events import Event
from replay.model.specs import state_schema
from replay.store import EventStore
from replay.store.jsonl import event_to_line

RUNNER = CliRunner()
PLAYER_RANGES = {"hearts": (4, 5), "hez2": (2, 5), "hiifuu": (4, 7), "fou": (4, 9)}


@pytest.mark.parametrize("kind", available_kinds())
def test_the_french_seed_of_each_game_ships_beside_rules_md(kind: str) -> None:
    seed = resources.files("replay.data").joinpath("seeds", f"{kind}.fr.txt")
    assert seed.is_file()
    assert len(seed.read_text(encoding="utf-8")) > 1000


# ----------------------------------------------------------------------------- recording order
#: (kind, players) of the re-recorded corpora: every player count of every game.
TABLES = [(k, n) for k in available_kinds() for n in range(*PLAYER_RANGES[k])]


def rerecorded(events: list[Event], rng: random.Random) -> list[Event]:
    """The same game recorded as another platform might: each round's deals in a shuffled
    seat order, and each trick's two Fools (Fou! at 7-8 players) swapped."""
    out = list(events)
    i = 0
    while i < len(out):
        j = i
        while j < len(out) and out[j].type == out[i].type:
            j += 1
        if out[i].type == "deal" or (out[i].type == "fool" and j - i == 2):
            block = out[i:j]
            if out[i].type == "deal":
                rng.shuffle(block)
            else:
                block.reverse()
            out[i:j] = [e.at(seq) for e, seq in zip(block, range(i, j), strict=True)]
        i = max(j, i + 1)
    return out


@pytest.mark.parametrize(("kind", "players"), TABLES)
def test_deals_in_any_seat_order_and_swapped_fools_audit_clean_with_the_same_results(
    kind: str, players: int
) -> None:
    rules = get_rules(kind)
    rng = random.Random(players)
    changed = 0
    for seed in range(2):
        events = simulate_game(rules, f"{kind}{players}-{seed}", players=players, seed=seed)
        other = rerecorded(events, rng)
        changed += sum(a != b for a, b in zip(events, other, strict=True))
        audit = audit_game(other, complete=True)
        assert audit.clean and not audit.incomplete, [f.message for f in audit.findings]
        assert recomputed_result(other) == recomputed_result(events)
        assert rules.result(rules.replay(other)) == rules.result(rules.replay(events))
    assert changed > 0
    if kind == "fou" and players >= 7:
        assert any(e.type == "fool" for e in other)


def test_a_second_deal_to_a_seat_or_a_deal_after_play_began_is_log_order() -> None:
    """RULES.md, Recording order: each seat is dealt once per round, all before play."""
    rules = get_rules("hearts")
    events = simulate_game(rules, "twice", players=4, seed=3)
    twice = [*events[:2], events[1].at(2)]
    assert [f.rule for f in audit_game(twice).findings] == ["LOG-ORDER"]
    assert "a second deal to seat" in audit_game(twice).findings[0].message
    first_play = next(i for i, e in enumerate(events) if e.type == "pass")
    late = [*events[: first_play + 1], events[1].at(first_play + 1)]
    assert [f.rule for f in audit_game(late).findings] == ["LOG-ORDER"]


# ----------------------------------------------------------------------------- logs in progress
@pytest.mark.parametrize("kind", available_kinds())
def test_an_incomplete_log_is_not_a_fault_unless_the_audit_judges_a_finished_game(
    kind: str, tmp_path: Path
) -> None:
    rules = get_rules(kind)
    events = simulate_game(rules, f"live-{kind}", players=rules.max_players, seed=5)
    cut = events[: len(events) // 2]
    audit = audit_game(cut)
    state = rules.replay(cut)
    assert audit.clean and audit.incomplete and audit.waiting_seq == len(cut)
    assert audit.waiting_for == waiting_text(rules.due(state))
    log = tmp_path / "cut.jsonl"
    log.write_text("".join(event_to_line(e) + "\n" for e in cut), encoding="utf-8")
    result = RUNNER.invoke(app, ["audit", str(log)])
    assert result.exit_code == 0, result.output
    assert f"incomplete, waits at seq {len(cut)} for {audit.waiting_for}" in result.output
    judged = RUNNER.invoke(app, ["audit", str(log), "--complete", "--format", "json"])
    assert judged.exit_code == 1
    report = json.loads(judged.stdout)
    assert [(f["rule"], f["seq"]) for f in report["findings"]] == [("LOG-ORDER", len(cut))]
    assert report["incomplete"] == []
    validate_report(report)


def test_a_missing_game_end_cites_the_end_rule_when_a_finished_game_is_judged() -> None:
    """RULES.md, Recording order: LOG-ORDER, or the game's END rule where a game end is due."""
    rules = get_rules("hearts")
    events = simulate_game(rules, "no-end", players=4, seed=2)
    audit = audit_game(events[:-1], complete=True)
    assert [(f.rule, f.seq) for f in audit.findings] == [("HEARTS-END", len(events) - 1)]
    assert audit_game(events[:-1]).waiting_for.startswith("the ruling game_end")


def test_live_games_of_a_store_are_audited_as_incomplete(tmp_path: Path) -> None:
    rules = get_rules("hiifuu")
    events = simulate_game(rules, "live", players=4, seed=1)
    done = simulate_game(rules, "done", players=4, seed=2)
    store = EventStore.open(tmp_path / "s", create=True)
    store.ingest([done])
    store.append("live", events[:40], 0)
    result = RUNNER.invoke(app, ["audit", str(tmp_path / "s"), "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    validate_report(report)
    assert report["games"] == 2 and report["findings"] == []
    assert [(g["game_id"], g["seq"]) for g in report["incomplete"]] == [("live", 40)]
    judged = RUNNER.invoke(app, ["audit", str(tmp_path / "s"), "--complete"])
    assert judged.exit_code == 1 and "LOG-ORDER" in judged.stdout


# ----------------------------------------------------------------------------- findings as data
SCHEMAS = Path(__file__).resolve().parents[1] / "docs" / "schemas"
STATE_SCHEMA = state_schema()
DISPUTES = Path(__file__).resolve().parents[1] / "sample_logs" / "disputes"


def _registry() -> Registry:
    resources = []
    for path in SCHEMAS.glob("*.json"):
        schema = json.loads(path.read_text())
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


def validate_report(report: dict[str, object]) -> None:
    """``report`` against docs/schemas/audit-report.json, every finding's state against the
    state schema of docs/state.md."""
    schema = json.loads((SCHEMAS / "audit-report.json").read_text())
    Draft202012Validator(schema, registry=_registry()).validate(report)
    findings = report["findings"]
    assert isinstance(findings, list)
    for finding in findings:
        if finding["state"] is not None:
            jsonschema.validate(finding["state"], STATE_SCHEMA)


def validate_finding(finding: dict[str, object]) -> None:
    schema = json.loads((SCHEMAS / "finding.json").read_text())
    Draft202012Validator(schema, registry=_registry()).validate(finding)


def test_the_json_report_of_the_whole_dispute_corpus_validates(tmp_path: Path) -> None:
    corpus = tmp_path / "disputes.jsonl"
    logs = sorted(DISPUTES.glob("*/*.jsonl"))
    corpus.write_text("".join(p.read_text(encoding="utf-8") for p in logs), encoding="utf-8")
    result = RUNNER.invoke(app, ["audit", str(corpus), "--format", "json"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert report["games"] == len(logs)  # one game id per dispute file
    assert len(report["findings"]) == len(logs)
    validate_report(report)
    lines = RUNNER.invoke(app, ["audit", str(corpus), "--format", "jsonl"])
    records = [json.loads(line) for line in lines.stdout.splitlines()]
    findings = [r for r in records if r["record"] == "finding"]
    assert [{k: v for k, v in f.items() if k != "record"} for f in findings] == report["findings"]
    for finding in findings:
        validate_finding(finding)
    assert {f["rule"] for f in findings} >= {"HEARTS-TRICK", "LOG-SEQUENCE", "FOU-FOOL"}
    assert any(f["expected"] is not None and f["state"] is not None for f in findings)


def test_the_json_report_of_damaged_input_validates(tmp_path: Path) -> None:
    rules = get_rules("fou")
    events = simulate_game(rules, "damaged", players=4, seed=1)
    lines = [event_to_line(e) for e in events]
    lines[5] = lines[5][:-9]  # a cut line
    lines[30] = "not json at all"
    del lines[60]  # a gap
    log = tmp_path / "damaged.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = RUNNER.invoke(app, ["audit", str(log), "--format", "json"])
    assert result.exit_code == 2, result.output
    report = json.loads(result.stdout)
    validate_report(report)
    assert len(report["problems"]) == 2 and report["findings"]
    assert all(p["reason"] for p in report["problems"])
