"""The JSON Lines format: one event per line, the Parquet columns as keys.

The canonical form, written by :func:`event_to_line` and the export, has the keys in
:data:`~replay.model.events.SCHEMA` order, omits null fields, writes ``ts`` as ISO 8601 UTC with
milliseconds and no spaces between tokens, so that import followed by export gives back the same
bytes.

>>> from replay.model.events import Event
>>> line = event_to_line(Event("g1", 5, "hearts", "play", round=1, trick=1, player=2, card="QS"))
>>> line
'{"game_id":"g1","seq":5,"kind":"hearts","type":"play","round":1,"trick":1,"player":2,"card":"QS"}'
>>> line_to_event(line).card
'QS'
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pj

from replay.model.events import COLUMNS, SCHEMA, Event
from replay.store.errors import StoreRule
from replay.store.validate import Rejection, any_ts_outside_years

_LIST_FIELDS = ("cards", "values")


def format_ts(value: datetime) -> str:
    """``2024-05-01T12:00:00.000Z`` (UTC, milliseconds)."""
    value = value.astimezone(UTC)
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"


def parse_ts(text: str) -> datetime:
    """The inverse of :func:`format_ts` (any ISO 8601 time with a zone is accepted)."""
    value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if value.tzinfo is None:
        raise ValueError(f"timestamp {text!r} has no time zone")
    if value.microsecond % 1000:
        raise ValueError(f"timestamp {text!r} is more precise than a millisecond")
    return value.astimezone(UTC)


def row_to_line(row: dict[str, Any]) -> str:
    """The canonical JSON line of one row (a dict keyed by column name)."""
    out: dict[str, Any] = {}
    for name in COLUMNS:
        value = row.get(name)
        if value is None:
            continue
        if name == "ts":
            value = format_ts(value)
        elif name in _LIST_FIELDS:
            value = list(value)
        out[name] = value
    return json.dumps(out, separators=(",", ":"), ensure_ascii=False)


def event_to_line(event: Event) -> str:
    """The canonical JSON line of an event."""
    return row_to_line({name: getattr(event, name) for name in COLUMNS})


def _check_int(name: str, value: object, bits: int) -> str | None:
    if not isinstance(value, int) or isinstance(value, bool):
        return f"{name} must be an integer, not {value!r}"
    if not -(1 << (bits - 1)) <= value < (1 << (bits - 1)):
        return f"{name} {value} is out of range"
    return None


def check_object(obj: object) -> str | None:
    """Why a parsed JSON line is not an event (None when it is one)."""
    if not isinstance(obj, dict):
        return "a line must be a JSON object"
    for name in obj:
        if name not in COLUMNS:
            return f"unknown field {name!r}"
    for fld in SCHEMA:
        value = obj.get(fld.name)
        if value is None:
            if not fld.nullable:
                return f"no {fld.name}"
            continue
        problem = _check_value(fld, value)
        if problem:
            return problem
    return None


def _check_value(fld: pa.Field[Any], value: object) -> str | None:
    kind = fld.type
    if pa.types.is_integer(kind):
        return _check_int(fld.name, value, kind.bit_width)
    if pa.types.is_string(kind):
        return None if isinstance(value, str) else f"{fld.name} must be a string"
    if pa.types.is_timestamp(kind):
        try:
            parse_ts(str(value)) if isinstance(value, str) else parse_ts("")
        except ValueError:
            when = "an ISO 8601 time with a zone, to the ms, in years 1-9999"
            return f"{fld.name} must be {when}, not {value!r}"
        return None
    if not isinstance(value, list):
        return f"{fld.name} must be a list"
    item = pa.field(fld.name + "[]", kind.value_type)
    for element in value:
        problem = _check_value(item, element)
        if problem:
            return problem
    return None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` of :func:`json.loads` rejecting a key given twice."""
    obj = dict(pairs)
    if len(obj) < len(pairs):
        twice = next(k for i, (k, _) in enumerate(pairs) if k in dict(pairs[:i]))
        raise ValueError(f"field {twice!r} given twice")
    return obj


def load_line(line: str | bytes) -> object:
    """``json.loads`` of one line, rejecting duplicate keys as Arrow's parser does, and a line
    nested deeper than Python's parser goes (about 1,000 levels) with a ValueError."""
    try:
        return json.loads(line, object_pairs_hook=_unique_keys)
    except RecursionError:
        raise ValueError("malformed JSON: nested too deeply to parse") from None


