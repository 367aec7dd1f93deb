"""The interface every game implements, and the machinery shared by all of them.

A game is one :class:`Rules` object. Its state is a :class:`GameState` subclass whose fields are
immutable values (ints used as card bit sets, tuples) or per-seat lists that the reducer changes
in place and :meth:`GameState.clone` copies, so that the reducer is pure: :meth:`Rules.apply`
works on a clone and never touches the old state.

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

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any, ClassVar, Final, Generic, TypeVar

from mypy_extensions import i64

from replay.events import COMPILED, Category, Event, same_payload
from replay.packed import CARD_BITS, nth, unpack
from replay.violation import LogRule, RuleId
from replay.violation import RuleViolation as RuleViolation  # re-exported: part of the interface


class Phase(StrEnum):
    """What a game waits for next."""

    RULING = "ruling"
    CHANCE = "chance"
    DECISION = "decision"
    OVER = "over"


@dataclass(frozen=True, slots=True, init=False)
class Due:
    """The next thing a game waits for (see the module docstring)."""

    phase: Phase
    seats: tuple[int, ...] = ()
    ruling: Event | None = None
    rule: RuleId | None = None
    what: str = ""

    def __init__(
        self,
        phase: Phase,
        seats: tuple[int, ...] = (),
        ruling: Event | None = None,
        rule: RuleId | None = None,
        what: str = "",
    ) -> None:
        if not COMPILED:
            set_field = object.__setattr__
            set_field(self, "phase", phase)
            set_field(self, "seats", seats)
            set_field(self, "ruling", ruling)
            set_field(self, "rule", rule)
            set_field(self, "what", what)
            return
        # Compiled, mypyc writes the fields directly (see Event.__init__).
        self.phase = phase  # type: ignore[misc]
        self.seats = seats  # type: ignore[misc]
        self.ruling = ruling  # type: ignore[misc]
        self.rule = rule  # type: ignore[misc]
        self.what = what  # type: ignore[misc]

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


_CLONERS: dict[type, Callable[[Any], Any]] = {}


def _cloner(cls: type) -> Callable[[Any], Any]:
    """A copy function generated for one state class (field by field, no reflection per call).

    List fields (annotated ``list[...]``) are copied: the reducer changes them in place. The
    copy is made by the class's own ``__init__`` (compiled, ``cls.__new__`` runs it too, and it
    takes the game, kind and number of seats), then every field is set.
    """
    cloner = _CLONERS.get(cls)
    if cloner is None:
        lines = [
            f"    new.{f.name} = old.{f.name}" + (".copy()" if _is_list(f.type) else "")
            for f in fields(cls)
        ]
        body = "\n".join(lines)
        make = "    new = cls(old.game_id, old.kind, old.n)"
        source = f"def clone(old):\n{make}\n{body}\n    return new\n"
        namespace: dict[str, Any] = {"cls": cls}
        exec(source, namespace)
        cloner = namespace["clone"]
        _CLONERS[cls] = cloner
    return cloner


def _is_list(annotation: object) -> bool:
    """Whether a field annotation (a string under ``from __future__ import annotations``) is a
    list."""
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    return text == "list" or text.startswith("list[")


S = TypeVar("S", bound="GameState")


@dataclass(slots=True, init=False)
class GameState:
    """Fields common to every game's state. Subclasses add their own fields: immutable values,
    or lists changed in place by the reducer (copied by :meth:`clone`).

    Every state class writes out its ``__init__``, which gives each field its first value
    (``start`` then sets the game's own): compiled, a dataclass's generated ``__init__`` would
    run as Python bytecode, about 13,000 instructions per Hiifuu game. Each calls its base's
    ``__init__`` by name: ``@dataclass(slots=True)`` makes a new class, which zero-argument
    ``super()`` does not know (Python 3.11).
    """

    game_id: str
    kind: str
    n: int
    seq: int
    over: bool
    last: Event | None

    def __init__(
        self, game_id: str, kind: str, n: int, seq: int = 0, last: Event | None = None
    ) -> None:
        self.game_id = game_id
        self.kind = kind
        self.n = n
        self.seq = seq
        self.over = False
        self.last = last

    def clone(self: S) -> S:
        """A snapshot: immutable fields shared, list fields copied."""
        new: S = _cloner(type(self))(self)
        return new


@dataclass(slots=True, init=False)
class SeatHandsState(GameState):
    """A state with each seat's hand as a bit set in a field of its own (two to six seats):
    compiled, a native int, so changing a hand allocates nothing (an int stored in a list is
    boxed). :meth:`hand` and :meth:`set_hand` index them as a list of ``n`` hands would."""

    hand0: int
    hand1: int
    hand2: int
    hand3: int
    hand4: int
    hand5: int

    def __init__(
        self, game_id: str, kind: str, n: int, seq: int = 0, last: Event | None = None
    ) -> None:
        GameState.__init__(self, game_id, kind, n, seq, last)
        # clear_hands, written out: mypyc counts a field as always set only when __init__
        # assigns it itself (then its reads skip the check).
        self.hand0 = self.hand1 = self.hand2 = self.hand3 = self.hand4 = self.hand5 = 0

    def hand(self, seat: int) -> int:
        """The bit set of ``seat``'s hand."""
        if seat < 0:
            seat += self.n
        if seat == 0:
            return self.hand0
        if seat == 1:
            return self.hand1
        if seat < self.n:
            if seat == 2:
                return self.hand2
            if seat == 3:
                return self.hand3
            if seat == 4:
                return self.hand4
            if seat == 5:
                return self.hand5
        raise IndexError(seat)

    def set_hand(self, seat: int, hand: int) -> None:
        """Make ``hand`` the bit set of ``seat``'s hand."""
        if seat < 0:
            seat += self.n
        if seat == 0:
            self.hand0 = hand
        elif seat == 1:
            self.hand1 = hand
        elif seat < self.n and 2 <= seat <= 5:
            if seat == 2:
                self.hand2 = hand
            elif seat == 3:
                self.hand3 = hand
            elif seat == 4:
                self.hand4 = hand
            else:
                self.hand5 = hand
        else:
            raise IndexError(seat)

    def seat_hands(self) -> list[int]:
        """Every seat's hand (a new list: changing it changes no hand)."""
        hands = [self.hand0, self.hand1, self.hand2, self.hand3, self.hand4, self.hand5]
        return hands[: self.n]

    def hands_dealt(self) -> bool:
        """Whether the seats have hands yet (``hands`` is empty before); always, by default."""
        return True

    @property
    def hands(self) -> list[int]:
        """Every seat's hand as a bit set, none before :meth:`hands_dealt` (a new list:
        changing it changes no hand)."""
        return self.seat_hands() if self.hands_dealt() else []

    @hands.setter
    def hands(self, hands: list[int]) -> None:
        self.set_hands(hands)

    def set_hands(self, hands: list[int]) -> None:
        """Set the first ``len(hands)`` seats' hands."""
        for seat, hand in enumerate(hands):
            self.set_hand(seat, hand)

    def clear_hands(self) -> None:
        """Empty every hand."""
        self.hand0 = self.hand1 = self.hand2 = self.hand3 = self.hand4 = self.hand5 = 0


@dataclass(slots=True, init=False)
class SeatTrickState(SeatHandsState):
    """A :class:`SeatHandsState` whose trick is played in seat order from its leader: the cards
    on the table packed in a native int (:mod:`replay.packed`), so a play allocates nothing;
    ``table`` lists them. A play is ``table_cards |= placed(card, played, CARD_BITS)`` and
    ``played += 1``, written in each game's ``_play`` (a method call per play: +0.6% for
    Hearts)."""

    played: int  # cards on the table
    table_cards: i64  # their indices in play order from the leader, CARD_BITS each

    def __init__(
        self, game_id: str, kind: str, n: int, seq: int = 0, last: Event | None = None
    ) -> None:
        SeatHandsState.__init__(self, game_id, kind, n, seq, last)
        self.played = self.table_cards = 0  # clear_table, written out (as in SeatHandsState)

    @property
    def table(self) -> list[int]:
        """The card indices of the current trick in play order from the leader."""
        return unpack(self.table_cards, self.played, CARD_BITS)

    def clear_table(self) -> None:
        """No card on the table (a new trick)."""
        self.played = self.table_cards = 0


Bot = Callable[[Any, int, random.Random], Event]
"""A bot: ``bot(state, seat, rng) -> decision event`` (seeded by ``rng``)."""


class Rules(ABC, Generic[S]):
    """One game's rules: reducer, legality, rulings, rendering, bots."""

    kind: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: Every event type of the game (common ones included) and its category.
    event_types: ClassVar[Mapping[str, Category]]
    #: The optional fields each event type carries (``ts`` is allowed on every event); a type
    #: left out, or a game that declares none, is not checked (:mod:`replay.fields`).
    event_fields: ClassVar[Mapping[str, tuple[str, ...]]] = {}
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

    def __init__(self) -> None:
        #: ``event_types`` as an instance dict: compiled, read without a class lookup.
        self.categories: dict[str, Category] = dict(self.event_types)
        #: The decision and ruling types as sets: compiled, a set lookup costs about 80
        #: instructions, the dict's ``get`` 130 (for the games' per-event checks).
        self.decision_types = self._types_of(Category.DECISION)
        self.ruling_types = self._types_of(Category.RULING)

    def _types_of(self, category: Category) -> frozenset[str]:
        """The event types of one category."""
        return frozenset(t for t, c in self.event_types.items() if c is category)

    # ----------------------------------------------------------------- setup
    @abstractmethod
    def setup_event(
        self, game_id: str, players: int, rng: random.Random, options: Mapping[str, Any]
    ) -> Event:
        """A ``game_start`` event for a new simulated game (seq 0).

        ``options`` may hold ``bots`` (list of bools), ``names``, ``stakes`` and game variants.
        """

    @abstractmethod
    def start(self, event: Event) -> S:
        """The state after ``game_start``; raises :class:`RuleViolation` (LOG-SETUP)."""

    # ----------------------------------------------------------------- reducer
    @abstractmethod
    def due(self, state: S) -> Due:
        """What the game waits for next."""

    def is_due_ruling(self, state: S, event: Event) -> bool:
        """Whether ``event`` is exactly the ruling due now (``due(state)`` is a ruling and
        ``same_payload(event, due.ruling)``), answered without building the expected event.

        The fast path for a correct ruling; a game may answer False whenever unsure (the general
        path then decides and words the finding). The default always answers False.
        """
        return False

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

    @abstractmethod
    def sample_chance(self, state: S, rng: random.Random) -> Event:
        """The next chance event, drawn with ``rng`` (for the simulator)."""

    # ----------------------------------------------------------------- views
    @abstractmethod
    def view(self, state: S, seat: int | None = None) -> dict[str, Any]:
        """The state as JSON-ready data, omniscient (``seat=None``) or as ``seat`` sees it."""

    @abstractmethod
    def render(self, state: S, seat: int | None = None) -> str:
        """The state as text for a person, omniscient or from one seat."""

    @abstractmethod
    def bots(self) -> Mapping[str, Bot]:
        """The game's bots by name; ``random`` is always one of them."""

    def summary(self, state: S, seat: int | None = None) -> str:
        """A short state summary for findings: the situation, ``seat``'s hand, the table.

        Built from the common keys of :meth:`view`; a game may override it.
        """
        view = self.view(state)
        parts = [self.render(state).splitlines()[0]]
        hands = view.get("hands") or []
        if seat is not None and 0 <= seat < len(hands) and hands[seat] is not None:
            parts.append(f"seat {seat} holds {' '.join(hands[seat]) or 'nothing'}")
        table = view.get("table") or []
        if table:
            parts.append("table " + " ".join(f"{t['seat']}:{t['card']}" for t in table))
        return "; ".join(parts)

    def result(self, state: S) -> dict[str, Any]:
        """The result of a finished game as data (winners, totals or places)."""
        return {}

    # ----------------------------------------------------------------- shared machinery
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
        category = self.categories.get(event.type)
        if category is None:
            raise RuleViolation(LogRule.ORDER, f"unknown {self.kind} event type {event.type!r}")
        if category is Category.RULING and self.is_due_ruling(state, event):
            return  # the ruling due, recorded as the rules give it
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
            fault = self.card_fault(state, event)  # a card not held is LOG-CARD first
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
        expected = due.ruling
        assert expected is not None and due.rule is not None
        if category is not Category.RULING:
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

    def apply_in_place(self, state: S, event: Event) -> S:
        """:meth:`apply` without the copy, for a state nobody else holds (bulk replay, audit).

        The same reducer runs; only the snapshot is skipped. Returns the state to use next.
        """
        new = self.reduce(state, event)
        new.seq = event.seq + 1
        new.last = event
        return new

    def advance(self, state: S, event: Event) -> bool:
        """:meth:`verify` then :meth:`apply_in_place` in one pass, for the events a game makes
        cheap (a legal play...): True when ``event`` was legal and ``state`` now includes it.

        False, with ``state`` untouched, leaves the event to the general path. The default
        always answers False.

        The bulk audit hands it one scratch event overwritten row by row
        (``replay.audit.audit_clean_rows``): ``advance`` must not keep ``event`` anywhere but
        in ``state.last`` (which the audit resets before any other call), nor read
        ``state.last`` (by then it may hold ``event`` itself).
        """
        return False

    def verify_dealt(self, state: S, event: Event) -> bool:
        """Verify a deal, pass or discard (or the like: cards or tokens handed out) where one
        is due, as :meth:`verify` does minus ``due()`` (the sequence number is the caller's to
        check): True when checked, False (nothing checked) for any other event. The default
        checks nothing."""
        return False

    def advance_dealt(self, state: S, event: Event) -> bool:
        """The :meth:`advance` of what :meth:`verify_dealt` checks: True when ``event`` was
        sound and is applied in place; False, with ``state`` untouched, otherwise (a fault is
        raised again, refined, by :meth:`verify`)."""
        try:
            if not self.verify_dealt(state, event):
                return False
        except RuleViolation:
            return False
        self.reduce(state, event)
        return True

    def walk(self, events: Sequence[Event], *, faults_only: bool = False) -> Iterator[Step]:
        """Reduce a log as far as it soundly goes, yielding one :class:`Step` per event.

        An illegal but possible event is applied (a wrong ruling is replaced by the one the rules
        give); the walk ends after the first event the state cannot absorb, or that belongs to
        another game or kind (LOG-SETUP). The state yielded is the working state, changed in
        place by the next step: clone it to keep it.
        With ``faults_only`` (the audit), only the first step, the steps with a violation and
        those after which the working state is another object are yielded: the last state
        yielded is still the working state.
        Raises :class:`RuleViolation` (LOG-SETUP) when the first event cannot start a game.
        """
        state = self.start(events[0])
        yield Step(events[0], events[0], state, None, "")
        game_id, kind = state.game_id, state.kind
        # Indexed: compiled, a list read by index costs less than a generic iterator over a
        # Sequence (and no slice is copied).
        items: list[Event] = events if isinstance(events, list) else list(events)
        index = 1
        while index < len(items):
            declined = False
            if faults_only:  # the clean stretch in a plain loop, outside the generator
                index = self._advance_run(state, items, index, game_id, kind)
                if index >= len(items):
                    return
                declined = True  # advance refused items[index] (or it is of another game)
            event = items[index]
            index += 1
            applied: Event | None = event
            violation = None
            summary = ""
            view: dict[str, Any] | None = None
            try:
                if event.game_id != game_id or event.kind != kind:
                    raise RuleViolation(
                        LogRule.SETUP,
                        f"event of game {event.game_id!r} ({event.kind}) in game {game_id!r} "
                        f"({kind})",
                    )
                if not declined and self.advance(state, event):
                    if not faults_only:
                        yield Step(event, event, state, None, "")
                    continue
                self.verify(state, event)  # direct calls: compiled, a bound method is slower
            except RuleViolation as exc:
                violation = exc
                summary = self.summary(state, event.player)
                view = self.view(state)
                if not exc.recoverable:
                    yield Step(event, None, state, exc, summary, view)
                    return
                if exc.expected is not None:
                    applied = exc.expected
            assert applied is not None
            new = self.apply_in_place(state, applied)
            if faults_only and violation is None and new is state:
                continue  # nothing the audit needs: no Step built, no yield
            state = new
            yield Step(event, applied, state, violation, summary, view)

    def _advance_run(
        self, state: S, events: list[Event], index: int, game_id: str, kind: str
    ) -> int:
        """:meth:`advance` the events of the game from ``index`` on while it accepts them: the
        index of the first it refuses or of another game (``len(events)``: none). Compiled, a
        plain loop keeps its variables in registers; a generator keeps them in its frame."""
        while index < len(events):
            event = events[index]
            if event.game_id != game_id or event.kind != kind or not self.advance(state, event):
                return index
            index += 1
        return index

    def replay(self, events: Sequence[Event], *, check: bool = True) -> S:
        """Reduce a whole game (``events[0]`` is its ``game_start``), verifying each event."""
        state = self.start(events[0])
        for event in events[1:]:
            if check:
                if self.advance(state, event):
                    continue
                self.verify(state, event)
            state = self.apply_in_place(state, event)
        return state


@dataclass(slots=True, init=False)
class Step:
    """One event of a :meth:`Rules.walk`: what was recorded, what the reducer applied (``None``
    when it could not), the state after it, the violation if any, and a summary and the view
    of the state before it (only when there is a violation)."""

    event: Event
    applied: Event | None
    state: Any
    violation: RuleViolation | None
    before: str
    before_view: dict[str, Any] | None  # the state before as :meth:`Rules.view` gives it

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


T = TypeVar("T")


def replace_at(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """A copy of a per-seat tuple with one entry changed.

    >>> replace_at((0, 0, 0), 1, 5)
    (0, 5, 0)
    """
    items = list(values)  # faster than joining two slices, compiled or not
    items[index] = value
    return tuple(items)


def highest_of(values: list[int]) -> int:
    """``max(values)`` of a non-empty list, as a loop: compiled, ``max`` is a generic builtin
    call (about 1,500 instructions, in code that is cold by the time a round ends).

    >>> highest_of([3, 9, -2])
    9
    """
    best = values[0]
    for value in values:
        if value > best:
            best = value
    return best


def lowest_of(values: list[int]) -> int:
    """``min(values)`` of a non-empty list, as a loop (see :func:`highest_of`).

    >>> lowest_of([3, 9, -2])
    -2
    """
    low = values[0]
    for value in values:
        if value < low:
            low = value
    return low


def game_winners(totals: list[int]) -> tuple[int, ...]:
    """The seats with the highest total, ascending (a tie is a shared victory: HIIFUU-END,
    FOU-END).

    >>> game_winners([10, -3, 10, -90])
    (0, 2)
    """
    best = highest_of(totals)
    return tuple(s for s, t in enumerate(totals) if t == best)


def all_recorded(values: tuple[int, ...]) -> bool:
    """Whether every seat's entry of a per-seat tuple is set (``-1``: not yet recorded).

    A loop rather than ``min(values) >= 0``: compiled, ``min`` is a generic builtin call.

    >>> all_recorded((3, 0, 8)), all_recorded((3, -1, 8))
    (True, False)
    """
    for value in values:  # noqa: SIM110 (a loop compiles to tighter code)
        if value < 0:
            return False
    return True


def play_in_turn(event: Event, seq: int, turn: int, trick: int, round_: int) -> bool:
    """Whether ``event`` is a play numbered as the next one: ``seq``, by ``turn``, in ``trick``
    of ``round_`` (the numbering part of the games' fast path for a legal play).

    Optional fields are narrowed before comparing: compiled, the comparisons are then native.
    """
    if event.type != "play" or event.seq != seq:
        return False
    player = event.player
    event_trick = event.trick
    event_round = event.round
    return (
        player is not None and player == turn
        and event_trick is not None and event_trick == trick
        and event_round is not None and event_round == round_
    )  # fmt: skip


def led_suit_best(cards: i64, count: i64, values: i64) -> i64:
    """Position of the highest card of the led suit among the ``count`` cards packed in
    ``cards`` (:mod:`replay.packed`), cards being numbered suit by suit with ``values`` per
    suit: the winner of a trick without trumps (HEARTS-TRICK, HIIFUU-TRICK).

    >>> from replay.packed import pack
    >>> led_suit_best(pack([5, 40, 7, 9], CARD_BITS), 4, 13)  # 6R led, 2B off-suit, 8R, 10R
    3
    """
    first = nth(cards, 0, CARD_BITS)
    led = first // values
    best: i64 = 0
    best_card = first
    for position in range(1, count):
        card = nth(cards, position, CARD_BITS)
        if card // values == led and card > best_card:
            best, best_card = position, card
    return best


def same(value: int | None, expected: int | None) -> bool:
    """``value == expected`` for optional numbers (an event's field against the rules' value),
    narrowed first: compiled, a native comparison, where comparing ``int | None`` as it is
    goes through the generic protocol and boxes the int (about 65 instructions).

    >>> same(3, 3), same(None, 3), same(None, None), same(2, None)
    (True, False, True, False)
    """
    if value is None or expected is None:
        return value is expected
    return value == expected


def numbered(event: Event, round_: int, trick: int | None) -> bool:
    """Whether ``event`` is numbered in ``round_`` and ``trick`` (``None``: no trick number),
    for the games' ruling checks (:meth:`Rules.is_due_ruling`).

    Optional fields are narrowed before comparing: compiled, the comparisons are then native
    (written out rather than through :func:`same`, which would box ``round_`` and ``trick``).
    """
    event_round = event.round
    event_trick = event.trick
    if event_round is None or event_round != round_:
        return False
    if trick is None:
        return event_trick is None
    return event_trick is not None and event_trick == trick


def check_round(event: Event, expected: int) -> None:
    """LOG-ORDER (recoverable) for an event numbered with another round than ``expected``.

    Games call it after the cards and the game's own rules, so that a card from nowhere or an
    illegal play is never hidden behind a mere numbering fault.
    """
    fault = round_fault(event, expected)
    if fault is not None:
        raise fault


def round_fault(event: Event, expected: int) -> RuleViolation | None:
    """The violation :func:`check_round` raises, returned instead (``None``: numbered right)."""
    number = event.round
    if number is not None and number == expected:  # narrowed: compiled, a native comparison
        return None
    return RuleViolation(
        LogRule.ORDER, f"{event.type} in round {event.round} during round {expected}",
        recoverable=True,
    )  # fmt: skip


def deal_fault(event: Event, dealt_seats: int, n: int, round_: int | None) -> RuleViolation | None:
    """LOG-ORDER for a deal that names no seat of the table, a seat dealt already this round
    (``dealt_seats``, a bit set) or, unless ``round_`` is None, another round; None for a deal
    that may come now. RULES.md, "Recording order": the deals of a round come in any seat
    order, each seat dealt once."""
    seat = event.player
    if seat is None or not 0 <= seat < n:  # narrowed: compiled, native comparisons
        return RuleViolation(LogRule.ORDER, f"deal for seat {seat}, not a seat of {n} players")
    if dealt_seats >> seat & 1:
        return RuleViolation(LogRule.ORDER, f"a second deal to seat {seat} in one round")
    if round_ is not None and not same(event.round, round_):
        return RuleViolation(LogRule.ORDER, f"deal for round {event.round} during round {round_}")
    return None


def held_fault(event: Event, hand: int, deck: Any) -> RuleViolation | None:
    """LOG-CARD when the card (or a card of the cards) of ``event`` is not in ``hand`` (a bit
    set of ``deck``'s indices); None when its seat holds them all."""
    codes = (event.card,) if event.card is not None else (event.cards or ())
    for code in codes:
        card = deck.find(code) if isinstance(code, str) else -1
        if card < 0 or not hand >> card & 1:
            return RuleViolation(
                LogRule.CARD,
                f"seat {event.player} made a {event.type} of {code} which it does not hold",
            )
    return None


def seat_hand_fault(event: Event, state: SeatHandsState, deck: Any) -> RuleViolation | None:
    """:func:`held_fault` for the seat of ``event`` in a state with hands (None: no seat of
    the table, or no hands yet)."""
    seat = event.player
    if seat is None or not 0 <= seat < state.n or not state.hands_dealt():
        return None
    return held_fault(event, state.hand(seat), deck)


def first_undealt(dealt_seats: int) -> int:
    """The lowest seat not in the bit set ``dealt_seats`` (the seat a simulation deals next).

    >>> first_undealt(0b1011)
    2
    """
    return (~dealt_seats & (dealt_seats + 1)).bit_length() - 1


def undealt_seats(dealt_seats: int, n: int) -> tuple[int, ...]:
    """The seats of ``n`` not in the bit set ``dealt_seats``, ascending.

    >>> undealt_seats(0b0101, 4)
    (1, 3)
    """
    return tuple(seat for seat in range(n) if not dealt_seats >> seat & 1)


def seat_description(event: Event | None, seat: int | None, private: frozenset[str]) -> str | None:
    """``event.describe()`` as ``seat`` may see it: the cards of another seat's private event
    (a deal, a pass, a discard, a drawn card: the types in ``private``) left out."""
    if event is None:
        return None
    if seat is not None and event.type in private and event.player != seat:
        return replace(event, card=None, cards=None).describe()
    return event.describe()


def describe_payload(event: Event) -> str:
    """A compact rendering of an event's payload for messages, e.g. ``trick_won(player=2, ...)``."""
    payload = {k: v for k, v in event.payload().items() if k != "type"}
    inner = ", ".join(f"{k}={_fmt(v)}" for k, v in payload.items())
    return f"{event.type}({inner})"


def _fmt(value: object) -> str:
    if isinstance(value, tuple):
        return "[" + " ".join(str(v) for v in value) + "]"
    return str(value)


#: What each game made of a ``game_start`` data text (see :func:`setup_of`), with its kind:
#: a corpus repeats a few setups (the same seats), and parsing one (JSON, checks) costs 15,000
#: to 100,000 instructions.
_SETUPS: Final[dict[str, tuple[str, Any]]] = {}
SETUPS_KEPT: Final = 256  # emptied when full: a bound, not an eviction policy


def setup_of(event: Event, kind: str, build: Callable[[Mapping[str, Any]], T]) -> T:
    """What ``build`` makes of the setup data of a ``game_start`` event (or a violation),
    remembered by data text for the last :data:`SETUPS_KEPT` distinct setups.

    The value is shared by every game with the same setup text: ``build`` must return an
    immutable value (tuples, frozen dataclasses) that depends on the data alone. The parsed
    data itself is only lent to ``build``, never kept.
    """
    check_start(event, kind)
    data = event.data
    hit = _SETUPS.get(data) if data else None
    if hit is not None and hit[0] == kind:
        value: T = hit[1]
        return value
    value = build(_setup_data(event))
    if data:
        if len(_SETUPS) >= SETUPS_KEPT:
            _SETUPS.clear()
        _SETUPS[data] = (kind, value)
    return value


def parse_setup(event: Event, kind: str) -> dict[str, Any]:
    """The setup data of a ``game_start`` event, or a LOG-SETUP violation."""
    check_start(event, kind)
    return _setup_data(event)


def check_start(event: Event, kind: str) -> None:
    """LOG-SETUP unless ``event`` can start a game of ``kind`` (its data aside)."""
    if event.type != "game_start":
        raise RuleViolation(LogRule.SETUP, f"a game must begin with game_start, not {event.type}")
    if event.seq != 0:
        raise RuleViolation(LogRule.SETUP, f"game_start must have seq 0, not {event.seq}")
    if event.kind != kind:
        raise RuleViolation(LogRule.SETUP, f"game_start of kind {event.kind!r}, expected {kind!r}")


def _setup_data(event: Event) -> dict[str, Any]:
    """The parsed data of a ``game_start`` event, or a LOG-SETUP violation."""
    try:
        return event.setup()
    except (ValueError, json.JSONDecodeError) as exc:
        raise RuleViolation(LogRule.SETUP, f"game_start data is not a JSON object: {exc}") from None


def check_players(setup: Mapping[str, Any], low: int, high: int, rule: RuleId) -> int:
    """The number of seats of a setup, checked against the game's range."""
    n = setup.get("players")
    if not isinstance(n, int) or not low <= n <= high:
        raise RuleViolation(rule, f"{n!r} players; the game takes {low} to {high}")
    return n


def seat_names(setup: Mapping[str, Any], n: int, rule: RuleId) -> tuple[str, ...]:
    """The player ids of a setup, one per seat (``p0``, ``p1``... when it gives none)."""
    names = setup.get("names") or [f"p{i}" for i in range(n)]
    if not isinstance(names, list) or len(names) != n:
        raise RuleViolation(rule, "names must list one player id per seat")
    return tuple(str(x) for x in names)


def bot_flags(setup: Mapping[str, Any], n: int, default: bool, rule: RuleId) -> tuple[bool, ...]:
    """Whether each seat is a bot, as a setup says (``default`` for every seat when it does
    not)."""
    bots = setup.get("bots") or [default] * n
    if not isinstance(bots, list) or len(bots) != n:
        raise RuleViolation(rule, "bots must list one flag per seat")
    return tuple(bool(b) for b in bots)


def random_bot(rules: Rules[Any]) -> Bot:
    """A bot that picks uniformly among the legal decisions."""

    def choose(state: Any, seat: int, rng: random.Random) -> Event:
        return rng.choice(rules.legal_decisions(state, seat))

    return choose


#: The fields of the event types every game has (``deal`` differs: each game declares it).
COMMON_EVENT_FIELDS: dict[str, tuple[str, ...]] = {"game_start": ("data",), "game_end": ("values",)}

COMMON_EVENT_TYPES: dict[str, Category] = {
    "game_start": Category.SETUP,
    "deal": Category.CHANCE,
    "game_end": Category.RULING,
}
