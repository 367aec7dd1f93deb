"""The fair-play signal (``replay fairplay``, docs/review.md "Fair play"): how soon a seat that
sees every hand is flagged, and how often honest seats are, over repeated Hearts corpora.

Run: ``PYTHONPATH=build/native .venv/bin/python benchmarks/bench_fairplay.py [--part P ...]``
(the compiled build: ``REPLAY_PGO=0 make native``; the pure build without PYTHONPATH). Parts:

- ``flag``: ``--corpora`` tables where seat 0 sees every hand (the solver's best card once every
  hand holds at most 4 cards, the heuristic bot before) among a heuristic seat and two careless
  ones (random 20% of the time): the Hearts games (to 100 points) played until seat 0 is
  flagged (p < 0.001), their median and most, and the telling plays by then;
- ``honest``: ``--corpora`` corpora of ``--games`` Hearts games whose seats are honest of four
  strengths (the heuristic bot playing a random legal card 10%, 20%, 40% of the time, and the
  random bot): the seats flagged (the false-positive rate, with its Wilson 95% interval) and the
  shares of p-values below 0.05 and 0.01 (an honest null puts at most 5% and 1% there);
  CPU seconds per game judged.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from replay import engine_build
from replay.games import get_rules
from replay.review.fairplay import SeatPlay, game_plays, signals
from replay.review.stats import wilson

sys.path.append(str(Path(__file__).resolve().parent.parent))  # tests.*_support
from tests.fairplay_support import cheater
from tests.luck_support import careless_bot, corpus

HEARTS = get_rules("hearts")


def flag(corpora: int, limit: int = 100) -> None:
    heuristic = HEARTS.bots()["heuristic"]
    bots = [cheater("hearts"), heuristic, careless_bot("hearts", 0.2),
            careless_bot("hearts", 0.2)]  # fmt: skip
    needed, decisions = [], []
    for seed in range(corpora):
        plays: list[SeatPlay] = []
        for played, game in enumerate(corpus("hearts", limit, 500 + seed, 4, bots), start=1):
            plays += game_plays(game)
            found = {s.player: s for s in signals(plays)}
            if found["p0"].flagged:
                needed.append(played)
                decisions.append(found["p0"].decisions)
                break
        else:
            needed.append(limit + 1)
    print(f"seat that sees every hand, {corpora} corpora: flagged after {statistics.median(needed)}"
          f" games (median), {max(needed)} at most (limit {limit}; {limit + 1}: not flagged); "
          f"telling plays by then: median {statistics.median(decisions)}")  # fmt: skip


def honest(corpora: int, games: int) -> None:
    bots = [careless_bot("hearts", 0.1), careless_bot("hearts", 0.2),
            careless_bot("hearts", 0.4), HEARTS.bots()["random"]]  # fmt: skip
    names = ["careless 10%", "careless 20%", "careless 40%", "random"]
    flagged, seats, below05, below01, judged = 0, 0, 0, 0, 0
    per_seat: dict[str, list[float]] = {n: [] for n in names}
    start = time.process_time()
    for seed in range(corpora):
        plays = [p for g in corpus("hearts", games, 900 + seed, 4, bots) for p in game_plays(g)]
        judged += games
        for s in signals(plays):
            seats += 1
            flagged += s.flagged
            below05 += s.p_value < 0.05
            below01 += s.p_value < 0.01
            per_seat[names[int(s.player[1:])]].append(s.decisions)
    spent = time.process_time() - start
    low, high = wilson(flagged, seats)
    print(f"honest seats: {seats} ({corpora} corpora of {games} games, four strengths): "
          f"{flagged} flagged = {flagged / seats:.2%} (95% interval {low:.2%}-{high:.2%}); "
          f"p < 0.05: {below05 / seats:.1%}, p < 0.01: {below01 / seats:.1%}")  # fmt: skip
    for name, counts in per_seat.items():
        print(f"  {name}: telling plays per corpus, median {statistics.median(counts)}")
    print(f"CPU: {spent / judged:.3f} s per game played and judged (both in the figure)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    known = ["flag", "honest"]
    parser.add_argument("--part", action="append", choices=known)
    parser.add_argument("--corpora", type=int, default=50)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    print(f"replay engine: {engine_build()}")
    parts = args.part or known
    if "flag" in parts:
        flag(min(args.corpora, 20))
    if "honest" in parts:
        honest(args.corpora, args.games)


if __name__ == "__main__":
    main()
