"""The audit: every recorded decision checked, every recorded ruling recomputed.

A :class:`Finding` names the game, the step, the event, the rule of RULES.md (ID and text), what
was recorded against what the rules give, and a short summary of the state before the event
(in the style of Mortal's log validator). After an illegal event the audit goes on as far as it
soundly can (see :func:`replay.engine.walk`) and says where it had to stop.

>>> from replay.games import get_rules
>>> from replay.simulate import simulate_game
>>> events = simulate_game(get_rules("hearts"), "doc", players=4, seed=9)
>>> audit_game(events).clean
True
>>> bad = [e if e.type != "trick_won" else e.at(e.seq) for e in events]
>>> import dataclasses
>>> i = next(i for i, e in enumerate(events) if e.type == "trick_won")
>>> bad[i] = dataclasses.replace(events[i], player=(events[i].player + 1) % 4)
>>> [f.rule for f in audit_game(bad).findings]
['HEARTS-TRICK']
"""

from __future__ import annotations

import gc
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any, Final

from mypy_extensions import i64

from replay import fields
from replay.cells import Column
from replay.decode import (
    decode_table,
    dictionary_indices,
    paused_gc,
    row_changes,
    run_starts,
    values_at,
)
from replay.engine import checked_step, walk
from replay.events import (
    COLUMNS as EVENT_FIELDS,
)
from replay.events import (
    Event,
    RowVisitor,
    blank_row,
    event_at,
    events_from_columns,
    visit_rows,
)
from replay.games import UnknownGame, get_fast_path, get_rules
from replay.games.checks import describe_payload
from replay.games.fast import FastPath
from replay.games.rules import Phase, RuleViolation
from replay.games.state import GameState
from replay.rulebook import rule_text
from replay.violation import LogRule

INTERNAL_ERROR = "internal error"


@dataclass(frozen=True, slots=True)
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


def event_object(event: Event) -> dict[str, Any]:
    """An event as a JSON object: its set fields as in a JSON Lines log (lists for card lists
    and values), but ``ts``, which the audit does not read (:data:`UNREAD_COLUMNS`)."""
    out: dict[str, Any] = {}
    for name in EVENT_FIELDS:
        value = getattr(event, name)
        if value is None or name in UNREAD_COLUMNS:
            continue
        out[name] = list(value) if isinstance(value, tuple) else value
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


def _finding(game: GameAudit, event: Event | None, seq: int, violation: RuleViolation,
             state: str = "", view: dict[str, Any] | None = None) -> Finding:  # fmt: skip
    """A finding of ``game`` at ``seq``; ``view``: the state before the event, as
    ``Presentation.view`` gives it (its ``step`` is set here, its ``last_step`` by
    :func:`_last_step`)."""
    wanted = violation.expected
    if view is not None:
        view = {**view, "step": seq - 1, "last_step": seq - 1}
    return Finding(
        game_id=game.game_id,
        kind=game.kind,
        seq=seq,
        rule=violation.rule,
        message=violation.message,
        event=event.describe() if event is not None else "",
        expected=describe_payload(wanted) if wanted is not None else "",
        state=state,
        event_data=event_object(event) if event is not None else None,
        expected_data=event_object(wanted) if wanted is not None else None,
        state_data=view,
    )


def _last_step(game: GameAudit, last_seq: int) -> GameAudit:
    """Give every finding's state the game's last step (as ``docs/state.md`` counts it: the
    last event the audit could apply)."""
    last = game.stopped_at - 1 if game.stopped_at is not None else last_seq
    for finding in game.findings:
        if finding.state_data is not None:
            finding.state_data["last_step"] = max(last, finding.state_data["step"])
    return game


def _stop(game: GameAudit, seq: int, reason: str) -> GameAudit:
    game.stopped_at = seq
    game.stop_reason = reason
    return game


