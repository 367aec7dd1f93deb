"""The disputed-ruling view: the state just before one event, the event, and the verdict.

>>> from replay.games import UnknownGame, get_rules
>>> from replay.engine.simulate import simulate_game
>>> events = simulate_game(get_rules("hearts"), "doc", players=4, seed=9)
>>> verdict = explain_step(events, 13)
>>> verdict.ok, verdict.rule
(True, 'HEARTS-TRICK')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from replay.audit.check import check_sequence
from replay.audit.findings import GameAudit
from replay.engine import walk
from replay.engine.cursor import CONTINUES_WORDS, Outcome, cards_in_text, event_words
from replay.games import UnknownGame, get_rules
from replay.games.base import Phase, RuleViolation, describe_payload
from replay.model.events import Category, Event, seat_names
from replay.model.faces import card_face, plain_card_label
from replay.model.rulebook import rule_text
from replay.model.violation import LogRule
from replay.text import escaped, shown

_WORDS = {
    Category.DECISION: ("legal", "illegal"),
    Category.RULING: ("ruling right", "ruling wrong"),
    Category.CHANCE: ("possible", "impossible"),
    Category.SETUP: ("valid setup", "invalid setup"),
}


#: How a payload field of a ruling is named in a verdict.
FIELD_WORDS = {
    "player": "seat",
    "target": "target seat",
    "card": "card",
    "cards": "cards",
    "amount": "amount",
    "values": "values",
    "round": "round",
    "trick": "trick",
    "data": "data",
}


@dataclass(frozen=True, slots=True)
class Difference:
    """One field of a wrong ruling: what the log recorded and what the rules give."""

    field: str
    recorded: Any
    given: Any
    words: str  # ``seat: recorded seat 0 (ann), the rules give seat 2 (cy)``

    def to_dict(self) -> dict[str, Any]:
        return {"field": self.field, "recorded": self.recorded, "given": self.given,
                "words": self.words}  # fmt: skip


def _seat(seat: Any, names: Sequence[str]) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return f"seat {seat} ({names[seat]})"
    return f"seat {seat}"


def _value(name: str, value: Any, names: Sequence[str]) -> str:
    if value is None:
        return "nothing"
    if name in ("player", "target"):
        return _seat(value, names)
    if isinstance(value, tuple | list):
        return " ".join(str(v) for v in value) or "none"
    return str(value)


def differences(
    recorded: Event, given: Event, names: Sequence[str] = (), reason: str = ""
) -> list[Difference]:
    """The fields in which a recorded ruling differs from the one the rules give, in words
    (``reason``, the rule's gist, after each); per-seat values (``values`` of as many seats as
    the game has) seat by seat."""
    because = f": {reason}" if reason else ""
    mine, theirs = recorded.payload(), given.payload()
    out: list[Difference] = []
    for name in [*theirs, *(k for k in mine if k not in theirs)]:
        a, b = mine.get(name), theirs.get(name)
        if a == b:
            continue
        word = FIELD_WORDS.get(name, name)
        per_seat = (
            name == "values" and isinstance(a, tuple) and isinstance(b, tuple)
            and len(a) == len(b) == len(names) > 0
        )  # fmt: skip
        if per_seat:
            assert isinstance(a, tuple) and isinstance(b, tuple)
            for seat, (x, y) in enumerate(zip(a, b, strict=True)):
                if x != y:
                    words = (
                        f"{word} of {_seat(seat, names)}: recorded {x}, the rules give {y}{because}"
                    )
                    out.append(Difference(f"{name}[{seat}]", x, y, words))
            continue
        shown = _value(name, a, names), _value(name, b, names)
        words = f"{word}: recorded {shown[0]}, the rules give {shown[1]}{because}"
        out.append(Difference(name, _plain(a), _plain(b), words))
    return out


def gist_of(rule: str) -> str:
    """The first clause of a rule's text (up to its first ``;`` or ``.``).

    >>> gist_of("HEARTS-TRICK")
    'the highest card of the led suit wins the trick'
    """
    text = re.sub(r"\s*\(\[decision\][^)]*\)", "", rule_text(rule))  # the readings: in RULES.md
    return re.split(r"[;.](?:\s|$)", text, maxsplit=1)[0].strip()


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def cards_named(kind: str, text: str) -> list[str]:
    """The card codes a message names, in order, once each (``2D``, ``4C`` in "seat 0 played
    2D while holding 4C")."""

    found: list[str] = []
    for token in re.findall(r"[0-9A-Za-z]+", text):
        if token not in found and card_face(kind, token).known and not token.isdigit():
            found.append(token)
    return found


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
    differs: tuple[Difference, ...] = field(default=())
    names: tuple[str, ...] = field(default=())
    # the event as recorded and what play continues from (its violation compares by identity)
    outcome: Outcome | None = field(default=None, compare=False)

    @property
    def cards(self) -> list[str]:
        """The cards the verdict names (an illegal play's card and those that made it so)."""
        return cards_named(self.kind, self.reason)

    @property
    def sentence(self) -> str:
        """The verdict in one sentence, e.g. ``illegal: seat 2 played 5H ... (HEARTS-FOLLOW)``."""
        rule = f" ({self.rule})" if self.rule else ""
        return f"{self.reason}{rule}"

    def render(self) -> str:
        """The verdict as text for a terminal, cards as the faces show them (``--ascii``:
        their codes): the state before, the event as recorded, the verdict, what the rules give,
        the rule and the state play continues from. Each line escaped (:mod:`replay.text`), as
        an id, a name or a card code of the log may hold control characters."""

        def card(code: str) -> str:
            return plain_card_label(self.kind, code)

        def in_notation(text: str) -> str:
            return cards_in_text(text, card)

        label = "event" if self.ok else "recorded"
        lines = [
            f"game {shown(self.game_id)} ({self.kind}), event {self.seq}",
            "",
            "state before the event:",
            in_notation(self.before),
            "",
            f"{label}: {event_words(self.event, self.names, card)}  [{self.category}]",
            f"verdict: {in_notation(self.sentence)}",
        ]
        if self.differs:
            lines.append("what differs (recorded vs the rules):")
            lines += [f"  {in_notation(d.words)}" for d in self.differs]
        given = None if self.outcome is None else self.outcome.rules_event
        if given is not None:
            lines.append(f"the rules give: {event_words(given, self.names, card)}")
        elif self.expected:
            lines.append(f"the rules give: {in_notation(self.expected)}")
        if self.rule:
            lines.append(f"rule {self.rule}: {rule_text(self.rule)}")
        if not self.ok and self.outcome is not None:
            lines.append(f"play continues from: {CONTINUES_WORDS[self.outcome.continues]}")
        return "\n".join(escaped(line) for text in lines for line in text.split("\n"))

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
            "differences": [d.to_dict() for d in self.differs],
            "cards": self.cards,
            "state_before": self.before,
            "continues": None if self.outcome is None else str(self.outcome.continues),
        }


