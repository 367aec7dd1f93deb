"""The disputed-ruling view: the state just before one event, the event, and the verdict.

>>> from replay.games import get_rules
>>> from replay.simulate import simulate_game
>>> events = simulate_game(get_rules("hearts"), "doc", players=4, seed=9)
>>> verdict = explain_step(events, 13)
>>> verdict.ok, verdict.rule
(True, 'HEARTS-TRICK')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from replay.cursor import Cursor
from replay.events import Category, Event
from replay.games import get_rules
from replay.games.base import Phase, RuleViolation, describe_payload
from replay.rulebook import rule_text

_WORDS = {
    Category.DECISION: ("legal", "illegal"),
    Category.RULING: ("ruling right", "ruling wrong"),
    Category.CHANCE: ("possible", "impossible"),
    Category.SETUP: ("valid setup", "invalid setup"),
}


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether one recorded event stands, and the rule that decides it."""

    game_id: str
    kind: str
    seq: int
    event: Event
    category: str
    ok: bool
    rule: str
    reason: str
    expected: str
    before: str

    @property
    def sentence(self) -> str:
        """The verdict in one sentence, e.g. ``illegal: seat 2 played 5H ... (HEARTS-FOLLOW)``."""
        rule = f" ({self.rule})" if self.rule else ""
        return f"{self.reason}{rule}"

    def render(self) -> str:
        lines = [
            f"game {self.game_id} ({self.kind}), event {self.seq}",
            "",
            "state before the event:",
            self.before,
            "",
            f"event: {self.event.describe()}  [{self.category}]",
            f"verdict: {self.sentence}",
        ]
        if self.expected:
            lines.append(f"the rules give: {self.expected}")
        if self.rule:
            lines.append(f"rule {self.rule}: {rule_text(self.rule)}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "kind": self.kind,
            "seq": self.seq,
            "event": self.event.describe(),
            "category": self.category,
            "ok": self.ok,
            "rule": self.rule,
            "rule_text": rule_text(self.rule) if self.rule else "",
            "verdict": self.sentence,
            "expected": self.expected,
            "state_before": self.before,
        }


def explain_step(events: Sequence[Event], seq: int) -> Verdict:
    """The verdict on the event with sequence number ``seq`` of one game.

    Raises ``IndexError`` for a step the game does not have and ``ValueError`` when the log
    cannot be reduced up to that step (an earlier event the state cannot absorb).
    """
    if not 0 <= seq < len(events) or events[seq].seq != seq:
        raise IndexError(f"step {seq} is not in this game (0..{len(events) - 1})")
    rules = get_rules(events[0].kind)
    event = events[seq]
    category = rules.event_types.get(event.type, Category.DECISION)
    good, bad = _WORDS[category]

    def verdict(ok: bool, rule: str, reason: str, expected: str, before: str) -> Verdict:
        return Verdict(
            event.game_id, event.kind, seq, event, category.value, ok, rule,
            f"{good if ok else bad}: {reason}", expected, before,
        )  # fmt: skip

    if seq == 0:
        try:
            state = rules.start(event)
        except RuleViolation as v:
            return verdict(False, v.rule, v.message, "", "(no state before the first event)")
        return verdict(True, "", rules.summary(state), "", "(no state before the first event)")
    cursor = Cursor(rules, events[:seq])
    if cursor.stopped is not None:
        stop = cursor.stopped
        raise ValueError(
            f"the log cannot be reduced past seq {stop.seq} ({stop.violation}), "
            f"so step {seq} cannot be judged"
        )
    state = cursor.state_at(seq - 1)
    before = rules.render(state)
    try:
        rules.verify(state, event)
    except RuleViolation as v:
        expected = describe_payload(v.expected) if v.expected is not None else ""
        return verdict(False, v.rule, v.message, expected, before)
    due = rules.due(state)
    rule = due.rule or "" if due.phase is Phase.RULING else ""
    return verdict(True, rule, event.describe(), "", before)