def line_to_event(line: str) -> Event:
    """Parse one JSON line (raises ValueError with the reason when it is not an event)."""
    obj: Any = load_line(line)
    problem = check_object(obj)
    if problem:
        raise ValueError(problem)
    values = {name: obj.get(name) for name in COLUMNS}
    for name in _LIST_FIELDS:
        if values[name] is not None:
            values[name] = tuple(values[name])
    if values["ts"] is not None:
        values["ts"] = parse_ts(values["ts"])
    return Event(**values)


@dataclass(slots=True)
class JsonlRead:
    """A parsed JSON Lines file: the events as an Arrow table, and the lines rejected."""

    table: pa.Table
    lines: int
    rejected: list[Rejection] = field(default_factory=list)


_BOM = b"\xef\xbb\xbf"
_TS = SCHEMA.field("ts")
_TS_INDEX = SCHEMA.get_field_index("ts")
# ``ts`` is read as text and converted by :func:`_timestamps`: Arrow's JSON reader alone would
# take a time without a zone for UTC, which :func:`parse_ts` rejects.
_PARSE = pj.ParseOptions(
    explicit_schema=SCHEMA.set(_TS_INDEX, pa.field("ts", pa.string())),
    unexpected_field_behavior="error",
)
_BLOCK = 4 << 20  # smaller blocks parse faster (cache), and in parallel
#: Lines with at least this many ``[`` or ``{`` (in strings too) are judged line by line in
#: Python before Arrow sees them: Arrow's recursive parser overflows its thread's stack (a
#: segmentation fault) on a line nested some 10,000 levels deep. An event nests 2 levels.
MAX_FAST_BRACKETS = 64


#: Bytes of ``data`` that :func:`_has_deep_line` looks at in one numpy pass (its temporary
#: arrays are a few times this size, whatever the size of ``data``).
_WINDOW = 4 << 20


def _has_deep_line(data: bytes, limit: int = MAX_FAST_BRACKETS) -> bool:
    """Whether some line of ``data`` holds ``limit`` or more opening brackets (vectorised: a
    few passes of numpy over the bytes, about 5% of Arrow's parse, in windows of
    :data:`_WINDOW` bytes so that the temporary arrays stay small)."""
    if len(data) < _WINDOW and data.count(b"[") + data.count(b"{") < limit:
        return False
    raw = np.frombuffer(data, np.uint8)
    brackets, newlines = [], []
    for start in range(0, len(raw), _WINDOW):
        window = raw[start : start + _WINDOW]
        # "[" is "{" without 0x20
        brackets.append(np.flatnonzero(np.bitwise_or(window, 0x20) == ord("{")) + start)
        newlines.append(np.flatnonzero(window == ord("\n")) + start)
    line = np.searchsorted(np.concatenate(newlines), np.concatenate(brackets))
    return bool(len(line) >= limit and (line[limit - 1 :] == line[: len(line) - limit + 1]).any())


_SPACE = b" \t\n\r\x0b\x0c"  # what bytes.strip() strips


def _inner_newlines(data: bytes, newlines: int, step: int = 4096) -> int:
    """``data.strip().count(b"\\n")`` without a copy of ``data`` (a piece of a large file),
    given the newlines of ``data``: those of the blank margins are taken off.

    >>> _inner_newlines(b"\\n a\\nb \\n\\n", 4), b"\\n a\\nb \\n\\n".strip().count(b"\\n")
    (1, 1)
    """
    start, end = 0, len(data)
    while start < end:
        chunk = data[start : min(end, start + step)]
        kept = chunk.lstrip(_SPACE)
        start += len(chunk) - len(kept)
        if kept:
            break
    while end > start:
        chunk = data[max(start, end - step) : end]
        kept = chunk.rstrip(_SPACE)
        end -= len(chunk) - len(kept)
        if kept:
            break
    return newlines - data.count(b"\n", 0, start) - data.count(b"\n", end)


def _timestamps(texts: pa.ChunkedArray[Any]) -> pa.ChunkedArray[Any] | pa.Array[Any]:
    """``ts`` texts as timestamps: vectorised for the usual forms, else by :func:`parse_ts`
    (ValueError for a bad one)."""
    try:
        converted: pa.ChunkedArray[Any] = texts.cast(_TS.type)
    except pa.ArrowInvalid:
        values = [None if t is None else parse_ts(t) for t in texts.to_pylist()]
        parsed: pa.Array[Any] = pa.array(values, _TS.type)
        return parsed
    if any_ts_outside_years(converted):  # Arrow's cast takes year 0
        raise ValueError("a ts outside years 1 to 9999")
    return converted


