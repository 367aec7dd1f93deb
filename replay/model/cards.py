"""Card codes, decks and bit sets.

Every game names its cards with short readable codes (``QS``, ``7O``, ``R12``...) in logs and
messages, and works internally with small integers so that a hand is one Python ``int`` used as a
bit set. A :class:`Deck` maps between the two.

>>> deck = Deck(["2C", "3C", "4C"])
>>> hand = deck.mask(["2C", "4C"])
>>> deck.codes(hand)
['2C', '4C']
>>> popcount(hand)
2
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Final

from mypy_extensions import i64

from replay.model.packed import CARD_BITS, nth, placed


class UnknownCard(ValueError):
    """A card code that does not belong to the deck in use."""

    def __init__(self, code: object, deck_name: str = "deck") -> None:
        super().__init__(f"unknown card code {code!r} for the {deck_name}")
        self.code = code


#: True when this module runs compiled by mypyc (see setup.py).
COMPILED: Final = not __file__.endswith(".py")


#: Bits of a non-negative int that mypyc keeps native (unboxed).
_NATIVE_BITS: Final = 62
_NATIVE_MASK: Final = (1 << _NATIVE_BITS) - 1


def popcount(mask: int) -> int:
    """Number of cards in a bit set."""
    if COMPILED and mask >= 0 and mask >> _NATIVE_BITS == 0:
        # Clearing the low bit of a C int64 a few times costs less than the method call
        # (int.bit_count is not a compiled primitive); i64, not int: no tag checks per step.
        rest: i64 = mask
        n: i64 = 0
        while rest:
            rest &= rest - 1
            n += 1
        return n
    return mask.bit_count()


def bits(mask: int) -> Iterator[int]:
    """Yield the card indices of a bit set, lowest first.

    >>> list(bits(0b10110))
    [1, 2, 4]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def lowest(mask: int) -> int:
    """Index of the lowest card of a non-empty bit set."""
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    """Index of the highest card of a non-empty bit set."""
    return mask.bit_length() - 1


def repeated(codes: Iterable[str]) -> list[str]:
    """The codes that appear more than once, in order of their second appearance.

    >>> repeated(["2C", "QS", "2C", "AH", "QS"])
    ['2C', 'QS']
    """
    seen: set[str] = set()
    twice: list[str] = []
    for code in codes:
        if code in seen:
            twice.append(code)
        seen.add(code)
    return twice


def _identity_table(codes: tuple[str, ...]) -> tuple[i64, list[str | None], bytes]:
    """The table of :meth:`Deck.find`: its slot mask, each slot's code (``None``: empty) and
    each slot's card index. Open addressing on the codes' identity, a quarter full at most."""
    size: i64 = 1
    while size < 4 * len(codes) and len(codes) <= 0xFF:  # past 255 cards, find uses the dict
        size *= 2
    keys: list[str | None] = [None] * size
    cards = bytearray(size)
    for card, code in enumerate(codes if size > 1 else ()):
        slot = _identity_hash(code) & (size - 1)
        while keys[slot] is not None:
            slot = (slot + 1) & (size - 1)
        keys[slot] = code
        cards[slot] = card
    return size - 1, keys, bytes(cards)


def _identity_hash(code: object) -> i64:
    """A hash of an object's identity (its address, whose low 4 bits are always 0)."""
    ident: i64 = id(code)
    return (ident >> 4) ^ (ident >> 9)


