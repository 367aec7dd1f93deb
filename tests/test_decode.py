"""decode_columns gives exactly the reference conversion (``to_pylist``, list cells as tuples)."""

from __future__ import annotations

import doctest
import gc
import itertools
import sys
from functools import cache
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from replay.audit.check import audit_rows
from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_rules
from replay.games.checks import describe_payload
from replay.model import decode
from replay.model.cells import BYTES, CONSTANT, CUT, LISTED, SHORTS
from replay.model.decode import decode_columns, decode_table
from replay.model.events import (
    COLUMNS,
    SCHEMA,
    Event,
    EventRow,
    RowVisitor,
    event_at,
    events_from_columns,
    events_to_table,
    visit_rows,
)

PLAYERS = {"hearts": 4, "hez2": 4, "hiifuu": 5, "fou": 6}
STRING_COLUMNS = ("game_id", "kind", "type", "card", "suit", "data")


def reference(table: pa.Table) -> list[list[Any]]:
    """The columns as events_from_table converted them before decode_columns."""
    columns = [table.column(name).to_pylist() for name in COLUMNS]
    for name in ("cards", "values"):
        index = COLUMNS.index(name)
        columns[index] = [tuple(v) if v is not None else None for v in columns[index]]
    return columns


def assert_decodes_like_reference(table: pa.Table) -> None:
    """Same values and same types, cell by cell (``1 == True`` would hide a bool)."""
    decoded, expected = decode_columns(table), reference(table)
    assert decoded == expected
    for name, got, want in zip(COLUMNS, decoded, expected, strict=True):
        assert [type(v) for v in got] == [type(v) for v in want], name


@cache
def corpus(kind: str, games: int = 3) -> pa.Table:
    """A few simulated games of one kind, as one table."""
    rules = get_rules(kind)
    players = PLAYERS.get(kind, rules.min_players)
    logs = [simulate_game(rules, f"t{i}", players=players, seed=i) for i in range(games)]
    return events_to_table([e for log in logs for e in log])


@pytest.mark.parametrize("kind", available_kinds())
def test_simulated_corpus_decodes_like_reference(kind: str) -> None:
    table = corpus(kind)
    assert table.column("cards").null_count < table.num_rows  # the list path is exercised
    assert_decodes_like_reference(table)


@pytest.mark.parametrize("kind", available_kinds())
def test_several_chunks_and_slices(kind: str) -> None:
    table = corpus(kind)
    chunked = pa.concat_tables([table.slice(0, 50), table.slice(50, 0), table.slice(50)])
    assert chunked.column("cards").num_chunks == 3
    assert_decodes_like_reference(chunked)
    assert_decodes_like_reference(table.slice(7, 100))
    sliced_chunks = pa.concat_tables([table.slice(3, 40), table.slice(90, 60)])
    assert_decodes_like_reference(sliced_chunks)


def test_empty_tables() -> None:
    empty = SCHEMA.empty_table()
    assert decode_columns(empty) == [[] for _ in COLUMNS]
    assert decode_columns(corpus("hearts").slice(5, 0)) == [[] for _ in COLUMNS]
    no_chunks = pa.Table.from_batches([], schema=SCHEMA)
    assert decode_columns(no_chunks) == [[] for _ in COLUMNS]


def test_null_and_empty_lists() -> None:
    events = [
        Event("g", 0, "hearts", "deal", cards=()),
        Event("g", 1, "hearts", "deal", cards=None, values=()),
        Event("g", 2, "hearts", "deal", cards=("2C",), values=(0, -3)),
        Event("g", 3, "hearts", "deal", cards=(), values=None),
    ]
    columns = decode_columns(events_to_table(events))
    assert columns[COLUMNS.index("cards")] == [(), None, ("2C",), ()]
    assert columns[COLUMNS.index("values")] == [None, (), (0, -3), None]
    assert_decodes_like_reference(events_to_table(events).slice(1))