def _parse(data: bytes, block_size: int = _BLOCK) -> pa.Table:
    """Parse JSON Lines with Arrow's C++ parser, strictly typed (ValueError when a line is not
    an event: malformed, unknown field, wrong type, value out of range, null list item...)."""
    read = pj.ReadOptions(block_size=block_size, use_threads=True)
    source: Any = pa.BufferReader(data)  # zero copy (the stubs only know files)
    table = pj.read_json(source, read_options=read, parse_options=_PARSE)
    table.validate(full=True)  # Arrow's JSON reader does not check that text is UTF-8
    for name in _LIST_FIELDS:
        if pc.list_flatten(table.column(name)).null_count:
            raise ValueError(f"null item in {name}")
    return table.set_column(_TS_INDEX, _TS, _timestamps(table.column(_TS_INDEX)))


def read_jsonl(path: str | Path) -> JsonlRead:
    """Read a JSON Lines file with Arrow's C++ parser; when some lines are malformed, report
    them by line number and parse the others. One object per line: a UTF-8 byte order mark,
    CRLF line ends and blank lines are accepted; an object over several lines, or two on one
    line, is not."""
    return parse_jsonl(Path(path).read_bytes(), str(path))


def parse_jsonl(
    data: bytes, source: str, first_line: int = 1, newlines: int | None = None
) -> JsonlRead:
    """:func:`read_jsonl` of the bytes of a file (or of a piece of one, cut after a newline,
    whose first line is line ``first_line`` of the file: the streaming import, which counted
    its ``newlines`` already)."""
    newlines = data.count(b"\n") if newlines is None else newlines
    lines = newlines + (0 if data.endswith(b"\n") or not data else 1)
    if first_line == 1:
        data = data.removeprefix(_BOM)
    if not data or data.isspace():
        return JsonlRead(SCHEMA.empty_table(), lines if first_line > 1 else 0)
    table = None
    if not _has_deep_line(data):
        with contextlib.suppress(ValueError, pa.ArrowNotImplementedError):
            table = _parse(data)
    if table is not None and table.num_rows == _inner_newlines(data, newlines) + 1:
        return JsonlRead(table, lines)
    # Some line is bad, or Arrow read another number of objects than there are lines (an
    # object over several lines, two on one line, CR-only line ends, or just a blank line):
    # judge the file line by line, as the slow path does any file with a bad line.
    good, rejected = _split_lines(data, source, first_line)
    return JsonlRead(_parse_good(good, source, rejected), lines, rejected)


def _split_lines(
    data: bytes, source: str, first_line: int = 1
) -> tuple[list[tuple[int, bytes]], list[Rejection]]:
    """The well-formed lines with their numbers, and one rejection per malformed line (slow
    path, Python)."""
    good: list[tuple[int, bytes]] = []
    rejected: list[Rejection] = []
    for number, raw in enumerate(data.split(b"\n"), start=first_line):
        if not raw.strip():
            continue
        try:
            obj = load_line(raw)
        except ValueError as exc:  # also JSONDecodeError and UnicodeDecodeError
            reason = exc.args[0] if type(exc) is ValueError else f"malformed JSON: {exc}"
            rejected.append(Rejection(StoreRule.JSON, reason, None, None, source, number))
            continue
        problem = check_object(obj)
        if problem:
            rejected.append(_rejection(obj, problem, source, number))
            continue
        good.append((number, raw))
    return good, rejected


def _rejection(obj: object, problem: str, source: str, number: int) -> Rejection:
    game = obj.get("game_id") if isinstance(obj, dict) else None
    seq = obj.get("seq") if isinstance(obj, dict) else None
    return Rejection(
        StoreRule.JSON,
        problem,
        game if isinstance(game, str) else None,
        seq if isinstance(seq, int) and not isinstance(seq, bool) else None,
        source,
        number,
    )


def _parse_good(good: list[tuple[int, bytes]], source: str, rejected: list[Rejection]) -> pa.Table:
    """Parse the lines :func:`check_object` accepted; should Arrow still refuse one, it is
    found line by line and added to ``rejected`` rather than failing the whole file."""
    if not good:
        return SCHEMA.empty_table()
    block = max(_BLOCK, max(len(raw) for _, raw in good) + 1)
    try:
        return _parse(b"\n".join(raw for _, raw in good), block)
    except (ValueError, pa.ArrowNotImplementedError):
        pass
    tables = []
    for number, raw in good:
        try:
            tables.append(_parse(raw, len(raw) + 1))
        except (ValueError, pa.ArrowNotImplementedError) as exc:
            reason = str(exc).splitlines()[0].removesuffix(" in row 0")
            rejected.append(_rejection(load_line(raw), reason, source, number))
    return pa.concat_tables(tables) if tables else SCHEMA.empty_table()


