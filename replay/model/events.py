"""The event model: one row per event, shared by the four games.

An event is a fact about one game: its position (``game_id``, ``seq``), what happened (``type``),
and typed optional fields for what it carries. The same fields are the Parquet columns of the
store and the keys of the JSON Lines format, so SQL aggregates tricks and scores without parsing
JSON; ``data`` (a JSON text) is only for rare setup data on ``game_start``.

Every event type belongs to one of four categories:

- ``setup``: the game start (kind, seats, players, bots, options, stakes);
- ``chance``: an outcome of shuffling or drawing (deal, start card, drawn card, token order...);
- ``decision``: a player's choice, checked for legality (play, pass, discard, draw...);
- ``ruling``: what the rules make follow (trick won, token taken, Fool, scores, payouts, end),
  recomputed by the audit and compared.

>>> e = Event(game_id="g1", seq=3, kind="hearts", type="play", player=2, card="QS")
>>> e.describe()
'#3 play seat 2 QS'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from datetime import datetime
from enum import StrEnum
from typing import Any, Final

import pyarrow as pa
from mypy_extensions import i64, mypyc_attr

from replay.model.cells import BYTES, CONSTANT, CUT, LISTED, SHORTS, Column


class Category(StrEnum):
    """What kind of fact an event records."""

    SETUP = "setup"
    CHANCE = "chance"
    DECISION = "decision"
    RULING = "ruling"


#: The Arrow/Parquet schema of the event table, column by column.
_FIELDS: list[pa.Field[Any]] = [
    pa.field("game_id", pa.string(), nullable=False),
    pa.field("seq", pa.int32(), nullable=False),
    pa.field("kind", pa.string(), nullable=False),
    pa.field("type", pa.string(), nullable=False),
    pa.field("round", pa.int16()),
    pa.field("trick", pa.int16()),
    pa.field("player", pa.int8()),
    pa.field("target", pa.int8()),
    pa.field("card", pa.string()),
    pa.field("cards", pa.list_(pa.string())),
    pa.field("suit", pa.string()),
    pa.field("amount", pa.int32()),
    pa.field("total", pa.int32()),
    pa.field("values", pa.list_(pa.int32())),
    pa.field("ts", pa.timestamp("ms", tz="UTC")),
    pa.field("data", pa.string()),
]
SCHEMA = pa.schema(_FIELDS)

COLUMNS: tuple[str, ...] = tuple(SCHEMA.names)


#: True when this module runs compiled by mypyc (see setup.py).
COMPILED: Final = not __file__.endswith(".py")


@mypyc_attr(acyclic=True)  # compiled: no garbage-collector header or tracking
@dataclass(frozen=True, slots=True, init=False)
class Event:
    """One recorded event. Optional fields are ``None`` when the event type does not use them.

    An event holds only strings, numbers, tuples of them and a time: it can never be part of a
    reference cycle, so the compiled class skips the cyclic collector (``acyclic``): a third
    less work to allocate and free each of the millions of events an audit builds.
    """

    game_id: str
    seq: int
    kind: str
    type: str
    round: int | None = None
    trick: int | None = None
    player: int | None = None
    target: int | None = None
    card: str | None = None
    cards: tuple[str, ...] | None = None
    suit: str | None = None
    amount: int | None = None
    total: int | None = None
    values: tuple[int, ...] | None = None
    ts: datetime | None = None
    data: str | None = None

    def __init__(
        self,
        game_id: str,
        seq: int,
        kind: str,
        type: str,
        round: int | None = None,
        trick: int | None = None,
        player: int | None = None,
        target: int | None = None,
        card: str | None = None,
        cards: tuple[str, ...] | None = None,
        suit: str | None = None,
        amount: int | None = None,
        total: int | None = None,
        values: tuple[int, ...] | None = None,
        ts: datetime | None = None,
        data: str | None = None,
    ) -> None:
        if not COMPILED:  # the frozen fields are set through their slots
            _fill_event(
                self, game_id, seq, kind, type, round, trick, player, target, card, cards,
                suit, amount, total, values, ts, data,
            )  # fmt: skip
            return
        # Compiled, mypyc writes the fields directly: 20x faster than a frozen dataclass's
        # generated __init__, and the instance stays frozen for all other code.
        self.game_id = game_id  # type: ignore[misc]
        self.seq = seq  # type: ignore[misc]
        self.kind = kind  # type: ignore[misc]
        self.type = type  # type: ignore[misc]
        self.round = round  # type: ignore[misc]
        self.trick = trick  # type: ignore[misc]
        self.player = player  # type: ignore[misc]
        self.target = target  # type: ignore[misc]
        self.card = card  # type: ignore[misc]
        self.cards = cards  # type: ignore[misc]
        self.suit = suit  # type: ignore[misc]
        self.amount = amount  # type: ignore[misc]
        self.total = total  # type: ignore[misc]
        self.values = values  # type: ignore[misc]
        self.ts = ts  # type: ignore[misc]
        self.data = data  # type: ignore[misc]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and copied) through the constructor, the same in both builds."""
        return (Event, field_values(self))

    def setup(self) -> dict[str, Any]:
        """The parsed ``data`` JSON of a ``game_start`` event (empty when absent)."""
        if not self.data:
            return {}
        try:
            parsed = json.loads(self.data)
        except RecursionError:
            raise ValueError("game_start data nests too deeply to parse") from None
        if not isinstance(parsed, dict):
            raise ValueError("game_start data must be a JSON object")
        return parsed

    def payload(self) -> dict[str, Any]:
        """The fields that make the fact, without position, kind or time (for comparisons)."""
        out: dict[str, Any] = {}
        for name in PAYLOAD_FIELDS:
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out

    def describe(self) -> str:
        """A one-line human description, e.g. ``#12 play seat 2 QS``."""
        parts = [f"#{self.seq}", self.type]
        if self.player is not None:
            parts.append(f"seat {self.player}")
        if self.target is not None:
            parts.append(f"-> seat {self.target}")
        if self.card is not None:
            parts.append(self.card)
        if self.cards is not None:
            parts.append("[" + " ".join(self.cards) + "]")
        if self.suit is not None:
            parts.append(f"suit {self.suit}")
        if self.amount is not None:
            parts.append(f"amount {self.amount}")
        if self.total is not None:
            parts.append(f"total {self.total}")
        if self.values is not None:
            parts.append("(" + " ".join(map(str, self.values)) + ")")
        return " ".join(parts)

    def at(self, seq: int) -> Event:
        """The same event at another sequence number."""
        return replace(self, seq=seq)