def test_null_elements_inside_lists_are_kept() -> None:
    table = events_to_table([Event("g", 0, "hearts", "deal")] * 3)
    lists = pa.array([["2C", None], None, [None]], pa.list_(pa.string()))
    table = table.set_column(COLUMNS.index("cards"), "cards", lists)
    assert decode_columns(table)[COLUMNS.index("cards")] == [("2C", None), None, (None,)]


def test_equal_strings_are_one_object() -> None:
    columns = decode_columns(corpus("hearts"))
    for name in ("game_id", "kind", "type", "card"):
        values = [v for v in columns[COLUMNS.index(name)] if v is not None]
        assert len({id(v) for v in values}) == len(set(values)), name
    cards = [c for row in columns[COLUMNS.index("cards")] or () if row for c in row]
    assert len({id(c) for c in cards}) == len(set(cards))


def test_large_and_dictionary_string_columns() -> None:
    table = pa.concat_tables([corpus("hiifuu").slice(0, 80), corpus("hiifuu").slice(200, 80)])
    expected = reference(table)
    for name in STRING_COLUMNS:
        index = COLUMNS.index(name)
        large = table.set_column(index, name, table.column(name).cast(pa.large_string()))
        assert decode_columns(large) == expected, name
        as_dict = table.set_column(index, name, table.column(name).dictionary_encode())
        assert decode_columns(as_dict) == expected, name
    index = COLUMNS.index("cards")
    large_list = table.column("cards").cast(pa.large_list(pa.large_string()))
    assert decode_columns(table.set_column(index, "cards", large_list)) == expected


def test_many_distinct_row_lengths() -> None:
    rows: list[tuple[int, ...] | None] = [tuple(range(n)) for n in range(60, -1, -1)]
    rows[::3] = [None] * len(rows[::3])
    events = [Event("g", i, "hez2", "x", values=v) for i, v in enumerate(rows)]
    assert decode_columns(events_to_table(events))[COLUMNS.index("values")] == rows


@pytest.mark.parametrize("longest", [decode.LONG_LIST - 1, decode.LONG_LIST, 400])
def test_long_lists_beside_short_and_null_ones(longest: int) -> None:
    """A row's length + 1 is one byte for the compiled loop; longer lists take another path."""
    rows: list[tuple[int, ...] | None] = [None, tuple(range(longest)), (), None, (7, 8)]
    rows += [tuple(range(n, 2 * n)) for n in range(0, longest, 50)]
    events = [Event("g", i, "hez2", "x", values=v) for i, v in enumerate(rows)]
    table = events_to_table(events)
    for cut in (0, 1, 2):
        index = COLUMNS.index("values")
        assert decode_columns(table.slice(cut))[index] == rows[cut:]


def test_null_list_rows_may_cover_elements() -> None:
    """Arrow lets a null list row span elements (offsets 2..4 here): they belong to no row."""
    offsets = pa.array([0, 2, 4, 5, 5], pa.int32())
    values = pa.array(["2C", "QS", "XX", "YY", "AH"])
    mask = pa.array([False, True, False, False])
    cells = pa.ListArray.from_arrays(offsets, values, mask=mask)
    column = pa.chunked_array([cells.slice(1), cells])
    assert decode._decode_lists(column).rows(0, 7) == [
        None,
        ("AH",),
        (),
        ("2C", "QS"),
        None,
        ("AH",),
        (),
    ]


def forms(table: pa.Table) -> dict[str, int]:
    """The form of each decoded column (see replay.model.cells)."""
    return {name: c.form for name, c in zip(COLUMNS, decode_table(table), strict=True)}


def test_integer_ranges_pick_one_byte_two_bytes_or_a_list() -> None:
    narrow = [Event("g", i, "hearts", "x", amount=(None if i % 3 else i)) for i in range(10)]
    shorts = [Event("g", i, "hearts", "x", amount=(None if i % 3 else -5 * i)) for i in range(90)]
    wide = [Event("g", i, "hearts", "x", amount=(None if i % 3 else 10**6 * i)) for i in range(9)]
    for events, form in ((narrow, BYTES), (shorts, SHORTS), (wide, LISTED)):
        table = events_to_table(events)
        assert forms(table)["amount"] == form
        assert_decodes_like_reference(table)
        assert_decodes_like_reference(table.slice(1))
    assert forms(events_to_table(narrow))["target"] == CONSTANT  # every row null


