"""Replay seek latency: random seeks on a 10-hand Hearts game and on the longest Fou! game.

Run: ``.venv/bin/python benchmarks/bench_seek.py [--seeks 2000] [--fou-games 50]``.

A seek is ``cursor.seek(step).state`` (the state at a random step, from the nearest snapshot);
"seek+view" adds the omniscient JSON view (what ``replay show --json`` prints). Also printed:
the one-off cursor build time and, for scale, re-reducing from the start at a random step.
Target: median seek < 1 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from replay import engine_build
from replay.engine.cursor import Cursor
from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_rules
from replay.model.events import Event

TARGET_MS = 1.0


def hands_in(events: list[Event]) -> int:
    return len({e.round for e in events if e.round is not None})


def ten_hand_hearts() -> list[Event]:
    """The first simulated Hearts game (seed order) that lasts exactly 10 hands."""
    rules = get_rules("hearts")
    for seed in range(1000):
        events = simulate_game(rules, f"hearts-seek-{seed}", players=4, seed=seed)
        if hands_in(events) == 10:
            return events
    raise RuntimeError("no 10-hand Hearts game in 1000 seeds")


def longest_fou(games: int) -> list[Event]:
    """The longest of ``games`` simulated Fou! games, 4 to 8 players in turn."""
    rules = get_rules("fou")
    corpus = (
        simulate_game(rules, f"fou-seek-{i}", players=4 + i % 5, seed=i) for i in range(games)
    )
    return max(corpus, key=len)


def timings(action: Callable[[int], object], steps: list[int]) -> list[float]:
    """Seconds per call of ``action(step)``, one per step."""
    out = []
    clock = time.perf_counter
    for step in steps:
        start = clock()
        action(step)
        out.append(clock() - start)
    return out


def summary(name: str, seconds: list[float]) -> str:
    ordered = sorted(seconds)
    median = statistics.median(ordered) * 1e6
    p95 = ordered[int(0.95 * (len(ordered) - 1))] * 1e6
    return f"  {name:<11} median {median:8.1f} µs   p95 {p95:8.1f} µs   (n={len(ordered)})"


def bench(label: str, events: list[Event], seeks: int, rng: random.Random) -> float:
    """Print the figures for one game; return the median seek in ms."""
    rules = get_rules(events[0].kind)
    start = time.perf_counter()
    cursor = Cursor(rules, events)
    build = time.perf_counter() - start
    print(f"{label}: {len(events)} events, {hands_in(events)} rounds, build {build * 1e3:.1f} ms")
    steps = [rng.randrange(len(cursor)) for _ in range(seeks)]
    seek = timings(lambda s: cursor.seek(s).state, steps)
    print(summary("seek", seek))
    print(summary("seek+view", timings(lambda s: cursor.seek(s).view(), steps)))
    few = steps[: max(5, seeks // 100)]
    print(summary("re-reduce", timings(lambda s: rules.replay(events[: s + 1], check=False), few)))
    return statistics.median(seek) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeks", type=int, default=2000)
    parser.add_argument("--fou-games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(f"replay engine: {engine_build()}")
    rng = random.Random(args.seed)
    medians = {"hearts": bench("hearts, 10 hands", ten_hand_hearts(), args.seeks, rng)}
    if "fou" in available_kinds():
        fou = longest_fou(args.fou_games)
        label = f"fou, longest of {args.fou_games} ({fou[0].setup().get('players')} players)"
        medians["fou"] = bench(label, fou, args.seeks, rng)
    else:
        print("fou: not available yet (replay/games/fou.py missing), not measured")
    verdict = all(m < TARGET_MS for m in medians.values())
    shown = ", ".join(f"{k} {m * 1e3:.1f} µs" for k, m in medians.items())
    print(f"median seek: {shown}; target < {TARGET_MS:g} ms: {'met' if verdict else 'NOT met'}")


if __name__ == "__main__":
    main()
