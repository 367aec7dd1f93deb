"""Small value helpers of the games, written for the compiled build (mypyc): loops in place of
the generic builtins ``max``, ``min`` and ``all``, a comparison of optional numbers that stays
native, a per-seat tuple with one entry changed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

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


def all_recorded(values: Sequence[int]) -> bool:
    """Whether every seat's entry of a per-seat tuple or list is set (``-1``: not yet recorded).

    A loop rather than ``min(values) >= 0``: compiled, ``min`` is a generic builtin call.

    >>> all_recorded((3, 0, 8)), all_recorded((3, -1, 8))
    (True, False)
    """
    for value in values:  # noqa: SIM110 (a loop compiles to tighter code)
        if value < 0:
            return False
    return True


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
