"""A replay cursor over one game's events: seek to any step, step forward and back.

Step ``N`` is the state after the event with sequence number ``N`` (step 0: after
``game_start``). The cursor reduces the log once when it is built, keeping a snapshot every
``snapshot_every`` steps; a seek starts from the nearest snapshot at or before the target and
applies at most ``snapshot_every - 1`` events, so no move re-reduces from the start.

A log that breaks the rules is still replayable up to the first event the state cannot absorb;
what each step shows of its event is an :class:`Outcome` (:meth:`Cursor.outcome`): the event as
recorded, the rules' verdict on it, and the event play continues from. The decision, one for
every face (``docs/audit.md``, "Going on after a fault"):

- a legal event, or one that is illegal but possible (a wrong-suit play, a pass to the wrong
  seat), is applied as recorded: play continues from the recorded event;
- a wrong ruling is replaced by the one the rules give: play continues from the rules' event;
- an event the state cannot absorb ends the replay: it is the last step, whose state is the one
  before it (:attr:`Cursor.stopped` tells where and why).

>>> from replay.games import get_rules
>>> from replay.engine.simulate import simulate_game
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

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property
from typing import Any, Final, Literal

from replay.engine.walker import walk
from replay.games.base import Game, RuleViolation
from replay.games.fast import apply_in_place
from replay.model.events import Category, Event


class StepOutOfRange(IndexError):
    """A step that the game does not have."""


#: The names of :meth:`Cursor.jump`, shared by the terminal stepper and the dashboard.
Jump = Literal[
    "first", "last", "next", "prev", "next_trick", "prev_trick", "next_round", "prev_round",
    "next_finding", "prev_finding", "next_mistake", "prev_mistake",
]  # fmt: skip
JUMPS: Final[tuple[Jump, ...]] = (
    "first", "prev_round", "prev_trick", "prev_finding", "prev",
    "next", "next_finding", "next_trick", "next_round", "last",
)  # fmt: skip
#: The jumps to a game review's labelled decisions (:meth:`Cursor.jump` with ``mistakes``).
MISTAKE_JUMPS: Final[tuple[Jump, ...]] = ("prev_mistake", "next_mistake")


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


class Continues(StrEnum):
    """The event the state after a step comes from."""

    RECORDED = "recorded"  # the event as recorded (legal, or illegal but possible)
    RULES = "rules"  # the event the rules give in place of a wrong ruling
    STOPPED = "stopped"  # none: the state cannot absorb the event; it stays as before it


#: How each face says which state play continues from.
CONTINUES_WORDS: Final[dict[Continues, str]] = {
    Continues.RECORDED: "the recorded event",
    Continues.RULES: "the rules' event, in place of the recorded one",
    Continues.STOPPED: "nowhere: the state cannot absorb this event, the replay stops here "
    "(the state shown is the one before it)",
}


def event_words(event: Event, names: Sequence[str] = (), card: Callable[[str], str] = str) -> str:
    """An event in words, each seat named and each card as ``card`` shows it:
    ``#13 trick_won seat 0 (ann) [2♣ 4♣ 5♣ A♣] amount 0``.

    >>> event_words(Event("g", 3, "hearts", "play", player=1, card="QS"), ["ann", "bo"])
    '#3 play seat 1 (bo) QS'
    """

    def seat(number: int) -> str:
        named = 0 <= number < len(names) and names[number]
        return f"seat {number} ({names[number]})" if named else f"seat {number}"

    shown = replace(event, player=None, target=None, card=None, cards=None, suit=None)
    head, _, tail = shown.describe().partition(" ")  # ``#13`` and the type, then the rest
    kind, _, rest = tail.partition(" ")
    parts = [head, kind]
    if event.player is not None:
        parts.append(seat(event.player))
    if event.target is not None:
        parts.append(f"-> {seat(event.target)}")
    if event.card is not None:
        parts.append(card(event.card))
    if event.cards is not None:
        parts.append("[" + " ".join(card(c) for c in event.cards) + "]")
    if event.suit is not None:
        parts.append(f"suit {event.suit}")
    return " ".join([*parts, rest] if rest else parts)


def cards_in_text(text: str, card: Callable[[str], str]) -> str:
    """``text`` with each word that is a card code as ``card`` shows it (``card`` gives a word
    that is no card back as it is; numbers alone are left as they are).

    >>> cards_in_text("seat 0 played 2D on 10", lambda w: w.lower() if w == "2D" else w)
    'seat 0 played 2d on 10'
    """

    def one(match: re.Match[str]) -> str:
        word = match.group(0)
        return word if word.isdigit() else card(word)

    return re.sub(r"[0-9A-Za-z]+", one, text)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one recorded event, as every face shows it: the event as recorded, the
    rules' verdict on it (the rule, the reason, the event the rules give instead of a wrong
    ruling) and the event play continues from (:class:`Continues`)."""

    recorded: Event
    applied: Event | None  # None: the state cannot absorb it (the replay stops there)
    violation: RuleViolation | None = None

    @property
    def stands(self) -> bool:
        """Whether the rules accept the event as recorded."""
        return self.violation is None

    @property
    def rules_event(self) -> Event | None:
        """The event the rules give in place of the recorded one (a wrong ruling), or None."""
        v = self.violation
        return None if v is None or v.expected is None else v.expected.at(self.recorded.seq)

    @property
    def continues(self) -> Continues:
        if self.applied is None:
            return Continues.STOPPED
        return Continues.RECORDED if self.applied == self.recorded else Continues.RULES

    def lines(
        self,
        names: Sequence[str] = (),
        card: Callable[[str], str] = str,
        rule_text: Callable[[str], str] = lambda rule: "",
        *,
        hide_cards: bool = False,
    ) -> list[tuple[str, str]]:
        """The step's event as (label, text) lines: ``event`` (``recorded`` for a fault), and
        for a fault ``the rules
        give`` (the event, or the reason the event does not stand), ``rule`` (its ID and, with
        ``rule_text``, its text) and ``play continues from``. ``card`` shows a card code (the
        face's notation); it is also applied to the card codes of the reason. ``hide_cards``:
        the recorded event without its cards (another seat's private event in a seat's view)."""
        recorded = replace(self.recorded, card=None, cards=None) if hide_cards else self.recorded
        v = self.violation
        out = [("event" if v is None else "recorded", event_words(recorded, names, card))]
        if v is None:
            return out
        given = self.rules_event
        reason = cards_in_text(v.message, card)
        if given is not None:
            out.append(("the rules give", event_words(given, names, card)))
            if not v.message.startswith("recorded "):  # more than the two events above
                out.append(("why", reason))
        else:
            out.append(("the rules say", reason))
        text = rule_text(v.rule)
        out.append(("rule", f"{v.rule}: {text}" if text else str(v.rule)))
        out.append(("play continues from", CONTINUES_WORDS[self.continues]))
        return out

    def to_dict(self) -> dict[str, Any]:
        """As data: the recorded event's words, ``ok``, and for a fault ``rule``, ``reason``,
        ``rules_event`` (or null) and ``continues`` (``recorded``, ``rules`` or ``stopped``)."""
        v = self.violation
        given = self.rules_event
        return {
            "recorded": self.recorded.describe(),
            "ok": v is None,
            "rule": None if v is None else str(v.rule),
            "reason": None if v is None else v.message,
            "rules_event": None if given is None else given.describe(),
            "continues": str(self.continues),
        }


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
        self._faults: dict[int, Outcome] = {}  # the outcome of each step whose event is faulty
        self._snapshots: list[Any] = []
        self._build()
        self.step = 0

    def _build(self) -> None:
        every = self.snapshot_every
        for step in walk(self.rules, self.events):
            if step.violation is not None:
                self.violations[step.event.seq] = step.violation
                self._faults[len(self._applied)] = Outcome(step.event, step.applied, step.violation)
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
        """The last step the cursor can show (the event the replay stopped at, if it did)."""
        return len(self) - 1

    def __len__(self) -> int:
        return len(self._applied) + (self.stopped is not None)

    def seek(self, step: int) -> Cursor:
        """Move to ``step`` (negative counts from the end, like a list index)."""
        if step < 0:
            step += len(self)
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
        steps = range(self.step + 1, len(self)) if forward else range(self.step - 1, -1, -1)
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

    def mistake_stops(self, seqs: Iterable[int]) -> list[int]:
        """The steps of reviewed decisions at these seqs (those within the replay)."""
        return sorted({s for s in seqs if 0 <= s <= self.last_step})

    def jump(
        self, where: Jump, findings: Iterable[int] = (), mistakes: Iterable[int] = ()
    ) -> Cursor:
        """Move by one of :data:`JUMPS` or :data:`MISTAKE_JUMPS` (stay when there is nowhere
        to go that way).

        ``next_trick``/``prev_trick``: the next (previous) complete trick on the table;
        ``next_round``/``prev_round``: the end of this round, or of the next (previous) one;
        ``next_finding``/``prev_finding``: the next (previous) step in ``findings``, the seqs
        of a game's findings (one past the replay's end goes to its last step);
        ``next_mistake``/``prev_mistake``: the next (previous) step in ``mistakes``, the seqs of
        the labelled decisions of a review (:meth:`replay.review.engine.GameReview.mistakes`).
        """
        target = self._target(where, findings, mistakes)
        return self if target is None else self.seek(target)

    def can_jump(
        self, where: Jump, findings: Iterable[int] = (), mistakes: Iterable[int] = ()
    ) -> bool:
        """Whether :meth:`jump` would move (a button to enable)."""
        return self._target(where, findings, mistakes) not in (None, self.step)

    def _target(
        self, where: Jump, findings: Iterable[int], mistakes: Iterable[int] = ()
    ) -> int | None:
        ends = {"first": 0, "last": self.last_step}
        if where in ends:
            return ends[where]
        direction, _, what = where.partition("_")
        stops: Sequence[int]
        if what == "":
            stops = range(len(self))
        elif what == "trick":
            stops = self.trick_stops
        elif what == "round":
            stops = self.round_stops
        elif what == "finding":
            stops = self.finding_stops(findings)
        elif what == "mistake":
            stops = self.mistake_stops(mistakes)
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

    def outcome(self, step: int | None = None) -> Outcome:
        """What became of the event of ``step`` (default: the current step)."""
        step = self.step if step is None else step
        fault = self._faults.get(step)
        if fault is not None:
            return fault
        return Outcome(self.events[step], self._applied[step])

    def state_at(self, step: int) -> Any:
        """The state after event ``step``, from the nearest snapshot (the step the replay
        stopped at: the state before its event, which the state cannot absorb)."""
        step = min(step, len(self._applied) - 1)
        index = step // self.snapshot_every
        state = self._snapshots[index]
        base = index * self.snapshot_every
        if base == step:
            return state
        state = state.clone()
        rules = self.rules
        for event in self._applied[base + 1 : step + 1]:
            state = apply_in_place(rules, state, event)
        return state

    def rulings(self) -> list[Event]:
        """The rulings recorded up to the current step."""
        types = self.rules.event_types
        return [e for e in self.events[: self.step + 1] if types.get(e.type) is Category.RULING]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The current state as data (see each game's ``view``), with the step added, its
        ``last_event`` the event as recorded, and, omniscient, ``verdict``
        (:meth:`Outcome.to_dict`) when the rules do not accept it."""
        data = self.rules.view(self.state, seat)
        data["step"] = self.step
        data["last_step"] = self.last_step
        outcome = self.outcome()
        if not outcome.stands:
            data["last_event"] = _recorded_words(outcome, data.get("last_event"), seat)
            if seat is None:  # a verdict may name cards the seat does not see
                data["verdict"] = outcome.to_dict()
        return data

    def render(self, seat: int | None = None) -> str:
        """The current state as text."""
        return self.rules.render(self.state, seat)


def _recorded_words(outcome: Outcome, shown: str | None, seat: int | None) -> str:
    """The recorded event's words in a view for ``seat``: its cards only where the seat may see
    them (the game showed the applied event's whole, or it is the seat's own event)."""
    recorded, applied = outcome.recorded, outcome.applied
    whole = applied is not None and shown == applied.describe()
    if seat is None or recorded.player == seat or whole:
        return recorded.describe()
    return replace(recorded, card=None, cards=None).describe()
