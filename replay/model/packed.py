"""Short sequences of small non-negative ints packed in one native int: a trick's cards and the
seats that played them.

A trick changes at every play. Kept in lists, each trick would empty and regrow them (compiled,
an append may reallocate and each item is a boxed int). Packed ``width`` bits per value in an
``i64`` (compiled by mypyc, a C int64: native shifts, nothing allocated), a play is one ``|=``
and a new trick is ``0``. A sequence holds at most ``64 // width`` values: 9 cards, 21 seats.

>>> cards = pack([85, 3], CARD_BITS)
>>> cards == placed(85, 0, CARD_BITS) | placed(3, 1, CARD_BITS)
True
>>> unpack(cards, 2, CARD_BITS), nth(cards, 1, CARD_BITS), holds(cards, 2, CARD_BITS, 85)
([85, 3], 3, True)
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

CARD_BITS: Final[i64] = 7  # a deck index: every deck has fewer than 128 cards
SEAT_BITS: Final[i64] = 3  # a seat: at most eight players


def nth(packed: i64, position: i64, width: i64) -> i64:
    """The value at ``position`` (from 0) of ``width`` bits each in ``packed``."""
    shifted = packed >> position * width
    # The low ``width`` bits, without `1 << width` (mypyc 2.4 compiles a shifted literal 1 as a
    # 32-bit C int).
    return shifted - (shifted >> width << width)


def placed(value: i64, position: i64, width: i64) -> i64:
    """``value`` moved to ``position`` (``packed |= placed(...)`` appends at ``position``)."""
    return value << position * width


def unpack(packed: i64, count: i64, width: i64) -> list[int]:
    """The first ``count`` values, as a list."""
    return [nth(packed, position, width) for position in range(count)]


def pack(values: list[int], width: i64) -> i64:
    """``values`` packed in order (the inverse of :func:`unpack`)."""
    packed: i64 = 0
    for position in range(len(values)):
        packed |= placed(values[position], position, width)
    return packed


def holds(packed: i64, count: i64, width: i64, value: i64) -> bool:
    """Whether ``value`` is among the first ``count`` values."""
    for position in range(count):  # noqa: SIM110 (a loop compiles to tighter code)
        if nth(packed, position, width) == value:
            return True
    return False
