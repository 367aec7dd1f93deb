"""The samplers of what a seat cannot see (replay/games/hidden.py): time per sampled log.

Run: ``.venv/bin/python benchmarks/bench_hidden.py [--games N] [--samples N] [--kind K ...]
[--bots B,...]``.
For every game kind and player count it samples, for seat 0, the logs of games (heuristic bots
by default) cut in the middle of their last round (or of a Hez2 game), and prints the logs' mean
length and the time of the first sample of a log and of each one after it (a sampler reads the
whole log and draws every earlier round anew too; it keeps the parse of the last log and the
counts of recent share-outs, so a step sampled again costs less).
"""

from __future__ import annotations

import argparse
import random
import time

from replay import engine_build
from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_rules
from replay.games.hidden import NoSampler, sampler_for
from replay.model.events import Event


def middle_of_last_round(events: list[Event]) -> int:
    """The index half way through the log's last round (through the log, for Hez2's one)."""
    last = max((e.round for e in events if e.round is not None), default=0)
    start = next(i for i, e in enumerate(events) if e.round == last)
    return (start + len(events)) // 2


def bench(
    kind: str, players: int, games: int, samples: int, bots: tuple[str, ...]
) -> tuple[float, float, float]:
    """The mean length of the logs sampled, and milliseconds for the first sample of a log and
    for each one after it."""
    rules, sampler, rng = get_rules(kind), sampler_for(kind), random.Random(1)
    logs = []
    for i in range(games):
        game = simulate_game(rules, f"b{i}", players=players, seed=i, bots=bots)
        logs.append(game[: middle_of_last_round(game)])
    first = again = 0.0
    for log in logs:
        start = time.perf_counter()
        sampler.sample(log, 0, rng)
        middle = time.perf_counter()
        for _ in range(samples - 1):
            sampler.sample(log, 0, rng)
        first += middle - start
        again += time.perf_counter() - middle
    events = sum(len(log) for log in logs) / games
    return events, 1000 * first / games, 1000 * again / (games * (samples - 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--kind", action="append")
    parser.add_argument("--bots", default="heuristic", help="bot names, comma-separated")
    args = parser.parse_args()
    print(f"build: {engine_build()}")
    print(f"{'game':<8} {'n':>2} {'events':>7} {'ms first':>9} {'ms again':>9}")
    for kind in args.kind or available_kinds():
        try:
            sampler_for(kind)
        except NoSampler:
            continue
        rules = get_rules(kind)
        for players in range(rules.min_players, rules.max_players + 1):
            events, first, again = bench(
                kind, players, args.games, args.samples, tuple(args.bots.split(","))
            )
            print(f"{kind:<8} {players:>2} {events:>7.0f} {first:>9.2f} {again:>9.2f}")


if __name__ == "__main__":
    main()
