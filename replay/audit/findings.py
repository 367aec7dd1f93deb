"""What an audit finds: a :class:`Finding` per broken rule, a :class:`GameAudit` per game, an
:class:`AuditReport` for many games, and their JSON objects.

A :class:`Finding` names the game, the step, the event, the rule of RULES.md (ID and text), what
was recorded against what the rules give, and a short summary of the state before the event
(in the style of Mortal's log validator). :mod:`replay.audit.check` finds them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any, Final

from replay.model.events import COLUMNS as EVENT_FIELDS
from replay.model.events import Event, field_values
from replay.model.rulebook import rule_text

INTERNAL_ERROR = "internal error"

#: True when this module runs compiled by mypyc (see setup.py).
COMPILED: Final = not __file__.endswith(".py")


@dataclass(frozen=True, slots=True, init=False)
class Finding:
    """One fault of a recorded game: the text fields for people (``event``, ``expected``,
    ``state``: one line each), the ``*_data`` fields for programs (the recorded event, the
    event the rules give and the state before the event as JSON objects;
    ``docs/schemas/finding.json``)."""

    game_id: str
    kind: str
    seq: int
    rule: str
    message: str
    event: str = ""
    expected: str = ""
    state: str = ""
    event_data: dict[str, Any] | None = None
    expected_data: dict[str, Any] | None = None
    state_data: dict[str, Any] | None = None

    def __init__(
        self,
        game_id: str,
        kind: str,
        seq: int,
        rule: str,
        message: str,
        event: str = "",
        expected: str = "",
        state: str = "",
        event_data: dict[str, Any] | None = None,
        expected_data: dict[str, Any] | None = None,
        state_data: dict[str, Any] | None = None,
    ) -> None:
        if not COMPILED:  # the frozen fields are set through their slots
            values = (game_id, kind, seq, rule, message, event, expected, state, event_data,
                      expected_data, state_data)  # fmt: skip
            for name, value in zip(_FINDING_FIELDS, values, strict=True):
                object.__setattr__(self, name, value)
            return
        # Compiled, mypyc writes the fields directly: a frozen dataclass's generated
        # __init__ runs as Python bytecode (about 17,000 instructions, once per finding).
        self.game_id = game_id  # type: ignore[misc]
        self.kind = kind  # type: ignore[misc]
        self.seq = seq  # type: ignore[misc]
        self.rule = rule  # type: ignore[misc]
        self.message = message  # type: ignore[misc]
        self.event = event  # type: ignore[misc]
        self.expected = expected  # type: ignore[misc]
        self.state = state  # type: ignore[misc]
        self.event_data = event_data  # type: ignore[misc]
        self.expected_data = expected_data  # type: ignore[misc]
        self.state_data = state_data  # type: ignore[misc]

    @property
    def rule_text(self) -> str:
        """The text of the rule in RULES.md."""
        return rule_text(self.rule)

    def to_dict(self) -> dict[str, Any]:
        """The finding as JSON-ready data (``docs/schemas/finding.json``)."""
        return {
            "game_id": self.game_id,
            "kind": self.kind,
            "seq": self.seq,
            "rule": self.rule,
            "rule_text": self.rule_text,
            "message": self.message,
            "event": self.event_data,
            "expected": self.expected_data,
            "state": self.state_data,
            "summary": self.state,
        }

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled through the constructor (compiled, a frozen class cannot be set field by
        field): findings travel from audit workers to the parent."""
        fields = (self.game_id, self.kind, self.seq, self.rule, self.message, self.event)
        data = (self.event_data, self.expected_data, self.state_data)
        return (Finding, (*fields, self.expected, self.state, *data))


_FINDING_FIELDS: Final = tuple(f.name for f in fields(Finding))


def event_object(event: Event) -> dict[str, Any]:
    """An event as a JSON object: its set fields as in a JSON Lines log (lists for card lists
    and values), but ``ts``, which the audit does not read (:data:`UNREAD_COLUMNS`)."""
    out: dict[str, Any] = {}
    values = field_values(event)
    names = EVENT_FIELDS
    for index in _READ:
        value = values[index]
        if value is not None:
            out[names[index]] = list(value) if isinstance(value, tuple) else value
    return out


def problem_object(problem: object) -> dict[str, Any]:
    """Unreadable input as a JSON object: file, line or game and seq (null when unknown), the
    rule (a STORE-* ID, or null) and the reason. ``problem`` is a store's rejection (with
    those attributes) or a line of text."""
    if isinstance(problem, str):
        return {**dict.fromkeys(("file", "line", "game_id", "seq", "rule")), "reason": problem}
    return {
        "file": getattr(problem, "source", None),
        "line": getattr(problem, "line", None),
        "game_id": getattr(problem, "game_id", None),
        "seq": getattr(problem, "seq", None),
        "rule": getattr(problem, "rule", None),
        "reason": str(getattr(problem, "reason", problem)),
    }


