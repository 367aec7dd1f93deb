"""Fast Arrow -> Python decoding of the event table's columns (the bulk of a store read).

``column.to_pylist()`` builds one Python object per cell: a new ``str`` for every repeated
``game_id``, ``kind`` or card code, and a list per ``cards`` row. Here each column becomes a
:class:`~replay.model.cells.Column`: its distinct values, decoded once (strings interned,
integers one object per value), and each row's index into them as one or two bytes. String
columns are coded by their dictionary (read so from Parquet:
``EventStore.scan(dictionary=True)``); a large dictionary (``game_id``, ``data``) decodes only
the values the rows use. Integer columns are coded by their range. List columns decode their
elements once; a compiled loop (:mod:`replay.model.cells`) cuts each row's tuple from them.
Events are then built straight from the codes (:func:`replay.model.events.events_from_columns`),
with no list of each column's values.

Input: any table whose columns hold :data:`replay.model.events.SCHEMA`'s values; string columns may
also be ``large_string`` or dictionary-typed, list columns ``large_list``, and columns may have
several chunks or come from a sliced table.

>>> from replay.model.events import Event, events_to_table
>>> table = events_to_table([
...     Event("g1", 0, "hearts", "deal", player=0, cards=("2C", "QS")),
...     Event("g1", 1, "hearts", "play", player=0, card="QS"),
... ])
>>> columns = decode_columns(table)
>>> columns[0], columns[8], columns[9]
(['g1', 'g1'], [None, 'QS'], [('2C', 'QS'), None])
>>> columns[0][0] is columns[0][1]
True
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from replay.model.cells import (
    BYTES,
    CONSTANT,
    CUT,
    LISTED,
    MARK_SHIFT,
    SHORTS,
    Column,
    column_tuple,
)
from replay.model.events import COLUMNS, Event, events_from_columns

__all__ = [
    "Column",
    "decode_columns",
    "decode_table",
    "dictionary_indices",
    "paused_gc",
    "row_changes",
    "run_starts",
    "values_at",
]


def decode_table(table: pa.Table, skip: Collection[str] = ()) -> list[Column]:
    """The table's columns, in :data:`~replay.model.events.COLUMNS` order, as :class:`Column`
    objects
    (each distinct value decoded once, each row a one- or two-byte index into them).

    The values are those of ``column.to_pylist()`` except that list cells are tuples: ``None``
    for nulls, ``str``, ``int``, ``tuple`` for ``cards`` and ``values``, ``datetime`` for ``ts``.
    The columns named in ``skip`` are not read: all ``None``.
    """
    with paused_gc():
        return [
            Column(CONSTANT, [None]) if name in skip else _decode_column(table.column(name))
            for name in COLUMNS
        ]


def events_from_table(table: pa.Table) -> list[Event]:
    """Convert an Arrow table in :data:`~replay.model.events.SCHEMA` (any row order) to events,
    as stored."""
    with paused_gc():  # events hold no cycles: the collector would only slow the build
        return events_from_columns(decode_table(table), 0, table.num_rows)


def decode_columns(table: pa.Table, skip: Collection[str] = ()) -> list[list[Any]]:
    """The table's columns (see :func:`decode_table`) as Python lists."""
    with paused_gc():
        return [column.rows(0, table.num_rows) for column in decode_table(table, skip)]


def row_changes(columns: list[Column], rows: int) -> bytes:
    """Which cells of each row may differ from the row before: two bytes per row
    (little-endian), bit ``i`` for ``columns[i]`` (at most 16 columns); every bit on the first
    row. A coded column's bit is on where its code changes; a list column's where either row
    is not null (from its count bytes); any other listed column's everywhere; a constant
    column's nowhere. :func:`replay.model.events.visit_rows` then refills only those fields of its
    event.

    >>> from replay.model.events import Event, events_to_table
    >>> table = events_to_table([
    ...     Event("g1", 0, "hearts", "deal", player=0, cards=("2C", "QS")),
    ...     Event("g1", 1, "hearts", "play", player=0, card="QS"),
    ...     Event("g1", 2, "hearts", "play", player=1, card="2C"),
    ... ])
    >>> changes = row_changes(decode_table(table), table.num_rows)
    >>> [f"{changes[2 * row] | changes[2 * row + 1] << 8:016b}" for row in range(3)]
    ['1111111111111111', '0000001100001010', '0000000101000010']
    """
    if len(columns) > 16:
        raise ValueError("row_changes takes at most 16 columns")
    if not rows:
        return b""
    bits = np.zeros(rows, dtype="<u2")
    changed = np.empty(rows - 1, dtype=np.bool_)
    bit = np.empty(rows - 1, dtype="<u2")
    for index, column in enumerate(columns):
        if column.form == CONSTANT:
            continue
        if not _differs(column, rows, changed):
            changed.fill(True)
        np.multiply(changed, np.uint16(1 << index), out=bit)  # numpy's fastest way here
        np.bitwise_or(bits[1:], bit, out=bits[1:])
    bits[0] = 0xFFFF
    return bits.tobytes()


