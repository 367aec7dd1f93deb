"""A replay cursor over one game's events: seek to any step, step forward and back.

Step ``N`` is the state after the event with sequence number ``N`` (step 0: after
``game_start``). The cursor reduces the log once when it is built, keeping a snapshot every
``snapshot_every`` steps; a seek starts from the nearest snapshot at or before the target and
applies at most ``snapshot_every - 1`` events, so no move re-reduces from the start.

A log that breaks the rules is still replayable up to the first event the state cannot absorb
(an event that is illegal but possible, like a wrong-suit play, is applied; a wrong ruling is
replaced by the one the rules give); :attr:`Cursor.stopped` tells where and why.

>>> from replay.games import get_rules
>>> from replay.simulate import simulate_game
>>> rules = get_rules("hearts")
>>> cursor = Cursor(rules, simulate_game(rules, "doc", players=4, seed=3))
>>> cursor.seek(6).event.type
'pass'
>>> cursor.prev().step
5
>>> cursor.jump("next_trick").step, cursor.jump("next_trick").step  # the trick complete
(12, 17)
>>> cursor.jump("next_round").event.type, cursor.jump("first").step
('round_scored', 0)
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Final, Literal

from replay.events import Category, Event
from replay.games.base import Game, RuleViolation


class StepOutOfRange(IndexError):
    """A step that the game does not have."""


#: The names of :meth:`Cursor.jump`, shared by the terminal stepper and the dashboard.
Jump = Literal[
    "first", "last", "next", "prev", "next_trick", "prev_trick", "next_round", "prev_round",
    "next_finding", "prev_finding",
]  # fmt: skip
JUMPS: Final[tuple[Jump, ...]] = (
    "first", "prev_round", "prev_trick", "prev_finding", "prev",
    "next", "next_finding", "next_trick", "next_round", "last",
)  # fmt: skip


def trick_ends(events: Sequence[Event], categories: dict[str, Category]) -> list[int]:
    """The step at which each trick is complete on the table, in order.

    A trick is the run of events with one (``round``, ``trick``); its complete step is its last
    decision (the last card played: the ruling that follows clears the table), or its last
    event when it has no decision. No game-specific event type is named.
    """
    ends: dict[tuple[int | None, int], int] = {}
    decided: set[tuple[int | None, int]] = set()
    for step, event in enumerate(events):
        if event.trick is None:
            continue
        key = (event.round, event.trick)
        is_decision = categories.get(event.type) is Category.DECISION
        if is_decision or key not in decided:
            ends[key] = step
        if is_decision:
            decided.add(key)
    return sorted(ends.values())


def round_ends(events: Sequence[Event]) -> list[int]:
    """The last step of each round (after all of its scoring events), in order."""
    ends: dict[int, int] = {}
    for step, event in enumerate(events):
        if event.round is not None:
            ends[event.round] = step
    return sorted(ends.values())


def after(stops: Sequence[int], step: int) -> int | None:
    """The first stop after ``step`` (``stops`` sorted), or None."""
    i = bisect_right(stops, step)
    return stops[i] if i < len(stops) else None


def before(stops: Sequence[int], step: int) -> int | None:
    """The last stop before ``step`` (``stops`` sorted), or None."""
    i = bisect_left(stops, step)
    return stops[i - 1] if i else None


@dataclass(frozen=True, slots=True)
class Stop:
    """Where a cursor had to stop reducing a log, and why."""

    seq: int
    violation: RuleViolation


class Cursor:
    """Random access to every state of one game."""

    def __init__(
        self, rules: Game[Any], events: Sequence[Event], *, snapshot_every: int = 16
    ) -> None:
        if not events:
            raise ValueError("a game needs at least its game_start event")
        self.rules = rules
        self.events: list[Event] = list(events)
        self.snapshot_every = snapshot_every
        self.stopped: Stop | None = None
        self.violations: dict[int, RuleViolation] = {}
        self._applied: list[Event] = []  # what the reducer actually applied
        self._snapshots: list[Any] = []
        self._build()
        self.step = 0

    def _build(self) -> None:
        every = self.snapshot_every
        for step in self.rules.walk(self.events):
            if step.violation is not None:
                self.violations[step.event.seq] = step.violation
            if step.applied is None:
                assert step.violation is not None
                self.stopped = Stop(step.event.seq, step.violation)
                return
            self._applied.append(step.applied)
            if (len(self._applied) - 1) % every == 0:
                self._snapshots.append(step.state.clone())

    # ------------------------------------------------------------------ navigation
    @property
    def last_step(self) -> int:
        """The last step the cursor can show."""
        return len(self._applied) - 1

    def __len__(self) -> int:
        return len(self._applied)

    def seek(self, step: int) -> Cursor:
        """Move to ``step`` (negative counts from the end, like a list index)."""
        if step < 0:
            step += len(self._applied)
        if not 0 <= step <= self.last_step:
            raise StepOutOfRange(f"step {step} is outside 0..{self.last_step}")
        self.step = step
        return self

    def next(self) -> Cursor:
        """One step forward (stays at the end)."""
        return self.seek(min(self.step + 1, self.last_step))

    def prev(self) -> Cursor:
        """One step back (stays at the start)."""
        return self.seek(max(self.step - 1, 0))

    def find(self, type_: str, forward: bool = True) -> Cursor:
        """Move to the next (or previous) step whose recorded event has this type; stay if
        none."""
        steps = (
            range(self.step + 1, len(self._applied)) if forward else range(self.step - 1, -1, -1)
        )
        for s in steps:
            if self.events[s].type == type_:
                return self.seek(s)
        return self

    # ------------------------------------------------------------------ jumps
    @cached_property
    def trick_stops(self) -> list[int]:
        """The steps at which a trick is complete on the table (:func:`trick_ends`)."""
        events = self.events[: len(self._applied)]
        return trick_ends(events, dict(self.rules.event_types))

    @cached_property
    def round_stops(self) -> list[int]:
        """The last step of each round (:func:`round_ends`)."""
        return round_ends(self.events[: len(self._applied)])

    def finding_stops(self, seqs: Iterable[int]) -> list[int]:
        """The steps of findings at these seqs (one beyond the replay: its last step)."""
        return sorted({min(s, self.last_step) for s in seqs if s >= 0})

    def jump(self, where: Jump, findings: Iterable[int] = ()) -> Cursor:
        """Move by one of :data:`JUMPS` (stay when there is nowhere to go that way).

        ``next_trick``/``prev_trick``: the next (previous) complete trick on the table;
        ``next_round``/``prev_round``: the end of this round, or of the next (previous) one;
        ``next_finding``/``prev_finding``: the next (previous) step in ``findings``, the seqs
        of a game's findings (one past the replay's end goes to its last step).
        """
        target = self._target(where, findings)
        return self if target is None else self.seek(target)

    def can_jump(self, where: Jump, findings: Iterable[int] = ()) -> bool:
        """Whether :meth:`jump` would move (a button to enable)."""
        return self._target(where, findings) not in (None, self.step)

    def _target(self, where: Jump, findings: Iterable[int]) -> int | None:
        ends = {"first": 0, "last": self.last_step}
        if where in ends:
            return ends[where]
        direction, _, what = where.partition("_")
        stops: Sequence[int]
        if what == "":
            stops = range(len(self._applied))
        elif what == "trick":
            stops = self.trick_stops
        elif what == "round":
            stops = self.round_stops
        elif what == "finding":
            stops = self.finding_stops(findings)
        else:
            raise ValueError(f"unknown jump {where!r}; known: {', '.join(JUMPS)}")
        if direction not in ("next", "prev"):
            raise ValueError(f"unknown jump {where!r}; known: {', '.join(JUMPS)}")
        return (after if direction == "next" else before)(stops, self.step)

    # ------------------------------------------------------------------ what is at the cursor
    @property
    def event(self) -> Event:
        """The recorded event that led to the current step."""
        return self.events[self.step]

    @property
    def state(self) -> Any:
        """The state at the current step (a snapshot: do not modify it)."""
        return self.state_at(self.step)

    def state_at(self, step: int) -> Any:
        """The state after event ``step``, from the nearest snapshot."""
        index = step // self.snapshot_every
        state = self._snapshots[index]
        base = index * self.snapshot_every
        if base == step:
            return state
        state = state.clone()
        apply = self.rules.apply_in_place
        for event in self._applied[base + 1 : step + 1]:
            state = apply(state, event)
        return state

    def state_before(self, step: int) -> Any:
        """The state in which event ``step`` was recorded (step >= 1)."""
        return self.state_at(step - 1)

    def rulings(self) -> list[Event]:
        """The rulings recorded up to the current step."""
        types = self.rules.event_types
        return [e for e in self.events[: self.step + 1] if types.get(e.type) is Category.RULING]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The current state as data (see each game's ``view``), with the step added."""
        data = self.rules.view(self.state, seat)
        data["step"] = self.step
        data["last_step"] = self.last_step
        return data

    def render(self, seat: int | None = None) -> str:
        """The current state as text."""
        return self.rules.render(self.state, seat)