def table_lines(table: pa.Table | pa.RecordBatch) -> list[str]:
    """The canonical lines of a table in :data:`~replay.model.events.SCHEMA` (strings plain or
    dictionary-encoded), as :func:`row_to_line` writes them, built column by column by Arrow:
    each field's ``"name":value`` text, joined per row skipping the nulls."""
    if table.num_rows == 0:
        return []
    return list(_line_array(table, "").to_pylist())


def table_text(table: pa.Table | pa.RecordBatch) -> str:
    """:func:`table_lines` as one text, each line ended by a newline, read from the Arrow
    buffer in one piece (no Python string per line)."""
    if table.num_rows == 0:
        return ""
    lines = _line_array(table, "\n")
    _, offsets, data = lines.buffers()
    width = np.int64 if pa.types.is_large_string(lines.type) else np.int32
    ends = np.frombuffer(offsets, dtype=width)[lines.offset : lines.offset + len(lines) + 1]
    return str(memoryview(data)[int(ends[0]) : int(ends[-1])], "utf-8")


def _line_array(table: pa.Table | pa.RecordBatch, end: str) -> Any:
    """The lines as one Arrow string array, each followed by ``end``."""
    columns = [(name, table.column(name)) for name in COLUMNS]
    parts = [_json_field(n, c) for n, c in columns if c.null_count < table.num_rows]
    lines = pc.binary_join_element_wise(*parts, ",", null_handling="skip")
    lines = pc.binary_join_element_wise("{", lines, "}" + end, "")
    return lines.combine_chunks() if isinstance(lines, pa.ChunkedArray) else lines


def _json_field(name: str, column: Any) -> Any:
    """Per row, ``"name":value`` as JSON text (null where the value is)."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    if pa.types.is_dictionary(column.type):
        column = column.dictionary_decode()
    kind = column.type
    if pa.types.is_timestamp(kind):
        text = _json_times(column)
    elif pa.types.is_list(kind) or pa.types.is_large_list(kind):
        text = _json_lists(column)
    elif pa.types.is_integer(kind):
        text = pc.cast(column, pa.string())
    else:
        text = _json_strings(column)
    return pc.binary_join_element_wise(f'"{name}":', text, "")


def _json_strings(column: Any) -> Any:
    """JSON strings as ``json.dumps(ensure_ascii=False)`` writes them: quotes and backslashes
    escaped here; a value with a control character written by ``json.dumps`` itself."""
    text = pc.replace_substring(column, "\\", "\\\\")
    text = pc.replace_substring(text, '"', '\\"')
    text = pc.binary_join_element_wise('"', text, '"', "")
    control = pc.fill_null(pc.match_substring_regex(column, "[\\x00-\\x1f]"), False)
    if pc.any(control).as_py():
        odd = pc.filter(column, control).to_pylist()
        dumped = pa.array([json.dumps(v, ensure_ascii=False) for v in odd], pa.string())
        text = pc.replace_with_mask(text, control, dumped)
    return text


def _json_times(column: Any) -> Any:
    """``ts`` as :func:`format_ts` writes it (years before 1000 by :func:`format_ts` itself:
    its ``strftime`` does not pad them)."""
    millis = pc.cast(column, pa.timestamp("ms", tz="UTC"), safe=False)  # stored in µs
    text = pc.binary_join_element_wise(
        '"', pc.strftime(millis, format="%Y-%m-%dT%H:%M:%S", locale="C"), 'Z"', ""
    )
    year: Any = pc.year(column)
    early = pc.fill_null(pc.less(year, pa.scalar(1000, pa.int64())), False)
    if pc.any(early).as_py():
        odd = pc.filter(column, early).to_pylist()
        dumped = pa.array([json.dumps(format_ts(v)) for v in odd], pa.string())
        text = pc.replace_with_mask(text, early, dumped)
    return text


def _json_lists(column: Any) -> Any:
    """JSON arrays of a list column's strings or integers."""
    items = column.values
    if pa.types.is_dictionary(items.type):
        items = items.dictionary_decode()
    texts = pc.cast(items, pa.string()) if pa.types.is_integer(items.type) else _json_strings(items)
    lists = type(column).from_arrays(column.offsets, texts, mask=pc.is_null(column))
    joined: Any = pc.binary_join(lists, ",")
    return pc.binary_join_element_wise("[", joined, "]", "")


def write_lines(batches: Iterable[pa.RecordBatch], out: TextIO) -> int:
    """Write record batches in canonical JSON Lines; returns the number of lines."""
    count = 0
    for batch in batches:
        out.write(table_text(batch))
        count += batch.num_rows
    return count
