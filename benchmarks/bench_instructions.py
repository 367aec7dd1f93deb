"""Instructions per audited event, counted by valgrind (callgrind): repeatable, unlike seconds.

Run: ``PYTHONPATH=build/native .venv/bin/python benchmarks/bench_instructions.py`` (the compiled
build; ``make native`` first). For each kind, 100 simulated games (30 of Hez2, whose games are
long) are ingested into a temporary store, scanned back as ``replay audit`` scans them, and one
``replay.audit.audit_table`` call over all of them (what a worker does with a slice: decode the
Arrow columns, build the events, audit every game) runs under callgrind, which counts the
instructions executed inside that call only. The count does not move with the load of this
shared machine, so it decides between two versions of the code where wall-clock figures (+-15%
here with 2 jobs) cannot.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pyarrow as pa

from replay import engine_build
from replay.audit import audit_table
from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_rules, get_spec
from replay.model.events import Event, events_to_table
from replay.store import EventStore

GAMES = {"hez2": 30}
DEFAULT_GAMES = 100
#: The compiled entry point of ``audit_table`` (mypyc's Python-facing wrapper).
COMPILED_SYMBOL = "CPyPy_check___audit_table"


def build_store(path: Path) -> None:
    """The benchmark's games of every kind, ingested into a new store."""
    store = EventStore.open(path, create=True)
    for kind in available_kinds():
        rules = get_rules(kind)
        players = get_spec(kind).sample_players or rules.min_players
        corpus: list[Event] = []
        for seed in range(GAMES.get(kind, DEFAULT_GAMES)):
            corpus += simulate_game(rules, f"{kind}{seed}", players=players, seed=seed)
        store.ingest(events_to_table(corpus))


def audit_once(path: str, kind: str) -> None:
    """The measured run (in the process valgrind watches): one ``audit_table`` call."""
    table = pa.Table.from_batches(list(EventStore.open(path).scan(kind, dictionary=True)))
    get_rules(kind)  # the game module's import is not part of the count
    print(table.num_rows)
    audit_table(table)


def count(path: Path, kind: str) -> tuple[int, int]:
    """(events, instructions) of one ``audit_table`` call under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        command = [
            "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
            f"--toggle-collect={COMPILED_SYMBOL}",
            sys.executable, __file__, "--measure", str(path), kind,
        ]  # fmt: skip
        result = subprocess.run(command, capture_output=True, text=True, check=True)
        events = int(result.stdout.split()[0])
        totals = [line for line in out.read_text().splitlines() if line.startswith("totals:")]
        return events, int(totals[0].split()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--measure", nargs=2, metavar=("STORE", "KIND"), help="internal")
    args = parser.parse_args()
    if args.measure:
        audit_once(*args.measure)
        return
    build = engine_build()
    print(f"replay engine: {build}")
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt install valgrind)")
    if "compiled" not in build:
        print("note: the pure-Python build: callgrind cannot see inside audit_table; run with "
              "PYTHONPATH=build/native after make native")  # fmt: skip
        return
    print(f"{'kind':<8}{'games':>7}{'events':>9}{'instructions':>15}{'per event':>11}")
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "store"
        build_store(store)
        for kind in available_kinds():
            events, instructions = count(store, kind)
            games = GAMES.get(kind, DEFAULT_GAMES)
            per_event = instructions / events
            print(f"{kind:<8}{games:>7}{events:>9,}{instructions:>15,}{per_event:>11,.0f}")


if __name__ == "__main__":
    main()
