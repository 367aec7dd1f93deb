"""Statistics benchmark: every query the dashboard runs, cold and warm, over a large store.

    .venv/bin/python benchmarks/bench_stats.py --store /work/bench/stats [--hands 1000000]
        [--others 100000] [--distinct 5000] [--rounds 3] [--rebuild]

The store (built once, kept at ``--store``; ``--rebuild`` builds it again):

- Hearts: ``--hands`` hands from the synthetic generator (``replay.store.synthetic``: the shape
  and statistics of real Hearts logs, 6-12 hands per game, not legal games), each game seated
  from a pool of 48 named players;
- Hez2 (heuristic bots), Hiifuu (heuristic and random bots), Fou! (random bots): ``--others``
  games of each, every seat count: ``--distinct`` games simulated per kind, copied under new game
  ids, dates and tables of players until there are ``--others`` (the queries' costs depend on
  rows and groups, not on whether two games are alike).

Then ``replay reindex`` (derived tables) is timed, and each query runs in a fresh process:
cold = its first run after ``Analytics.open``, warm = the median of ``--rounds`` more. Each phase
runs in its own process, whose peak RSS is reported. Target: each query < 1 s warm, 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

POOL = [f"player{i:02d}" for i in range(40)] + [f"bot{i}" for i in range(8)]
HANDS_PER_CHUNK = 100_000
#: (kind, seat counts, bots) of the simulated kinds.
SIMULATED: tuple[tuple[str, tuple[int, ...], tuple[str, ...]], ...] = (
    ("hez2", (2, 3, 4), ("heuristic",)),
    ("hiifuu", (4, 5, 6), ("heuristic", "random")),
    ("fou", (4, 5, 6, 7, 8), ("random",)),
)


def seated(rng: np.random.Generator, n: int) -> tuple[list[str], list[bool]]:
    """A table of ``n`` distinct players of the pool; the bot* names are bots."""
    names = [POOL[i] for i in rng.choice(len(POOL), size=n, replace=False)]
    return names, [name.startswith("bot") for name in names]


def _with_tables(table: pa.Table, seed: int, suffix: str, days: int) -> pa.Table:
    """``table`` with new game ids (``suffix``), start times moved by ``days`` and each game
    seated from the pool (its game_start data rewritten)."""
    rng = np.random.default_rng(seed)
    compute: Any = pc  # the stubs miss these signatures
    is_start = compute.equal(table.column("type"), "game_start")
    starts = table.column("data").filter(is_start).to_pylist()
    setups = []
    for text in starts:
        setup = json.loads(text or "{}")
        setup["names"], bots = seated(rng, int(setup["players"]))
        setup["bots"] = bots
        if "stakes" in setup:
            setup["stakes"] = [None if b else int(rng.choice([100, 250, 500])) for b in bots]
        setups.append(json.dumps(setup))
    data = compute.replace_with_mask(
        table.column("data").combine_chunks(), is_start.combine_chunks(), pa.array(setups)
    )
    ids = compute.binary_join_element_wise(table.column("game_id"), suffix, "")
    shift = pa.scalar(timedelta(days=days), pa.duration("ms"))
    ts = pc.add(table.column("ts"), shift)
    out = table.set_column(0, "game_id", ids)
    out = out.set_column(out.schema.get_field_index("ts"), "ts", ts)
    return out.set_column(out.schema.get_field_index("data"), "data", data)


def _simulate(kind: str, counts: tuple[int, ...], bots: tuple[str, ...], start: int, n: int) -> Any:
    from replay.engine.simulate import simulate_game
    from replay.games import get_rules
    from replay.model.events import events_to_table

    rules = get_rules(kind)
    events = []
    for i in range(start, start + n):
        players = counts[i % len(counts)]
        options: dict[str, Any] = {"bots": [False] * players}
        if kind == "hez2":
            options["stakes"] = [100] * players
        events += simulate_game(rules, f"{kind}-{i:06d}", players=players, seed=i, bots=bots,
                                options=options)  # fmt: skip
    return events_to_table(events)


def simulated(kind: str, counts: tuple[int, ...], bots: tuple[str, ...], games: int) -> pa.Table:
    """``games`` simulated games on 2 processes."""
    step = max(1, games // 8)
    with ProcessPoolExecutor(2) as pool:
        parts = pool.map(
            _simulate,
            *zip(*[(kind, counts, bots, s, min(step, games - s)) for s in range(0, games, step)],
                 strict=True),
        )  # fmt: skip
        return pa.concat_tables(list(parts))


def build(store_path: Path, hands: int, others: int, distinct: int) -> None:
    """The benchmark store (see the module docstring)."""
    from replay.store import EventStore
    from replay.store.synthetic import hearts_like_table

    store = EventStore.open(store_path, create=True)
    done = 0
    chunk = 0
    while done < hands:
        games = max(1, min(HANDS_PER_CHUNK, hands - done) // 9)
        table = _with_tables(hearts_like_table(games, seed=chunk), chunk, f"-{chunk}", 0)
        types = np.asarray(table.column("type").to_numpy(zero_copy_only=False))
        scored = int(np.sum(types == "round_scored"))
        done += scored // 4
        timed_ingest(store, table, f"hearts chunk {chunk}")
        chunk += 1
    print(f"hearts: {done:,} hands")
    for kind, counts, bots in SIMULATED:
        start = time.perf_counter()
        base = simulated(kind, counts, bots, min(distinct, others))
        print(f"{kind}: {min(distinct, others):,} games simulated in "
              f"{time.perf_counter() - start:.0f} s ({base.num_rows:,} events)")  # fmt: skip
        made = 0
        copy = 0
        while made < others:
            part = base if made + len(_ids(base)) <= others else _first_games(base, others - made)
            timed_ingest(store, _with_tables(part, 1000 + copy, f"-c{copy}", copy * 7),
                         f"{kind} copy {copy}")  # fmt: skip
            made += len(_ids(part))
            copy += 1


def _ids(table: pa.Table) -> list[str]:
    return [str(v) for v in pc.unique(table.column("game_id")).to_pylist()]


def _first_games(table: pa.Table, count: int) -> pa.Table:
    keep = pa.array(sorted(_ids(table))[:count])
    return table.filter(pc.is_in(table.column("game_id"), value_set=keep))


def timed_ingest(store: Any, table: pa.Table, label: str) -> None:
    start = time.perf_counter()
    report = store.ingest(table)
    assert report.ok, report.rejected[:3]
    print(f"  ingest {label}: {table.num_rows:,} events in {time.perf_counter() - start:.1f} s")


# --------------------------------------------------------------------- queries
def dashboard_queries(a: Any) -> Iterator[tuple[str, str, Callable[[], Any]]]:
    """(query, filter, call) for every query the dashboard runs, and the ratings under date and
    seat-count filters."""
    from replay.analytics import Filters

    player = POOL[3]
    filters = {
        "none": Filters(),
        "hearts": Filters(kind="hearts"),
        f"fou+{player}": Filters(kind="fou", player=player),
    }
    for label, f in filters.items():
        yield "overview", label, partial(a.overview, f)
        yield "players", label, partial(a.players, f)
        for s in a.statistic_files(f):
            yield f"stat {s.name}", label, partial(a.statistic, s.name, f)
        yield "ratings", label, partial(a.ratings, f)
    for m in a.metrics(None):
        for d in ("player", "seat"):
            yield f"insight {m.name} x {d}", "none", partial(a.insight, m.name, d, Filters())
    for label, f in rating_filters(a).items():
        yield "ratings", label, partial(a.ratings, f)


def rating_filters(a: Any) -> dict[str, Any]:
    """The ratings under date and seat-count filters (the stored ratings of every game answer
    the three filters above): since a kind's median day, since the median day of the
    simulated kinds, until it, a seat count, since before the first game, a month of one seat
    count of Fou!, one player since the median day."""
    from replay.analytics import Filters

    days = {
        r["kind"]: r
        for r in a.sql(
            "SELECT kind, min(day) AS first, CAST(quantile_disc(day, 0.5) AS DATE) AS median "
            "FROM games GROUP BY kind"
        ).to_pylist()
    }
    if not days:
        return {}
    first = min(r["first"] for r in days.values())
    simulated = [days[k]["median"] for k, _, _ in SIMULATED if k in days]
    middle = max(simulated) if simulated else max(r["median"] for r in days.values())
    out = {f"{k} since mid": Filters(kind=k, since=days[k]["median"]) for k in ("hez2", "hearts")
           if k in days}  # fmt: skip
    out |= {
        "since mid": Filters(since=middle),
        "until mid": Filters(until=middle),
        "players=4": Filters(players=4),
        "since first": Filters(since=first),
        "fou 6, a month": Filters(kind="fou", players=6, since=middle,
                                  until=middle + timedelta(days=30)),
        f"{POOL[3]} since mid": Filters(player=POOL[3], since=middle),
    }  # fmt: skip
    return out


def cold_and_warm(call: Callable[[], Any], rounds: int) -> tuple[Any, float, float]:
    """The first run's result and time (cold), and the median time of ``rounds`` more (warm;
    the cold time when ``rounds`` is 0)."""
    t0 = time.perf_counter()
    result = call()
    cold = time.perf_counter() - t0
    warm = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        call()
        warm.append(time.perf_counter() - t0)
    return result, cold, statistics.median(warm) if warm else cold


def run_queries(store_path: Path, rounds: int, only: str | None) -> None:
    from replay.analytics import Analytics
    from replay.store import EventStore

    start = time.perf_counter()
    a = Analytics.open(EventStore.open(store_path))
    print(f"open: {time.perf_counter() - start:.2f} s (derived tables: {a.derived})")
    worst = 0.0
    for name, label, call in dashboard_queries(a):
        if only and only not in name:
            continue
        result, cold, median = cold_and_warm(call, rounds)
        worst = max(worst, median)
        rows = getattr(getattr(result, "table", result), "num_rows", None)
        if rows is None:
            rows = len(result)
        flag = "  SLOW" if median >= 1 else ""
        print(
            f"{name:42} {label:16} cold {cold:6.3f} s  warm {median:6.3f} s  {rows:>7} rows{flag}"
        )
    print(f"slowest warm query: {worst:.3f} s")


# --------------------------------------------------------------------- phases
def phase(args: argparse.Namespace) -> None:
    store = Path(args.store)
    if args.phase == "build":
        build(store, args.hands, args.others, args.distinct)
    elif args.phase == "reindex":
        from replay.analytics import derived
        from replay.store import EventStore

        start = time.perf_counter()
        limit = args.memory_limit or derived.DEFAULT_MEMORY_LIMIT
        rows = derived.rebuild(EventStore.open(store), memory_limit=limit)
        print(f"reindex: {time.perf_counter() - start:.1f} s; rows {rows}")
    else:
        run_queries(store, args.rounds, args.only)


def child(args: argparse.Namespace, name: str) -> None:
    """Run one phase in a new process and print its peak RSS."""
    argv = [sys.executable, __file__, "--phase", name, "--store", args.store, "--hands",
            str(args.hands), "--others", str(args.others), "--distinct", str(args.distinct),
            "--rounds", str(args.rounds), "--memory-limit", args.memory_limit]  # fmt: skip
    if args.only:
        argv += ["--only", args.only]
    start = time.perf_counter()
    proc = subprocess.Popen(argv)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    print(
        f"== {name}: {time.perf_counter() - start:.0f} s, peak RSS {usage.ru_maxrss / 1024:.0f} MB"
    )
    if proc.returncode:
        sys.exit(proc.returncode)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--store", default="/tmp/bench_stats_store")
    parser.add_argument("--hands", type=int, default=1_000_000, help="Hearts hands")
    parser.add_argument("--others", type=int, default=100_000, help="games of each other kind")
    parser.add_argument("--distinct", type=int, default=5_000, help="games simulated per kind")
    parser.add_argument("--rounds", type=int, default=3, help="warm runs per query")
    parser.add_argument(
        "--memory-limit", default="", help="DuckDB memory for reindex (default: reindex's own)"
    )
    parser.add_argument("--only", help="only the queries whose name contains this")
    parser.add_argument("--rebuild", action="store_true", help="build the store again")
    parser.add_argument("--reindex", action="store_true", help="rebuild its derived tables")
    parser.add_argument("--phase", choices=["build", "reindex", "queries"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phase:
        phase(args)
        return
    from replay import engine_build

    print(f"replay engine: {engine_build()}, load average {os.getloadavg()}")
    if args.rebuild or not Path(args.store).exists():
        if Path(args.store).exists():
            import shutil

            shutil.rmtree(args.store)
        child(args, "build")
        args.reindex = True
    if args.reindex:
        child(args, "reindex")
    child(args, "queries")


if __name__ == "__main__":
    main()
