"""The engine's fast path of a game: the same verdicts and states as its rules
(:class:`~replay.games.rules.Rules`), reached without building what is due.

The rules say what a game is; :class:`FastPath` is how the engine's hot loops (the audit, replay
with checks, the cursor, simulation and the review's rollouts) run them quickly. A game may add
one in a sibling module ``<game>_fast.py`` (``hearts_fast`` beside ``hearts``) exposing ``FAST``,
a :class:`FastPath` subclass over its rules; a game without one runs on this class, which falls
back to the plain rules for everything. The registry hands either out
(:func:`replay.games.fast_path`), and ``tests/test_fast_paths.py`` checks that each game's fast
path gives the plain rules' verdicts and states.

The hooks, all answering "not sure" (False) by default:

- :meth:`FastPath.advance`: verify and apply in one pass, in place;
- :meth:`FastPath.is_due_ruling`: whether an event is exactly the ruling due, without building it;
- :meth:`FastPath.verify_dealt`: verify a deal, pass or discard where one is due.

:func:`apply_in_place` is the rules' reducer without the snapshot, for a state nobody else
holds; :func:`is_payload` compares an event with the fields of the one due (a new event field is
one edit there).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Generic

from mypy_extensions import mypyc_attr

from replay.games.game import Game
from replay.games.rules import RuleViolation
from replay.games.rules import apply_in_place as apply_in_place  # the fast paths' reducer
from replay.games.state import S
from replay.model.events import Event

#: A number :func:`is_payload` expects absent (``None``) from the event: no event's number.
ABSENT: Final = -(1 << 60)


def or_absent(value: int | None) -> int:
    """``value``, or :data:`ABSENT` for None: a number that may be absent, for
    :func:`is_payload`."""
    return ABSENT if value is None else value


def is_payload(
    event: Event,
    round_: int = ABSENT,
    trick: int = ABSENT,
    player: int = ABSENT,
    target: int = ABSENT,
    card: str | None = None,
    suit: str | None = None,
    amount: int = ABSENT,
    total: int = ABSENT,
    *,
    has_cards: bool = False,
) -> bool:
    """Whether ``event`` carries exactly these fields (:data:`ABSENT` numbers and ``None``
    strings: the field is absent) and no
    ``values``; its ``cards`` present when ``has_cards`` (the caller compares their codes, with
    :meth:`~replay.model.cards.Deck.matches_packed` or
    :meth:`~replay.model.cards.Deck.matches_mask`), absent otherwise. The type is the caller's to
    check. Every payload field of :data:`~replay.model.events.PAYLOAD_FIELDS` is named here once,
    for every game's fast path.

    >>> is_payload(Event("g", 9, "hearts", "round_scored", 1, player=2, amount=3, total=40),
    ...     1, ABSENT, 2, amount=3, total=40)
    True

    Each field is narrowed before it is compared, written out here once, and the numbers are
    plain ints: compiled, each comparison is then native, with no call and no boxed number per
    field (a ruling is one event in three to five).
    """
    got = event.round
    if round_ == ABSENT:
        if got is not None:
            return False
    elif got is None or got != round_:
        return False
    got = event.trick
    if trick == ABSENT:
        if got is not None:
            return False
    elif got is None or got != trick:
        return False
    got = event.player
    if player == ABSENT:
        if got is not None:
            return False
    elif got is None or got != player:
        return False
    got = event.target
    if target == ABSENT:
        if got is not None:
            return False
    elif got is None or got != target:
        return False
    got = event.amount
    if amount == ABSENT:
        if got is not None:
            return False
    elif got is None or got != amount:
        return False
    got = event.total
    if total == ABSENT:
        if got is not None:
            return False
    elif got is None or got != total:
        return False
    text = event.card
    if card is None:
        if text is not None:
            return False
    elif text is None or text != card:
        return False
    text = event.suit
    if suit is None:
        if text is not None:
            return False
    elif text is None or text != suit:
        return False
    return event.values is None and (event.cards is not None) == has_cards


@mypyc_attr(allow_interpreted_subclasses=True)
class FastPath(Generic[S]):
    """A game's rules run by the engine: each hook answers "not sure" by default, and the
    general path (the rules' own :meth:`~replay.games.rules.Rules.verify`) decides."""

    def __init__(self, rules: Game[S]) -> None:
        #: The plain rules this path runs, and falls back to.
        self.rules = rules

    def verify(self, state: S, event: Event) -> None:
        """The rules' :meth:`~replay.games.rules.Rules.verify`, a ruling due accepted without
        building it."""
        if event.seq == state.seq and self.is_due_ruling(state, event):
            return
        self.rules.verify(state, event)

    def advance(self, state: S, event: Event) -> bool:
        """:meth:`verify` then :func:`apply_in_place` in one pass, for the events a game makes
        cheap (a legal play...): True when ``event`` was legal and ``state`` now includes it.
        False, with ``state`` untouched, leaves the event to the general path.

        The bulk audit hands it one scratch event overwritten row by row
        (``replay.audit.audit_clean_rows``): ``advance`` must not keep ``event`` anywhere but
        in ``state.last`` (which the audit resets before any other call), nor read
        ``state.last`` (by then it may hold ``event`` itself).
        """
        return False

    def is_due_ruling(self, state: S, event: Event) -> bool:
        """Whether ``event`` is exactly the ruling due now (``due(state)`` is a ruling and
        ``same_payload(event, due.ruling)``), answered without building the expected event;
        False whenever unsure (the general path then decides and words the finding)."""
        return False

    def verify_dealt(self, state: S, event: Event) -> bool:
        """Verify a deal, pass or discard (or the like: cards or tokens handed out) where one
        is due, as :meth:`verify` does minus ``due()`` (the sequence number is the caller's to
        check): True when checked, False (nothing checked) for any other event."""
        return False

    def replay(self, events: Sequence[Event], *, check: bool = True) -> S:
        """The state after a whole game (``events[0]`` is its ``game_start``), each event
        verified first unless ``check`` is False: the bulk replay, on this path."""
        rules = self.rules
        log = events if isinstance(events, list) else list(events)  # compiled: indexed natively
        state = rules.start(log[0])
        for index in range(1, len(log)):
            event = log[index]
            if check:
                if self.advance(state, event):
                    continue
                self.verify(state, event)
            state = apply_in_place(rules, state, event)
        return state

    def advance_dealt(self, state: S, event: Event) -> bool:
        """The :meth:`advance` of what :meth:`verify_dealt` checks: True when ``event`` was
        sound and is applied in place; False, with ``state`` untouched, otherwise (a fault is
        raised again, refined, by :meth:`verify`)."""
        try:
            if not self.verify_dealt(state, event):
                return False
        except RuleViolation:
            return False
        self.rules.reduce(state, event)
        return True
