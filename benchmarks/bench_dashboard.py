"""Dashboard speed, server side (Streamlit's AppTest): time to render each page, cold (first
time in the process: the source opened, games listed, the audit or statistics computed) and
warm (a new session once the caches hold), and the time per replay step (a button click that
moves one step, and the library part alone: ``Replay.view``) on a long game: of the longest game
of each kind, the one whose replay goes furthest (a log that breaks the rules stops early),
clicked at ``--steps`` points spread across it. Each page's line gives the CPU time of its first
render (the server's threads, in this process), the load average and the process's peak RSS so
far, after the first render and after the warm ones.

Run: ``.venv/bin/python benchmarks/bench_dashboard.py [--games 2000] [--store PATH]
[--pages overview,statistics,replay,audit]``.

Without ``--store`` it measures the sample corpus and a simulated store of ``--games`` games per
kind (built once under ``benchmarks/out/``, random bots, 4 seats; 5 for Fou!). Targets (issue
25): each page < 2 s warm, a replay step < 100 ms.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import statistics
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
from streamlit.testing.v1 import AppTest

from dashboards.data import PAGE_SECONDS, SOURCE_ENV, Replay, game_replay
from replay import engine_build
from replay.engine.cursor import Cursor
from replay.engine.simulate import simulate_game
from replay.games import get_rules
from replay.store import EventStore

ROOT = Path(__file__).parent.parent
APP = ROOT / "dashboards" / "app.py"
PAGES = ("overview", "statistics", "replay", "audit")
PAGE_TARGET_S = 2.0
STEP_TARGET_MS = 100.0
SEATS = {"hearts": 4, "hez2": 4, "hiifuu": 4, "fou": 5}


def simulated_store(games: int) -> Path:
    """A store of ``games`` simulated games per kind (reused when already built)."""
    path = ROOT / "benchmarks" / "out" / f"dashboard-store-{games}"
    if (path / "_delta_log").is_dir():
        return path
    store = EventStore.open(path, create=True)
    for kind, seats in SEATS.items():
        rules = get_rules(kind)
        batch = [
            simulate_game(rules, f"{kind}-{i:06d}", players=seats, seed=i) for i in range(games)
        ]
        store.ingest(batch)
    store.compact()
    return path


def render(source: Path, page: str, **query: str) -> tuple[float, AppTest]:
    """Seconds the page's run took on the server (the app's own clock) in a new session,
    and the test app (its wall time includes AppTest's own set-up, about 0.5 s here)."""
    os.environ[SOURCE_ENV] = str(source)
    at = AppTest.from_file(str(APP), default_timeout=4 * 3600)  # a store's first audit
    for name, value in query.items():
        at.query_params[name] = value
    start, cpu = time.perf_counter(), time.process_time()
    at.run()
    if page != "overview":
        at.switch_page(f"views/{page}.py").run()
    wall = time.perf_counter() - start
    if at.exception:
        raise RuntimeError(f"{page}: {at.exception[0].value}")
    WALL.append(wall)
    CPU.append(time.process_time() - cpu)
    return float(at.session_state[PAGE_SECONDS]), at


#: The AppTest wall times of the renders, for the record, and the CPU time of this process
#: (the server's threads: the figure least moved by other work on a shared machine).
WALL: list[float] = []
CPU: list[float] = []


def peak_mb() -> float:
    """This process's peak resident memory so far, in MB (Linux counts KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def long_game(source: Path) -> tuple[str, int]:
    """Of the game with the most events of each kind, the one whose replay goes furthest, and
    its last step (read here, not through the dashboard's caches: its first render is cold)."""
    store = EventStore.open(source)
    games = store.list_games_table()
    last_steps = {}
    for kind in map(str, pc.unique(games.column("kind")).to_pylist()):
        of_kind = games.filter(pc.equal(games.column("kind"), pa.scalar(kind)))
        game = str(of_kind.sort_by([("events", "descending")]).column("game_id")[0])
        with contextlib.suppress(Exception):  # a game the rules cannot start: not this one
            last_steps[game] = Cursor(get_rules(kind), store.load_game(game)).last_step
    game = max(last_steps, key=lambda g: last_steps[g])
    return game, last_steps[game]


def measure(source: Path, label: str, steps: int, pages: list[str]) -> None:
    info = EventStore.open(source).info()
    print(f"\n{label}: {info.games:,} games, {info.events:,} events ({source})")
    game, last = long_game(source)
    print(f"  the replay's game: {game}, {last + 1:,} steps")
    for page in pages:
        query = {"game": game, "step": "1"} if page == "replay" else {}
        cold, _ = render(source, page, **query)
        cold_load, cold_peak, cold_cpu = os.getloadavg()[0], peak_mb(), CPU[-1]
        warm = min(render(source, page, **query)[0] for _ in range(3))
        verdict = "ok" if warm < PAGE_TARGET_S else "over target"
        print(f"  {page:<10} first render {cold:7.2f} s (CPU {cold_cpu:.1f} s)   "
              f"warm {warm:6.3f} s  ({verdict}; "
              f"AppTest wall {min(WALL[-3:]):.2f} s; load {cold_load:.1f} / "
              f"{os.getloadavg()[0]:.1f}; peak RSS {cold_peak:,.0f} / {peak_mb():,.0f} MB)"
              )  # fmt: skip
    if "replay" not in pages:
        return
    _, at = render(source, "replay", game=game, step="0")
    clicks = []
    for i in range(steps):  # one click at each of ``steps`` points spread across the game
        at.query_params["step"] = str(i * (last - 1) // max(steps - 1, 1))
        at.run()
        at.button(key="jump_next").click().run()
        clicks.append(float(at.session_state[PAGE_SECONDS]))
    assert at.query_params["step"] == str(last), (at.query_params["step"], last)
    replay = game_replay(str(source), game)
    assert isinstance(replay, Replay)
    views = []
    for step in range(0, last + 1, max(1, last // 2000)):
        start = time.perf_counter()
        replay.view(step, None)
        views.append(time.perf_counter() - start)
    click_ms = statistics.median(clicks) * 1000
    verdict = "ok" if click_ms < STEP_TARGET_MS else "over target"
    print(f"  replay step: one click {click_ms:.1f} ms median, {max(clicks) * 1000:.1f} ms at "
          f"most, of {steps} spread over {last + 1:,} steps ({verdict}); the view alone "
          f"{statistics.median(views) * 1e6:.0f} µs median of {len(views):,} steps; "
          f"load {os.getloadavg()[0]:.1f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="simulated games per kind")
    parser.add_argument("--store", type=Path, help="measure this store instead")
    parser.add_argument("--steps", type=int, default=20, help="replay steps clicked")
    parser.add_argument("--pages", default=",".join(PAGES), help="the pages, in this order")
    args = parser.parse_args()
    pages = [p for p in args.pages.split(",") if p]
    if unknown := set(pages) - set(PAGES):
        parser.error(f"no page {', '.join(sorted(unknown))}; the pages: {', '.join(PAGES)}")
    print(f"rules engine: {engine_build()}; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")  # fmt: skip
    if args.store:
        measure(args.store, "store", args.steps, pages)
        return
    measure(ROOT / "sample_logs" / "store", "sample corpus", args.steps, pages)
    start = time.perf_counter()
    store = simulated_store(args.games)
    print(f"\n(simulated store ready in {time.perf_counter() - start:.0f} s)")
    measure(store, f"simulated, {args.games} games per kind", args.steps, pages)


if __name__ == "__main__":
    main()
