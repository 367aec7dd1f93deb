"""Store benchmark: Arrow batch ingest, JSON Lines export and import, bytes per event, full scan.

    .venv/bin/python benchmarks/bench_store.py [--games 3000] [--sim-games 1000] [--keep]

The synthetic corpus (``replay.store.synthetic``, about 690 events per game) measures
throughput (the import twice: the whole file parsed at once, and as ``replay import`` does it,
streamed in pieces of 16 MB); bytes per event is measured on it and on simulated Hearts games
after compaction.
Targets (2 cores): ingest >= 1,000,000 events/s, JSONL import >= 500,000 lines/s, <= 2 bytes per
event for Hearts logs.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from replay import engine_build
from replay.engine.simulate import simulate_corpus
from replay.games import get_rules
from replay.store import EventStore
from replay.store.jsonl import read_jsonl, write_lines
from replay.store.stream import import_jsonl
from replay.store.synthetic import hearts_like_table

T = TypeVar("T")


def timed(label: str, count: int, unit: str, work: Callable[[], T]) -> T:
    """Run ``work``; print its rate per second of wall time and of this process's CPU time
    (the second less moved by other work on a shared machine; threads add to it)."""
    start, cpu = time.perf_counter(), time.process_time()
    result = work()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(
        f"{label:34} {count:>10,} {unit} in {seconds:6.2f} s = {count / seconds:>12,.0f} {unit}/s"
        f" ({count / cpu:,.0f} {unit}/cpu-s)"
    )
    return result


def bytes_per_event(store: EventStore, label: str) -> None:
    store.compact()
    info = store.info()
    print(f"{label:34} {info.bytes_per_event:10.3f} bytes/event ({info.files} files)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="synthetic games")
    parser.add_argument("--sim-games", type=int, default=1000, help="simulated Hearts games")
    parser.add_argument("--keep", action="store_true", help="keep the work dir (else deleted)")
    args = parser.parse_args()
    print(f"replay engine: {engine_build()}")
    work = Path(tempfile.mkdtemp(prefix="bench_store_"))
    try:
        run(args, work)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def run(args: argparse.Namespace, work: Path) -> None:
    """All the measures, in ``work``."""
    table = hearts_like_table(args.games, seed=1)
    n = table.num_rows
    print(f"corpus: {args.games} synthetic Hearts games, {n:,} events; work dir {work}")

    store = EventStore.open(work / "arrow", create=True)
    report = timed("ingest (Arrow batch, one commit)", n, "events", lambda: store.ingest(table))
    assert report.ok and report.events == n
    scanned = timed(
        "full scan (Arrow batches)", n, "events", lambda: sum(b.num_rows for b in store.scan())
    )
    assert scanned == n

    jsonl = work / "corpus.jsonl"

    def export() -> None:
        with jsonl.open("w", encoding="utf-8") as out:
            write_lines(store.scan(), out)

    timed("export JSON Lines", n, "lines", export)
    target = EventStore.open(work / "jsonl", create=True)

    def import_lines() -> int:
        read = read_jsonl(jsonl)
        return target.ingest(read.table, source=str(jsonl)).events

    assert timed("import JSON Lines (parse + ingest)", n, "lines", import_lines) == n
    streamed = EventStore.open(work / "streamed", create=True)

    def import_streamed() -> int:
        return import_jsonl(streamed, jsonl).report.events

    assert timed("replay import (streamed)", n, "lines", import_streamed) == n
    bytes_per_event(store, "synthetic Hearts after compaction")

    if args.sim_games:
        rules = get_rules("hearts")
        games = timed(
            "simulate Hearts games",
            args.sim_games,
            "games",
            lambda: list(simulate_corpus(rules, games=args.sim_games, seed=5, players=4)),
        )
        sim = EventStore.open(work / "sim", create=True)
        events = sum(len(g) for g in games)
        timed("ingest simulated (list[Event])", events, "events", lambda: sim.ingest(games))
        bytes_per_event(sim, "simulated Hearts after compaction")


if __name__ == "__main__":
    main()
