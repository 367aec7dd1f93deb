"""The audit's check: every recorded decision checked, every recorded ruling recomputed, for one
game (:func:`audit_game`) or every game of an Arrow table in this process (:func:`audit_table`).

Each broken rule is a :class:`~replay.audit.findings.Finding`. After an illegal event the audit
goes on as far as it soundly can (see :func:`replay.engine.walk`) and says where it had to stop.

>>> from replay.games import get_rules
>>> from replay.engine.simulate import simulate_game
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

from collections.abc import Iterator, Sequence
from typing import Any

from mypy_extensions import i64

from replay.audit.findings import (
    INTERNAL_ERROR,
    UNREAD_COLUMNS,
    Finding,
    GameAudit,
    event_object,
    group_games,
)
from replay.engine import checked_step, walk
from replay.games import UnknownGame, get_fast_path, get_rules
from replay.games.checks import describe_payload
from replay.games.fast import FastPath
from replay.games.rules import Phase, RuleViolation
from replay.games.state import GameState
from replay.model import fields
from replay.model.cells import Column, counts_up
from replay.model.decode import (
    decode_table,
    dictionary_indices,
    paused_gc,
    row_changes,
    run_starts,
    values_at,
)
from replay.model.events import (
    Event,
    RowVisitor,
    blank_row,
    event_at,
    events_from_columns,
    visit_rows,
)
from replay.model.violation import LogRule


def _finding(game: GameAudit, event: Event | None, seq: int, violation: RuleViolation,
             state: str = "", view: dict[str, Any] | None = None) -> Finding:  # fmt: skip
    """A finding of ``game`` at ``seq``; ``view``: the state before the event, as
    ``Presentation.view`` gives it (its ``step`` is set here, its ``last_step`` by
    :func:`_last_step`)."""
    wanted = violation.expected
    if view is not None:  # the finding's own (a new one per step), completed in place
        view["step"] = view["last_step"] = seq - 1
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
    ``kind`` (an event the game does not know: :mod:`replay.model.fields`), and that event (None:
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
        starts, distinct = game_runs(table)
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
    :func:`~replay.model.decode.row_changes`, which make the clean path faster.

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
    event, overwritten row by row (:func:`~replay.model.events.visit_rows`): nothing is allocated
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
                self.in_sequence = counts_up(self.columns[1], self.start, self.stop)  # seq
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


def game_runs(table: Any) -> tuple[list[int], int]:
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
    return game_runs(table)[0]


def count_games(table: Any) -> int:
    """How many distinct game ids a table holds."""
    return game_runs(table)[1]


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