#: Fields that describe what happened (compared when a ruling is recomputed).
PAYLOAD_FIELDS: tuple[str, ...] = (
    "type",
    "round",
    "trick",
    "player",
    "target",
    "card",
    "cards",
    "suit",
    "amount",
    "total",
    "values",
)

EVENT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Event))
assert EVENT_FIELDS == COLUMNS, "Event fields and SCHEMA columns must match"


def field_values(event: Event) -> tuple[Any, ...]:
    """The event's fields in :data:`COLUMNS` order (compiled, each read directly: reading
    them by name costs ten times as much).

    >>> field_values(Event("g", 3, "hearts", "play", player=2, card="QS"))[:9]
    ('g', 3, 'hearts', 'play', None, None, 2, None, 'QS')
    """
    e = event
    return (
        e.game_id, e.seq, e.kind, e.type, e.round, e.trick, e.player, e.target, e.card,
        e.cards, e.suit, e.amount, e.total, e.values, e.ts, e.data,
    )  # fmt: skip


def _pure_constructors() -> tuple[Callable[..., None], Callable[..., Event]]:
    """``fill(event, game_id, seq, ...)`` setting every slot of a new event, and
    ``make(game_id, seq, ...)`` building one: straight-line functions, twice as fast in pure
    Python as a frozen dataclass's ``__init__`` (which goes through ``object.__setattr__``)."""
    args = ", ".join(COLUMNS)
    body = "".join(f"    set_{name}(event, {name})\n" for name in COLUMNS)
    source = (
        f"def fill(event, {args}):\n{body}\n"
        f"def make({args}):\n    event = new(Event)\n{body}    return event\n"
    )
    namespace: dict[str, Any] = {"new": Event.__new__, "Event": Event}
    namespace.update({f"set_{name}": getattr(Event, name).__set__ for name in COLUMNS})
    exec(source, namespace)
    return namespace["fill"], namespace["make"]


def _compiled_fill(*values: Any) -> None:
    raise AssertionError("compiled, Event.__init__ sets its fields itself")


