"""A game's state: :class:`GameState`, the fields every game has, and the two shapes with
per-seat hands (:class:`SeatHandsState`, :class:`SeatTrickState`).

A state's fields are immutable values (ints used as card bit sets, tuples) or per-seat lists
that the reducer changes in place and :meth:`GameState.clone` copies, so that the reducer is
pure: :meth:`replay.games.rules.Rules.apply` works on a clone and never touches the old state.
The hands live in one native int field per seat (``hand0`` to ``hand5``) and the clone is a
copy function generated per class: both are there for the compiled build (mypyc).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from mypy_extensions import i64, mypyc_attr

from replay.model.events import Event
from replay.model.packed import CARD_BITS, unpack

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


@mypyc_attr(allow_interpreted_subclasses=True)
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
    on the table packed in a native int (:mod:`replay.model.packed`), so a play allocates nothing;
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