def check_sequence(events: list[Event], game: GameAudit) -> list[Event]:
    """LOG-SEQUENCE: order by seq; report duplicates and gaps; return the usable prefix (the
    list itself when it is in sequence: the common case, checked in one pass)."""
    if in_sequence(events):
        return events
    ordered = sorted(events, key=lambda e: e.seq)
    usable: list[Event] = []
    for event in ordered:
        expected = len(usable)
        if event.seq == expected:
            usable.append(event)
            continue
        if event.seq < 0:  # outside the sequence: reported, the sequence itself may be whole
            violation = RuleViolation(LogRule.SEQUENCE, f"seq {event.seq} is negative")
            game.findings.append(_finding(game, event, event.seq, violation))
            continue
        if event.seq < expected:
            same = usable[event.seq] == event
            message = f"seq {event.seq} recorded twice" + (" (identical)" if same else "")
            violation = RuleViolation(LogRule.SEQUENCE, message)
            game.findings.append(_finding(game, event, event.seq, violation))
            if same:
                continue
            _stop(game, event.seq, "two different events share one sequence number")
            return usable[: event.seq]
        violation = RuleViolation(LogRule.SEQUENCE, f"seq {expected} to {event.seq - 1} missing")
        game.findings.append(_finding(game, event, event.seq, violation))
        _stop(game, expected, "events are missing")
        return usable
    return usable


def in_sequence(events: list[Event]) -> bool:
    """Whether the events are numbered 0, 1, 2... in this order."""
    for expected in range(len(events)):  # noqa: SIM110 (a loop compiles to tighter code)
        if events[expected].seq != expected:
            return False
    return True


def audit_game(events: Sequence[Event], *, complete: bool = False) -> GameAudit:
    """Audit one game's events (any order; they must share one game id). A log that stops
    before its game ended is incomplete (``waiting_seq``, ``waiting_for``), or with
    ``complete`` a finding (RULES.md, "Recording order")."""
    if not events:
        raise ValueError("no events")
    first = events[0]  # seq 0 if present: usually first already, else found by one pass
    if first.seq != 0:
        first = min(events, key=lambda e: (e.seq < 0, e.seq))
    game = GameAudit(game_id=first.game_id, kind=first.kind, events=len(events))
    usable = check_sequence(events if isinstance(events, list) else list(events), game)
    if not usable:
        return game
    try:
        rules = get_rules(first.kind)
    except UnknownGame:
        violation = RuleViolation(LogRule.SETUP, f"unknown game kind {first.kind!r}")
        game.findings.append(_finding(game, first, 0, violation))
        return _stop(game, 0, "unknown game kind")
    usable, stray = _before_unused_field(usable, first.kind)
    if not usable:
        return _unused_field_stop(game, stray)
    try:
        last_state = None
        for step in walk(rules, usable, faults_only=True):
            last_state = step.state
            if step.violation is not None:
                seq = step.event.seq
                found = _finding(game, step.event, seq, step.violation, step.before,
                                 step.before_view)  # fmt: skip
                game.findings.append(found)
                if step.applied is None:
                    reason = f"the state cannot absorb {step.event.describe()}"
                    return _last_step(_stop(game, step.event.seq, reason), seq)
    except RuleViolation as violation:  # the first event cannot start a game
        game.findings.append(_finding(game, usable[0], usable[0].seq, violation))
        return _stop(game, 0, "no valid game_start")
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        # Malformed fields the game's checks did not anticipate: stop this game, keep the rest.
        seq = last_state.seq if last_state is not None else 0
        return _stop(game, seq, f"{INTERNAL_ERROR} while reducing: {exc!r}")
    if stray is not None:
        return _unused_field_stop(game, stray)
    if game.stopped_at is None and last_state is not None:
        _check_finished(game, rules, last_state, usable[-1].seq + 1, complete)
    return _last_step(game, usable[-1].seq)


def _before_unused_field(events: list[Event], kind: str) -> tuple[list[Event], Event | None]:
    """The events before the first one that sets a field its type does not use in a game of
    ``kind`` (an event the game does not know: :mod:`replay.fields`), and that event (None:
    there is none)."""
    for index, event in enumerate(events):
        if fields.unused_field(event, kind) is not None:
            return events[:index], event
    return events, None


