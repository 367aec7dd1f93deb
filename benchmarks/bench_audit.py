"""Audit throughput over a simulated corpus of each game, with 1 and 2 jobs.

Run: ``.venv/bin/python benchmarks/bench_audit.py [--events N | --games N] [--rounds R]``
(``make bench`` runs it on the compiled build). A corpus of about 870,000 events per kind
(1,000 Hearts games) is simulated once and ingested into a temporary store; each measurement
then runs in a fresh process that does what ``replay audit STORE --kind K --jobs J`` does:
scan the kind's events into one Arrow table, strings dictionary-encoded as stored (timed
apart, as "read"), then ``replay.audit.audit_many`` (Arrow table -> events -> every check, on
J processes). Each measurement runs R times (3 by default), round after round, and the best
and the median are printed: with 2 jobs, single runs on this shared machine move by up to 25%.
Target on this 2-core machine with 2 jobs: 40,000 Hearts hands/s, and the same events/s for the
other games.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from replay import engine_build
from replay.events import Event, events_to_table
from replay.games import available_kinds, get_rules, get_spec
from replay.simulate import simulate_game
from replay.store import EventStore

#: Events per kind: each kind's throughput is measured on the same volume (about 1,000 Hearts
#: games), large enough that starting the worker processes is a small part of the time.
EVENTS = 870_000


def build_store(path: Path, games: int | None, events: int) -> None:
    """Simulate ``games`` games of every kind (by default: as many as make ``events`` events)
    into a new store."""
    store = EventStore.open(path, create=True)
    for kind in available_kinds():
        rules = get_rules(kind)
        players = get_spec(kind).sample_players or rules.min_players
        corpus: list[Event] = []
        seed = 0
        while (seed < games) if games is not None else (len(corpus) < events):
            corpus += simulate_game(rules, f"{kind}{seed}", players=players, seed=seed)
            seed += 1
        store.ingest(events_to_table(corpus))


def measure(path: str, kind: str, jobs: int) -> dict[str, float]:
    """One audit as ``replay audit`` runs it (in this fresh process)."""
    from replay.audit import audit_many, plain_strings

    start = time.perf_counter()
    table = pa.Table.from_batches(list(EventStore.open(path).scan(kind, dictionary=True)))
    read = time.perf_counter() - start
    numbered = plain_strings(table.select(["game_id", "round"]))
    numbered = numbered.filter(pc.is_valid(numbered.column("round")))
    rounds = numbered.group_by(["game_id", "round"]).aggregate([]).num_rows
    start = time.perf_counter()
    report = audit_many(table, jobs)
    seconds = time.perf_counter() - start
    assert not report.findings, report.findings[:1]
    games = len(report.games)
    return {"games": games, "events": table.num_rows, "rounds": rounds, "read": read,
            "audit": seconds}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=EVENTS, help="events per kind (about)")
    parser.add_argument("--games", type=int, help="games per kind (instead of --events)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each measurement")
    parser.add_argument("--measure", nargs=3, metavar=("STORE", "KIND", "JOBS"), help="internal")
    args = parser.parse_args()
    if args.measure:
        path, kind, jobs = args.measure
        print(json.dumps(measure(path, kind, int(jobs))))
        return
    print(f"replay engine: {engine_build()}")
    print(f"{args.rounds} runs of each, one after the other; events/s and rounds/s: best, median")
    print(f"{'kind':<8}{'games':>7}{'events':>10}{'read s':>8}{'jobs':>6}{'events/s':>20}"
          f"{'rounds/s':>18}")  # fmt: skip
    # As `replay` does before numpy is imported: OpenBLAS's idle threads would take a core.
    env = {**os.environ, "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS", "1")}
    runs: dict[tuple[str, int], list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "store"
        build_store(store, args.games, args.events)
        for _ in range(args.rounds):  # rounds outermost: a busy spell spreads over every case
            for kind in available_kinds():
                for jobs in (1, 2):
                    command = [sys.executable, __file__, "--measure", str(store), kind, str(jobs)]
                    out = subprocess.run(command, check=True, capture_output=True, text=True,
                                         env=env).stdout  # fmt: skip
                    runs.setdefault((kind, jobs), []).append(json.loads(out))
    for (kind, jobs), results in runs.items():
        rates = [r["events"] / r["audit"] for r in results]
        rounds = [r["rounds"] / r["audit"] for r in results]
        first = results[0]
        print(
            f"{kind:<8}{first['games']:>7.0f}{first['events']:>10.0f}{first['read']:>8.2f}"
            f"{jobs:>6}{max(rates):>10,.0f}{statistics.median(rates):>10,.0f}"
            f"{max(rounds):>9,.0f}{statistics.median(rounds):>9,.0f}"
        )


if __name__ == "__main__":
    main()