def _differs(column: Column, rows: int, out: NDArray[np.bool_]) -> bool:
    """Into ``out``, whether each row's cell after the first may differ from the one before
    (``rows`` in all); False when the column cannot tell (every cell may differ)."""
    if column.form == BYTES or column.form == SHORTS:
        codes = np.frombuffer(column.codes, dtype=np.uint8 if column.form == BYTES else "<u2")
        np.not_equal(codes[1:], codes[:-1], out=out)
        return True
    if len(column.codes) != rows:  # listed, with no null marks
        return False
    present = np.frombuffer(column.codes, dtype=np.bool_)  # lists: 0 where the row is null
    np.logical_or(present[1:], present[:-1], out=out)
    return True


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector for a bulk decode (restored after, if it was on).

    Decoding creates only acyclic containers (lists, and tuples of str, int or None), so a
    collection can free nothing, yet every 700 new tuples trigger one, which costs more than
    building the tuples (about 90 vs 40 ns per ``cards`` tuple). Reference counting still frees
    everything as usual.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _decode_column(column: pa.ChunkedArray[Any]) -> Column:
    """One column (see :func:`decode_table`).

    >>> _decode_column(pa.chunked_array([["a", None], ["a"]])).rows(0, 3)
    ['a', None, 'a']
    >>> _decode_column(pa.chunked_array([[[1, 2], None, []]])).rows(0, 3)
    [(1, 2), None, ()]
    """
    kind = column.type
    if column.null_count == len(column):
        return Column(CONSTANT, [None])
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        return _decode_lists(column)
    if _is_text(kind) or pa.types.is_dictionary(kind):
        return _decode_text(column)
    if pa.types.is_integer(kind):
        return _decode_integers(column)
    if (len(column) - column.null_count) * SPARSE < len(column):
        return Column(LISTED, _sparse(column, _as_pylist))
    return Column(LISTED, column.to_pylist())


def _decode_integers(column: pa.ChunkedArray[Any]) -> Column:
    """An integer column (nulls allowed): coded into the range of its values (one ``int``
    object per distinct value, shared by the rows), or listed when the range is too wide.
    Computed in numpy on Arrow's buffers: a handful of calls, whatever the number of rows.

    >>> rows = _decode_integers(pa.chunked_array([[1000, None], [1001, 1000]]))
    >>> rows.form == BYTES, rows.rows(0, 4)
    (True, [1000, None, 1001, 1000])
    >>> rows.at(0) is rows.at(3)
    True
    """
    numbers, valid = _integers(column)
    # The range of every slot, the null rows' included (Arrow leaves them 0 or another stray
    # value): no copy of the valid values, unless a stray value widens the range past a byte.
    low, high = int(numbers.min()), int(numbers.max())
    if valid is not None and high - low + 2 > 1 << 8:
        present = numbers[valid]
        low, high = int(present.min()), int(present.max())
    coding = _code_type(high - low + 2)  # the range, and the null rows' slot
    if coding is None:
        return Column(LISTED, column.to_pylist())
    form, kind = coding
    # value - low + 1, computed in the code's own width: wrapping arithmetic is exact, as every
    # valid value lies in the range (and the work is on 1 or 2 bytes per row, not 8); then the
    # null rows' codes (whatever their slots held) multiplied by 0: the None in front.
    codes: NDArray[Any] = numbers.astype(kind)
    codes -= np.array((low - 1) % (1 << 8 * kind.itemsize), dtype=kind)
    if valid is not None:
        codes *= valid
    return Column(form, [None, *range(low, high + 1)], codes.tobytes())


