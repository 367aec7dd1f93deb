"""Audit throughput over a simulated corpus of each game, with 1 and 2 jobs.

Run: ``.venv/bin/python benchmarks/bench_audit.py [--games N]``. The audit path is the one of
``replay audit`` (``replay.audit.audit_many``: Arrow table -> events -> Rules.walk per game).
Target on this 2-core machine with 2 jobs: 40,000 Hearts hands/s, and the same events/s for the
other games.
"""

from __future__ import annotations

import argparse
import time

from replay import engine_build
from replay.audit import audit_many
from replay.events import events_to_table
from replay.games import available_kinds, get_rules
from replay.simulate import simulate_game

PLAYERS = {"hearts": 4, "hez2": 4, "hiifuu": 5, "fou": 6}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()
    print(f"replay engine: {engine_build()}")
    print(f"{'kind':<8}{'games':>7}{'events':>10}{'jobs':>6}{'events/s':>12}{'rounds/s':>10}")
    for kind in available_kinds():
        rules = get_rules(kind)
        players = PLAYERS.get(kind, rules.min_players)
        games = [simulate_game(rules, f"a{i}", players=players, seed=i) for i in range(args.games)]
        table = events_to_table([e for g in games for e in g])
        rounds = sum(len({e.round for e in g if e.round is not None}) for g in games)
        del games  # like `replay audit`, which holds the Arrow table only (forks stay cheap)
        for jobs in (1, 2):
            start = time.perf_counter()
            report = audit_many(table, jobs)
            seconds = time.perf_counter() - start
            assert not report.findings, report.findings[:1]
            print(
                f"{kind:<8}{args.games:>7}{table.num_rows:>10}{jobs:>6}"
                f"{table.num_rows / seconds:>12,.0f}{rounds / seconds:>10,.0f}"
            )


if __name__ == "__main__":
    main()
