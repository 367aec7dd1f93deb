"""The row-by-row loops of the column decoder (:mod:`replay.decode` does the numpy part).

Compiled by mypyc with the rules engine: a loop here runs as C over Python lists and tuples.

>>> list_cells(5, [2, 3], [2, 0], ("2C", "QS"))
[None, ('2C', 'QS'), None, None, ()]
"""

from __future__ import annotations

from typing import Any


def list_cells(
    size: int, gaps: list[int], lengths: list[int], elements: tuple[Any, ...]
) -> list[tuple[Any, ...] | None]:
    """``size`` cells, ``None`` but for the valid rows of a list column, each the tuple of its
    elements.

    The valid rows come in order, each ``gaps[i]`` rows after the one before (the first one
    after row -1), with ``lengths[i]`` elements; ``elements`` holds every valid row's elements
    end to end. Gaps and lengths are small numbers (shared ``int`` objects), and each cell is
    one slice of the tuple: one allocation per cell.
    """
    cells: list[tuple[Any, ...] | None] = [None] * size
    row = -1
    at = 0
    for i in range(len(gaps)):
        row += gaps[i]
        end = at + lengths[i]
        cells[row] = elements[at:end]
        at = end
    return cells
