"""The disputed-ruling view: the state just before one event, the event, and the verdict.

>>> from replay.games import UnknownGame, get_rules
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

from replay.audit import GameAudit, check_sequence
from replay.events import Category, Event
from replay.games import UnknownGame, get_rules
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
    """The verdict on the event with sequence number ``seq`` of one game (events in any order).

    The event is judged as the audit judges it (:meth:`Rules.walk`). Raises ``IndexError`` for
    a step the game does not have and ``ValueError`` when the log cannot be reduced up to that
    step (a sequence fault or an earlier event the state cannot absorb).
    """
    if not events:
        raise IndexError("the game has no events")
    sequence = GameAudit(events[0].game_id, events[0].kind, len(events))
    usable = check_sequence(list(events), sequence)
    last = max(e.seq for e in events)
    if not 0 <= seq <= last:
        raise IndexError(f"step {seq} is not in this game (0..{last})")
    if seq >= len(usable):
        fault = sequence.findings[-1]
        raise ValueError(f"step {seq} cannot be judged: {fault.message} ({fault.rule})")
    event = usable[seq]
    try:
        rules = get_rules(usable[0].kind)
    except UnknownGame:
        if seq > 0:
            raise ValueError(f"unknown game kind {usable[0].kind!r}") from None
        rules = None
    category = rules.event_types.get(event.type, Category.DECISION) if rules else Category.SETUP
    good, bad = _WORDS[category]

    def verdict(ok: bool, rule: str, reason: str, expected: str, before: str) -> Verdict:
        return Verdict(
            event.game_id, event.kind, seq, event, category.value, ok, rule,
            f"{good if ok else bad}: {reason}", expected, before,
        )  # fmt: skip

    before = "(no state before the first event)"
    if rules is None:
        return verdict(False, "LOG-SETUP", f"unknown game kind {event.kind!r}", "", before)
    due = None
    try:
        for step in rules.walk(usable[: seq + 1]):
            if step.event.seq == seq:
                break
            if step.applied is None:
                raise ValueError(
                    f"the log cannot be reduced past seq {step.event.seq} ({step.violation}), "
                    f"so step {seq} cannot be judged"
                )
            if step.event.seq == seq - 1:  # the working state: read it before the next step
                before, due = rules.render(step.state), rules.due(step.state)
    except RuleViolation as exc:  # the first event cannot start a game
        if seq == 0:
            return verdict(False, exc.rule, exc.message, "", before)
        raise ValueError(f"the game cannot start ({exc}), so step {seq} cannot be judged") from None
    v = step.violation
    if v is not None:
        expected = describe_payload(v.expected) if v.expected is not None else ""
        return verdict(False, v.rule, v.message, expected, before)
    if seq == 0:
        return verdict(True, "", rules.summary(step.state), "", before)
    ruling_rule = due.rule if due is not None and due.phase is Phase.RULING else None
    return verdict(True, ruling_rule or "", event.describe(), "", before)