#: ``_fill_event`` serves Event.__init__ in pure Python; ``_stored_event`` builds an event from
#: its 16 column values in COLUMNS order (compiled, Event's own constructor is the fastest).
_fill_event, _stored_event = (
    (_compiled_fill, Event) if COMPILED else _pure_constructors()
)  # fmt: skip


@mypyc_attr(acyclic=True)
class EventRow(Event):
    """The event of one row of decoded columns after another, refilled in place by
    :func:`visit_rows` so that the audit's clean path allocates nothing per row.

    An :class:`Event` is a fact and never changes; an ``EventRow`` is the one event that does.
    It is valid only during the visit of its row: whoever keeps one keeps a copy
    (:func:`fact_of`)."""


def blank_row() -> EventRow:
    """A row for :func:`visit_rows` to fill (its first visit sets every field)."""
    return EventRow("", 0, "", "")


def same_payload(a: Event, b: Event) -> bool:
    """Whether two events record the same fact (every field of PAYLOAD_FIELDS equal).

    >>> same_payload(Event("g", 3, "hearts", "play", card="QS"), Event("h", 9, "hearts", "play",
    ...     card="QS"))
    True
    """
    return (
        a.type == b.type and a.player == b.player and a.amount == b.amount
        and a.round == b.round and a.trick == b.trick and a.target == b.target
        and a.card == b.card and a.cards == b.cards and a.suit == b.suit
        and a.total == b.total and a.values == b.values
    )  # fmt: skip


def events_from_columns(columns: list[Column], start: int, stop: int) -> list[Event]:
    """The events of rows ``start`` to ``stop`` of decoded columns (``replay.model.decode``)."""
    collector = _Collector()
    visit_rows(columns, start, stop, collector)
    return collector.events


def event_at(columns: list[Column], row: i64) -> Event:
    """The event of one row of decoded columns (a cell read per column: cheaper, for one row,
    than setting up :func:`visit_rows`' loop)."""
    c = columns
    return Event(
        c[0].at(row), c[1].at(row), c[2].at(row), c[3].at(row), c[4].at(row), c[5].at(row),
        c[6].at(row), c[7].at(row), c[8].at(row), c[9].at(row), c[10].at(row), c[11].at(row),
        c[12].at(row), c[13].at(row), c[14].at(row), c[15].at(row),
    )  # fmt: skip


@mypyc_attr(allow_interpreted_subclasses=True)
class RowVisitor:
    """What :func:`visit_rows` hands each row's event to."""

    def visit(self, event: Event, row: i64) -> bool:
        """Take the event of ``row``: True to go on, False to stop at this row."""
        raise NotImplementedError


