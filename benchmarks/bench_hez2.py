"""Hez2 engine throughput on one core: simulation and replay with every event checked.

Run: ``.venv/bin/python benchmarks/bench_hez2.py [--games N] [--bots random|heuristic]``.
Prints, per player count, simulated events/s (bots through the reducer, chance sampled) and
replay-with-checks events/s and rounds/s (a Hez2 game is one round), plus the bulk replay
without checks for comparison.
"""

from __future__ import annotations

import argparse
import time

from replay.events import Event
from replay.games.hez2 import RULES
from replay.simulate import simulate_game


def simulate(players: int, games: int, bots: tuple[str, ...]) -> tuple[list[list[Event]], float]:
    """``games`` simulated games and the seconds it took."""
    start = time.perf_counter()
    corpus = [
        simulate_game(RULES, f"bench-{players}-{i}", players=players, seed=i, bots=bots)
        for i in range(games)
    ]
    return corpus, time.perf_counter() - start


def replay_seconds(corpus: list[list[Event]], *, check: bool) -> float:
    """Seconds to replay every game of ``corpus`` (verifying each event when ``check``)."""
    start = time.perf_counter()
    for events in corpus:
        final = RULES.replay(events, check=check)
        assert final.over
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--bots", default="random")
    args = parser.parse_args()
    bots = tuple(args.bots.split(","))
    print(f"hez2, bots {','.join(bots)}, {args.games} games per player count, one core")
    print(
        f"{'n':>2}{'events':>10}{'ev/game':>9}{'sim ev/s':>11}{'check ev/s':>12}"
        f"{'rounds/s':>10}{'nocheck ev/s':>14}"
    )
    for players in (2, 3, 4):
        corpus, sim_s = simulate(players, args.games, bots)
        events = sum(len(g) for g in corpus)
        checked_s = replay_seconds(corpus, check=True)
        bulk_s = replay_seconds(corpus, check=False)
        print(
            f"{players:>2}{events:>10}{events / len(corpus):>9.0f}{events / sim_s:>11,.0f}"
            f"{events / checked_s:>12,.0f}{len(corpus) / checked_s:>10,.0f}"
            f"{events / bulk_s:>14,.0f}"
        )


if __name__ == "__main__":
    main()
