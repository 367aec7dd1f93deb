"""Hands of a deck larger than 64 cards, each kept as two native halves: :class:`SplitHandsState`.

A hand is a bit set over the deck. Past 64 cards a Python int is a long int, and compiled
code allocates at each operation on one; split at :data:`SPLIT`, each half stays a native
``i64`` (cards ``0..SPLIT-1`` in the low half, the others, shifted down, in the high one). The
halves live in fields of their own, ``low0``..``low7`` and ``high0``..``high7``: an int stored in
a list is boxed, so a play would allocate again. This module is storage only: the rules read a
hand through :meth:`SplitHandsState.hand`, or test one card with
:meth:`SplitHandsState.holds`, and a game arranges its deck so that what it tests together
lies in one half (Fou!: each colour).

>>> state = SplitHandsState("g", "fou", 5)
>>> state.set_hand(3, 1 << 2 | 1 << 60)
>>> state.hand(3) == 1 << 2 | 1 << 60, state.low(3), state.high(3)
(True, 4, 64)
>>> state.holds(3, 60), state.holds(3, 61), state.remove(3, 60), state.remove(3, 2)
(True, False, False, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from mypy_extensions import i64

from replay.games.checks import known_cards
from replay.games.state import GameState
from replay.model.cards import Deck
from replay.model.events import Event
from replay.model.packed import placed

#: Where a hand is split: cards below it in the low half.
SPLIT: Final = 54
LOW_HALF: Final = (1 << SPLIT) - 1
#: The largest deck two halves hold (each half at most 62 bits: native, signed).
MAX_CARDS: Final = SPLIT + 62
#: A card's bit number in its half (small: compiled, read from the tuple without a long int).
HALF_POS: Final[tuple[int, ...]] = tuple(c if c < SPLIT else c - SPLIT for c in range(MAX_CARDS))


def known_halves(deck: Deck, codes: Sequence[str]) -> tuple[int, int, bool]:
    """The bit set of the card ``codes`` of ``deck`` as its two halves (low, high), and whether
    a code repeats: LOG-CARD for a code that is no card of ``deck``, as
    :func:`~replay.games.checks.known_cards`.

    >>> deck = Deck([f"c{i}" for i in range(60)], "sixty")
    >>> known_halves(deck, ["c1", "c55"]), known_halves(deck, ["c1", "c1"])[2]
    ((2, 2, False), True)
    """
    low = high = 0
    repeats = False
    for code in codes:
        card = deck.find(code) if isinstance(code, str) else -1
        if card < 0:
            known_cards(deck, codes)  # raises LOG-CARD naming the unknown code
        bit = 1 << HALF_POS[card]
        if card < SPLIT:
            repeats = repeats or low & bit != 0
            low |= bit
        else:
            repeats = repeats or high & bit != 0
            high |= bit
    return low, high, repeats


def _half_weight(half: int, first: int, weights: tuple[int, ...]) -> int:
    """The sum of ``weights`` over the cards of one half of a hand (``first``: the card of its
    bit 0)."""
    total = 0
    while half:
        low = half & -half
        total += weights[first + low.bit_length() - 1]
        half ^= low
    return total


@dataclass(slots=True, init=False)
class SplitHandsState(GameState):
    """A state with up to eight seats whose hands are split in two native halves."""

    low0: i64
    low1: i64
    low2: i64
    low3: i64
    low4: i64
    low5: i64
    low6: i64
    low7: i64
    high0: i64
    high1: i64
    high2: i64
    high3: i64
    high4: i64
    high5: i64
    high6: i64
    high7: i64

    def __init__(
        self, game_id: str, kind: str, n: int, seq: int = 0, last: Event | None = None
    ) -> None:
        GameState.__init__(self, game_id, kind, n, seq, last)
        self.low0 = self.low1 = self.low2 = self.low3 = 0
        self.low4 = self.low5 = self.low6 = self.low7 = 0
        self.high0 = self.high1 = self.high2 = self.high3 = 0
        self.high4 = self.high5 = self.high6 = self.high7 = 0

    def low(self, seat: int) -> i64:
        """The low half of ``seat``'s hand (cards below SPLIT)."""
        if seat >= self.n:  # compiled, one comparison here costs less than a call
            raise IndexError(seat)
        if seat == 0:
            return self.low0
        if seat == 1:
            return self.low1
        if seat == 2:
            return self.low2
        if seat == 3:
            return self.low3
        if seat == 4:
            return self.low4
        if seat == 5:
            return self.low5
        if seat == 6:
            return self.low6
        if seat == 7:
            return self.low7
        raise IndexError(seat)

    def high(self, seat: int) -> i64:
        """The high half of ``seat``'s hand (cards from SPLIT on, shifted down by SPLIT)."""
        if seat >= self.n:
            raise IndexError(seat)
        if seat == 0:
            return self.high0
        if seat == 1:
            return self.high1
        if seat == 2:
            return self.high2
        if seat == 3:
            return self.high3
        if seat == 4:
            return self.high4
        if seat == 5:
            return self.high5
        if seat == 6:
            return self.high6
        if seat == 7:
            return self.high7
        raise IndexError(seat)

    def set_low(self, seat: int, low: i64) -> None:
        """Make ``low`` the low half of ``seat``'s hand."""
        if seat >= self.n:
            raise IndexError(seat)
        if seat == 0:
            self.low0 = low
        elif seat == 1:
            self.low1 = low
        elif seat == 2:
            self.low2 = low
        elif seat == 3:
            self.low3 = low
        elif seat == 4:
            self.low4 = low
        elif seat == 5:
            self.low5 = low
        elif seat == 6:
            self.low6 = low
        elif seat == 7:
            self.low7 = low
        else:
            raise IndexError(seat)

    def set_high(self, seat: int, high: i64) -> None:
        """Make ``high`` the high half of ``seat``'s hand."""
        if seat >= self.n:
            raise IndexError(seat)
        if seat == 0:
            self.high0 = high
        elif seat == 1:
            self.high1 = high
        elif seat == 2:
            self.high2 = high
        elif seat == 3:
            self.high3 = high
        elif seat == 4:
            self.high4 = high
        elif seat == 5:
            self.high5 = high
        elif seat == 6:
            self.high6 = high
        elif seat == 7:
            self.high7 = high
        else:
            raise IndexError(seat)

    def clear_hands(self) -> None:
        """Empty every hand."""
        self.low0 = self.low1 = self.low2 = self.low3 = 0
        self.low4 = self.low5 = self.low6 = self.low7 = 0
        self.high0 = self.high1 = self.high2 = self.high3 = 0
        self.high4 = self.high5 = self.high6 = self.high7 = 0

    def hand(self, seat: int) -> int:
        """The bit set of ``seat``'s hand (deck indices)."""
        high: int = self.high(seat)  # ints, not i64: the hand goes past 64 bits (compiled,
        low: int = self.low(seat)  # `int op i64` is an i64 operation)
        return high << SPLIT | low

    @property
    def hands(self) -> list[int]:
        """Every seat's hand as one bit set (a new list: changing it changes no hand)."""
        return [self.hand(seat) for seat in range(self.n)]

    def set_hand(self, seat: int, hand: int) -> None:
        """Make the bit set ``hand`` ``seat``'s hand."""
        self.set_low(seat, hand & LOW_HALF)
        self.set_high(seat, hand >> SPLIT)

    def holds(self, seat: int, card: int) -> bool:
        """Whether ``seat``'s hand holds ``card`` (one half read, no long int built)."""
        half = self.low(seat) if card < SPLIT else self.high(seat)
        return half >> HALF_POS[card] & 1 != 0

    def remove(self, seat: int, card: int) -> bool:
        """Take ``card`` out of ``seat``'s hand: whether the hand is empty then."""
        bit: i64 = placed(1, HALF_POS[card], 1)
        if card < SPLIT:
            low = self.low(seat) & ~bit
            self.set_low(seat, low)
            return not low and not self.high(seat)
        high = self.high(seat) & ~bit
        self.set_high(seat, high)
        return not high and not self.low(seat)

    def weight(self, seat: int, weights: tuple[int, ...]) -> int:
        """The sum of ``weights`` (one per card of the deck) over the cards of ``seat``'s hand,
        read one half at a time (no long int built)."""
        low = _half_weight(self.low(seat), 0, weights)
        return low + _half_weight(self.high(seat), SPLIT, weights)

    def an_empty_hand(self) -> bool:
        """Whether some seat's hand is empty."""
        for seat in range(self.n):  # noqa: SIM110 (a loop compiles to tighter code)
            if not self.low(seat) and not self.high(seat):
                return True
        return False
