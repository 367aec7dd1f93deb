"""Integrity checks on incoming events, vectorised over Arrow tables.

:func:`check_games` splits a batch into the games that may be stored and :class:`Rejection`\\ s,
one per bad game, naming the rule, the game and the first faulty sequence number. The checks are
those of the record, not of the play (the game audit does those): the schema, sequence numbers
0..n-1 without gap or duplicate (LOG-SEQUENCE), one ``game_start`` first and one kind per game
(LOG-SETUP), event types the game knows (LOG-ORDER), card codes of the game's deck (LOG-CARD,
when its spec declares one), nothing after ``game_end`` (LOG-AFTER-END).

>>> from replay.model.events import Event, events_to_table
>>> good = [Event("g1", 0, "hearts", "game_start"), Event("g1", 1, "hearts", "game_end")]
>>> bad = [Event("g2", 0, "hearts", "game_start"), Event("g2", 2, "hearts", "game_end")]
>>> checked = check_games(events_to_table(good + bad))
>>> checked.table.num_rows, [str(r) for r in checked.rejected]
(2, ['game g2 seq 1: missing seq 1 (LOG-SEQUENCE)'])
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from replay.model import fields, specs
from replay.model.events import SCHEMA
from replay.model.violation import LogRule, RuleId
from replay.store.errors import InvalidGame, StoreRule, locate
from replay.text import escaped

REQUIRED: tuple[str, ...] = tuple(f.name for f in SCHEMA if not f.nullable)


@dataclass(frozen=True, slots=True)
class Rejection:
    """Why one game (or one input line) was not stored."""

    rule: RuleId
    reason: str
    game_id: str | None = None
    seq: int | None = None
    source: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        where = locate(self.source, self.game_id, self.seq)
        if self.line is not None:
            source = escaped(self.source or "")
            where = f"{source}:{self.line}: " + where.removeprefix(f"{source}: ")
        return f"{where}{escaped(self.reason)} ({self.rule})"

    def error(self) -> InvalidGame:
        """The rejection as an exception."""
        return InvalidGame(
            self.rule, self.reason, game_id=self.game_id, seq=self.seq, source=self.source
        )


@dataclass(slots=True)
class Checked:
    """A checked batch: the good events (sorted by game id and seq) and the rejections."""

    table: pa.Table
    rejected: list[Rejection] = field(default_factory=list)


def known_kind(kind: str) -> bool:
    """Whether the catalogue (:mod:`replay.model.specs`) holds a game of this kind."""
    return specs.spec(kind) is not None


@cache
def allowed_types(kind: str) -> frozenset[str] | None:
    """The event types of a game kind (its spec's), or None when no game has that kind."""
    spec = specs.spec(kind)
    return spec.event_types if spec is not None else None


@cache
def deck_codes(kind: str) -> frozenset[str] | None:
    """The card codes of a game's deck as its spec declares them (the LOG-CARD check), or None
    when it declares none (a deck that depends on the table) or no game has that kind."""
    spec = specs.spec(kind)
    return frozenset(spec.deck) if spec is not None and spec.deck is not None else None


def _forget() -> None:
    allowed_types.cache_clear()
    deck_codes.cache_clear()


specs.on_change(_forget)


def conform(table: pa.Table, source: str | None = None) -> pa.Table:
    """``table`` in :data:`SCHEMA`: missing optional columns become nulls; an unknown or missing
    required column, or a column of the wrong type, is a STORE-SCHEMA error for the whole input.
    """
    if table.schema.equals(SCHEMA):
        return table
    unknown = [n for n in table.column_names if n not in SCHEMA.names]
    missing = [n for n in REQUIRED if n not in table.column_names]
    if unknown or missing:
        what = [f"unknown column {n!r}" for n in unknown] + [f"no column {n!r}" for n in missing]
        raise InvalidGame(StoreRule.SCHEMA, "wrong schema: " + ", ".join(what), source=source)
    columns = []
    for target in SCHEMA:
        if target.name not in table.column_names:
            columns.append(pa.nulls(table.num_rows, target.type))
            continue
        column = table.column(target.name)
        try:
            columns.append(column.cast(target.type))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
            raise InvalidGame(
                StoreRule.SCHEMA,
                f"wrong schema: column {target.name!r} is {column.type}, expected {target.type}"
                f" ({exc})",
                source=source,
            ) from None
    return pa.Table.from_arrays(columns, schema=SCHEMA)


def is_sorted(table: pa.Table) -> bool:
    """Whether rows are ordered by (game_id, seq) with strictly increasing seq per game."""
    if table.num_rows < 2:
        return True
    gid = table.column("game_id")
    seq = table.column("seq")
    first, rest = gid.slice(0, len(gid) - 1), gid.slice(1)
    same = pc.equal(first, rest)
    ordered = pc.and_(
        pc.less_equal(first, rest),
        pc.or_(pc.invert(same), pc.less(seq.slice(0, len(seq) - 1), seq.slice(1))),
    )
    return bool(pc.all(ordered).as_py())


def sort_events(table: pa.Table) -> pa.Table:
    """Rows ordered by game id, then seq (a no-op when already so)."""
    if is_sorted(table):
        return table
    return table.sort_by([("game_id", "ascending"), ("seq", "ascending")])


# A fault check gives the rows at fault; ``describe`` turns the first one of a game into words.
@dataclass(frozen=True, slots=True)
class _Fault:
    rule: RuleId
    rows: np.ndarray
    describe: Callable[[int], tuple[int | None, str]]


class _Batch:
    """Sorted columns of a batch as numpy arrays, and per-row game positions."""

    def __init__(self, table: pa.Table) -> None:
        self.table = table
        self.n = table.num_rows
        raw = table.column("seq").to_numpy(zero_copy_only=False)
        self.seq = np.nan_to_num(raw, nan=-1).astype(np.int64)
        gid = table.column("game_id")
        change = pc.not_equal(gid.slice(0, self.n - 1), gid.slice(1)).to_numpy(zero_copy_only=False)
        self.starts = np.flatnonzero(np.concatenate(([True], change)))
        self.ends = np.concatenate((self.starts[1:], [self.n])) - 1
        self.game = np.cumsum(np.concatenate(([True], change))) - 1
        self.pos = np.arange(self.n) - self.starts[self.game]
        self.types = table.column("type")
        self.kinds = table.column("kind")

    def is_type(self, name: str) -> np.ndarray:
        equal = pc.equal(self.types, pa.scalar(name, pa.string())).fill_null(False)
        return np.asarray(equal.to_numpy(zero_copy_only=False), dtype=bool)


def _null_faults(b: _Batch) -> Iterable[_Fault]:
    for name in ("seq", "kind", "type"):
        nulls = b.table.column(name).is_null().to_numpy(zero_copy_only=False)
        if nulls.any():
            yield _Fault(StoreRule.SCHEMA, np.flatnonzero(nulls), _missing(b, name))


def _missing(b: _Batch, name: str) -> Callable[[int], tuple[int | None, str]]:
    def describe(r: int) -> tuple[int | None, str]:
        return (int(b.seq[r]) if b.seq[r] >= 0 else None), f"no {name}"

    return describe


def _unknown_kind(b: _Batch, kind: str) -> Callable[[int], tuple[int | None, str]]:
    def describe(r: int) -> tuple[int | None, str]:
        return int(b.seq[r]), f"unknown game kind {kind!r}"

    return describe


def _sequence_faults(b: _Batch) -> Iterable[_Fault]:
    rows = np.flatnonzero(b.seq != b.pos)

    def describe(r: int) -> tuple[int | None, str]:
        if b.pos[r] > 0 and b.seq[r] == b.seq[r - 1]:
            return int(b.seq[r]), f"duplicate seq {b.seq[r]}"
        if b.seq[r] < b.pos[r]:
            return int(b.seq[r]), f"invalid seq {b.seq[r]}"
        return int(b.pos[r]), f"missing seq {b.pos[r]}"

    yield _Fault(LogRule.SEQUENCE, rows, describe)


def _setup_faults(b: _Batch) -> Iterable[_Fault]:
    start = b.is_type("game_start")
    first = b.pos == 0
    yield _Fault(
        LogRule.SETUP,
        np.flatnonzero(first & ~start),
        lambda r: (int(b.seq[r]), f"the game begins with {b.types[r].as_py()}, not game_start"),
    )
    yield _Fault(
        LogRule.SETUP,
        np.flatnonzero(~first & start),
        lambda r: (int(b.seq[r]), "a second game_start in one game"),
    )
    game_kind = b.kinds.take(pa.array(b.starts[b.game]))
    other = pc.not_equal(b.kinds, game_kind).fill_null(False).to_numpy(zero_copy_only=False)
    yield _Fault(
        LogRule.SETUP,
        np.flatnonzero(other),
        lambda r: (
            int(b.seq[r]),
            f"event of kind {b.kinds[r].as_py()!r} in a {game_kind[r].as_py()!r} game",
        ),
    )


def _after_end_faults(b: _Batch) -> Iterable[_Fault]:
    end_rows = np.flatnonzero(b.is_type("game_end"))
    after = end_rows[end_rows < b.ends[b.game[end_rows]]] + 1
    yield _Fault(
        LogRule.AFTER_END,
        after,
        lambda r: (int(b.seq[r]), f"{b.types[r].as_py()} after game_end"),
    )


def _kind_faults(b: _Batch) -> Iterable[_Fault]:
    for kind_scalar in pc.unique(b.kinds):
        kind = kind_scalar.as_py()
        if kind is None:
            continue
        of_kind = np.asarray(
            pc.equal(b.kinds, pa.scalar(kind, pa.string())).to_numpy(zero_copy_only=False),
            dtype=bool,
        )
        if not known_kind(kind):
            yield _Fault(LogRule.SETUP, np.flatnonzero(of_kind), _unknown_kind(b, kind))
            continue
        yield from _type_and_card_faults(b, kind, of_kind)


def _type_and_card_faults(b: _Batch, kind: str, of_kind: np.ndarray) -> Iterable[_Fault]:
    types = allowed_types(kind)
    if types is not None:
        known = pc.is_in(b.types, pa.array(sorted(types))).to_numpy(zero_copy_only=False)
        yield _Fault(
            LogRule.ORDER,
            np.flatnonzero(of_kind & ~known),
            lambda r: (int(b.seq[r]), f"unknown {kind} event type {b.types[r].as_py()!r}"),
        )
    codes = deck_codes(kind)
    if codes is None:
        return
    deck = pa.array(sorted(codes))
    card = b.table.column("card")
    unknown_card = pc.and_(pc.is_valid(card), pc.invert(pc.is_in(card, deck)))
    bad = unknown_card.to_numpy(zero_copy_only=False)
    cards = pa.chunked_array(b.table.column("cards").chunks).combine_chunks()
    items = pc.list_flatten(cards)
    bad_items = pc.invert(pc.is_in(items, deck)).fill_null(False).to_numpy(zero_copy_only=False)
    if bad_items.any():
        parents = pc.list_parent_indices(cards).to_numpy()
        bad[parents[bad_items]] = True

    def describe(r: int) -> tuple[int | None, str]:
        given = [card[r].as_py(), *(b.table.column("cards")[r].as_py() or [])]
        code = next((c for c in given if c not in codes and c is not None), None)
        return int(b.seq[r]), f"unknown card code {code!r} for {kind}"

    yield _Fault(LogRule.CARD, np.flatnonzero(of_kind & bad), describe)


def first_difference(new: Sequence[object], old: Sequence[object]) -> int | None:
    """The first seq at which two versions of one game (events or rows, in seq order from 0)
    differ, or where the shorter ends; None when they are equal.

    >>> first_difference("abc", "abc"), first_difference("abx", "abc"), first_difference("a", "ab")
    (None, 2, 1)
    """
    for seq, (mine, theirs) in enumerate(zip(new, old, strict=False)):
        if mine != theirs:
            return seq
    return None if len(new) == len(old) else min(len(new), len(old))


#: The times a Python ``datetime`` can hold (years 1 to 9999), in the ``ts`` column's unit (ms).
TS_RANGE_MS: tuple[int, int] = (-62_135_596_800_000, 253_402_300_799_999)


def _value_faults(b: _Batch) -> Iterable[_Fault]:
    """Values that fit their column's type but not what the column means: a time outside
    years 1 to 9999, a ``data`` text that is not a JSON object."""
    ts = b.table.column("ts")
    # Every row's answer only when some time is outside (one min-max pass, else).
    outside = ts_outside_years(ts) if any_ts_outside_years(ts) else np.zeros(0, dtype=bool)
    yield _Fault(
        StoreRule.SCHEMA,
        np.flatnonzero(outside),
        lambda r: (int(b.seq[r]), f"ts {ts[r].value} ms from 1970 is outside years 1 to 9999"),
    )
    data = b.table.column("data")
    given = np.flatnonzero(data.is_valid().to_numpy(zero_copy_only=False))
    texts = [str(text) for text in data.drop_null().to_pylist()]
    bad = [row for row, text in zip(given.tolist(), texts, strict=True) if not is_json_object(text)]
    yield _Fault(
        StoreRule.SCHEMA,
        np.array(bad, dtype=np.int64),
        lambda r: (int(b.seq[r]), "data is not the text of a JSON object"),
    )


def ts_outside_years(ts: pa.ChunkedArray[Any] | pa.Array[Any]) -> np.ndarray:
    """Per row of a ``ts`` column, whether it lies outside years 1 to 9999 (Arrow holds such a
    time, Python's ``datetime`` cannot); a null is not."""
    ms = ts.cast(pa.int64()).to_numpy(zero_copy_only=False)
    with np.errstate(invalid="ignore"):  # nulls are NaN: neither below nor above
        return np.asarray((ms < TS_RANGE_MS[0]) | (ms > TS_RANGE_MS[1]), dtype=bool)


def any_ts_outside_years(ts: pa.ChunkedArray[Any] | pa.Array[Any]) -> bool:
    """Whether some time of a ``ts`` column lies outside years 1 to 9999 (its least and
    greatest: one pass, no array of answers)."""
    bounds = pc.min_max(ts.cast(pa.int64()))
    low, high = bounds["min"].as_py(), bounds["max"].as_py()
    return low is not None and (low < TS_RANGE_MS[0] or high > TS_RANGE_MS[1])


def is_json_object(text: str) -> bool:
    """Whether ``text`` is a JSON object (False too when it nests deeper than Python parses).

    >>> is_json_object('{"names": ["Ann"]}'), is_json_object("[1]"), is_json_object("{")
    (True, False, False)
    """
    try:
        return isinstance(json.loads(text), dict)
    except (ValueError, RecursionError):
        return False


def _unused_field_faults(b: _Batch) -> Iterable[_Fault]:
    """A field the event's type does not use (:mod:`replay.model.fields`, as the audit reports
    it)."""

    def describe(r: int) -> tuple[int | None, str]:
        return int(b.seq[r]), fields.message(b.types[r].as_py(), fields.first_unused(b.table, r))

    yield _Fault(fields.RULE, np.flatnonzero(fields.unused_field_rows(b.table)), describe)


CHECKS = (
    _null_faults,
    _value_faults,
    _sequence_faults,
    _setup_faults,
    _after_end_faults,
    _unused_field_faults,  # before the card check: a stray ``cards`` is this fault first
    _kind_faults,
)


def _first_faults(b: _Batch) -> dict[int, Rejection]:
    """The first fault (lowest row, then check order) of every bad game."""
    found: dict[int, tuple[int, int, _Fault]] = {}
    order = 0
    for check in CHECKS:
        for fault in check(b):
            order += 1
            if len(fault.rows) == 0:
                continue
            games, first_idx = np.unique(b.game[fault.rows], return_index=True)
            for g, i in zip(games.tolist(), first_idx.tolist(), strict=True):
                row = int(fault.rows[i])
                if g not in found or (row, order) < found[g][:2]:
                    found[g] = (row, order, fault)
    out = {}
    gid = b.table.column("game_id")
    for g, (row, _, fault) in found.items():
        seq, reason = fault.describe(row)
        out[g] = Rejection(fault.rule, reason, game_id=gid[row].as_py(), seq=seq)
    return out


def check_games(table: pa.Table, source: str | None = None) -> Checked:
    """Split ``table`` into storable games (sorted) and one rejection per bad game.

    Raises :class:`InvalidGame` (STORE-SCHEMA) when the whole input has the wrong schema.
    """
    table = conform(table, source)
    rejected: list[Rejection] = []
    no_id = table.column("game_id").is_null()
    if pc.any(no_id).as_py():
        count = (
            len(table)
            - table.column("game_id").null_count * 0
            - pc.count(table.column("game_id")).as_py()
        )
        rejected.append(
            Rejection(StoreRule.SCHEMA, f"{count} events without game_id", source=source)
        )
        table = table.filter(pc.invert(no_id))
    if table.num_rows == 0:
        return Checked(table, rejected)
    table = sort_events(table)
    batch = _Batch(table)
    bad = _first_faults(batch)
    for rejection in bad.values():
        rejected.append(
            Rejection(rejection.rule, rejection.reason, rejection.game_id, rejection.seq, source)
        )
    if bad:
        keep = ~np.isin(batch.game, np.fromiter(bad, dtype=np.int64))
        table = table.filter(pa.array(keep))
    return Checked(table, rejected)


def check_appended(
    game_id: str, events: list[Any], next_seq: int, kind: str | None, ended: bool
) -> None:
    """Light checks of events appended to a live stream at ``next_seq`` (raises InvalidGame).

    ``kind`` is the stream's kind (None for a new stream), ``ended`` whether it has a game_end.
    """
    for offset, event in enumerate(events):
        seq = next_seq + offset

        def fail(rule: RuleId, reason: str, seq: int = seq) -> InvalidGame:
            return InvalidGame(rule, reason, game_id=game_id, seq=seq)

        if event.game_id != game_id:
            raise fail(StoreRule.SCHEMA, f"event of game {event.game_id!r} in this stream")
        if event.seq != seq:
            raise fail(LogRule.SEQUENCE, f"event has seq {event.seq}, the stream's next is {seq}")
        if ended:
            raise fail(LogRule.AFTER_END, f"{event.type} after game_end")
        if (seq == 0) != (event.type == "game_start"):
            what = "the game begins with " if seq == 0 else "a second "
            raise fail(LogRule.SETUP, what + event.type)
        if kind is not None and event.kind != kind:
            raise fail(LogRule.SETUP, f"event of kind {event.kind!r} in a {kind!r} game")
        kind = event.kind
        if not known_kind(kind):
            raise fail(LogRule.SETUP, f"unknown game kind {kind!r}")
        types = allowed_types(kind)
        if types is not None and event.type not in types:
            raise fail(LogRule.ORDER, f"unknown {kind} event type {event.type!r}")
        unused = fields.unused_field(event)
        if unused is not None:
            raise fail(fields.RULE, fields.message(event.type, unused))
        codes = deck_codes(kind)
        if codes is not None:
            for code in (event.card, *(event.cards or ())):
                if code is not None and code not in codes:
                    raise fail(LogRule.CARD, f"unknown card code {code!r} for {kind}")
        ended = event.type == "game_end"