def _integers(column: pa.ChunkedArray[Any]) -> tuple[NDArray[Any], NDArray[np.bool_] | None]:
    """A non-empty integer column's values in its own integer type (anything in null rows)
    and which rows are valid (``None`` when all are), read from each chunk's buffers.

    >>> numbers, valid = _integers(pa.chunked_array([[7, None], [-2]], pa.int8()))
    >>> numbers[valid].tolist(), valid.tolist()
    ([7, -2], [True, False, True])
    """
    chunks = [chunk for chunk in column.chunks if len(chunk)]
    numbers = _joined([_chunk_numbers(chunk) for chunk in chunks])
    if not column.null_count:
        return numbers, None
    return numbers, _joined([_chunk_validity(chunk) for chunk in chunks])


def _chunk_numbers(chunk: Any) -> NDArray[Any]:
    """A primitive chunk's values buffer as numpy (no copy), its null rows included."""
    kind = np.dtype(chunk.type.to_pandas_dtype())
    buffer = chunk.buffers()[1]
    if buffer is None:  # Arrow may leave out the values of an all-null chunk
        return np.zeros(len(chunk), dtype=kind)
    start = chunk.offset
    return np.frombuffer(buffer, dtype=kind, count=start + len(chunk))[start:]


def _chunk_validity(chunk: Any) -> NDArray[np.bool_]:
    """Which rows of a chunk are not null."""
    if not chunk.null_count:
        return np.ones(len(chunk), dtype=np.bool_)
    bits = np.frombuffer(chunk.buffers()[0], dtype=np.uint8)
    start = chunk.offset
    valid = np.unpackbits(bits, count=start + len(chunk), bitorder="little")[start:]
    return valid.view(np.bool_)


def _coded(values: list[Any], codes: NDArray[Any]) -> Column:
    """A column of the rows ``values[codes[i]]``, coded on as few bytes as the values need."""
    coding = _code_type(len(values))
    if coding is None:
        lookup = np.fromiter(values, dtype=object, count=len(values))
        return Column(LISTED, _as_list(lookup[codes]))
    form, kind = coding
    return Column(form, values, codes.astype(kind, copy=False).tobytes())


def _code_type(count: int) -> tuple[int, np.dtype[Any]] | None:
    """The form and numpy type of codes into ``count`` values: one byte, two (little-endian),
    or None when two bytes cannot number them (a listed column)."""
    if count <= 1 << 8:
        return BYTES, np.dtype(np.uint8)
    if count <= 1 << 16:
        return SHORTS, np.dtype("<u2")
    return None


def _sparse(
    column: pa.ChunkedArray[Any], decode: Callable[[pa.ChunkedArray[Any]], list[Any]]
) -> list[Any]:
    """A mostly-null column: only its valid cells decoded, then placed among Nones."""
    positions = np.flatnonzero(_validity(column))
    return _scatter(len(column), positions, decode(column.drop_null()))


def _as_pylist(column: pa.ChunkedArray[Any]) -> list[Any]:
    return column.to_pylist()


def _is_text(kind: pa.DataType) -> bool:
    """Whether a type is ``string`` or ``large_string``."""
    return bool(pa.types.is_string(kind) or pa.types.is_large_string(kind))


def _decode_text(column: pa.ChunkedArray[Any]) -> Column:
    """A string column (plain or dictionary-encoded) coded by its dictionary; a large
    dictionary (a Parquet batch's ``game_id`` dictionary holds every game of its row group)
    decodes only the values the rows use.

    >>> _decode_text(pa.chunked_array([["b", None, "b"]])).rows(0, 3)
    ['b', None, 'b']
    """
    if _is_text(column.type) and column.null_count * 2 > len(column):
        return _mostly_null(column)
    codes, dictionary = dictionary_indices(column)
    if len(dictionary) < 1 << 8:
        return _coded(_dictionary_values(dictionary), codes)
    starts = run_starts(codes)
    if len(starts) * RUN_LENGTH <= len(codes):  # in runs: one value per run
        lengths = np.diff(starts, append=len(codes))
        runs = np.repeat(np.arange(len(starts)), lengths)
        return _coded(values_at(dictionary, codes[starts]), runs)
    used, inverse = np.unique(codes, return_inverse=True)
    return _coded(values_at(dictionary, used), inverse)


def _mostly_null(column: pa.ChunkedArray[Any]) -> Column:
    """A plain string column of mostly nulls (``data``): its valid cells decoded (not hashed
    into a dictionary: they are seldom equal), each row coded by its valid cell's rank.

    >>> _mostly_null(pa.chunked_array([[None, "x", None], [None, "y"]])).rows(0, 5)
    [None, 'x', None, None, 'y']
    """
    positions = np.flatnonzero(_validity(column))
    codes = np.zeros(len(column), dtype=np.intp)
    codes[positions] = np.arange(1, len(positions) + 1)
    return _coded([None, *column.drop_null().to_pylist()], codes)