class Deck:
    """An ordered list of distinct card codes; a card's index is its bit in a hand mask."""

    __slots__ = ("_cards", "_index", "_keys", "_last", "_slots", "full", "name", "order")

    def __init__(self, codes: Sequence[str], name: str = "deck") -> None:
        if len(set(codes)) != len(codes):
            raise ValueError(f"duplicate card codes in {name}")
        self.name = name
        #: Interned: decoded card codes are interned too, so lookups and comparisons with these
        #: codes succeed on the pointer (the games are imported before any decoding).
        self.order: tuple[str, ...] = tuple(sys.intern(c) for c in codes)
        self._index: dict[str, int] = {c: i for i, c in enumerate(self.order)}
        self._slots, self._keys, self._cards = _identity_table(self.order)
        self.full: int = (1 << len(codes)) - 1
        #: The last tuple given to :meth:`mask`, and its mask: an event's cards are masked when
        #: verified and again when applied. A tuple is immutable and held here, so its identity
        #: stands for its content; one pair, replaced at once (safe if threads share the deck).
        self._last: tuple[tuple[str, ...], int] = ((), 0)

    def __len__(self) -> int:
        return len(self.order)

    def __contains__(self, code: object) -> bool:
        return code in self._index

    def index(self, code: str) -> int:
        """Index of a card code; raises :class:`UnknownCard`."""
        try:
            card = self.find(code)
        except TypeError:  # unhashable
            raise UnknownCard(code, self.name) from None
        if card < 0:
            raise UnknownCard(code, self.name)
        return card

    def find(self, code: str) -> int:
        """Index of a card code, or -1 when it is not in the deck."""
        if not COMPILED:
            return self._index.get(code, -1)
        # Compiled, the code is first looked for by identity (decoded codes are interned like
        # the deck's) in a table with open addressing: about 50 instructions, against 150 for
        # the dict, which takes any other string (and any miss).
        keys = self._keys
        ident: i64 = id(code)  # _identity_hash, written out (a call costs a third more)
        slot: i64 = ((ident >> 4) ^ (ident >> 9)) & self._slots
        while True:
            if keys[slot] is code:
                return self._cards[slot]
            if keys[slot] is None:
                return self._index.get(code, -1)
            slot = (slot + 1) & self._slots

    def bit(self, code: str) -> int:
        """The one-card mask of a card code."""
        return 1 << self.index(code)

    def mask(self, codes: Iterable[str]) -> int:
        """The bit set of several card codes (duplicates collapse; check lengths if needed)."""
        last = self._last
        if codes is last[0]:
            return last[1]
        # A typed tuple: compiled, the loop indexes it directly instead of a generic iterator.
        items: tuple[str, ...] = codes if isinstance(codes, tuple) else tuple(codes)
        # Two halves of at most 62 bits, each a C int64 compiled (no long int built per card
        # in a deck past 62 cards, no tag checks per card); they are joined once.
        low: i64 = 0
        high: i64 = 0
        try:
            for c in items:
                i: i64 = self.find(c)
                if i < 0:
                    raise KeyError(c)
                if i < _NATIVE_BITS:
                    low |= placed(1, i, 1)
                else:
                    high |= placed(1, i - _NATIVE_BITS, 1)
        except (KeyError, TypeError):  # TypeError: not a str (compiled) or unhashable
            given: tuple[object, ...] = items  # compiled, each item is then left unchecked
            bad = next(c for c in given if not isinstance(c, str) or c not in self)
            raise UnknownCard(bad, self.name) from None
        m: int = low
        if high:
            top: int = high  # an int before the shift: past 63 bits
            m |= top << _NATIVE_BITS
        self._last = (items, m)
        return m

    def code(self, index: int) -> str:
        """Card code of an index."""
        return self.order[index]

    def codes_of(self, cards: Iterable[int]) -> tuple[str, ...]:
        """Card codes of several indices, in their order.

        >>> Deck(["2C", "3C", "4C"]).codes_of((2, 0))
        ('4C', '2C')
        """
        order = self.order
        codes = []
        for card in cards:
            codes.append(order[card])
        return tuple(codes)

    def matches_packed(self, codes: tuple[str, ...], cards: i64, count: i64) -> bool:
        """Whether ``codes`` are the codes of the ``count`` cards packed in ``cards``
        (:mod:`replay.model.packed`, ``CARD_BITS`` each), in order.

        >>> from replay.model.packed import pack
        >>> Deck(["2C", "3C", "4C"]).matches_packed(("4C", "2C"), pack([2, 0], CARD_BITS), 2)
        True
        """
        if len(codes) != count:
            return False
        order = self.order
        for position in range(count):
            if codes[position] != order[nth(cards, position, CARD_BITS)]:
                return False
        return True

    def matches_mask(self, codes: tuple[str, ...], mask: int) -> bool:
        """Whether ``codes`` are the codes of the bit set ``mask`` in deck order (:meth:`codes`
        without building it).

        >>> Deck(["2C", "3C", "4C"]).matches_mask(("2C", "4C"), 0b101)
        True
        """
        order = self.order
        found = 0
        for card in range(len(order)):
            if mask >> card & 1:
                if found >= len(codes) or codes[found] != order[card]:
                    return False
                found += 1
        return found == len(codes) and mask >> len(order) == 0

    def codes(self, mask: int) -> list[str]:
        """Card codes of a bit set, in deck order.

        >>> Deck([f"C{i}" for i in range(90)]).codes(1 | 1 << 61 | 1 << 62 | 1 << 89)
        ['C0', 'C61', 'C62', 'C89']
        """
        order = self.order
        if not COMPILED or mask < 0:
            return [order[i] for i in bits(mask)]
        # Compiled: read in native pieces of 62 bits, bit by bit (the generator over the whole
        # int makes a new int per card, and a long one per card in a deck past 62 cards).
        out: list[str] = []
        base: i64 = 0
        while mask:
            piece: i64 = mask & _NATIVE_MASK
            index = base
            while piece:
                if piece & 1:
                    out.append(order[index])
                piece >>= 1
                index += 1
            mask >>= _NATIVE_BITS
            base += _NATIVE_BITS
        return out
