"""Audit throughput over a simulated corpus of each game, clean and faulty, with 1 and 2 jobs.

Run: ``.venv/bin/python benchmarks/bench_audit.py [--events N | --games N] [--rounds R]
[--kind K] [--jobs J] [--store DIR]`` (``--store``: the two stores kept there and reused, to
compare two builds on the same corpus)
(``make bench`` runs it on the compiled build). A corpus of about 870,000 events per kind
(1,000 Hearts games) is simulated once and ingested into a temporary store, twice: as played
(clean), and with faults (faulty: every game has three wrong rulings, which the audit replaces
by the rules' own and goes on, and every fourth game also a decision out of turn or otherwise
illegal near its end, where the audit of that game stops). Each measurement
then runs in a fresh process that does what ``replay audit STORE --kind K --jobs J`` does:
scan the kind's events into one Arrow table, strings dictionary-encoded as stored (timed
apart, as "read"), then ``replay.audit.audit_many`` (Arrow table -> events -> every check, on
J processes; with 1 job, its events per second of the process's CPU time too, the figure least
moved by other work on a shared machine). Each measurement runs R times (3 by default), round
after round, and the best and the median are printed: with 2 jobs, single runs on this shared
machine move by up to 25%.
Target on this 2-core machine with 2 jobs: 40,000 Hearts hands/s, and the same events/s for the
other games; the faulty corpus at least half the clean one's events/s. With 1 job, the events/s
of the first and the last quarter of the slices are printed too: they should be alike (the
audit's cost per slice does not grow as it goes).
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
from dataclasses import replace
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from replay import engine_build
from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_rules, get_spec
from replay.games.fast import apply_in_place
from replay.games.rules import Phase
from replay.model.events import Event, events_to_table
from replay.model.violation import RuleViolation
from replay.store import EventStore

#: Events per kind: each kind's throughput is measured on the same volume (about 1,000 Hearts
#: games), large enough that starting the worker processes is a small part of the time.
EVENTS = 870_000


CORPORA = ("clean", "faulty")


def build_stores(path: Path, games: int | None, events: int) -> None:
    """Simulate ``games`` games of every kind (by default: as many as make ``events`` events)
    into two new stores: ``path/clean``, and ``path/faulty`` (:func:`with_faults`)."""
    clean = EventStore.open(path / "clean", create=True)
    faulty = EventStore.open(path / "faulty", create=True)
    for kind in available_kinds():
        rules = get_rules(kind)
        players = get_spec(kind).sample_players or rules.min_players
        corpus: list[Event] = []
        faults: list[Event] = []
        seed = 0
        while (seed < games) if games is not None else (len(corpus) < events):
            played = simulate_game(rules, f"{kind}{seed}", players=players, seed=seed)
            corpus += played
            faults += with_faults(rules, played, stop=seed % 4 == 3)
            seed += 1
        clean.ingest(events_to_table(corpus))
        faulty.ingest(events_to_table(faults))


def with_faults(rules: Any, events: list[Event], *, stop: bool) -> list[Event]:
    """``events`` with a wrong ruling near a quarter, half and three quarters of the game (the
    audit goes on with the rules' own), and with ``stop`` an event the state cannot absorb
    near its end (the audit of the game stops there)."""
    phases: list[Phase] = []
    state = rules.start(events[0])
    for event in events[1:]:
        phases.append(rules.due(state).phase)
        state = apply_in_place(rules, state, event)
    rulings = [i for i, p in enumerate(phases, 1) if p is Phase.RULING]
    decisions = [i for i, p in enumerate(phases, 1) if p is not Phase.RULING]
    wanted = {_at_or_after(rulings, len(events) * k // 4): True for k in (1, 2, 3)}
    if stop and decisions:
        wanted[_at_or_after(decisions, len(events) * 9 // 10)] = False
    seats = 1 + max(e.player for e in events if e.player is not None)
    out = list(events)
    state = rules.start(events[0])
    for index, event in enumerate(events[1:], 1):
        if index in wanted:
            out[index] = _fault(rules, state, event, seats, recoverable=wanted[index])
        state = apply_in_place(rules, state, event)
    return out


def _at_or_after(indices: list[int], index: int) -> int:
    """The first of ``indices`` at or after ``index`` (the last one if none is)."""
    return next((i for i in indices if i >= index), indices[-1])


def _fault(rules: Any, state: Any, event: Event, seats: int, *, recoverable: bool) -> Event:
    """A change of ``event`` that the rules find a fault, ``recoverable`` or not (``event``
    itself when no change tried is one)."""
    candidates = [
        replace(event, player=(event.player + k) % seats)
        for k in range(1, seats)
        if event.player is not None
    ]
    for name in ("amount", "total", "target"):
        if getattr(event, name) is not None:
            candidates.append(replace(event, **{name: getattr(event, name) + 1}))
    for candidate in candidates:
        try:
            rules.verify(state, candidate)
        except RuleViolation as violation:
            if violation.recoverable == recoverable:
                return candidate
    return event


def measure(path: str, kind: str, jobs: int) -> dict[str, Any]:
    """One audit as ``replay audit`` runs it (in this fresh process)."""
    from replay.audit import audit_many
    from replay.audit.check import plain_strings

    start = time.perf_counter()
    table = pa.Table.from_batches(list(EventStore.open(path).scan(kind, dictionary=True)))
    read = time.perf_counter() - start
    numbered = plain_strings(table.select(["game_id", "round"]))
    numbered = numbered.filter(pc.is_valid(numbered.column("round")))
    rounds = numbered.group_by(["game_id", "round"]).aggregate([]).num_rows
    slices: list[tuple[float, int]] = []  # (when, games) after each slice
    start, cpu = time.perf_counter(), time.process_time()
    report = audit_many(table, jobs, lambda n: slices.append((time.perf_counter(), n)))
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    faulty = path.endswith("faulty")
    if faulty:
        assert all(g.findings for g in report.games), "a game of the faulty corpus is clean"
    else:
        assert not report.findings, report.findings[:1]
    games = len(report.games)
    return {"games": games, "events": table.num_rows, "rounds": rounds, "read": read,
            "audit": seconds, "cpu": cpu, "findings": len(report.findings),
            "quarters": _quarter_rates(start, slices, table.num_rows / games)}  # fmt: skip


def _quarter_rates(start: float, slices: list[tuple[float, int]], per_game: float) -> list[float]:
    """Events/s over the first and the last quarter of the slices (about ``per_game`` events
    a game)."""
    if len(slices) < 4:
        return []
    times = [start] + [when for when, _ in slices]
    quarter = len(slices) // 4
    rates = []
    for part in (range(quarter), range(len(slices) - quarter, len(slices))):
        games = sum(slices[i][1] for i in part)
        rates.append(games * per_game / (times[part[-1] + 1] - times[part[0]]))
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=EVENTS, help="events per kind (about)")
    parser.add_argument("--games", type=int, help="games per kind (instead of --events)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each measurement")
    parser.add_argument("--kind", action="append", help="only this kind (repeatable)")
    parser.add_argument("--jobs", type=int, action="append", help="only this job count")
    parser.add_argument(
        "--store", type=Path, help="keep the two stores here (built when absent, else reused)"
    )
    parser.add_argument("--measure", nargs=3, metavar=("STORE", "KIND", "JOBS"), help="internal")
    args = parser.parse_args()
    if args.measure:
        path, kind, jobs = args.measure
        print(json.dumps(measure(path, kind, int(jobs))))
        return
    print(f"replay engine: {engine_build()}")
    print(f"{args.rounds} runs of each, one after the other; events/s and rounds/s: best, median")
    print(f"{'kind':<8}{'corpus':>7}{'games':>7}{'events':>10}{'findings':>9}{'read s':>8}"
          f"{'jobs':>5}{'events/s':>20}{'rounds/s':>18}{'events/cpu-s':>14}"
          f"{'first/last quarter':>22}")  # fmt: skip
    # As `replay` does before numpy is imported: OpenBLAS's idle threads would take a core.
    env = {**os.environ, "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS", "1")}
    runs: dict[tuple[str, str, int], list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        where = args.store or Path(tmp)
        if not (where / CORPORA[-1]).exists():
            build_stores(where, args.games, args.events)
        for _ in range(args.rounds):  # rounds outermost: a busy spell spreads over every case
            for kind in args.kind or available_kinds():
                for corpus in CORPORA:  # alternated: the load is alike for both
                    for jobs in args.jobs or (1, 2):
                        store = str(where / corpus)
                        command = [sys.executable, __file__, "--measure", store, kind, str(jobs)]
                        out = subprocess.run(command, check=True, capture_output=True,
                                             text=True, env=env).stdout  # fmt: skip
                        runs.setdefault((kind, corpus, jobs), []).append(json.loads(out))
    for (kind, corpus, jobs), results in runs.items():
        rates = [r["events"] / r["audit"] for r in results]
        rounds = [r["rounds"] / r["audit"] for r in results]
        measured = [r["quarters"] for r in results if r["quarters"]]
        quarters: list[float] = max(measured, key=lambda q: q[0] / q[1], default=[])  # the worst
        first = results[0]
        cpu = f"{max(r['events'] / r['cpu'] for r in results):>14,.0f}" if jobs == 1 else ""
        flat = f"{quarters[0]:>11,.0f}{quarters[1]:>11,.0f}" if jobs == 1 and quarters else ""
        print(
            f"{kind:<8}{corpus:>7}{first['games']:>7.0f}{first['events']:>10.0f}"
            f"{first['findings']:>9.0f}{first['read']:>8.2f}"
            f"{jobs:>5}{max(rates):>10,.0f}{statistics.median(rates):>10,.0f}"
            f"{max(rounds):>9,.0f}{statistics.median(rounds):>9,.0f}{cpu}{flat}"
        )


if __name__ == "__main__":
    main()
