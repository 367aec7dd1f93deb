"""The engine's walk through a game's log: each event checked by the game's rules and applied,
a wrong ruling replaced by the one the rules give, the walk ended where the state cannot absorb an
event (:func:`walk`, what the audit, the cursor and the explanations use). The bulk replay of a
game is :meth:`~replay.games.game.Game.replay`.

Both run a game's fast path (:class:`~replay.games.fast.FastPath`, the registry's unless one
is given): the walk is the hot loop of the audit, its clean stretches run in a plain loop
(:func:`advance_run`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from replay.games import fast_path
from replay.games.fast import FastPath, apply_in_place
from replay.games.game import Game
from replay.games.state import S
from replay.model.events import Event
from replay.model.violation import LogRule, RuleViolation


@dataclass(slots=True, init=False)
class Step:
    """One event of a :func:`walk`: what was recorded, what the reducer applied (``None``
    when it could not), the state after it, the violation if any, and a summary and the view
    of the state before it (only when there is a violation)."""

    event: Event
    applied: Event | None
    state: Any
    violation: RuleViolation | None
    before: str
    before_view: (
        dict[str, Any] | None
    )  # the state before as :meth:`~replay.games.presentation.Presentation.view` gives it

    def __init__(
        self,
        event: Event,
        applied: Event | None,
        state: Any,
        violation: RuleViolation | None,
        before: str,
        before_view: dict[str, Any] | None = None,
    ) -> None:  # written out: compiled by mypyc, a dataclass's generated __init__ is slow
        self.event = event
        self.applied = applied
        self.state = state
        self.violation = violation
        self.before = before
        self.before_view = before_view


def walk(
    game: Game[Any],
    events: Sequence[Event],
    *,
    faults_only: bool = False,
    fast: FastPath[Any] | None = None,
) -> Iterator[Step]:
    """Reduce a log as far as it soundly goes, yielding one :class:`Step` per event.

    An illegal but possible event is applied (a wrong ruling is replaced by the one the rules
    give); the walk ends after the first event the state cannot absorb, or that belongs to
    another game or kind (LOG-SETUP). The state yielded is the working state, changed in
    place by the next step: clone it to keep it.
    With ``faults_only`` (the audit), only the first step, the steps with a violation and
    those after which the working state is another object are yielded: the last state
    yielded is still the working state.
    ``fast`` is the fast path to run (by default the registry's, :func:`fast_path`).
    Raises :class:`RuleViolation` (LOG-SETUP) when the first event cannot start a game.
    """
    path = fast if fast is not None else fast_path(game)
    state = game.start(events[0])
    yield Step(events[0], events[0], state, None, "")
    game_id, kind = state.game_id, state.kind
    # Indexed: compiled, a list read by index costs less than a generic iterator over a
    # Sequence (and no slice is copied).
    items: list[Event] = events if isinstance(events, list) else list(events)
    index = 1
    while index < len(items):
        declined = False
        if faults_only:  # the clean stretch in a plain loop, outside the generator
            index = advance_run(path, state, items, index, game_id, kind)
            if index >= len(items):
                return
            declined = True  # advance refused items[index] (or it is of another game)
        event = items[index]
        index += 1
        if (
            not declined
            and event.game_id == game_id
            and event.kind == kind
            and path.advance(state, event)
        ):
            if not faults_only:
                yield Step(event, event, state, None, "")
            continue
        step = checked_step(path, state, event, game_id, kind)
        if faults_only and step.violation is None and step.state is state:
            continue  # nothing the audit needs: no yield
        state = step.state
        yield step
        if step.applied is None:
            return


def checked_step(fast: FastPath[Any], state: Any, event: Event, game_id: str, kind: str) -> Step:
    """One event of game ``game_id`` (of ``kind``) that :meth:`~replay.games.fast.FastPath.advance`
    did not take, on the general path: verified, the violation named with the state before it,
    and applied (a wrong ruling replaced by the one the rules give) unless the state cannot
    absorb it (``applied`` None). What :func:`walk` and the audit's path over rows share.

    The step is built after the handler: yielding inside an ``except`` block would leave the
    exception in ``sys.exc_info()`` of a compiled generator, and every later raise would chain
    onto it."""
    violation: RuleViolation | None = None
    try:
        if event.game_id != game_id or event.kind != kind:
            raise RuleViolation(
                LogRule.SETUP,
                f"event of game {event.game_id!r} ({event.kind}) in game {game_id!r} ({kind})",
            )
        fast.verify(state, event)
    except RuleViolation as exc:
        violation = exc
    game = fast.rules
    if violation is None:
        return Step(event, event, apply_in_place(game, state, event), None, "")
    view = game.view(state)
    summary = game.summary(state, event.player, view)
    if not violation.recoverable:
        return Step(event, None, state, violation, summary, view)
    applied = violation.expected if violation.expected is not None else event
    return Step(event, applied, apply_in_place(game, state, applied), violation, summary, view)


def advance_run(
    fast: FastPath[S], state: S, events: list[Event], index: int, game_id: str, kind: str
) -> int:
    """:meth:`~replay.games.fast.FastPath.advance` the events of the game from ``index`` on while
    it accepts them: the index of the first it refuses or of another game (``len(events)``:
    none). Compiled, a plain loop keeps its variables in registers; a generator keeps them in
    its frame."""
    while index < len(events):
        event = events[index]
        if event.game_id != game_id or event.kind != kind or not fast.advance(state, event):
            return index
        index += 1
    return index
