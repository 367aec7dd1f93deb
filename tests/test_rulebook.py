"""The packaged copy of RULES.md, and the rule IDs the games cite."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from replay.games import available_kinds, get_rules
from replay.model.rulebook import has_rule, rule_text, rules
from replay.model.violation import LogRule

SHARED = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"


@pytest.mark.skipif(not SHARED.exists(), reason="../shared/RULES.md not beside the checkout")
def test_packaged_rules_are_the_shared_rules() -> None:
    packaged = Path(__file__).resolve().parents[1] / "replay" / "data" / "RULES.md"
    assert packaged.read_text(encoding="utf-8") == SHARED.read_text(encoding="utf-8"), (
        "RULES.md was revised: copy ../shared/RULES.md to replay/data/RULES.md and review"
    )


def test_rule_texts_join_continuation_lines() -> None:
    assert rule_text("HEARTS-MOON").startswith("a player who takes all 26 points")
    assert "all 88 at 8 players" in rule_text("FOU-SETUP")
    assert rule_text("NO-SUCH-RULE") == ""
    assert len(rules()) >= 48


@pytest.mark.parametrize("kind", available_kinds())
def test_every_rule_id_a_game_declares_is_in_rules_md(kind: str) -> None:
    game = get_rules(kind)
    assert game.rule_ids and all(has_rule(r) for r in game.rule_ids)
    assert has_rule(game.turn_rule)
    prefix = kind.upper() + "-"
    declared = {r for r in rules() if r.startswith(prefix)}
    assert declared == set(game.rule_ids)


def test_the_log_rules_are_the_log_rules_of_rules_md() -> None:
    assert {str(r) for r in LogRule} == {r for r in rules() if r.startswith("LOG-")}


def test_every_rule_a_game_cites_is_typed() -> None:
    """A rule is cited through its game's ``Rule`` enum or ``LogRule`` (a misspelt ID is a type
    error): no rule ID written as a string in a game module's code."""
    literal = re.compile(r"^[A-Z0-9]+(-[A-Z0-9]+)+$")
    games = Path(__file__).resolve().parents[1] / "replay" / "games"
    found = []
    for path in sorted(games.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        enums = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == "Rule"]
        declared = {id(c) for e in enums for c in ast.walk(e)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
                continue
            if literal.match(node.value) and id(node) not in declared:
                found.append(f"{path.name}:{node.lineno} {node.value}")
    assert found == []