def _unused_field_stop(game: GameAudit, event: Event | None) -> GameAudit:
    """The LOG-ORDER finding of an event with a field its type does not use; the audit stops."""
    assert event is not None
    name = fields.unused_field(event, game.kind) or ""
    violation = RuleViolation(fields.RULE, fields.message(event.type, name))
    game.findings.append(_finding(game, event, event.seq, violation))
    return _stop(game, event.seq, f"the game knows no {event.type} with {name}")


def _check_finished(game: GameAudit, rules: Any, state: Any, seq: int, complete: bool) -> None:
    """A log that ends before its game did: incomplete (what the game waits for, at ``seq``),
    or with ``complete`` a finding: LOG-ORDER, or the game's END rule where its end is due
    (RULES.md, "Recording order")."""
    due = rules.due(state)
    if due.phase is Phase.OVER:
        return
    if not complete:
        game.waiting_seq = seq
        game.waiting_for = waiting_text(due)
        return
    if due.phase is Phase.RULING:
        ruling = due.ruling
        rule = due.rule if ruling is not None and ruling.type == "game_end" else LogRule.ORDER
        message = f"the log ends but the ruling {describe_payload(ruling)} is due ({due.rule})"
        violation = RuleViolation(rule, message, expected=ruling)
    else:
        violation = RuleViolation(
            LogRule.ORDER, f"the log ends before the game did ({due.what} due)"
        )
    view = rules.view(state)
    game.findings.append(_finding(game, None, seq, violation, rules.summary(state, None, view),
                                  view))  # fmt: skip


def waiting_text(due: Any) -> str:
    """What a game waits for, in words: ``the ruling trick_won(...) (HEARTS-TRICK)``, ``a play
    by seat 2``, ``a deal (seats 1, 3)``."""
    if due.phase is Phase.RULING:
        return f"the ruling {describe_payload(due.ruling)} ({due.rule})"
    seats = ", ".join(str(s) for s in due.seats)
    if due.phase is Phase.DECISION:
        return f"a {due.what} by seat {seats}"
    return f"a {due.what} (seats {seats})" if seats else f"a {due.what}"


def group_games(events: Iterable[Event]) -> list[list[Event]]:
    """Split a stream of events into games (by game id, first-seen order)."""
    games: dict[str, list[Event]] = {}
    for event in events:
        games.setdefault(event.game_id, []).append(event)
    return list(games.values())


# --------------------------------------------------------------------------- bulk audit
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


def audit_table(
    table: Any, starts: list[int] | None = None, *, complete: bool = False
) -> list[GameAudit]:
    """Audit every game of an Arrow table in the event SCHEMA (runs in worker processes).
    ``starts``: where each game begins, when the caller knows that each game is one run;
    ``complete``: as in :func:`audit_game`."""
    # The collector is paused while the slice is audited (its cycles, few: exceptions, are
    # collected once, after it). The decoded columns are freed before it resumes: a
    # collection then would walk every cell of the slice, for nothing (they hold no cycles).
    with paused_gc():
        columns = decode_table(table, skip=UNREAD_COLUMNS)
        audits = _audit_decoded(table, columns, starts, complete)
    return audits


def _audit_decoded(
    table: Any, columns: list[Column], starts: list[int] | None, complete: bool
) -> list[GameAudit]:
    """:func:`audit_table` on the table's decoded columns."""
    if starts is None:
        starts, distinct = _game_runs(table)
        if distinct < len(starts):  # a game in pieces
            games = group_games(events_from_columns(columns, 0, table.num_rows))
            return [audit_game(game, complete=complete) for game in games]
    changes = row_changes(columns, table.num_rows)  # for the game runs' clean paths only
    bounds = [*starts, table.num_rows]
    general = _games_with_unused_fields(table, bounds)
    return [
        audit_rows(
            columns, bounds[i], bounds[i + 1], changes, general=i in general, complete=complete
        )
        for i in range(len(bounds) - 1)
    ]


