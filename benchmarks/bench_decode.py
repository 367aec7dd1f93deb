"""Arrow -> Python decoding of the event table: ``to_pylist`` (reference) vs ``decode_columns``.

Run: ``.venv/bin/python benchmarks/bench_decode.py [--games N] [--repeat R] [--columns]``.
For a simulated corpus of each game, prints ns/event (best of R runs) of:

- ``to_pylist``: the reference conversion of ``events_from_table`` (``to_pylist`` per column,
  list cells made tuples), garbage collector on, as today;
- ``gc off``: the same with the collector paused (what the pause alone gains);
- ``decode``: :func:`replay.model.decode.decode_columns` (which pauses the collector itself).

With ``--columns``, each column too. Both results are checked equal first.
Target: Hearts total under 250 ns/event.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import pyarrow as pa

from replay import engine_build
from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_rules, get_spec
from replay.model.decode import _decode_column, decode_columns, paused_gc
from replay.model.events import COLUMNS, events_to_table

LIST_COLUMNS = ("cards", "values")


def reference_column(table: pa.Table, name: str) -> list[Any]:
    """One column as ``events_from_table`` converts it (``to_pylist``, list cells as tuples)."""
    values = table.column(name).to_pylist()
    if name in LIST_COLUMNS:
        return [tuple(v) if v is not None else None for v in values]
    return values


def reference_columns(table: pa.Table) -> list[list[Any]]:
    """Every column by the reference conversion, in COLUMNS order."""
    return [reference_column(table, name) for name in COLUMNS]


def decoded_column(table: pa.Table, name: str) -> list[Any]:
    """One column as ``decode_columns`` decodes it."""
    with paused_gc():
        return _decode_column(table.column(name)).rows(0, table.num_rows)


def without_gc(convert: Callable[[], object]) -> Callable[[], object]:
    """``convert`` run with the garbage collector paused."""

    def run() -> object:
        with paused_gc():
            return convert()

    return run


def best_ns_per_event(convert: Callable[[], object], events: int, repeat: int) -> float:
    """The best of ``repeat`` timings of ``convert()``, in ns per event (result dropped)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = convert()
        best = min(best, time.perf_counter() - start)
        del result
    return best / events * 1e9


def corpus(kind: str, games: int) -> pa.Table:
    """An event table of ``games`` simulated games of one kind."""
    rules = get_rules(kind)
    players = get_spec(kind).sample_players or rules.min_players
    logs = [simulate_game(rules, f"d{i}", players=players, seed=i) for i in range(games)]
    return events_to_table([e for log in logs for e in log])


def timings(table: pa.Table, columns: bool, repeat: int) -> list[tuple[str, float, float, float]]:
    """(label, reference, reference without gc, decode) in ns/event: per column, then total."""
    cases: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
        (name, _bind(reference_column, table, name), _bind(decoded_column, table, name))
        for name in (COLUMNS if columns else ())
    ]
    cases.append(("total", lambda: reference_columns(table), lambda: decode_columns(table)))
    rows = table.num_rows
    return [
        (
            label,
            best_ns_per_event(reference, rows, repeat),
            best_ns_per_event(without_gc(reference), rows, repeat),
            best_ns_per_event(decode, rows, repeat),
        )
        for label, reference, decode in cases
    ]


def _bind(
    convert: Callable[[pa.Table, str], list[Any]], table: pa.Table, name: str
) -> Callable[[], object]:
    """``convert(table, name)`` as a thunk."""
    return lambda: convert(table, name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--columns", action="store_true", help="also time each column")
    args = parser.parse_args()
    print(f"replay engine: {engine_build()}")
    print(f"{'kind':<8}{'column':<9}{'events':>8}{'to_pylist':>11}{'gc off':>8}{'decode':>8}")
    for kind in available_kinds():
        table = corpus(kind, args.games)
        assert decode_columns(table) == reference_columns(table), kind
        for label, before, before_no_gc, after in timings(table, args.columns, args.repeat):
            print(
                f"{kind:<8}{label:<9}{table.num_rows:>8}{before:>11.1f}{before_no_gc:>8.1f}"
                f"{after:>8.1f}  x{before / after:.1f}"
            )


if __name__ == "__main__":
    main()