#: A large dictionary's column is coded run by run when its runs are this many rows long on
#: average.
RUN_LENGTH = 16


def _dictionary_values(dictionary: pa.Array[Any]) -> list[Any]:
    """The dictionary's values decoded and interned, then None (the null rows' slot)."""
    return [*map(_interned, dictionary.to_pylist()), None]


def run_starts(codes: NDArray[Any]) -> NDArray[np.intp]:
    """Where each run of equal codes begins (none for no codes).

    >>> run_starts(np.array([4, 4, -1, 4])).tolist()
    [0, 2, 3]
    """
    if not len(codes):
        return np.empty(0, dtype=np.intp)
    changes = np.flatnonzero(codes[1:] != codes[:-1])
    changes += 1
    return np.concatenate(([0], changes))


def dictionary_indices(column: pa.ChunkedArray[Any]) -> tuple[NDArray[Any], pa.Array[Any]]:
    """Each row's index in one dictionary shared by the chunks (``len(dictionary)`` for null
    rows), and that dictionary (not decoded: a slice may use few of its values)."""
    if pa.types.is_dictionary(column.type):
        one_chunk = column.num_chunks == 1  # a slice within one batch: nothing to unify
        encoded = column if one_chunk else column.unify_dictionaries()
    else:
        encoded = pc.dictionary_encode(column)
    chunks: list[Any] = list(encoded.chunks)  # DictionaryArray, one shared dictionary
    if not chunks:
        return np.empty(0, dtype=np.int32), pa.array([], pa.string())
    dictionary = chunks[0].dictionary
    return _joined([_indices(chunk, len(dictionary)) for chunk in chunks]), dictionary


def values_at(dictionary: pa.Array[Any], codes: NDArray[Any]) -> list[Any]:
    """The dictionary's values at ``codes`` (``len(dictionary)``: None), decoded and interned.

    >>> values_at(pa.array(["g1", "g2", "g3"]), np.array([2, 3, 0]))
    ['g3', None, 'g1']
    """
    nulls = codes == len(dictionary)
    values = dictionary.take(np.where(nulls, 0, codes)).to_pylist()
    return [None if null else _interned(v) for v, null in zip(values, nulls.tolist(), strict=True)]


def _interned(value: Any) -> Any:
    """``sys.intern`` for strings; other values as they are."""
    return sys.intern(value) if isinstance(value, str) else value


def _indices(chunk: Any, null_slot: int) -> NDArray[Any]:
    """A dictionary chunk's indices, ``null_slot`` for null rows (no copy when none is null)."""
    indices = _chunk_numbers(chunk.indices)
    if not chunk.null_count:
        return indices
    return np.where(_chunk_validity(chunk), indices, null_slot)


def _joined(arrays: list[NDArray[Any]]) -> NDArray[Any]:
    """The arrays end to end (the array itself when there is one: no copy)."""
    return arrays[0] if len(arrays) == 1 else np.concatenate(arrays)


def _as_list(objects: NDArray[Any]) -> list[Any]:
    """An array's items as a list (``tolist`` is typed ``Any``)."""
    return cast(list[Any], objects.tolist())


def _validity(column: pa.ChunkedArray[Any]) -> NDArray[np.bool_]:
    """Which rows of a (non-empty) column are not null."""
    return _joined([_chunk_validity(chunk) for chunk in column.chunks])


#: Below one valid row in this many, rows are placed by a Python loop (else through numpy).
SPARSE = 8


def _scatter(size: int, positions: NDArray[np.intp], values: Iterable[Any]) -> list[Any]:
    """A list of ``size`` Nones, with ``values`` (in order) at ``positions``.

    >>> _scatter(3, np.array([1, 2]), [(1,), ()])
    [None, (1,), ()]
    """
    if len(positions) * SPARSE < size:
        rows: list[Any] = [None] * size
        for position, value in zip(positions.tolist(), values, strict=True):
            rows[position] = value
        return rows
    dense = np.full(size, None, dtype=object)
    dense[positions] = np.fromiter(values, dtype=object, count=len(positions))
    return _as_list(dense)