def _games_with_unused_fields(table: Any, bounds: list[int]) -> set[int]:
    """The games (by index in ``bounds``) with a row that sets a field its type does not use:
    the clean path does not look, the general one reports it."""
    import numpy as np

    rows = np.flatnonzero(fields.unused_field_rows(table))
    if not len(rows):
        return set()
    return {int(i) for i in np.searchsorted(np.asarray(bounds), rows, side="right") - 1}


def audit_rows(
    columns: list[Column],
    start: int,
    stop: int,
    changes: bytes = b"",
    *,
    general: bool | None = None,
    complete: bool = False,
) -> GameAudit:
    """Audit the game in rows ``start`` to ``stop`` of decoded columns (one run of its game id):
    the same audit as :func:`audit_game`'s. ``changes``: the columns'
    :func:`~replay.decode.row_changes`, which make the clean path faster.

    A game that breaks no rule is audited on the clean path, with no event built per row
    (:func:`audit_clean_rows`); any other game, the general way, from its events. The clean
    path does not look for fields an event's type does not use: ``general`` says whether the
    game has one (the bulk audit finds them for a whole slice at once,
    :func:`_games_with_unused_fields`); None: the events are checked here.
    """
    if general is None:
        events = events_from_columns(columns, start, stop)
        kind = events[0].kind if events else None
        general = any(fields.unused_field(event, kind) is not None for event in events)
    game = None if general else audit_clean_rows(columns, start, stop, changes, complete=complete)
    if game is None:
        game = audit_game(events_from_columns(columns, start, stop), complete=complete)
    return game


def audit_clean_rows(
    columns: list[Column], start: int, stop: int, changes: bytes = b"", *, complete: bool = False
) -> GameAudit | None:
    """The audit of a game from its rows (one run of its game id), or None as soon as anything
    is out of the ordinary beyond a rule broken in order: the caller then audits the game with
    :func:`audit_game`.

    The rows the game's :meth:`~replay.games.fast.FastPath.advance` accepts go through one scratch
    event, overwritten row by row (:func:`~replay.events.visit_rows`): nothing is allocated
    per row. A row it leaves to the general path becomes a real event, judged by
    :func:`~replay.engine.checked_step` as :func:`~replay.engine.walk` judges it, so a finding
    is named in one place and costs its own work, not a second pass over the game. None when
    the rows are not numbered in order (the sequence checks of :func:`audit_game` come first),
    an event is of another kind, or a field is malformed.
    """
    first = event_at(columns, start)
    if first.seq != 0:
        return None
    try:
        fast = get_fast_path(first.kind)
        rules = fast.rules
        run = _RowRun(fast, rules.start(first), columns, start, stop)
        scratch = blank_row()
        row = start + 1
        while row < stop:
            row = visit_rows(columns, row, stop, run, scratch, changes)
            if row < stop:
                if not run.take(row):
                    return None
                if run.game.stopped_at is not None:
                    return _last_step(run.game, row - start)
                row += 1
    except (RuleViolation, UnknownGame, TypeError, ValueError, KeyError, IndexError,
            AttributeError):  # fmt: skip
        return None
    _check_finished(run.game, rules, run.state, stop - start, complete)
    return _last_step(run.game, stop - start - 1)


