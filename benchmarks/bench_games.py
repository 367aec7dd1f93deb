"""Game engine throughput on one core: simulation, and replay with every event checked.

Run: ``.venv/bin/python benchmarks/bench_games.py [--games N] [--kind K ...] [--bots B]``.
For every game kind and player count it prints simulated events/s (bots through the reducer,
chance sampled), replay-with-checks events/s, rounds (hands) per second and games per second,
and the bulk replay without checks for comparison.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from replay import engine_build
from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_fast_path, get_rules
from replay.model.events import Event


def rounds_in(events: list[Event]) -> int:
    return len({e.round for e in events if e.round is not None})


def replay_seconds(fast: Any, corpus: list[list[Event]], *, check: bool) -> float:
    """Seconds to replay ``corpus`` on the game's fast path (the engine's)."""
    start = time.perf_counter()
    for game in corpus:
        assert fast.replay(game, check=check).over
    return time.perf_counter() - start


def bench(kind: str, players: int, games: int, bots: tuple[str, ...]) -> dict[str, float]:
    rules = get_rules(kind)
    start = time.perf_counter()
    corpus = [
        simulate_game(rules, f"b{i}", players=players, seed=i, bots=bots) for i in range(games)
    ]
    sim_s = time.perf_counter() - start
    events = sum(len(g) for g in corpus)
    checked_s = replay_seconds(get_fast_path(kind), corpus, check=True)
    bulk_s = replay_seconds(get_fast_path(kind), corpus, check=False)
    return {
        "events": events,
        "sim": events / sim_s,
        "check": events / checked_s,
        "rounds": sum(rounds_in(g) for g in corpus) / checked_s,
        "games": games / checked_s,
        "bulk": events / bulk_s,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--kind", action="append", help="repeatable; default: every game")
    parser.add_argument("--bots", default="random", help="bots cycled over the seats")
    args = parser.parse_args()
    print(f"replay engine: {engine_build()}")
    bots = tuple(args.bots.split(","))
    print(f"bots {','.join(bots)}, {args.games} games per row, one core")
    print(f"{'kind':<8}{'n':>3}{'events':>10}{'sim ev/s':>11}{'check ev/s':>12}"
          f"{'rounds/s':>10}{'games/s':>9}{'nocheck ev/s':>14}")  # fmt: skip
    for kind in args.kind or available_kinds():
        rules = get_rules(kind)
        for players in range(rules.min_players, rules.max_players + 1):
            r = bench(kind, players, args.games, bots)
            print(
                f"{kind:<8}{players:>3}{r['events']:>10,.0f}{r['sim']:>11,.0f}"
                f"{r['check']:>12,.0f}{r['rounds']:>10,.0f}{r['games']:>9,.0f}{r['bulk']:>14,.0f}"
            )


if __name__ == "__main__":
    main()
