"""The dispute set of sample_logs/disputes: each log gives exactly its expected finding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replay.audit import audit_game, group_games
from replay.audit.check import audit_rows
from replay.audit.findings import UNREAD_COLUMNS
from replay.games import available_kinds, get_rules
from replay.model.decode import decode_table
from replay.model.events import events_to_table
from replay.store.jsonl import line_to_event

DISPUTES = Path(__file__).parent.parent / "sample_logs" / "disputes"
CASES = sorted(DISPUTES.glob("*/*.expected.json"))
LOG_RULES = {"LOG-SEQUENCE", "LOG-SETUP", "LOG-CARD", "LOG-ORDER", "LOG-AFTER-END"}


def test_the_dispute_set_exists() -> None:
    assert len(CASES) >= 40


@pytest.mark.parametrize("expected_path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_dispute_gives_exactly_its_finding(expected_path: Path) -> None:
    expected = json.loads(expected_path.read_text())
    log = expected_path.with_name(expected_path.name.replace(".expected.json", ".jsonl"))
    events = [line_to_event(line) for line in log.read_text().splitlines()]
    games = group_games(events)
    assert len(games) == 1
    audit = audit_game(games[0])
    assert [(f.rule, f.seq) for f in audit.findings] == [(expected["rule"], expected["seq"])]
    columns = decode_table(events_to_table(events), skip=UNREAD_COLUMNS)
    assert audit_rows(columns, 0, len(events)).to_dict() == audit.to_dict()  # the bulk audit's


@pytest.mark.parametrize("kind", available_kinds())
def test_every_breakable_rule_has_a_dispute(kind: str) -> None:
    covered = {p.name.removesuffix(".expected.json") for p in (DISPUTES / kind).glob("*.json")}
    rules = get_rules(kind)
    wanted = (set(rules.rule_ids) | LOG_RULES) - rules.not_breakable_alone
    assert wanted <= covered, sorted(wanted - covered)