@dataclass(slots=True, init=False)
class GameAudit:
    """The audit of one game."""

    game_id: str
    kind: str
    events: int
    findings: list[Finding]
    stopped_at: int | None  # seq where the audit could not go on, if it had to stop
    stop_reason: str
    # A log that stops before its game ended (audited as incomplete): the seq the next event
    # would have, and what the game waits for there.
    waiting_seq: int | None
    waiting_for: str

    def __init__(
        self,
        game_id: str,
        kind: str,
        events: int,
        findings: list[Finding] | None = None,
        stopped_at: int | None = None,
        stop_reason: str = "",
        waiting_seq: int | None = None,
        waiting_for: str = "",
    ) -> None:
        # Written out: compiled, a dataclass's generated __init__ runs as Python bytecode
        # (3,500 instructions, once per game).
        self.game_id = game_id
        self.kind = kind
        self.events = events
        self.findings = findings if findings is not None else []
        self.stopped_at = stopped_at
        self.stop_reason = stop_reason
        self.waiting_seq = waiting_seq
        self.waiting_for = waiting_for

    @property
    def incomplete(self) -> bool:
        """The log stops before its game ended, and the audit was not asked to judge a
        finished game (RULES.md, "Recording order")."""
        return self.waiting_seq is not None

    @property
    def clean(self) -> bool:
        return not self.findings and not self.internal_error

    @property
    def internal_error(self) -> bool:
        """The audit itself failed on this game (malformed fields it did not anticipate)."""
        return self.stop_reason.startswith(INTERNAL_ERROR)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled through the constructor: audits travel from the workers to the parent, and
        the generic route (a state dict per object) takes twice as long."""
        fields = (self.game_id, self.kind, self.events, self.findings, self.stopped_at)
        return (GameAudit, (*fields, self.stop_reason, self.waiting_seq, self.waiting_for))

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "kind": self.kind,
            "events": self.events,
            "findings": [f.to_dict() for f in self.findings],
            "stopped_at": self.stopped_at,
            "stop_reason": self.stop_reason,
            "waiting": self.waiting(),
        }

    def waiting(self) -> dict[str, Any] | None:
        """Where an incomplete log stops, as data: the seq the next event would have and what
        the game waits for (None: the log is not incomplete)."""
        if self.waiting_seq is None:
            return None
        return {"seq": self.waiting_seq, "waiting_for": self.waiting_for}


def group_games(events: Iterable[Event]) -> list[list[Event]]:
    """Split a stream of events into games (by game id, first-seen order)."""
    games: dict[str, list[Event]] = {}
    for event in events:
        games.setdefault(event.game_id, []).append(event)
    return list(games.values())


@dataclass(slots=True)
class AuditReport:
    """The audit of many games, in a stable order (kind, game id) whatever the number of jobs."""

    games: list[GameAudit] = field(default_factory=list)
    #: Input that could not be read: lines of text, or a store's rejections (file, line,
    #: game, seq, rule, reason; see :func:`problem_object`).
    problems: list[Any] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        return [f for g in self.games for f in g.findings]

    @property
    def events(self) -> int:
        return sum(g.events for g in self.games)

    @property
    def exit_code(self) -> int:
        """0 clean, 1 with findings, 2 when some input could not be read or reduced."""
        if self.problems or any(g.internal_error for g in self.games):
            return 2
        return 1 if self.findings else 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": len(self.games),
            "events": self.events,
            "findings": [f.to_dict() for f in self.findings],
            "stopped": [
                {"game_id": g.game_id, "kind": g.kind, "seq": g.stopped_at, "reason": g.stop_reason}
                for g in self.games
                if g.stopped_at is not None
            ],
            "incomplete": [
                {"game_id": g.game_id, "kind": g.kind, **(g.waiting() or {})}
                for g in self.games
                if g.waiting_seq is not None
            ],
            "problems": [problem_object(p) for p in self.problems],
        }


#: Columns the audit does not read. No rule is about time, and pyarrow builds a time-zoned
#: ``datetime`` in about 2.5 µs: four times the cost of auditing an event.
UNREAD_COLUMNS: Final = ("ts",)
#: Where the columns the audit reads are in :data:`~replay.model.events.COLUMNS`.
_READ: Final = tuple(i for i, name in enumerate(EVENT_FIELDS) if name not in UNREAD_COLUMNS)


def sort_report(report: AuditReport) -> AuditReport:
    report.games.sort(key=lambda g: (g.kind, g.game_id))
    return report
