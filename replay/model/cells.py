"""The row-by-row loops of the column decoder (:mod:`replay.model.decode` does the numpy part).

Compiled by mypyc with the rules engine: a loop here runs as C over Python lists, tuples and
bytes.

A decoded column is a :class:`Column`: the distinct values once, and each row's index into them
as one or two bytes, so building an event reads a byte and a list item per field, with nothing
allocated per cell and no intermediate list of the column's values.

>>> column = Column(BYTES, ["play", "deal", None], bytes([1, 0, 0, 2]))
>>> column.at(0), column.at(3), column.rows(1, 3)
('deal', None, ['play', 'play'])
>>> lists = Column(CUT, [], bytes([0, 3, 0, 0, 1, 2]), ("2C", "QS", "AH"), [0])
>>> lists.at(1), lists.at(5), lists.rows(0, 5)
(('2C', 'QS'), ('AH',), [None, ('2C', 'QS'), None, None, ()])
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
CUT: Final[i64] = 4  # a tuple of codes[i] - 1 items of elements (None when codes[i] is 0)

#: A :data:`CUT` column keeps the position in ``elements`` of every row that is a multiple of
#: ``1 << MARK_SHIFT``: finding any row's items reads at most that many count bytes.
MARK_SHIFT: Final[i64] = 4


@final
class Column:
    """One decoded column of a table (rows ``0 .. len - 1``).

    ``form`` says how row ``i`` finds its value in ``values`` (see :data:`BYTES` and the
    others); ``codes`` are the rows' indices for the coded forms. A list column is cut from
    ``elements`` (every valid row's items end to end) only when a row is read: ``codes`` has one
    byte per row, 0 for a null row, else its length + 1, and ``marks`` where every
    ``1 << MARK_SHIFT``-th row's items begin (form :data:`CUT`). Its cells are then never all
    alive at once: each is built when read and freed when its reader lets go. A listed column of
    lists (longer than a count byte holds) also has codes, unused by :meth:`at`: a byte per
    row, 0 where the row is null.
    """

    __slots__ = ("codes", "elements", "form", "marks", "values")

    def __init__(
        self,
        form: i64,
        values: list[Any],
        codes: bytes = b"",
        elements: tuple[Any, ...] = (),
        marks: list[int] | None = None,
    ) -> None:
        self.form = form
        self.values = values
        self.codes = codes
        self.elements = elements
        self.marks: list[int] = marks if marks is not None else []

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
        if form == CUT:
            count: i64 = self.codes[row]
            if not count:
                return None
            first = self.first_item(row)
            return self.elements[first : first + count - 1]
        low: i64 = self.codes[2 * row]
        high: i64 = self.codes[2 * row + 1]
        return self.values[low | (high << 8)]

    def first_item(self, row: i64) -> i64:
        """Where row ``row``'s items begin in ``elements`` (a :data:`CUT` column)."""
        first: i64 = self.marks[row >> MARK_SHIFT]
        codes = self.codes
        before: i64 = (row >> MARK_SHIFT) << MARK_SHIFT
        while before < row:
            count: i64 = codes[before]
            if count:
                first += count - 1
            before += 1
        return first

    def rows(self, start: int, stop: int) -> list[Any]:
        """The values of rows ``start`` to ``stop`` as a list."""
        if self.form == LISTED:
            return self.values[start:stop]
        if self.form == CONSTANT:
            return [self.values[0]] * max(0, stop - start)
        if self.form == CUT:
            return self._cut_rows(start, stop)
        return [self.at(row) for row in range(start, stop)]

    def _cut_rows(self, start: i64, stop: i64) -> list[Any]:
        """:meth:`rows` of a :data:`CUT` column: the rows' items cut in one pass."""
        if start >= stop:
            return []
        cells: list[Any] = [None] * (stop - start)
        codes = self.codes
        elements = self.elements
        first = self.first_item(start)
        row: i64 = start
        while row < stop:
            count: i64 = codes[row]
            if count:
                end = first + count - 1
                cells[row - start] = elements[first:end]
                first = end
            row += 1
        return cells


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


def counts_up(column: Column, start: i64, stop: i64) -> bool:
    """Whether rows ``start`` to ``stop`` hold 0, 1, 2... (an integer column), each row's
    value unboxed and compared natively: through :meth:`Column.at`, a row costs five times
    as much.

    >>> counts_up(Column(BYTES, [None, 0, 1, 2], bytes([3, 1, 2, 3])), 1, 4)
    True
    >>> counts_up(Column(BYTES, [None, 0, 1, 2], bytes([1, 3, 2])), 0, 3)
    False
    """
    form = column.form
    if form != BYTES and form != SHORTS:
        return all(column.at(row) == row - start for row in range(start, stop))
    codes = column.codes
    values = column.values
    row: i64 = start
    while row < stop:
        if form == BYTES:
            code: i64 = codes[row]
        else:
            low: i64 = codes[2 * row]
            high: i64 = codes[2 * row + 1]
            code = low | (high << 8)
        value = values[code]
        if not isinstance(value, int):
            return False
        number: i64 = value
        if number != row - start:
            return False
        row += 1
    return True