def _sequence_verdict(events: Sequence[Event], seq: int, rule: str, message: str) -> Verdict:
    """The verdict on the event at which a log's sequence breaks (a seq missing before it, a
    seq recorded twice): the log, not a move, is at fault."""
    event = next(e for e in events if e.seq == seq)
    names = tuple(seat_names(events))
    return Verdict(
        event.game_id, event.kind, seq, event, "log", False, rule,
        f"log out of sequence: {message}", "", "(the log is broken before this event)",
        (), names, Outcome(event, None, RuleViolation(LogRule.SEQUENCE, message)),
    )  # fmt: skip


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
        if fault.seq == seq:  # the event where the sequence breaks: that is the verdict
            return _sequence_verdict(events, seq, fault.rule, fault.message)
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

    names = tuple(seat_names(usable))

    def verdict(
        ok: bool,
        rule: str,
        reason: str,
        expected: str,
        before: str,
        differs: Sequence[Difference] = (),
        outcome: Outcome | None = None,
    ) -> Verdict:
        return Verdict(
            event.game_id, event.kind, seq, event, category.value, ok, rule,
            f"{good if ok else bad}: {reason}", expected, before, tuple(differs), names, outcome,
        )  # fmt: skip

    before = "(no state before the first event)"
    if rules is None:
        return verdict(False, LogRule.SETUP, f"unknown game kind {event.kind!r}", "", before)
    due = None
    try:
        for step in walk(rules, usable[: seq + 1]):
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
            return verdict(False, exc.rule, exc.message, "", before, (), Outcome(event, None, exc))
        raise ValueError(f"the game cannot start ({exc}), so step {seq} cannot be judged") from None
    v = step.violation
    outcome = Outcome(step.event, step.applied, v)
    if v is not None:
        expected = describe_payload(v.expected) if v.expected is not None else ""
        gist = gist_of(v.rule)
        differs = differences(event, v.expected, names, gist) if v.expected is not None else []
        return verdict(False, v.rule, v.message, expected, before, differs, outcome)
    if seq == 0:
        return verdict(True, "", rules.summary(step.state), "", before, (), outcome)
    ruling_rule = due.rule if due is not None and due.phase is Phase.RULING else None
    return verdict(True, ruling_rule or "", event.describe(), "", before, (), outcome)
