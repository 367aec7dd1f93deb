"""The row-by-row loops of the column decoder (:mod:`replay.decode` does the numpy part).

Compiled by mypyc with the rules engine: a loop here runs as C over Python lists, tuples and
bytes.

A decoded column is a :class:`Column`: the distinct values once, and each row's index into them
as one or two bytes, so building an event reads a byte and a list item per field, with nothing
allocated per cell and no intermediate list of the column's values.

>>> column = Column(BYTES, ["play", "deal", None], bytes([1, 0, 0, 2]))
>>> column.at(0), column.at(3), column.rows(1, 3)
('deal', None, ['play', 'play'])
>>> list_cells(bytes([0, 3, 0, 0, 1]), ("2C", "QS"))
[None, ('2C', 'QS'), None, None, ()]
>>> column_tuple(Column(BYTES, ["2C", "QS"], bytes([1, 1, 0])), 3)
('QS', 'QS', '2C')
"""

from __future__ import annotations

from typing import Any, Final, final

from mypy_extensions import i64

#: The forms of a :class:`Column`: how row ``i`` finds its value.
CONSTANT: Final[i64] = 0  # values[0], whatever the row
BYTES: Final[i64] = 1  # values[codes[i]]
SHORTS: Final[i64] = 2  # values[codes[2i] + 256 * codes[2i + 1]] (little-endian uint16 codes)
LISTED: Final[i64] = 3  # values[i]


@final
class Column:
    """One decoded column of a table (rows ``0 .. len - 1``).

    ``form`` says how row ``i`` finds its value in ``values`` (see :data:`BYTES` and the
    others); ``codes`` are the rows' indices for the coded forms. A listed column of lists may
    also have codes, unused by :meth:`at`: a byte per row, 0 where the row is null.
    """

    __slots__ = ("codes", "form", "values")

    def __init__(self, form: i64, values: list[Any], codes: bytes = b"") -> None:
        self.form = form
        self.values = values
        self.codes = codes

    def at(self, row: i64) -> Any:
        """The value of one row."""
        form = self.form
        if form == BYTES:
            code: i64 = self.codes[row]
            return self.values[code]
        if form == CONSTANT:
            return self.values[0]
        if form == LISTED:
            return self.values[row]
        low: i64 = self.codes[2 * row]
        high: i64 = self.codes[2 * row + 1]
        return self.values[low | (high << 8)]

    def rows(self, start: int, stop: int) -> list[Any]:
        """The values of rows ``start`` to ``stop`` as a list."""
        if self.form == LISTED:
            return self.values[start:stop]
        if self.form == CONSTANT:
            return [self.values[0]] * max(0, stop - start)
        return [self.at(row) for row in range(start, stop)]


def column_tuple(column: Column, size: i64) -> tuple[Any, ...]:
    """The values of rows ``0 .. size - 1`` in a tuple (one-byte codes: a native loop over
    them, a byte read and a list item per row, into a list allocated once at its size)."""
    if column.form != BYTES or len(column.codes) != size:
        return tuple(column.rows(0, size))
    codes = column.codes
    values = column.values
    rows: list[Any] = [None] * size
    row: i64 = 0
    while row < size:
        code: i64 = codes[row]
        rows[row] = values[code]
        row += 1
    return tuple(rows)


def list_cells(counts: bytes, elements: tuple[Any, ...]) -> list[tuple[Any, ...] | None]:
    """The cells of a list column: one per byte of ``counts``, ``None`` where it is 0, else
    the tuple of the next ``count - 1`` elements of ``elements`` (every valid row's elements
    end to end). Each cell is one slice of the tuple: one allocation per cell, and a byte read
    per row.
    """
    size: i64 = len(counts)
    cells: list[tuple[Any, ...] | None] = [None] * size
    row: i64 = 0
    at: i64 = 0
    while row < size:
        count: i64 = counts[row]
        if count:
            end = at + count - 1
            cells[row] = elements[at:end]
            at = end
        row += 1
    return cells
