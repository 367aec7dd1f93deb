"""The adjusted result of a finding (replay/review/impact.py, ``explain --impact``, ``audit
--impact``): the rollouts start from the rules' ruling, a finding the log went on from changes
nothing (the adjusted result is the recorded one, no winner change), the same seed gives the
same result, and the outputs follow docs/schemas."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource
from typer.testing import CliRunner

from replay.audit.explain import explain_step
from replay.audit.results import recomputed_result
from replay.cli import app
from replay.cli.common import read_events_file
from replay.games import get_rules
from replay.games.base import Phase
from replay.model.events import Event
from replay.review.impact import corrected_state, game_impacts, places_of

ROOT = Path(__file__).resolve().parent.parent
DISPUTES = ROOT / "sample_logs" / "disputes"
SCHEMAS = ROOT / "docs" / "schemas"
RUNNER = CliRunner()


def dispute(name: str) -> list[Event]:
    kind = name.split("-")[0].lower()
    events, problems = read_events_file(DISPUTES / kind / f"{name}.jsonl")
    assert not problems
    return sorted(events, key=lambda e: e.seq)


def validate(data: object, name: str) -> None:
    resources = []
    for path in SCHEMAS.glob("*.json"):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(
        schema, registry=Registry().with_resources(resources)
    )
    validator.validate(data)


# wrong rulings the log went on from (the next events follow the rules' ruling), a wrong
# field that decides nothing (HEARTS-POINTS: a trick's points recorded on its ruling)
@pytest.mark.parametrize(
    "name", ["HEARTS-TRICK", "HEARTS-POINTS", "HIIFUU-TRICK", "FOU-TRICK", "HEZ2-OUT"]
)
def test_a_finding_that_changes_nothing_keeps_the_recorded_result(name: str) -> None:
    events = dispute(name)
    (impact,) = game_impacts(events, samples=4, seed=1)
    recorded = recomputed_result(events)
    assert recorded["over"]
    assert impact.changes_nothing and impact.correction == "ruling" and impact.samples == 0
    assert impact.winner_change.mean == 0.0
    assert impact.recorded_winners == tuple(sorted(recorded["winners"]))
    places = places_of(recorded, len(impact.seats))
    for seat in impact.seats:
        assert seat.total.mean == seat.recorded_total == recorded["totals"][seat.seat]
        assert seat.place.mean == seat.recorded_place == places[seat.seat]
        assert seat.places[places[seat.seat] - 1] == 1.0 and sum(seat.places) == 1.0


def test_the_rollouts_start_from_the_rules_ruling() -> None:
    events = dispute("HEARTS-TRICK")[:20]  # the log stops soon after: nothing to go on from
    verdict = explain_step(events, 13)
    state = corrected_state(events, 13)
    assert state is not None
    due = get_rules("hearts").due(state)
    # the rules give the trick to seat 2 (the log said seat 0): seat 2 leads the next trick
    assert due.phase is Phase.DECISION and due.seats[0] == 2
    (impact,) = game_impacts(events, samples=3, seed=5)
    assert impact.correction == "ruling" and not impact.changes_nothing
    assert impact.corrected == verdict.expected
    assert impact.samples == 3 and impact.recorded_winners is None
    assert all(seat.total.n == 3 and abs(sum(seat.places) - 1) < 1e-9 for seat in impact.seats)


def test_an_illegal_play_is_replaced_by_the_policys_legal_move() -> None:
    events = dispute("HEARTS-FOLLOW")
    state = corrected_state(events, 10)
    assert state is not None and state.seq == 10  # the state before the illegal play
    first = game_impacts(events, samples=3, seed=7)
    (impact,) = first
    assert impact.correction == "policy" and impact.samples == 3
    assert impact.recorded_winners is not None and impact.baseline_change is not None
    assert impact.winner_change.n == impact.baseline_change.n == 3
    assert [i.to_dict() for i in game_impacts(events, samples=3, seed=7)] == [
        i.to_dict() for i in first
    ]


def test_a_log_fault_has_no_adjusted_result() -> None:
    (impact,) = game_impacts(_log("hearts", "LOG-SEQUENCE"))
    assert impact.correction == "none" and not impact.seats and impact.samples == 0


def _log(kind: str, name: str) -> list[Event]:
    events, _ = read_events_file(DISPUTES / kind / f"{name}.jsonl")
    return sorted(events, key=lambda e: e.seq)


def test_places_follow_the_winners_direction() -> None:
    assert places_of({"winners": [1], "totals": [40, 20, 40, 90]}, 4) == [2, 1, 2, 4]
    assert places_of({"winners": [3], "totals": [1, 2, 2, 5]}, 4) == [4, 2, 2, 1]
    assert places_of({"places": [2, 0, 1], "totals": [0, 0, 0]}, 3) == [2, 3, 1]


def test_explain_and_audit_show_the_impact_and_follow_the_schemas() -> None:
    path = DISPUTES / "hearts" / "HEARTS-FOLLOW.jsonl"
    cheap = ("--impact", "-n", "2", "--seed", "3")
    out = RUNNER.invoke(app, ["explain", str(path), "--step", "10", *cheap, "-f", "json"])
    assert out.exit_code == 1, out.output
    data = json.loads(out.stdout)
    validate(data, "cli-explain.json")
    assert data["impact"]["correction"] == "policy" and data["impact"]["samples"] == 2
    table = RUNNER.invoke(app, ["explain", str(path), "--step", "10", *cheap])
    assert "adjusted result" in table.stdout and "recorded total" in table.stdout
    html = RUNNER.invoke(app, ["explain", str(path), "--step", "10", *cheap, "-f", "html"])
    assert "Had the irregularity not happened" in html.stdout
    audit = RUNNER.invoke(app, ["audit", str(DISPUTES / "hearts" / "HEARTS-TRICK.jsonl"),
                                "--impact", "-f", "json"])  # fmt: skip
    report = json.loads(audit.stdout)
    validate(report, "cli-audit.json")
    (finding,) = report["findings"]
    assert finding["impact"]["changes_nothing"] and finding["impact"]["winner_change"]["mean"] == 0
    line = RUNNER.invoke(app, ["audit", str(path), *cheap])
    assert "adjusted result: HEARTS-FOLLOW at 10: winner changes in" in line.stdout


def test_a_log_the_rules_cannot_walk_to_its_end_keeps_its_recorded_winners() -> None:
    events = dispute("HEARTS-FOLLOW")
    cut = [e for e in events if e.seq != 400]  # a seq missing: the walk stops there
    end = events[-1]
    assert end.type == "game_end" and end.values is not None
    impact = next(i for i in game_impacts(cut, samples=2, seed=2) if i.seq == 10)
    assert impact.recorded_winners == tuple(sorted(end.values))
    assert impact.winner_change.n == 2 and "game_end" in impact.note
    assert all(seat.recorded_total is None for seat in impact.seats)
