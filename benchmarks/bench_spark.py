"""Local engine vs Spark ``local[N]``: the audit and every statistics query on one store.

    .venv/bin/python benchmarks/bench_spark.py --store /work/bench/spark [--games 5000]
        [--distinct 1000] [--master local[2]] [--rounds 2] [--rebuild]

The store (built once, kept at ``--store``): ``--games`` games of each of the four kinds, every
seat count, ``--distinct`` of them simulated per kind (heuristic bots) and the rest copies under
new ids, dates and tables (as ``bench_stats.py`` builds its simulated kinds). Then, each phase in
a fresh process whose peak memory (the process and its children: Spark's JVM included) is
printed:

- ``audit-local``: ``replay.audit.audit_many`` over the store's table, 2 jobs;
- ``audit-spark``: ``replay.spark.audit.audit_on_spark`` (session start timed apart);
- ``stats-local`` / ``stats-spark``: opening the statistics (views, derived tables computed
  once), then every query the dashboard runs without a filter, cold (first run) and warm (the
  median of ``--rounds`` more);
- ``reindex`` (``replay reindex``: the derived tables written as Parquet), then
  ``stats-local-derived`` / ``stats-spark-derived``: the same, both engines reading them.

Both engines must give the same audit (checked: findings per game) and row counts.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pyarrow as pa

sys.path.insert(0, str(Path(__file__).parent))

KINDS: tuple[tuple[str, tuple[int, ...], tuple[str, ...]], ...] = (
    ("hearts", (4,), ("heuristic",)),
    ("hez2", (2, 3, 4), ("heuristic",)),
    ("hiifuu", (4, 5, 6), ("heuristic",)),
    ("fou", (4, 5, 6, 7, 8), ("random",)),
)


def build(store_path: Path, games: int, distinct: int) -> None:
    """The benchmark store (see the module docstring)."""
    from bench_stats import _first_games, _ids, _with_tables, simulated, timed_ingest

    from replay.store import EventStore

    store = EventStore.open(store_path, create=True)
    for kind, counts, bots in KINDS:
        base = simulated(kind, counts, bots, min(distinct, games))
        made, copy = 0, 0
        while made < games:
            part = base if made + len(_ids(base)) <= games else _first_games(base, games - made)
            timed_ingest(store, _with_tables(part, 2000 + copy, f"-c{copy}", copy * 3),
                         f"{kind} copy {copy}")  # fmt: skip
            made += len(_ids(part))
            copy += 1


def audit_summary(report: Any) -> dict[str, int]:
    return {"games": len(report.games), "findings": sum(len(g.findings) for g in report.games)}


def phase_audit_local(store_path: Path) -> dict[str, Any]:
    import pyarrow as pa

    from replay.audit import audit_many
    from replay.store import EventStore

    t0 = time.perf_counter()
    store = EventStore.open(store_path)
    table = pa.Table.from_batches(list(store.scan(None, dictionary=True)), schema=None)
    read = time.perf_counter() - t0
    t0 = time.perf_counter()
    report = audit_many(table, jobs=2)
    audit = time.perf_counter() - t0
    return {"events": table.num_rows, "read s": read, "audit s": audit, **audit_summary(report)}


def phase_audit_spark(store_path: Path, master: str) -> dict[str, Any]:
    from replay.spark.audit import audit_on_spark
    from replay.spark.session import spark_session
    from replay.store import EventStore

    t0 = time.perf_counter()
    spark = spark_session(master)
    start = time.perf_counter() - t0
    t0 = time.perf_counter()
    report = audit_on_spark(spark, EventStore.open(store_path))
    audit = time.perf_counter() - t0
    return {"session s": start, "audit s": audit, **audit_summary(report)}


def phase_reindex(store_path: Path) -> dict[str, Any]:
    from replay.analytics import derived
    from replay.store import EventStore

    t0 = time.perf_counter()
    derived.rebuild(EventStore.open(store_path))
    return {"reindex s": time.perf_counter() - t0}


def phase_stats(
    store_path: Path, engine: str, master: str, rounds: int, *, use_derived: bool = False
) -> dict[str, Any]:
    from bench_stats import cold_and_warm

    from replay.analytics import Analytics, Filters
    from replay.store import EventStore

    store = EventStore.open(store_path)
    out: dict[str, Any] = {}
    t0 = time.perf_counter()
    if engine == "spark":
        from replay.spark.session import spark_session
        from replay.spark.stats import analytics_on_spark

        spark = spark_session(master)
        out["session s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        a = analytics_on_spark(spark, store, use_derived=use_derived)
    else:
        a = Analytics.open(store, use_derived=use_derived, materialize=not use_derived)
    assert a.derived == use_derived
    out["open s"] = time.perf_counter() - t0
    f = Filters()
    queries: dict[str, Any] = {}
    calls: list[tuple[str, Callable[[], pa.Table]]] = [
        ("overview", partial(a.overview, f)),
        ("ratings", partial(a.ratings, f)),
    ]
    calls += [(s.name, partial(stat_table, a, s.name, f)) for s in a.statistic_files(f)]
    calls += [(f"{m.name} x seat", partial(a.insight, m.name, "seat", f)) for m in a.metrics()]
    for name, call in calls:
        result, cold, warm = cold_and_warm(call, rounds)
        queries[name] = {"cold": cold, "warm": warm, "rows": result.num_rows}
    out["queries"] = queries
    return out


def stat_table(a: Any, name: str, f: Any) -> pa.Table:
    table: pa.Table = a.statistic(name, f).table
    return table


def tree_rss(pid: int) -> int:
    """Resident bytes of a process and its descendants (from /proc)."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/statm") as f:
                total += int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo += [int(c) for c in f.read().split()]
        except OSError:
            continue
    return total


