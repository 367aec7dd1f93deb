"""A game's state: :class:`GameState`, the fields every game has, and the two shapes with
per-seat hands (:class:`SeatHandsState`, :class:`SeatTrickState`).

A state's fields are immutable values (ints used as card bit sets, tuples) or per-seat lists
that the reducer changes in place and :meth:`GameState.clone` copies, so that the reducer is
pure: :meth:`replay.games.rules.Rules.apply` works on a clone and never touches the old state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from typing import Any, TypeVar

from mypy_extensions import i64, mypyc_attr

from replay.model.events import Event
from replay.model.packed import CARD_BITS, unpack

#: Per state class, its fields and whether each is a list (copied by a clone).
_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}


def _state_fields(cls: type) -> tuple[tuple[str, bool], ...]:
    """The fields of a state class, each with whether it is a list (annotated ``list[...]``)."""
    known = _FIELDS.get(cls)
    if known is None:
        known = tuple((f.name, _is_list(f.type)) for f in fields(cls))
        _FIELDS[cls] = known
    return known


def _is_list(annotation: object) -> bool:
    """Whether a field annotation (a string under ``from __future__ import annotations``) is a
    list."""
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    return text == "list" or text.startswith("list[")


S = TypeVar("S", bound="GameState")

#: Per state class, the first value of each field that declares one: (name, value, or a function
#: making a new one for a list).
_DEFAULTS: dict[type, tuple[tuple[str, Any, Callable[[], Any] | None], ...]] = {}


def _defaults(cls: type) -> tuple[tuple[str, Any, Callable[[], Any] | None], ...]:
    """The declared first values of a state class's fields."""
    known = _DEFAULTS.get(cls)
    if known is None:
        found: list[tuple[str, Any, Callable[[], Any] | None]] = []
        for f in fields(cls):
            if f.default is not MISSING:
                found.append((f.name, f.default, None))
            elif f.default_factory is not MISSING:
                found.append((f.name, None, f.default_factory))
        known = _DEFAULTS[cls] = tuple(found)
    return known


def new_state(
    cls: type[S], game_id: str, kind: str, n: int, seq: int = 0, last: Event | None = None
) -> S:
    """A new state of ``cls``: made by its ``__init__``, then each field that declares a first
    value in the class (``stage: int = DEAL``, ``taken: list[int] = field(default_factory=...)``)
    set to it."""
    state = cls(game_id, kind, n, seq, last)
    for name, value, factory in _defaults(cls):
        setattr(state, name, value if factory is None else factory())
    return state


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(slots=True, init=False)
class GameState:
    """Fields common to every game's state. Subclasses add their own fields: immutable values,
    or lists changed in place by the reducer (copied by :meth:`clone`).

    A game's state class declares each field's first value in the class body, as a dataclass
    does (``hand_no: int = 1``), and ``start`` makes it with :func:`new_state`. A class that
    writes out an ``__init__`` instead calls its base's ``__init__`` by name:
    ``@dataclass(slots=True)`` makes a new class, which zero-argument ``super()`` does not know
    (Python 3.11).
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
        """A snapshot: immutable fields shared, list fields copied (a new state made by the
        class's ``__init__``, which takes the game, kind and number of seats, then every field
        set)."""
        new: S = type(self)(self.game_id, self.kind, self.n)
        for name, is_list in _state_fields(type(self)):
            value = getattr(self, name)
            setattr(new, name, value.copy() if is_list else value)
        return new


@dataclass(slots=True, init=False)
class SeatHandsState(GameState):
    """A state with each seat's hand as a bit set (two to six seats), read and set as a list of
    ``n`` hands would be (:meth:`hand`, :meth:`set_hand`, :attr:`hands`).

    The engine's fast paths change a hand at every play: each hand is a field of its own, as
    a list of hands would make a new int object at each change (docs/performance.md).
    """

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
    on the table packed in one int (:mod:`replay.model.packed`); ``table`` lists them. A play
    is ``table_cards |= placed(card, played, CARD_BITS)`` and ``played += 1``, in each game's
    ``play_card``."""

    played: int  # cards on the table
    table_cards: i64  # their indices in play order from the leader, CARD_BITS each

    def __init__(
        self, game_id: str, kind: str, n: int, seq: int = 0, last: Event | None = None
    ) -> None:
        SeatHandsState.__init__(self, game_id, kind, n, seq, last)
        self.played = self.table_cards = 0

    @property
    def table(self) -> list[int]:
        """The card indices of the current trick in play order from the leader."""
        return unpack(self.table_cards, self.played, CARD_BITS)

    def clear_table(self) -> None:
        """No card on the table (a new trick)."""
        self.played = self.table_cards = 0
