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

from collections.abc import Iterable, Iterator, Sequence


class UnknownCard(ValueError):
    """A card code that does not belong to the deck in use."""

    def __init__(self, code: object, deck_name: str = "deck") -> None:
        super().__init__(f"unknown card code {code!r} for the {deck_name}")
        self.code = code


def popcount(mask: int) -> int:
    """Number of cards in a bit set."""
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


class Deck:
    """An ordered list of distinct card codes; a card's index is its bit in a hand mask."""

    __slots__ = ("_bits", "_index", "full", "name", "order")

    def __init__(self, codes: Sequence[str], name: str = "deck") -> None:
        if len(set(codes)) != len(codes):
            raise ValueError(f"duplicate card codes in {name}")
        self.name = name
        self.order: tuple[str, ...] = tuple(codes)
        self._index: dict[str, int] = {c: i for i, c in enumerate(codes)}
        #: ``1 << i`` made once: masks past 62 bits (Fou!, Hiifuu) are not rebuilt per card.
        self._bits: tuple[int, ...] = tuple(1 << i for i in range(len(codes)))
        self.full: int = (1 << len(codes)) - 1

    def __len__(self) -> int:
        return len(self.order)

    def __contains__(self, code: object) -> bool:
        return code in self._index

    def index(self, code: str) -> int:
        """Index of a card code; raises :class:`UnknownCard`."""
        try:
            return self._index[code]
        except (KeyError, TypeError):
            raise UnknownCard(code, self.name) from None

    def bit(self, code: str) -> int:
        """The one-card mask of a card code."""
        return 1 << self.index(code)

    def mask(self, codes: Iterable[str]) -> int:
        """The bit set of several card codes (duplicates collapse; check lengths if needed)."""
        if not isinstance(codes, (list, tuple)):
            codes = tuple(codes)  # read twice when a code is unknown
        index = self._index
        bits = self._bits
        m = 0
        try:
            for c in codes:
                m |= bits[index[c]]
        except (KeyError, TypeError):  # TypeError: not a str (compiled) or unhashable
            bad = next(c for c in codes if not isinstance(c, str) or c not in self)
            raise UnknownCard(bad, self.name) from None
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

    def codes(self, mask: int) -> list[str]:
        """Card codes of a bit set, in deck order."""
        return [self.order[i] for i in bits(mask)]