def child(args: argparse.Namespace, name: str) -> dict[str, Any]:
    """One phase in a new process: its result, wall time and peak memory of its tree."""
    argv = [sys.executable, __file__, "--phase", name, "--store", args.store, "--master",
            args.master, "--rounds", str(args.rounds)]  # fmt: skip
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, tree_rss(proc.pid))
            time.sleep(0.2)

    sampler = threading.Thread(target=sample)
    sampler.start()
    out, _ = proc.communicate()
    done.set()
    sampler.join()
    if proc.returncode:
        sys.exit(f"phase {name} failed ({proc.returncode})")
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    result["wall s"] = time.perf_counter() - start
    result["peak MB"] = peak / 2**20
    return result


def report(results: dict[str, dict[str, Any]]) -> None:
    for name, r in results.items():
        fields = {k: v for k, v in r.items() if k != "queries"}
        print(f"{name:20} " + "  ".join(f"{k} {_num(v)}" for k, v in fields.items()))
    for suffix in ("", "-derived"):
        if f"stats-local{suffix}" in results:
            compare(results[f"stats-local{suffix}"], results[f"stats-spark{suffix}"], suffix)
    if "audit-local" in results:
        a, b = results["audit-local"], results["audit-spark"]
        agree = all(a[k] == b[k] for k in ("games", "findings"))
        print(f"audit: local {a['audit s']:.1f} s, spark {b['audit s']:.1f} s "
              f"({a['events'] / b['audit s']:,.0f} events/s); same findings: {agree}")  # fmt: skip


def compare(local_run: dict[str, Any], spark_run: dict[str, Any], suffix: str) -> None:
    local, spark = local_run["queries"], spark_run["queries"]
    print(f"\n{'query' + suffix:34} {'local cold':>10} {'warm':>7} {'spark cold':>11} "
          f"{'warm':>7} rows")  # fmt: skip
    for name, q in local.items():
        s = spark[name]
        same = "" if s["rows"] == q["rows"] else f"  ROWS DIFFER ({s['rows']})"
        print(f"{name:34} {q['cold']:10.3f} {q['warm']:7.3f} {s['cold']:11.3f} "
              f"{s['warm']:7.3f} {q['rows']}{same}")  # fmt: skip
    for engine, run in (("local", local), ("spark", spark)):
        warm = [q["warm"] for q in run.values()]
        print(f"{engine}{suffix}: sum of warm queries {sum(warm):.2f} s, "
              f"slowest {max(warm):.3f} s")  # fmt: skip


def _num(v: Any) -> str:
    return f"{v:,.2f}" if isinstance(v, float) else f"{v:,}" if isinstance(v, int) else str(v)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--store", default="/tmp/bench_spark_store")
    parser.add_argument("--games", type=int, default=5_000, help="games of each kind")
    parser.add_argument("--distinct", type=int, default=1_000, help="games simulated per kind")
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--rounds", type=int, default=2, help="warm runs per query")
    parser.add_argument("--rebuild", action="store_true", help="build the store again")
    parser.add_argument("--derived-only", action="store_true", help="only the reindex phases")
    parser.add_argument("--phase", help=argparse.SUPPRESS)
    args = parser.parse_args()
    store = Path(args.store)
    if args.phase:
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        result = {
            "audit-local": lambda: phase_audit_local(store),
            "audit-spark": lambda: phase_audit_spark(store, args.master),
            "stats-local": lambda: phase_stats(store, "local", args.master, args.rounds),
            "stats-spark": lambda: phase_stats(store, "spark", args.master, args.rounds),
            "reindex": lambda: phase_reindex(store),
            "stats-local-derived": lambda: phase_stats(
                store, "local", args.master, args.rounds, use_derived=True
            ),
            "stats-spark-derived": lambda: phase_stats(
                store, "spark", args.master, args.rounds, use_derived=True
            ),
        }[args.phase]()
        print(json.dumps(result))
        return
    from replay import engine_build

    print(f"replay engine: {engine_build()}, master {args.master}, "
          f"load average {os.getloadavg()}")  # fmt: skip
    if args.rebuild or not store.exists():
        if store.exists():
            import shutil

            shutil.rmtree(store)
        t0 = time.perf_counter()
        build(store, args.games, args.distinct)
        print(f"built in {time.perf_counter() - t0:.0f} s")
    if args.derived_only:
        phases: tuple[str, ...] = ("reindex", "stats-local-derived", "stats-spark-derived")
    else:
        phases = ("audit-local", "audit-spark", "stats-local", "stats-spark", "reindex",
                  "stats-local-derived", "stats-spark-derived")  # fmt: skip
    report({name: child(args, name) for name in phases})


if __name__ == "__main__":
    main()