def _decode_lists(column: pa.ChunkedArray[Any]) -> Column:
    """A list column: elements decoded once (each distinct value one object) and coded, put
    end to end in row order by a compiled loop (:func:`replay.model.cells.column_tuple`), each row's
    tuple cut from them when it is read (form ``CUT``, see :class:`~replay.model.cells.Column`).
    Lists too long for a count byte are cut here, into a listed column whose codes are one
    byte per row, 0 where the row is null (for :func:`row_changes`).

    >>> cells = _decode_lists(pa.chunked_array([[["a", "b"], None], [[], ["b"]]]))
    >>> cells.rows(0, 4), list(cells.codes)
    ([('a', 'b'), None, (), ('b',)], [3, 0, 1, 2])
    """
    chunks: list[Any] = [chunk for chunk in column.chunks if len(chunk)]  # ListArray
    used = [_used_elements(chunk) for chunk in chunks]
    elements = pa.chunked_array(used, type=column.type.value_type)
    codes, values = _element_codes(elements)
    rows, starts, lengths = _valid_rows(chunks)
    if int(lengths.sum()) != len(elements):  # null rows hold elements: keep the valid rows'
        codes = codes[_ranges(starts, lengths)]
    in_order = column_tuple(_coded(values, codes), len(codes))
    if len(lengths) and int(lengths.max()) >= LONG_LIST:  # a count per row would not fit a byte
        ends = np.cumsum(lengths).tolist()
        cells = (in_order[end - n : end] for end, n in zip(ends, lengths.tolist(), strict=True))
        present = np.zeros(len(column), dtype=np.uint8)
        present[rows] = 1
        return Column(LISTED, _scatter(len(column), rows, cells), present.tobytes())
    counts = np.zeros(len(column), dtype=np.uint8)  # per row: 0 when null, else length + 1
    counts[rows] = lengths + 1
    items = np.zeros(len(column), dtype=np.int64)
    items[rows] = lengths
    firsts = np.cumsum(items) - items  # where each row's items begin in ``in_order``
    marks = _as_list(firsts[:: 1 << MARK_SHIFT])
    return Column(CUT, [], counts.tobytes(), in_order, marks)


#: Lists of this many elements or more are cut by a Python loop when decoded (a :data:`CUT`
#: column keeps each row's length + 1 in one byte).
LONG_LIST = 255


def _ranges(starts: NDArray[np.int64], lengths: NDArray[np.int64]) -> NDArray[np.int64]:
    """The indices ``start, start + 1, ... start + length - 1`` of every range, end to end.

    >>> _ranges(np.array([5, 0, 9]), np.array([2, 0, 1])).tolist()
    [5, 6, 9]
    """
    ends = np.cumsum(lengths)
    return np.arange(int(ends[-1]) if len(ends) else 0) + np.repeat(
        starts - ends + lengths, lengths
    )


def _used_elements(chunk: Any) -> pa.Array[Any]:
    """The part of a list chunk's child array that its rows cover (a chunk may be a slice)."""
    offsets = chunk.offsets
    start = offsets[0].as_py()
    return cast("pa.Array[Any]", chunk.values.slice(start, offsets[-1].as_py() - start))


def _element_codes(elements: pa.ChunkedArray[Any]) -> tuple[NDArray[Any], list[Any]]:
    """The elements as codes into a list of their distinct values, decoded once (see
    :func:`dictionary_indices`; None last)."""
    kind = elements.type
    if _is_text(kind) or pa.types.is_integer(kind) or pa.types.is_dictionary(kind):
        codes, dictionary = dictionary_indices(elements)
        return codes, _dictionary_values(dictionary)
    values = _decode_column(elements).rows(0, len(elements))
    return np.arange(len(values)), values


def _valid_rows(chunks: list[Any]) -> tuple[NDArray[np.intp], NDArray[np.int64], NDArray[np.int64]]:
    """The non-null rows of list chunks: position, first element (chunks' elements end to end)
    and length."""
    positions, starts, lengths = [], [], []
    row_base = element_base = 0
    for chunk in chunks:
        offsets = chunk.offsets.to_numpy()
        rows = np.flatnonzero(_chunk_validity(chunk))
        positions.append(rows + row_base)
        starts.append(offsets[rows].astype(np.int64) - offsets[0] + element_base)
        lengths.append((offsets[rows + 1] - offsets[rows]).astype(np.int64))
        row_base += len(chunk)
        element_base += int(offsets[-1] - offsets[0])
    return _joined(positions), _joined(starts), _joined(lengths)
