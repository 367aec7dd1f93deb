"""The rules protocol of a game: what it waits for next, whether an event may come next, and the
state after it. Nothing here simulates or shows a game (:mod:`replay.games.simulation`,
:mod:`replay.games.presentation`); :class:`replay.games.game.Game` is all three together.

A game's rules are one :class:`Rules` object; its state is a
:class:`~replay.games.state.GameState` subclass, which :meth:`Rules.apply` clones, so that the
reducer is pure.

The game tells what it waits for next with :meth:`Rules.due`:

- ``RULING``: the rules decide alone; ``Due.ruling`` is the exact event that must be recorded
  next, ``Due.rule`` the rule that requires it;
- ``CHANCE``: a random outcome is recorded next (a deal, a drawn card...); ``Due.seats`` names
  the seats concerned when that matters;
- ``DECISION``: one of ``Due.seats`` must decide; :meth:`Rules.legal_decisions` lists the options;
- ``OVER``: the game has ended; any further event is a LOG-AFTER-END fault.

Every operation exists as verify / can / apply (as in pokerkit): :meth:`Rules.verify` raises a
:class:`RuleViolation` naming the rule ID, :meth:`Rules.can` answers yes or no, and
:meth:`Rules.step` is verify then apply. The generic checks (sequence numbers, events after the
end, rulings that are missing, wrong or out of place, whose turn it is) live here once; a game
implements only what is its own.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Generic

from mypy_extensions import mypyc_attr

from replay.games.checks import describe_payload
from replay.games.state import GameState, S
from replay.model.events import Category, Event, same_payload
from replay.model.specs import GameSpec
from replay.model.violation import LogRule, RuleId
from replay.model.violation import (
    RuleViolation as RuleViolation,  # re-exported: part of the protocol
)


def apply_in_place(rules: Rules[S], state: S, event: Event) -> S:
    """:meth:`Rules.apply` without the copy, for a state nobody else holds (bulk replay, audit,
    simulation): the same reducer; returns the state to use next."""
    new = rules.reduce(state, event)
    new.seq = event.seq + 1
    new.last = event
    return new


class Phase(StrEnum):
    """What a game waits for next."""

    RULING = "ruling"
    CHANCE = "chance"
    DECISION = "decision"
    OVER = "over"


@dataclass(slots=True, init=False)
class Due:
    """The next thing a game waits for (see the module docstring). A value: never changed
    once made (:data:`OVER` and the games' constants are shared)."""

    phase: Phase
    seats: tuple[int, ...]
    ruling: Event | None
    rule: RuleId | None
    what: str

    def __init__(
        self,
        phase: Phase,
        seats: tuple[int, ...] = (),
        ruling: Event | None = None,
        rule: RuleId | None = None,
        what: str = "",
    ) -> None:
        self.phase = phase
        self.seats = seats
        self.ruling = ruling
        self.rule = rule
        self.what = what

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and copied) through the constructor, the same in both builds."""
        return (Due, (self.phase, self.seats, self.ruling, self.rule, self.what))

    @staticmethod
    def decision(*seats: int, what: str = "") -> Due:
        return Due(Phase.DECISION, seats=seats, what=what)

    @staticmethod
    def chance(*seats: int, what: str = "") -> Due:
        return Due(Phase.CHANCE, seats=seats, what=what)

    @staticmethod
    def of_ruling(event: Event, rule: RuleId) -> Due:
        return Due(Phase.RULING, ruling=event, rule=rule, what=event.type)


OVER = Due(Phase.OVER, what="game over")

#: The fields of the event types every game has (``deal`` differs: each game declares it).
COMMON_EVENT_FIELDS: dict[str, tuple[str, ...]] = {"game_start": ("data",), "game_end": ("values",)}

COMMON_EVENT_TYPES: dict[str, Category] = {
    "game_start": Category.SETUP,
    "deal": Category.CHANCE,
    "game_end": Category.RULING,
}


def event_table(
    types: Mapping[str, tuple[Category, tuple[str, ...]]],
) -> tuple[dict[str, Category], dict[str, tuple[str, ...]]]:
    """A game's ``categories`` and ``event_fields`` (:class:`~replay.model.specs.GameSpec`)
    from one table of its event types, each with its category and the fields it carries
    besides its position (``ts`` on any event), the common types added (``deal`` is the
    game's own to describe).

    >>> categories, fields = event_table({"play": (Category.DECISION, ("player", "card"))})
    >>> list(categories), fields["play"]
    (['game_start', 'deal', 'game_end', 'play'], ('player', 'card'))
    """
    categories = {**COMMON_EVENT_TYPES, **{kind: entry[0] for kind, entry in types.items()}}
    fields = {**COMMON_EVENT_FIELDS, **{kind: entry[1] for kind, entry in types.items()}}
    return categories, fields


@mypyc_attr(allow_interpreted_subclasses=True)
class Rules(ABC, Generic[S]):
    """One game's rules: the state after ``game_start``, what is due, the checks and the
    reducer."""

    #: The game's rule IDs (as in RULES.md), besides the LOG-* integrity rules.
    rule_ids: ClassVar[tuple[RuleId, ...]]
    #: The rule cited when a decision is made by a seat whose turn it is not.
    turn_rule: ClassVar[RuleId]
    #: The rule that says when the game ends (its ``game_end`` ruling): cited for a game end
    #: recorded where the game goes on, and for a missing one.
    end_rule: ClassVar[RuleId]
    #: The rule that requires each chance event or decision a game waits for (``Due.what``):
    #: a LOG-ORDER finding names the rule whose event was due (RULES.md, "Which rule a
    #: finding cites", 4.).
    due_rules: ClassVar[Mapping[str, RuleId]]
    #: The game's rules that no single changed event can break (docs/audit.md): the dispute
    #: search (:mod:`replay.corpus.disputes`) does not look for them.
    not_breakable_alone: ClassVar[frozenset[RuleId]] = frozenset()

    def __init__(self, spec: GameSpec) -> None:
        #: What the game declares to the rest of replay (:class:`~replay.model.specs.GameSpec`):
        #: its kind, title, player counts, event types and their fields, deck...
        self.spec = spec
        self.kind = spec.kind
        self.title = spec.title
        self.min_players = min(spec.players)
        self.max_players = max(spec.players)
        #: Every event type of the game (common ones included) and its category.
        self.event_types: dict[str, Category] = dict(spec.categories)
        #: The optional fields each event type carries (``ts`` is allowed on every event).
        self.event_fields = spec.event_fields
        #: The decision and ruling types.
        self.decision_types = self._types_of(Category.DECISION)
        self.ruling_types = self._types_of(Category.RULING)

    def _types_of(self, category: Category) -> frozenset[str]:
        """The event types of one category."""
        return frozenset(t for t, c in self.event_types.items() if c is category)

    # ----------------------------------------------------------------- the game's own
    @abstractmethod
    def start(self, event: Event) -> S:
        """The state after ``game_start``; raises :class:`RuleViolation` (LOG-SETUP)."""

    @abstractmethod
    def due(self, state: S) -> Due:
        """What the game waits for next."""

    @abstractmethod
    def verify_decision(self, state: S, event: Event) -> None:
        """Raise :class:`RuleViolation` if the decision (by a seat whose turn it is) is illegal."""

    @abstractmethod
    def verify_chance(self, state: S, event: Event) -> None:
        """Raise :class:`RuleViolation` if the chance event is impossible (e.g. LOG-CARD)."""

    @abstractmethod
    def reduce(self, state: S, event: Event) -> S:
        """Game-specific part of :meth:`apply`: return a new state (``state`` is a fresh clone
        that the method may modify and return)."""

    @abstractmethod
    def legal_decisions(self, state: S, seat: int) -> list[Event]:
        """Every legal decision of ``seat`` now, as events ready to record."""

    def result(self, state: S) -> dict[str, Any]:
        """The result of a finished game as data (winners, totals or places)."""
        return {}

    # ----------------------------------------------------------------- shared by every game
    def new_event(
        self,
        state: GameState,
        type: str,
        *,
        round: int | None = None,
        trick: int | None = None,
        player: int | None = None,
        target: int | None = None,
        card: str | None = None,
        cards: tuple[str, ...] | None = None,
        suit: str | None = None,
        amount: int | None = None,
        total: int | None = None,
        values: tuple[int, ...] | None = None,
    ) -> Event:
        """An event of this game at the state's next sequence number."""
        return Event(
            state.game_id, state.seq, state.kind, type, round, trick, player, target, card, cards,
            suit, amount, total, values,
        )  # fmt: skip

    def verify(self, state: S, event: Event) -> None:
        """Raise :class:`RuleViolation` unless ``event`` may be recorded next in ``state``."""
        if event.seq != state.seq:
            raise RuleViolation(LogRule.SEQUENCE, f"expected seq {state.seq}, got {event.seq}")
        category = self.event_types.get(event.type)
        if category is None:
            raise RuleViolation(LogRule.ORDER, f"unknown {self.kind} event type {event.type!r}")
        due = self.due(state)
        if due.phase is Phase.OVER:
            raise RuleViolation(LogRule.AFTER_END, f"{event.type} after the end of the game")
        if event.type == "game_end":
            self._verify_game_end(due)
        if due.phase is Phase.RULING:
            self._verify_ruling(state, due, event, category)
            return
        if category is Category.RULING:
            raise RuleViolation(
                LogRule.ORDER,
                f"ruling {event.type} while no ruling is due: {self._due_words(due)}",
            )
        if category is Category.SETUP:
            raise RuleViolation(LogRule.SETUP, "a second game_start in one game")
        if due.phase is Phase.CHANCE:
            if category is not Category.CHANCE:
                raise RuleViolation(LogRule.ORDER, f"{event.type} while {self._due_words(due)}")
            self.verify_chance(state, event)
            return
        if category is not Category.DECISION:
            raise RuleViolation(LogRule.ORDER, f"{event.type} while {self._due_words(due)}")
        if event.player not in due.seats:
            # a card not held is LOG-CARD first, then the game's rule that names the decision
            fault = self.card_fault(state, event) or self.misplaced_decision(state, event)
            if fault is not None:
                raise fault
            whose = ", ".join(str(s) for s in due.seats)
            raise RuleViolation(
                self.turn_rule,
                f"seat {event.player} made a {event.type} but it is the turn of seat {whose}",
            )
        self.verify_decision(state, event)

    def _due_words(self, due: Due) -> str:
        """What is due, naming the rule that requires it, e.g. ``a chance event (deal) is due
        (HEARTS-SETUP)``."""
        kind = "a chance event" if due.phase is Phase.CHANCE else "a decision"
        return f"{kind} ({due.what}) is due ({self.due_rules.get(due.what, self.turn_rule)})"

    def _verify_game_end(self, due: Due) -> None:
        """The game's END rule (:attr:`end_rule`) for a ``game_end`` where the game goes on
        (RULES.md, "Which rule a finding cites", 2.): where a ruling is due, the audit goes on
        with it."""
        expected = due.ruling
        if expected is not None and expected.type == "game_end":
            return  # the end is due: compared as any ruling
        raise RuleViolation(
            self.end_rule,
            f"game_end recorded but the game goes on ({due.what} due)",
            recoverable=expected is not None,
            expected=expected,
        )

    def _verify_ruling(self, state: S, due: Due, event: Event, category: Category) -> None:
        """Another event where a ruling is due: LOG-ORDER naming the rule due, but the game's
        END rule in place of a game end that is due (RULES.md, "Recording order"); a wrong
        ruling cites the rule :meth:`ruling_rule` gives."""
        expected = due.ruling
        assert expected is not None and due.rule is not None
        if category is not Category.RULING:
            if expected.type == "game_end":
                raise RuleViolation(
                    self.end_rule,
                    f"{event.type} recorded but the game is over: the ruling "
                    f"{describe_payload(expected)} is due",
                    expected=expected,
                )
            raise RuleViolation(
                LogRule.ORDER,
                f"{event.type} recorded but the ruling {describe_payload(expected)} is due "
                f"({due.rule})",
                expected=expected,
            )
        if not same_payload(event, expected):
            raise RuleViolation(
                self.ruling_rule(state, due, event),
                f"recorded {describe_payload(event)}, the rules give {describe_payload(expected)}",
                recoverable=True,
                expected=expected,
            )

    def card_fault(self, state: S, event: Event) -> RuleViolation | None:
        """LOG-CARD for a decision naming a card its seat does not hold (RULES.md, "Which rule
        a finding cites", 1.: before the TURN rule); None otherwise. The default knows no
        hands and finds none."""
        return None

    def misplaced_decision(self, state: S, event: Event) -> RuleViolation | None:
        """The game's own rule for a decision that no seat may make now, whoever made it (a
        suit declared where no 7 was played): cited before the TURN rule for a seat whose turn
        it is not (RULES.md, "Which rule a finding cites", 2. before 3.); None when the
        decision is one of those due. The default names none."""
        return None

    def refinable(self, exc: RuleViolation) -> bool:
        """Whether a game may cite a rule of its own for ``exc`` instead: not for a fault of
        the record (RULES.md, "Which rule a finding cites", 1.: the sequence, an event after
        the end), nor in place of a game end that is due (the END rule)."""
        return exc.rule not in (LogRule.SEQUENCE, LogRule.AFTER_END, self.end_rule)

    def ruling_rule(self, state: S, due: Due, event: Event) -> RuleId:
        """The rule a wrong ruling breaks: the rule that requires the ruling due, or a rule
        more specific to the field that is wrong (a game overrides it; RULES.md, "Which rule a
        finding cites")."""
        assert due.rule is not None
        return due.rule

    def can(self, state: S, event: Event) -> bool:
        """Whether ``event`` may be recorded next."""
        try:
            self.verify(state, event)
        except RuleViolation:
            return False
        return True

    def apply(self, state: S, event: Event) -> S:
        """The pure reducer: the state after ``event`` (assumed verified)."""
        new = self.reduce(state.clone(), event)
        new.seq = event.seq + 1
        new.last = event
        return new

    def step(self, state: S, event: Event) -> S:
        """Verify, then apply."""
        self.verify(state, event)
        return self.apply(state, event)
