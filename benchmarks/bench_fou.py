"""Fou! engine throughput on one core, per player count.

Run: ``.venv/bin/python benchmarks/bench_fou.py [--games N] [--bots random|heuristic]``.
Prints simulated events/s (bots choosing, reducer applying) and replay throughput with every
event verified (events/s and rounds/s), for 4 to 8 players.
"""

from __future__ import annotations

import argparse
import time

from replay.events import Event
from replay.games.fou import RULES
from replay.simulate import simulate_game


def rounds_in(events: list[Event]) -> int:
    """Number of rounds played in one game."""
    return sum(1 for e in events if e.type == "round_scored" and e.player == 0)


def bench(players: int, games: int, bots: tuple[str, ...]) -> tuple[int, float, float, float]:
    """(events, simulated events/s, replayed events/s, replayed rounds/s)."""
    start = time.perf_counter()
    corpus = [
        simulate_game(RULES, f"b{i}", players=players, seed=i, bots=bots) for i in range(games)
    ]
    sim_s = time.perf_counter() - start
    events = sum(len(g) for g in corpus)
    rounds = sum(rounds_in(g) for g in corpus)
    start = time.perf_counter()
    for game in corpus:
        RULES.replay(game, check=True)
    replay_s = time.perf_counter() - start
    return events, events / sim_s, events / replay_s, rounds / replay_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--bots", default="random")
    args = parser.parse_args()
    bots = tuple(args.bots.split(","))
    print(f"fou, {args.games} games per player count, bots {','.join(bots)}")
    print(f"{'n':>2}{'events':>10}{'sim ev/s':>12}{'replay ev/s':>13}{'rounds/s':>10}")
    for players in range(4, 9):
        events, sim_rate, replay_rate, round_rate = bench(players, args.games, bots)
        print(
            f"{players:>2}{events:>10}{sim_rate:>12,.0f}{replay_rate:>13,.0f}{round_rate:>10,.0f}"
        )


if __name__ == "__main__":
    main()