class _Collector(RowVisitor):
    """Keeps every event it is given (:func:`events_from_columns`)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def visit(self, event: Event, row: i64) -> bool:
        self.events.append(event)
        return True


def visit_rows(
    columns: list[Column],
    start: int,
    stop: int,
    visitor: RowVisitor,
    scratch: EventRow | None = None,
    changes: bytes = b"",
) -> int:
    """Hand the event of each row from ``start`` to ``stop`` to ``visitor`` until it answers
    False: the row where it stopped (``stop`` when it took them all).

    Each row is a new event; with ``scratch``, it is ``scratch`` itself, refilled row by row:
    the audit's clean path, which allocates nothing per row. Such an event is valid only during
    its ``visit`` call, must not be kept, and must be one that nobody else holds: events are
    facts.

    ``changes``, from :func:`replay.model.decode.row_changes` on the same columns (and nothing
    else), says which cells of each row may differ from the row before: compiled, only those
    fields are read and written after the first row (about 4 of the 16 in a game's rows).
    """
    if not COMPILED:
        rows = zip(*(column.rows(start, stop) for column in columns), strict=True)
        for index, cells in enumerate(rows, start):
            if scratch is None:
                event = _stored_event(*cells)
            else:
                _fill_event(scratch, *cells)
                event = scratch
            if not visitor.visit(event, index):
                return index
        return stop
    if start >= stop:
        return stop
    if scratch is None:
        return _visit_rows(columns, start, stop, visitor, blank_row(), changes, True)
    return _visit_rows(columns, start, stop, visitor, scratch, changes, False)


#: A row whose every cell may differ from the row before (see :func:`visit_rows`).
ALL_CHANGED: Final[i64] = (1 << 16) - 1


def _visit_rows(
    columns: list[Column],
    start: i64,
    stop: i64,
    visitor: RowVisitor,
    event: EventRow,
    changes: bytes,
    copies: bool,
) -> int:
    """:func:`visit_rows`, compiled: ``event`` is refilled row by row, each field only where
    ``changes`` has its column's bit (every field on the first row, and on every row when
    ``changes`` is empty); with ``copies``, the visitor gets a copy of it.

    The audit's hottest loop. A cell of a one-byte-coded, listed or constant column (all but
    two-byte-coded ones) is read inline from locals (``_reader``): a byte and a list item, not
    a method call (``Column.at``); so is ``seq``'s two-byte code, and a list cell is cut from
    its column's items as it is read (``_cut_reader``: its count byte, and where the next row's
    items begin, which only a row whose cell is not None moves on: ``changes`` marks every such
    row).
    """
    game_ids, seqs, kinds, types, rounds, tricks, players, targets = columns[:8]
    cards, card_lists, suits, amounts, totals, value_lists, times, datas = columns[8:]
    gv, gc, gb, gl, gk = _reader(game_ids)
    sv, sc, sb, sl, sk = _reader(seqs)
    s2 = seqs.form == SHORTS
    kv, kc, kb, kl, kk = _reader(kinds)
    tv, tc, tb, tl, tk = _reader(types)
    rv, rc, rb, rl, rk = _reader(rounds)
    nv, nc, nb, nl, nk = _reader(tricks)
    pv, pc, pb, pl, pk = _reader(players)
    av, ac, ab, al, ak = _reader(targets)
    cv, cc, cb, cl, ck = _reader(cards)
    lv, lc, lb, ll, lk = _reader(card_lists)
    uv, uc, ub, ul, uk = _reader(suits)
    mv, mc, mb, ml, mk = _reader(amounts)
    ov, oc, ob, ol, ok = _reader(totals)
    vv, vc, vb, vl, vk = _reader(value_lists)
    xv, xc, xb, xl, xk = _reader(times)
    dv, dc, db, dl, dk = _reader(datas)
    # List columns cut as they are read (``CUT``): where the next row's items begin.
    l_cut, l_items, l_first = _cut_reader(card_lists, start)
    v_cut, v_items, v_first = _cut_reader(value_lists, start)
    count: i64 = 0
    end: i64 = 0
    e = event
    tracked = len(changes) > 0
    mask: i64 = ALL_CHANGED
    row: i64 = start
    while row < stop:
        if tracked and row > start:
            low: i64 = changes[2 * row]
            high: i64 = changes[2 * row + 1]
            mask = low | (high << 8)
        if mask & 1:
            e.game_id = (  # type: ignore[misc]
                gv[gc[row]] if gb else gv[row] if gl else gv[0] if gk else game_ids.at(row)
            )
        if mask & 2:
            if s2:  # seq: two-byte codes in every game of more than 255 rows
                low2: i64 = sc[2 * row]
                high2: i64 = sc[2 * row + 1]
                e.seq = sv[low2 | (high2 << 8)]  # type: ignore[misc]
            else:
                e.seq = (  # type: ignore[misc]
                    sv[sc[row]] if sb else sv[row] if sl else sv[0] if sk else seqs.at(row)
                )
        if mask & 4:
            e.kind = (  # type: ignore[misc]
                kv[kc[row]] if kb else kv[row] if kl else kv[0] if kk else kinds.at(row)
            )
        if mask & 8:
            e.type = (  # type: ignore[misc]
                tv[tc[row]] if tb else tv[row] if tl else tv[0] if tk else types.at(row)
            )
        if mask & 16:
            e.round = (  # type: ignore[misc]
                rv[rc[row]] if rb else rv[row] if rl else rv[0] if rk else rounds.at(row)
            )
        if mask & 32:
            e.trick = (  # type: ignore[misc]
                nv[nc[row]] if nb else nv[row] if nl else nv[0] if nk else tricks.at(row)
            )
        if mask & 64:
            e.player = (  # type: ignore[misc]
                pv[pc[row]] if pb else pv[row] if pl else pv[0] if pk else players.at(row)
            )
        if mask & 128:
            e.target = (  # type: ignore[misc]
                av[ac[row]] if ab else av[row] if al else av[0] if ak else targets.at(row)
            )
        if mask & 256:
            e.card = (  # type: ignore[misc]
                cv[cc[row]] if cb else cv[row] if cl else cv[0] if ck else cards.at(row)
            )
        if mask & 512:
            if l_cut:  # its count byte: 0 for None, else the length + 1
                count = lc[row]
                if count:
                    end = l_first + count - 1
                    e.cards = l_items[l_first:end]  # type: ignore[misc]
                    l_first = end
                else:
                    e.cards = None  # type: ignore[misc]
            else:
                e.cards = (  # type: ignore[misc]
                    lv[lc[row]] if lb else lv[row] if ll else lv[0] if lk else card_lists.at(row)
                )
        if mask & 1024:
            e.suit = (  # type: ignore[misc]
                uv[uc[row]] if ub else uv[row] if ul else uv[0] if uk else suits.at(row)
            )
        if mask & 2048:
            e.amount = (  # type: ignore[misc]
                mv[mc[row]] if mb else mv[row] if ml else mv[0] if mk else amounts.at(row)
            )
        if mask & 4096:
            e.total = (  # type: ignore[misc]
                ov[oc[row]] if ob else ov[row] if ol else ov[0] if ok else totals.at(row)
            )
        if mask & 8192:
            if v_cut:
                count = vc[row]
                if count:
                    end = v_first + count - 1
                    e.values = v_items[v_first:end]  # type: ignore[misc]
                    v_first = end
                else:
                    e.values = None  # type: ignore[misc]
            else:
                e.values = (  # type: ignore[misc]
                    vv[vc[row]] if vb else vv[row] if vl else vv[0] if vk else value_lists.at(row)
                )
        if mask & 16384:
            e.ts = (  # type: ignore[misc]
                xv[xc[row]] if xb else xv[row] if xl else xv[0] if xk else times.at(row)
            )
        if mask & 32768:
            e.data = (  # type: ignore[misc]
                dv[dc[row]] if db else dv[row] if dl else dv[0] if dk else datas.at(row)
            )
        if not visitor.visit(fact_of(e) if copies else e, row):
            return row
        row += 1
    return stop


def fact_of(event: Event) -> Event:
    """An event with the fields of ``event`` (of an :class:`EventRow`: the fact it holds now)."""
    e = event
    return Event(
        e.game_id, e.seq, e.kind, e.type, e.round, e.trick, e.player, e.target, e.card, e.cards,
        e.suit, e.amount, e.total, e.values, e.ts, e.data,
    )  # fmt: skip


def _cut_reader(column: Column, row: i64) -> tuple[bool, tuple[Any, ...], i64]:
    """Whether a column is cut as it is read (:data:`~replay.model.cells.CUT`), its items, and
    where row ``row``'s begin among them."""
    if column.form != CUT:
        return False, (), 0
    return True, column.elements, column.first_item(row)