class _RowRun(RowVisitor):
    """A game's state on the audit's path over rows (:func:`audit_clean_rows`), and its audit.

    ``advance`` and ``verify`` check the sequence number (``Rules.verify``); the kind is
    checked here, as :func:`~replay.engine.walk` does.
    """

    def __init__(
        self, fast: FastPath[Any], state: GameState, columns: list[Column], start: int, stop: int
    ) -> None:
        self.fast = fast
        # Typed as the base class: compiled, passing it on to ``advance`` then checks nothing
        # (as ``Any``, each row paid an isinstance check against GameState, 27 instructions).
        self.state = state
        self.kind: str = state.kind
        self.game_id: str = state.game_id
        self.columns = columns
        self.start: i64 = start
        self.stop: i64 = stop
        self.in_sequence = False  # checked at the first violation
        self.game = GameAudit(game_id=state.game_id, kind=state.kind, events=stop - start)

    def visit(self, event: Event, row: i64) -> bool:
        """Advance over an event of the game's kind, if ``advance`` takes it."""
        return event.kind == self.kind and self.fast.advance(self.state, event)

    def take(self, row: i64) -> bool:
        """Judge the event of ``row``, which ``advance`` left to the general path, and apply
        it (or stop the game's audit, with a finding, where the state cannot absorb it): False
        when it is of another kind, or breaks a rule while the game's rows are not numbered in
        order."""
        event = event_at(self.columns, row)
        if event.kind != self.kind:
            return False
        self.state.last = event_at(self.columns, row - 1)  # the scratch event holds ``event``
        step = checked_step(self.fast, self.state, event, self.game_id, self.kind)
        violation = step.violation
        if violation is not None:
            if not self.in_sequence:
                self.in_sequence = _rows_in_sequence(self.columns[1], self.start, self.stop)
                if not self.in_sequence:
                    return False
            seq = event.seq
            self.game.findings.append(
                _finding(self.game, event, seq, violation, step.before, step.before_view)
            )
            if step.applied is None:
                _stop(self.game, seq, f"the state cannot absorb {event.describe()}")
        self.state = step.state
        return True


def _rows_in_sequence(seq: Column, start: i64, stop: i64) -> bool:
    """Whether the rows from ``start`` to ``stop`` of the seq column are numbered 0, 1, 2..."""
    for row in range(start, stop):  # noqa: SIM110 (a loop compiles to tighter code)
        if seq.at(row) != row - start:
            return False
    return True


def _game_runs(table: Any) -> tuple[list[int], int]:
    """Where each run of one game id begins, and how many distinct game ids there are (as
    many as runs: each game is one run)."""
    import numpy as np

    starts: list[int] = []
    spans: list[tuple[Any, Any]] = []  # each stretch's runs: dictionary codes, dictionary
    last: Any = None
    for span_starts, codes, dictionary in _runs_by_dictionary(table.column("game_id")):
        first = 1 if starts and values_at(dictionary, codes[:1])[0] == last else 0
        starts.extend(span_starts[first:])  # first: the run goes on from the last stretch
        last = values_at(dictionary, codes[-1:])[0]
        spans.append((codes, dictionary))
    if len(spans) == 1:
        return starts, len(np.unique(spans[0][0]))
    return starts, len({value for codes, values in spans for value in values_at(values, codes)})


def _runs_by_dictionary(column: Any) -> Iterator[tuple[list[int], Any, Any]]:
    """The game runs of each stretch of chunks that share one dictionary (from one Parquet
    file, every batch's is the same): where each run begins, its dictionary code (numpy) and
    the dictionary.

    Chunk by chunk, with no column-long array and no string decoded (870,000 rows: 1.5 ms
    instead of 5, half of which were first-touch page faults).
    """
    import numpy as np
    import pyarrow as pa

    offset = 0
    rows: list[Any] = []
    codes: list[Any] = []
    dictionary = None
    last = -1
    for chunk in column.chunks:
        if not len(chunk):
            continue
        indices, chunk_dictionary = dictionary_indices(pa.chunked_array([chunk]))
        if dictionary is not None and not chunk_dictionary.equals(dictionary):
            yield np.concatenate(rows).tolist(), np.concatenate(codes), dictionary
            rows, codes, last = [], [], -1
        dictionary = chunk_dictionary
        chunk_starts = run_starts(indices)
        if indices[0] == last:  # the previous chunk's last run goes on
            chunk_starts = chunk_starts[1:]
        rows.append(chunk_starts + offset)
        codes.append(indices[chunk_starts])
        last = int(indices[-1])
        offset += len(chunk)
    if dictionary is not None:
        yield np.concatenate(rows).tolist(), np.concatenate(codes), dictionary


