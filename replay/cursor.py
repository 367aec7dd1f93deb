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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from replay.events import Category, Event
from replay.games.base import Rules, RuleViolation


class StepOutOfRange(IndexError):
    """A step that the game does not have."""


@dataclass(frozen=True, slots=True)
class Stop:
    """Where a cursor had to stop reducing a log, and why."""

    seq: int
    violation: RuleViolation


class Cursor:
    """Random access to every state of one game."""

    def __init__(
        self, rules: Rules[Any], events: Sequence[Event], *, snapshot_every: int = 16
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