def _reader(column: Column) -> tuple[list[Any], bytes, bool, bool, bool]:
    """What :func:`events_from_columns` reads a column's cells with: its values, its codes, and
    whether it is one-byte-coded, listed or constant."""
    form = column.form
    return column.values, column.codes, form == BYTES, form == LISTED, form == CONSTANT


def events_to_table(events: list[Event]) -> pa.Table:
    """Convert events to an Arrow table in :data:`SCHEMA`."""
    arrays = []
    for name in COLUMNS:
        values = [getattr(e, name) for e in events]
        if name in ("cards", "values"):
            values = [list(v) if v is not None else None for v in values]
        arrays.append(pa.array(values, type=SCHEMA.field(name).type))
    return pa.Table.from_arrays(arrays, schema=SCHEMA)


def conform_events(table: pa.Table) -> pa.Table:
    """An events table with every column of :data:`SCHEMA` (missing ones null)."""
    columns: list[Any] = [
        table.column(f.name).cast(f.type)
        if f.name in table.column_names
        else pa.nulls(table.num_rows, f.type)
        for f in SCHEMA
    ]
    return pa.Table.from_arrays(columns, schema=SCHEMA)


def seat_names(events: Sequence[Event]) -> list[str]:
    """The players' names from ``game_start`` (empty when it has none)."""
    start = next((e for e in events if e.type == "game_start"), None)
    if start is None or not start.data:
        return []
    try:
        setup = json.loads(start.data)
    except (ValueError, RecursionError):  # a setup nested too deep is a LOG-SETUP finding
        return []
    names = setup.get("names") if isinstance(setup, dict) else None
    return [str(n) for n in names] if isinstance(names, list) else []
