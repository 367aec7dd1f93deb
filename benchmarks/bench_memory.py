"""Peak memory of ``replay import``, ``replay audit STORE`` and ``replay audit FILE.jsonl`` by
size (targets: import at most 500 MB and either audit at most 600 MB whatever the size; import
at least 500,000 lines/s).

Each measurement runs the command in a child process and reads its peak resident set size
(``getrusage`` of the children: the largest of the command and its audit workers); about 240 MB
of it is the command itself (Python and its libraries loaded). The corpus is the synthetic
Hearts-shaped one (``replay.store.synthetic``), written as JSON Lines. The load average after
each measure tells how much the machine's other work slowed it.

    python benchmarks/bench_memory.py            # 1M, 5M and 20M lines
    python benchmarks/bench_memory.py 1000000    # the sizes given
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from replay.store.jsonl import write_lines
from replay.store.synthetic import hearts_like_table

SIZES = (1_000_000, 5_000_000, 20_000_000)
#: Events of one synthetic game (about 700): games per million lines.
GAMES_PER_MILLION = 1_400


def write_corpus(path: Path, lines: int) -> int:
    """Write at least ``lines`` events as JSON Lines (in batches); returns the number written."""
    written = 0
    seed = 0
    with path.open("w", encoding="utf-8") as out:
        while written < lines:
            table = hearts_like_table(games=GAMES_PER_MILLION // 4, seed=seed)
            table = table.set_column(0, "game_id", _renamed(table, seed))
            written += write_lines(table.to_batches(), out)
            seed += 1
    return written


def _renamed(table: pa.Table, seed: int) -> Any:
    """The game ids of one batch made unique across batches (``b3-...``)."""
    join: Any = pc.binary_join_element_wise
    return join(f"b{seed}-", table.column("game_id"), "")


#: Runs a command and prints its children's peak RSS (its own process: a fresh maximum).
_PEAK = (
    "import resource, subprocess, sys; done = subprocess.run(sys.argv[1:]);"
    "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def measure(*args: str) -> tuple[float, float]:
    """Seconds and peak RSS (MB: the command or its largest audit worker) of ``replay ARGS``."""
    command = [sys.executable, "-c", "from replay.cli import main; main()", *args]
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, *command], capture_output=True, text=True, check=True
    )
    seconds = time.perf_counter() - start
    code, peak = (int(x) for x in done.stdout.split()[-2:])
    if code not in (0, 1):
        raise SystemExit(f"replay {' '.join(args)} failed ({code}): {done.stderr.strip()}")
    return seconds, peak / 1024


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or list(SIZES)
    print(f"load: {os.getloadavg()}")
    for size in sizes:
        with tempfile.TemporaryDirectory(prefix="bench-memory-", dir=os.environ.get("TMPDIR")) as d:
            log = Path(d) / "log.jsonl"
            lines = write_corpus(log, size)
            seconds, peak = measure("import", str(log), "--into", str(Path(d) / "store"))
            rate = lines / seconds
            print(f"import {lines:>11,} lines: {peak:7.0f} MB peak, {seconds:6.1f} s, "
                  f"{rate:9,.0f} lines/s, load {os.getloadavg()[0]:.1f}")  # fmt: skip
            seconds, peak = measure("audit", str(log), "--format", "json")
            print(f"audit  {lines:>11,} lines of a file: {peak:6.0f} MB peak, {seconds:6.1f} s, "
                  f"load {os.getloadavg()[0]:.1f}")  # fmt: skip
            log.unlink()
            seconds, peak = measure("audit", str(Path(d) / "store"), "--format", "json")
            print(f"audit  {lines:>11,} events: {peak:6.0f} MB peak, {seconds:6.1f} s, "
                  f"load {os.getloadavg()[0]:.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