def game_starts(table: Any) -> list[int]:
    """The row where each run of one game id begins (the first row is 0)."""
    return _game_runs(table)[0]


def count_games(table: Any) -> int:
    """How many distinct game ids a table holds."""
    return _game_runs(table)[1]


def sorted_by_game(table: Any) -> Any:
    """The table sorted by game id then seq (dictionary columns, which Arrow cannot sort, are
    cast back to plain strings first)."""
    return plain_strings(table).sort_by([("game_id", "ascending"), ("seq", "ascending")])


def plain_strings(table: Any) -> Any:
    """The table with dictionary-encoded columns (and list elements) cast to their value type."""
    import pyarrow as pa

    def plain(kind: Any) -> Any:
        if pa.types.is_dictionary(kind):
            return kind.value_type
        if pa.types.is_list(kind) and pa.types.is_dictionary(kind.value_type):
            return pa.list_(kind.value_type.value_type)
        return kind

    return table.cast(pa.schema([field.with_type(plain(field.type)) for field in table.schema]))


def split_by_game(table: Any, parts: int) -> list[Any]:
    """Cut a table whose games are contiguous into about ``parts`` slices on game boundaries."""
    bounds = _slice_bounds(game_starts(table), table.num_rows, parts)
    return [table.slice(start, length) for start, length in bounds]


