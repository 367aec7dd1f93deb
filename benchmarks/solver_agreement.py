"""The solver against the plain search through the reducer on many random endgame positions:
prints, per game, the positions compared, how many agree (all legal cards, every seat's value),
the cards a hand among them and the time.

Run: ``PYTHONPATH=build/native:. .venv/bin/python benchmarks/solver_agreement.py [--positions
10000] [--limit 20000] [--games hearts,hiifuu,fou] [--moon 0.33]``. Positions are drawn as in the
test suite (tests/solver_brute.py: 2-5 cards a hand, random bots, a share ``--moon`` of Hearts'
with the moon still open: a third by default, ``--moon 1`` for all) from another seed, kept when
the plain tree has fewer than ``--limit`` positions (the brute force's cost);
tests/test_solver.py runs a few hundred a game.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

# after PYTHONPATH, so that the compiled build there is the one measured
sys.path.append(str(Path(__file__).resolve().parents[1]))

from replay.games import get_rules
from replay.solver import solve
from tests.solver_brute import card_values, endgames


def agreement(kind: str, positions: int, limit: int, seed: int, moon: float) -> str:
    rules = get_rules(kind)
    agree = 0
    sizes: collections.Counter[int] = collections.Counter()
    start = time.process_time()
    for state in endgames(kind, seed=seed, count=positions, limit=limit, moon=moon):
        sizes[max(bin(h).count("1") for h in state.hands)] += 1
        if solve(state, rules, line=False).values == card_values(rules, state):
            agree += 1
        else:
            print(f"  {kind}: disagreement at {state.game_id} seq {state.seq}", flush=True)
        done = sizes.total()
        if done % 1000 == 0:
            spent = time.process_time() - start
            print(f"  {kind}: {agree:,} of {done:,} agree so far ({spent:.0f} s)", flush=True)
    spent = time.process_time() - start
    by_size = ", ".join(f"{k} cards: {v}" for k, v in sorted(sizes.items()))
    return f"{kind:<7} {agree:,} of {positions:,} agree ({by_size}) in {spent:.0f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--limit", type=int, default=20_000)
    parser.add_argument("--games", default="hearts,hiifuu,fou")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--moon", type=float, default=1 / 3, help="Hearts: share moon-open")
    args = parser.parse_args()
    for kind in args.games.split(","):
        print(agreement(kind, args.positions, args.limit, args.seed, args.moon), flush=True)


if __name__ == "__main__":
    main()