def test_integer_chunks_all_null_or_sliced() -> None:
    numbers = pa.array([1, None, 300, 7], pa.int32())
    column = pa.chunked_array([pa.nulls(3, pa.int32()), numbers.slice(1), numbers.slice(0, 1)])
    assert decode._decode_column(column).rows(0, 7) == [None, None, None, None, 300, 7, 1]


INTEGER_TYPES = {8: pa.int8(), 16: pa.int16(), 32: pa.int32(), 64: pa.int64()}


@given(
    st.sampled_from(sorted(INTEGER_TYPES)).flatmap(
        lambda bits: st.tuples(
            st.just(bits),
            st.lists(
                st.none() | st.integers(-(1 << (bits - 1)), (1 << (bits - 1)) - 1), max_size=40
            ),
        )
    ),
    st.integers(0, 40),
)
def test_integer_columns_of_any_width_and_range_decode_to_their_values(
    typed: tuple[int, list[int | None]], cut: int
) -> None:
    """Codes are computed in one or two bytes by wrapping arithmetic: exact for every range
    that fits, whatever the column's own width and sign."""
    bits, values = typed
    kind = INTEGER_TYPES[bits]
    column = pa.chunked_array([pa.array(values[:cut], kind), pa.array(values[cut:], kind)])
    assert decode._decode_column(column).rows(0, len(values)) == values


def with_stray_null_slots(
    kind: pa.DataType, values: list[int | None], strays: list[int]
) -> pa.Array[Any]:
    """An integer array of ``values`` whose null rows' slots hold ``strays`` (Arrow leaves
    them undefined: often 0, not always)."""
    bits = np.dtype(kind.to_pandas_dtype())
    slots = [strays[i % len(strays)] if v is None else v for i, v in enumerate(values)]
    valid = np.packbits([v is not None for v in values], bitorder="little")
    buffers: list[pa.Buffer | None] = [
        pa.py_buffer(valid.tobytes()),
        pa.py_buffer(np.array(slots, bits).tobytes()),
    ]
    nulls = values.count(None)
    return pa.Array.from_buffers(kind, len(values), buffers, null_count=nulls)


def test_null_rows_decode_to_none_whatever_their_slots_hold() -> None:
    values = [3, None, 4, None, 5, 3]
    array = with_stray_null_slots(pa.int32(), values, [10**6, -(10**6)])
    assert array.to_pylist() == values
    column = decode._decode_column(pa.chunked_array([array]))
    assert (column.form, column.rows(0, 6)) == (BYTES, values)  # the strays widen nothing
    sliced = decode._decode_column(pa.chunked_array([array.slice(1), array.slice(0, 1)]))
    assert sliced.rows(0, 6) == [*values[1:], 3]


@given(
    st.sampled_from(sorted(INTEGER_TYPES)).flatmap(
        lambda bits: st.tuples(
            st.just(bits),
            st.lists(
                st.none() | st.integers(-(1 << (bits - 1)), (1 << (bits - 1)) - 1),
                min_size=1,
                max_size=40,
            ),
            st.lists(st.integers(-(1 << (bits - 1)), (1 << (bits - 1)) - 1), min_size=1),
        )
    ),
    st.integers(0, 40),
)
def test_integer_columns_with_stray_null_slots_decode_to_their_values(
    typed: tuple[int, list[int | None], list[int]], cut: int
) -> None:
    bits, values, strays = typed
    array = with_stray_null_slots(INTEGER_TYPES[bits], values, strays)
    column = pa.chunked_array([array.slice(0, cut), array.slice(cut)])
    assert decode._decode_column(column).rows(0, len(values)) == values


