"""The samplers of what a seat cannot see (replay/games/hidden.py): time per sampled log.

Run: ``.venv/bin/python benchmarks/bench_hidden.py [--games N] [--samples N] [--kind K ...]``.
For every game kind and player count it samples, for seat 0, the log of heuristic-bot games cut
in the middle of their last round (or the middle of a Hez2 game), and prints the mean time per
sample and per event of the log (a sampler reads the whole log: every earlier round is drawn
anew too).
"""

from __future__ import annotations

import argparse
import random
import time

from replay import engine_build
from replay.events import Event
from replay.games import available_kinds, get_rules
from replay.games.hidden import NoSampler, sampler_for
from replay.simulate import simulate_game


def middle_of_last_round(events: list[Event]) -> int:
    """The index half way through the log's last round (through the log, for Hez2's one)."""
    last = max((e.round for e in events if e.round is not None), default=0)
    start = next(i for i, e in enumerate(events) if e.round == last)
    return (start + len(events)) // 2


def bench(kind: str, players: int, games: int, samples: int) -> tuple[float, float]:
    """Milliseconds per sample, and microseconds per event of the sampled logs."""
    rules, sampler, rng = get_rules(kind), sampler_for(kind), random.Random(1)
    logs = []
    for i in range(games):
        game = simulate_game(rules, f"b{i}", players=players, seed=i, bots=("heuristic",))
        logs.append(game[: middle_of_last_round(game)])
    start = time.perf_counter()
    for log in logs:
        for _ in range(samples):
            sampler.sample(log, 0, rng)
    seconds = time.perf_counter() - start
    events = sum(len(log) for log in logs) * samples
    return 1000 * seconds / (games * samples), 1e6 * seconds / events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--kind", action="append")
    args = parser.parse_args()
    print(f"build: {engine_build()}")
    print(f"{'game':<8} {'n':>2} {'ms/sample':>10} {'us/event':>9}")
    for kind in args.kind or available_kinds():
        try:
            sampler_for(kind)
        except NoSampler:
            continue
        rules = get_rules(kind)
        for players in range(rules.min_players, rules.max_players + 1):
            per_sample, per_event = bench(kind, players, args.games, args.samples)
            print(f"{kind:<8} {players:>2} {per_sample:>10.2f} {per_event:>9.2f}")


if __name__ == "__main__":
    main()
