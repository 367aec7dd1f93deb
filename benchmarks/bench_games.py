"""Game engine throughput: simulation and replay with every event checked, per game kind.

Run: ``.venv/bin/python benchmarks/bench_games.py [--games N] [--kind hearts ...]``.
Prints, for each kind and player count, simulated events/s (random bots, one core) and
replay-with-checks events/s and rounds (hands)/s on one core.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from replay.events import Event
from replay.games import available_kinds, get_rules
from replay.simulate import simulate_game

PLAYER_COUNTS = {"hearts": [4], "hez2": [2, 4], "hiifuu": [4, 6], "fou": [4, 8]}


def rounds_in(events: list[Event]) -> int:
    return len({e.round for e in events if e.round is not None})


def bench(kind: str, players: int, games: int, bots: tuple[str, ...]) -> dict[str, Any]:
    rules = get_rules(kind)
    start = time.perf_counter()
    corpus = [
        simulate_game(rules, f"b{i}", players=players, seed=i, bots=bots) for i in range(games)
    ]
    sim_s = time.perf_counter() - start
    events = sum(len(g) for g in corpus)
    rounds = sum(rounds_in(g) for g in corpus)
    start = time.perf_counter()
    for game in corpus:
        rules.replay(game, check=True)
    replay_s = time.perf_counter() - start
    return {
        "kind": kind,
        "players": players,
        "games": games,
        "events": events,
        "sim_events_per_s": events / sim_s,
        "replay_events_per_s": events / replay_s,
        "replay_rounds_per_s": rounds / replay_s,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--kind", action="append")
    parser.add_argument("--bots", default="random")
    args = parser.parse_args()
    kinds = args.kind or available_kinds()
    print(f"{'kind':<8}{'n':>3}{'games':>7}{'events':>10}{'sim ev/s':>12}"
          f"{'replay ev/s':>13}{'rounds/s':>10}")  # fmt: skip
    for kind in kinds:
        for players in PLAYER_COUNTS.get(kind, [get_rules(kind).min_players]):
            r = bench(kind, players, args.games, tuple(args.bots.split(",")))
            print(
                f"{kind:<8}{players:>3}{r['games']:>7}{r['events']:>10}"
                f"{r['sim_events_per_s']:>12,.0f}{r['replay_events_per_s']:>13,.0f}"
                f"{r['replay_rounds_per_s']:>10,.0f}"
            )


if __name__ == "__main__":
    main()