def large_dictionary_table(values: list[str]) -> pa.Table:
    """One event per value, the ``card`` column dictionary-encoded."""
    table = events_to_table([Event("g", i, "hearts", "x", card=v) for i, v in enumerate(values)])
    index = COLUMNS.index("card")
    return table.set_column(index, "card", table.column("card").dictionary_encode())


@pytest.mark.parametrize(
    ("values", "form"),
    [
        ([f"c{i // 20}" for i in range(20 * 300)], SHORTS),  # in runs: one value per run
        ([f"c{(i * 7) % 300}" for i in range(900)], SHORTS),  # scattered: the used values
        ([f"c{i // 2}" for i in range(2 * 200)] + ["c3"] * 50, BYTES),  # 200 values used
        ([f"c{i}" for i in range(70_000)], LISTED),  # more than two bytes can code
    ],
)
def test_large_dictionaries_decode_only_used_values(values: list[str], form: int) -> None:
    table = large_dictionary_table(values)
    dictionary: Any = table.column("card").chunk(0)
    assert len(dictionary.dictionary) >= 200
    assert forms(table)["card"] == form
    assert decode_columns(table)[COLUMNS.index("card")] == values
    sliced = table.slice(len(values) // 3, 300)
    assert decode_columns(sliced)[COLUMNS.index("card")] == values[len(values) // 3 :][:300]


def test_mostly_null_plain_strings_are_not_hashed() -> None:
    data: list[str | None] = [None] * 40
    data[3], data[17], data[39] = '{"a": 1}', '{"a": 1}', "{}"
    table = events_to_table([Event("g", i, "hearts", "x", data=d) for i, d in enumerate(data)])
    assert decode_columns(table)[COLUMNS.index("data")] == data
    assert decode_columns(table.slice(4))[COLUMNS.index("data")] == data[4:]


def test_events_are_built_from_every_form_of_column() -> None:
    """Two-byte codes (600 games, 300 cards, totals over a range of 1,200), one-byte codes,
    listed values and a column of one value, read row by row (compiled: inline, each form)."""
    events = [
        Event(f"g{i}", i, "hearts", "x", card=f"c{(i * 7) % 300}", total=2 * i, target=i % 5,
              data=str(i) if i % 2 else None, amount=1000 * i)
        for i in range(600)
    ]  # fmt: skip
    table = events_to_table(events)
    seen = forms(table)
    assert [seen[name] for name in ("game_id", "card", "total")] == [SHORTS] * 3
    assert [seen[name] for name in ("target", "suit", "amount")] == [BYTES, CONSTANT, LISTED]
    columns = decode_table(table)
    assert events_from_columns(columns, 0, 600) == events
    assert events_from_columns(columns, 250, 400) == events[250:400]


@pytest.mark.parametrize("kind", available_kinds())
def test_events_built_from_columns_are_the_logged_events(kind: str) -> None:
    rules = get_rules(kind)
    events = simulate_game(rules, "e", players=PLAYERS.get(kind, rules.min_players), seed=5)
    columns = decode_table(events_to_table(events))
    assert events_from_columns(columns, 0, len(events)) == events
    assert events_from_columns(columns, 10, 20) == events[10:20]


class _Recorder(RowVisitor):
    """Records each row's event (its identity and its fields) and stops at ``stop_at``."""

    def __init__(self, stop_at: int) -> None:
        self.seen: list[tuple[int, Event, tuple[Any, ...]]] = []
        self.stop_at = stop_at

    def visit(self, event: Event, row: int) -> bool:
        if row == self.stop_at:
            return False
        self.seen.append((row, event, tuple(getattr(event, name) for name in COLUMNS)))
        return True


def _fields_of(event: Event) -> tuple[Any, ...]:
    return tuple(getattr(event, name) for name in COLUMNS)


def _row_holding(event: Event) -> EventRow:
    """A scratch row that holds ``event`` (what a row refilled before looks like)."""
    return EventRow(*_fields_of(event))


@pytest.mark.parametrize("kind", available_kinds())
def test_visit_rows_overwrites_one_scratch_event_and_stops_where_told(kind: str) -> None:
    table = corpus(kind, games=2)
    columns = decode_table(table)
    events = events_from_columns(columns, 0, table.num_rows)
    scratch = _row_holding(event_at(columns, 0))
    recorder = _Recorder(stop_at=len(events) - 7)
    assert visit_rows(columns, 5, len(events), recorder, scratch) == len(events) - 7
    assert [row for row, _, _ in recorder.seen] == list(range(5, len(events) - 7))
    assert all(event is scratch for _, event, _ in recorder.seen)
    fields = [tuple(getattr(e, name) for name in COLUMNS) for e in events]
    assert [cells for _, _, cells in recorder.seen] == fields[5 : len(events) - 7]
    assert _fields_of(scratch) == _fields_of(events[len(events) - 7])  # it holds the row refused
    fresh = _Recorder(stop_at=-1)
    assert visit_rows(columns, 0, 40, fresh) == 40
    assert [event for _, event, _ in fresh.seen] == events[:40]
    assert len({id(event) for _, event, _ in fresh.seen}) == 40  # without scratch, new events
    assert {type(event) for _, event, _ in fresh.seen} == {Event}  # facts, not rows


class _Describer(RowVisitor):
    """Describes each row's event (a scratch row: the same object, refilled) twice."""

    def __init__(self) -> None:
        self.words: list[str] = []

    def visit(self, event: Event, row: int) -> bool:
        self.words.append(describe_payload(event))
        assert describe_payload(event) == self.words[-1]
        return True


def test_a_refilled_scratch_row_is_described_anew_each_row() -> None:
    table = corpus("hiifuu", games=1)
    columns = decode_table(table)
    events = events_from_columns(columns, 0, table.num_rows)
    describer = _Describer()
    visit_rows(columns, 0, len(events), describer, _row_holding(events[0]))
    assert describer.words == [describe_payload(e) for e in events]


class _Counter(RowVisitor):
    """Counts the rows it visits and keeps nothing."""

    def __init__(self) -> None:
        self.rows = 0

    def visit(self, event: Event, row: int) -> bool:
        self.rows += 1
        return True


def _references(columns: list[Any]) -> list[int]:
    """The reference counts of what the rows' list cells hold: each card of a list column cut
    as it is read (a cell kept alive keeps one more reference to each of its items; the
    numbers are left out: small ints are shared by the whole interpreter), and each listed
    cell's own tuple (the empty tuple, shared by all, left out)."""
    items = sorted(
        {item for column in columns for item in column.elements if isinstance(item, str)}
    )
    counts = [sys.getrefcount(item) for item in items]
    return counts + [
        sys.getrefcount(value)
        for column in columns
        for value in column.values
        if isinstance(value, tuple) and value
    ]


@pytest.mark.parametrize("kind", available_kinds())
def test_a_scratch_event_releases_each_rows_values(kind: str) -> None:
    """Overwriting the scratch event row by row releases the previous row's values (compiled,
    running the constructor again did not, and leaked every ``cards`` tuple of an audit)."""
    table = corpus(kind, games=2)
    columns = decode_table(table)
    before = _references(columns)
    assert len(before) > 10  # rows with cards
    scratch = _row_holding(event_at(columns, 0))
    counter = _Counter()
    assert visit_rows(columns, 0, table.num_rows, counter, scratch) == table.num_rows
    assert counter.rows == table.num_rows
    del scratch
    assert _references(columns) == before


@pytest.mark.parametrize("kind", available_kinds())
def test_the_audit_keeps_no_reference_to_the_rows(kind: str) -> None:
    table = corpus(kind, games=2)
    columns = decode_table(table)
    before = _references(columns)
    ids = columns[COLUMNS.index("game_id")].rows(0, table.num_rows)
    bounds = [row for row in range(table.num_rows) if row == 0 or ids[row] != ids[row - 1]]
    bounds.append(table.num_rows)
    games = list(itertools.pairwise(bounds))
    changes = decode.row_changes(columns, table.num_rows)
    audits = [audit_rows(columns, start, stop, changes) for start, stop in games]
    assert [audit.events for audit in audits] == [stop - start for start, stop in games]
    assert not any(audit.findings for audit in audits)
    held = [after - count for after, count in zip(_references(columns), before, strict=True)]
    assert min(held) == 0
    assert max(held) <= 1  # the items of the last cell Deck.mask saw (its one-entry cache)


def test_gc_state_is_restored() -> None:
    table = corpus("fou")
    assert gc.isenabled()
    decode_columns(table)
    assert gc.isenabled()
    gc.disable()
    try:
        decode_columns(table)
        assert not gc.isenabled()
    finally:
        gc.enable()


CARD = st.sampled_from(["2C", "QS", "AH", "10D"])
OPTIONAL_INT = st.none() | st.integers(-100, 100)
EVENTS = st.lists(
    st.builds(
        Event,
        game_id=st.sampled_from(["g1", "g2"]),
        seq=st.integers(0, 5),
        kind=st.just("hearts"),
        type=st.sampled_from(["play", "deal", "pass"]),
        player=st.none() | st.integers(0, 3),
        amount=OPTIONAL_INT,
        card=st.none() | CARD,
        cards=st.none() | st.lists(CARD, max_size=14).map(tuple),
        values=st.none() | st.lists(st.integers(-50, 50), max_size=6).map(tuple),
        suit=st.none() | st.sampled_from(["S", "H"]),
    ),
    max_size=40,
)


@given(EVENTS, st.integers(0, 40), st.integers(0, 40), st.integers(1, 40))
def test_random_tables_chunked_and_sliced(
    events: list[Event], start: int, length: int, cut: int
) -> None:
    table = events_to_table(events)
    assert_decodes_like_reference(table)
    assert_decodes_like_reference(table.slice(start, length))
    assert_decodes_like_reference(pa.concat_tables([table.slice(cut), table.slice(0, cut)]))


def test_doctests() -> None:
    result = doctest.testmod(decode)
    assert result.attempted > 0
    assert result.failed == 0


def _cells(table: pa.Table) -> list[list[Any]]:
    return decode_columns(table)


def _bits(changes: bytes, row: int) -> int:
    return changes[2 * row] | changes[2 * row + 1] << 8


def assert_changes_are_sound(table: pa.Table, exact: bool) -> bytes:
    """Every cell whose bit is off equals the cell above it; with ``exact``, every cell of a
    coded column whose bit is on differs from it, and a list column's bit is on exactly where
    either cell is not null."""
    columns = decode_table(table)
    changes = decode.row_changes(columns, table.num_rows)
    assert len(changes) == 2 * table.num_rows
    cells = _cells(table)
    for row in range(table.num_rows):
        bits = _bits(changes, row)
        if row == 0:
            assert bits == (1 << 16) - 1
            continue
        for index, (name, column) in enumerate(zip(COLUMNS, columns, strict=True)):
            now, before = cells[index][row], cells[index][row - 1]
            on = bool(bits >> index & 1)
            if not on:
                assert now == before, (name, row)
            elif exact and column.form in (BYTES, SHORTS):
                assert now != before, (name, row)
            if exact and name in ("cards", "values"):
                assert on == (now is not None or before is not None), (name, row)
    return changes


@pytest.mark.parametrize("kind", available_kinds())
def test_row_changes_mark_exactly_the_cells_that_differ(kind: str) -> None:
    changes = assert_changes_are_sound(corpus(kind, games=2), exact=True)
    per_row = sum(bin(_bits(changes, row)).count("1") for row in range(1, len(changes) // 2))
    assert per_row < 8 * (len(changes) // 2)  # a game's rows change few fields


def test_row_changes_across_games_kinds_chunks_and_every_form() -> None:
    mixed = pa.concat_tables([corpus("hearts", games=2), corpus("fou", games=2).slice(5)])
    assert_changes_are_sound(mixed.slice(7), exact=True)
    events = [
        Event(f"g{i}", i, "hearts", "x", card=f"c{(i * 7) % 300}", total=2 * i, target=i % 5,
              data=str(i) if i % 2 else None, amount=1000 * i,
              cards=("2C",) if i % 3 == 0 else None)
        for i in range(600)
    ]  # fmt: skip
    assert_changes_are_sound(events_to_table(events), exact=False)  # listed amounts: all on


def test_row_changes_of_long_lists_mark_their_rows() -> None:
    lists: list[tuple[str, ...] | None] = [None, None, ("2C",) * 300, None, None, (), None]
    table = events_to_table([Event("g", i, "h", "x", cards=c) for i, c in enumerate(lists)])
    changes = assert_changes_are_sound(table, exact=True)
    card_bit = 1 << COLUMNS.index("cards")
    assert [bool(_bits(changes, row) & card_bit) for row in range(1, 7)] == [
        False, True, True, False, True, True,
    ]  # fmt: skip


def test_row_changes_of_no_rows_and_too_many_columns() -> None:
    assert decode.row_changes(decode_table(events_to_table([])), 0) == b""
    with pytest.raises(ValueError, match="at most 16"):
        decode.row_changes([decode.Column(CONSTANT, [None])] * 17, 3)


_small_events = st.lists(
    st.tuples(
        st.sampled_from(["g1", "g2"]),
        st.sampled_from(["hearts", "fou"]),
        st.sampled_from(["play", "deal", "x"]),
        st.none() | st.integers(0, 3),
        st.none() | st.sampled_from(["2C", "QS"]),
        st.none() | st.lists(st.sampled_from(["2C", "QS", "AH"]), max_size=3).map(tuple),
        st.none() | st.integers(-2, 2) | st.integers(-(10**6), 10**6),
        st.none() | st.sampled_from(["{}", '{"a": 1}']),
    ),
    min_size=1,
    max_size=60,
)


@given(_small_events, st.integers(0, 59), st.integers(0, 59), st.integers(0, 59))
def test_a_scratch_event_refilled_by_changes_is_each_rows_event(
    rows: list[tuple[Any, ...]], cut: int, start: int, held: int
) -> None:
    """Whatever the row the scratch event held, the rows visited with ``changes`` are exactly
    the table's events (a table in two chunks: the codes run across them)."""
    events = [
        Event(game, seq, kind, type_, player=player, card=card, cards=cards, amount=amount,
              data=data)
        for seq, (game, kind, type_, player, card, cards, amount, data) in enumerate(rows)
    ]  # fmt: skip
    whole = events_to_table(events)
    cut, start, held = cut % len(events), start % len(events), held % len(events)
    table = pa.concat_tables([whole.slice(0, cut), whole.slice(cut)])
    columns = decode_table(table)
    changes = decode.row_changes(columns, table.num_rows)
    scratch = _row_holding(event_at(columns, held))
    recorder = _Recorder(stop_at=-1)
    assert visit_rows(columns, start, len(events), recorder, scratch, changes) == len(events)
    fields = [tuple(getattr(e, name) for name in COLUMNS) for e in events]
    assert [cells for _, _, cells in recorder.seen] == fields[start:]
    fresh = _Recorder(stop_at=-1)
    assert visit_rows(columns, start, len(events), fresh, None, changes) == len(events)
    assert [event for _, event, _ in fresh.seen] == events[start:]


@pytest.mark.parametrize("kind", available_kinds())
def test_list_cells_read_at_any_row_are_the_rows_lists(kind: str) -> None:
    """A list column cut as it is read finds any row's items from the mark before it."""
    table = corpus(kind, games=1)
    columns, expected = decode_table(table), reference(table)
    index = COLUMNS.index("cards")
    cards = columns[index]
    assert cards.form == CUT
    assert [cards.at(row) for row in range(table.num_rows)] == expected[index]
    assert cards.rows(5, 70) == expected[index][5:70]
    assert cards.rows(70, 5) == []