def _slice_bounds(starts: list[int], n: int, parts: int) -> list[tuple[int, int]]:
    """(offset, length) of about ``parts`` runs of whole games, in ``n`` rows whose games
    begin at ``starts``."""
    size = max(1, n // max(parts, 1))
    bounds = []
    begin = 0
    cut = 0
    while begin < n:
        while cut < len(starts) and starts[cut] < begin + size:
            cut += 1
        end = starts[cut] if cut < len(starts) else n
        bounds.append((begin, end - begin))
        begin = end
    return bounds


def sort_report(report: AuditReport) -> AuditReport:
    report.games.sort(key=lambda g: (g.kind, g.game_id))
    return report


#: Rows per process below which :func:`audit_many` starts fewer worker processes: starting
#: one (a fork, then copy-on-write page faults) costs about as much as auditing 50,000 events.
MIN_ROWS_PER_JOB: Final = 50_000


def audit_many(
    table: Any,
    jobs: int = 1,
    on_progress: Callable[[int], None] | None = None,
    *,
    min_rows_per_job: int = MIN_ROWS_PER_JOB,
    complete: bool = False,
) -> AuditReport:
    """Audit every game of an event table on up to ``jobs`` processes (one per
    ``min_rows_per_job`` rows at most); the report does not depend on ``jobs``.
    ``complete``: as in :func:`audit_game`.
    ``on_progress`` receives the number of games done after each slice (in this thread, as
    this process audits or receives each slice)."""
    report = AuditReport()
    if table.num_rows == 0:
        return report
    if min_rows_per_job > 0:
        jobs = max(1, min(jobs, table.num_rows // min_rows_per_job))
    retain_freed_memory()
    starts, distinct = _game_runs(table)
    if distinct < len(starts):  # a game in several runs
        table = sorted_by_game(table)
        starts = game_starts(table)
    plan = _SlicePlan(starts, table.num_rows, jobs, complete)
    context = _fork_context() if jobs > 1 and len(starts) > 2 else None
    if context is None:  # one process: not worth starting workers, or no fork here
        ends = [0, table.num_rows]
        while (piece := plan.take(ends, from_back=False)) is not None:
            _collect(report, plan.audit(table, *piece), on_progress)
    else:
        _audit_in_processes(report, table, plan, on_progress, context)
    return sort_report(report)


#: The most rows in one slice: about 100,000 events decode and audit within the caches (a
#: 1-job Hearts audit runs 5-10% faster in 8 slices than in 2 or 32).
MAX_SLICE_ROWS: Final = 110_000
#: The fewest rows in one slice (the last ones, where the processes meet): each slice costs
#: about 1.5 ms of set-up (decoding its columns: numpy and Arrow calls), as much as auditing
#: 2,500 events, so smaller slices would cost more than the idle time they save.
MIN_SLICE_ROWS: Final = 6_000


class _SlicePlan:
    """How the processes of :func:`audit_many` cut a table into slices of whole games as they
    go (guided self-scheduling): each takes a ``1 / (2 * jobs)`` share of the rows still left,
    within ``[MIN_SLICE_ROWS, MAX_SLICE_ROWS]`` (scaled down for small tables), so the slices
    shrink as the processes meet and they finish within a small slice of each other, with few
    slices (and little set-up) in all. With one job, every slice has the largest size."""

    def __init__(self, starts: list[int], rows: int, jobs: int, complete: bool = False) -> None:
        self.starts = starts
        self.jobs = jobs
        self.complete = complete
        self.largest = max(1, min(MAX_SLICE_ROWS, rows // 8))  # 8 slices at least: progress
        self.smallest = max(1, min(MIN_SLICE_ROWS, rows // (8 * jobs)))

    def size(self, remaining: int) -> int:
        """The rows of the next slice when ``remaining`` rows are left."""
        if self.jobs == 1:
            return self.largest
        return min(self.largest, max(self.smallest, remaining // (2 * self.jobs)))

    def take(self, ends: Any, from_back: bool) -> tuple[int, int] | None:
        """The next slice (offset, rows) from the front or the back of the rows still left,
        ``ends[0]`` to ``ends[1]`` (updated), or None when none are left. The cut falls on a
        game's first row: at or after ``size`` rows from the front, at or before it from the
        back (all that is left when no game begins there)."""
        front, back = int(ends[0]), int(ends[1])
        if front >= back:
            return None
        size = self.size(back - front)
        if from_back:
            index = bisect_right(self.starts, back - size) - 1
            cut = self.starts[index] if index >= 0 and self.starts[index] > front else front
            ends[1] = cut
            return cut, back - cut
        index = bisect_left(self.starts, front + size)
        cut = self.starts[index] if index < len(self.starts) else back
        cut = cut if cut < back else back
        ends[0] = cut
        return front, cut - front

    def audit(self, table: Any, offset: int, rows: int) -> list[GameAudit]:
        """Audit the slice of ``rows`` rows at ``offset`` (its games' starts are known)."""
        first = bisect_left(self.starts, offset)
        last = bisect_left(self.starts, offset + rows)
        starts = [start - offset for start in self.starts[first:last]]
        return audit_table(table.slice(offset, rows), starts, complete=self.complete)


def _fork_context() -> Any:
    """The ``fork`` start method's context (workers inherit the table, not a copy), or None
    on a platform without fork."""
    import multiprocessing

    try:
        return multiprocessing.get_context("fork")
    except ValueError:
        return None


#: Freed memory glibc's malloc keeps at the top of its heap (``M_TOP_PAD``), in bytes.
RETAINED_HEAP: Final = 64 << 20


def retain_freed_memory() -> None:
    """Have glibc's malloc keep up to :data:`RETAINED_HEAP` bytes of freed memory for reuse.

    Each slice's columns and events are freed, then allocated again for the next slice. By
    default malloc returns the freed top of its heap to the kernel, and every page then comes
    back through a page fault: 24,000 faults in a 1-job Hearts audit of 870,000 events, at
    3.4 µs each on this project's virtual machines (80 ms of about 700). Nothing is done where
    the C library is not glibc (no ``mallopt``); forked workers inherit the setting.
    """
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(ctypes.c_int(M_TOP_PAD), ctypes.c_int(RETAINED_HEAP))


#: glibc's ``mallopt`` parameter for the freed memory kept at the top of the heap.
M_TOP_PAD: Final = -2


def _audit_in_processes(
    report: AuditReport,
    table: Any,
    plan: _SlicePlan,
    on_progress: Callable[[int], None] | None,
    context: Any,
) -> None:
    """``jobs - 1`` forked workers take slices from the front and this process takes them
    from the back, each the next one when it is done with its last (the two ends of the rows
    left, shared by the processes), until they meet: the processes finish within one (small)
    slice of each other. This process's share costs no fork, no warm-up and no result
    transfer; a worker sends the audits of each slice as soon as it is done (progress)."""
    import threading

    _load_rules(table)  # imported once here, not by every worker
    ends = context.Array("q", [0, table.num_rows])  # the rows left: front, back
    frozen_before = gc.get_freeze_count()
    gc.freeze()  # forked workers then never touch (and copy) the parent's objects
    receivers: list[Any] = []
    workers: list[Any] = []
    try:
        for _ in range(plan.jobs - 1):
            receiver, sender = context.Pipe(duplex=False)
            worker = context.Process(
                target=_audit_from_front, args=(table, plan, ends, sender), daemon=True
            )
            worker.start()
            sender.close()
            receivers.append(receiver)
            workers.append(worker)
        while (piece := _take_slice(plan, ends, from_back=True)) is not None:
            _collect(report, plan.audit(table, *piece), on_progress)
            _receive(report, receivers, on_progress, wait=False)
        _receive(report, receivers, on_progress, wait=True)
    finally:
        for receiver in receivers:  # left open only when this process stopped early
            receiver.close()
        # Joined in the background: a worker that inherited a large table takes several
        # milliseconds to exit (its page tables are torn down), and the report is complete.
        for worker in workers:
            threading.Thread(target=worker.join, daemon=True).start()
        if not frozen_before:  # a caller's own freeze is left as it was
            gc.unfreeze()


def _take_slice(plan: _SlicePlan, ends: Any, from_back: bool) -> tuple[int, int] | None:
    """The next slice from the front or the back of the rows left (shared by the processes),
    or None when all are taken."""
    with ends.get_lock():
        return plan.take(ends, from_back)


def _audit_from_front(table: Any, plan: _SlicePlan, ends: Any, sender: Any) -> None:
    """A worker process: audit slices from the front and send each one's audits, then None
    (or the error that stopped it)."""
    try:
        while (piece := _take_slice(plan, ends, from_back=False)) is not None:
            sender.send(plan.audit(table, *piece))
        sender.send(None)
    except Exception as exc:  # reported by the parent, which raises it
        with suppress(OSError):  # the parent may have stopped listening
            sender.send(RuntimeError(f"an audit worker process failed: {exc!r}"))
    finally:
        sender.close()


def _receive(
    report: AuditReport,
    receivers: list[Any],
    on_progress: Callable[[int], None] | None,
    wait: bool,
) -> None:
    """Collect the audits the workers sent (all of them, until each says it is done, when
    ``wait``)."""
    for receiver in list(receivers):
        while wait or receiver.poll():
            try:
                message = receiver.recv()
            except EOFError:
                raise RuntimeError("an audit worker process ended before its results") from None
            if message is None:
                receivers.remove(receiver)
                receiver.close()
                break
            if isinstance(message, BaseException):
                raise message
            _collect(report, message, on_progress)


def _load_rules(table: Any) -> None:
    """Import the game module of every kind in the table (unknown kinds are reported later)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kinds = table.column("kind")
    if pa.types.is_dictionary(kinds.type):  # as read from Parquet: the dictionaries suffice
        names = {name for chunk in kinds.chunks for name in chunk.dictionary.to_pylist()}
    else:
        names = set(pc.unique(kinds).to_pylist())
    for kind in names:
        with suppress(UnknownGame, TypeError):  # TypeError: a null kind
            get_rules(kind)


def _collect(
    report: AuditReport, audits: list[GameAudit], on_progress: Callable[[int], None] | None
) -> None:
    report.games.extend(audits)
    if on_progress is not None:
        on_progress(len(audits))
