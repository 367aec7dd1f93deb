"""Luck (``replay reindex --luck``, docs/review.md "Luck"): the figures too heavy for the suite.

Run: ``PYTHONPATH=build/native .venv/bin/python benchmarks/bench_luck.py [--part P ...]``
(the compiled build: ``REPLAY_PGO=0 make native``; the pure build without PYTHONPATH). Parts:

- ``variance``: per kind, a table where seat 0 is careless (the heuristic bot playing a
  uniformly random legal move 20% of the time) and the others play the heuristic bot: the paired
  difference (seat 0's relative result minus the others' mean, per scoring unit), raw and
  luck-adjusted: means, standard deviations, the variance ratio (the factor by which fewer units
  tell the seat apart) and the units each needs for the mean to stand 2 standard errors from 0.
  The mean paired luck with its standard error (0 in expectation: the check of unbiasedness).
  For Hearts also the bound no estimator of the deal's luck can pass: V the mean of 16 playouts
  by the true seats' bots (the careless one too) from the actual deal;
- ``bias``: ``--hands`` (10,000) Hearts hands, every seat the same careless bot: each seat's mean
  luck-adjusted result, its standard error and their ratio;
- ``speed``: CPU seconds of the luck of about ``--speed-hands`` Hearts hands (and a tenth as
  many Hez2 games) in one process, units per CPU second, and the wall and CPU time of what
  ``replay reindex --luck`` runs (``update_luck``) over a store of the Hearts games with
  ``--jobs`` 1 and 2 (the workers' CPU counted); the time for a 1M-hand store follows (linear:
  each game's luck is its own).
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from replay import engine_build
from replay.analytics.luck import LuckSettings, luck_path, update_luck
from replay.games import get_rules
from replay.review.luck import game_luck, play_relative
from replay.review.rollout import score_unit
from replay.store import EventStore

sys.path.append(str(Path(__file__).resolve().parent.parent))  # tests.luck_support
from tests.luck_support import careless_bot, corpus, paired, units_to_tell

TABLES = {"hearts": (4, 300), "hiifuu": (4, 150), "fou": (5, 40), "hez2": (4, 600)}


def variance(scale: float) -> None:
    print("kind    units  raw mean  raw sd  adj mean  adj sd  var ratio  units raw  units adj"
          "  luck mean (se)")  # fmt: skip
    for kind, (players, games) in TABLES.items():
        heuristic = get_rules(kind).bots()["heuristic"]
        bots = [careless_bot(kind, 0.2)] + [heuristic] * (players - 1)
        rows = [
            r for g in corpus(kind, int(games * scale), 11, players, bots) for r in game_luck(g)
        ]
        raw, adj = paired(rows, 0, "relative"), paired(rows, 0, "adjusted")
        ratio = statistics.variance(raw) / statistics.variance(adj)
        luck = [r - a for r, a in zip(raw, adj, strict=True)]
        luck_se = statistics.stdev(luck) / len(luck) ** 0.5
        print(f"{kind:7} {len(raw):5} {statistics.fmean(raw):9.3f} {statistics.stdev(raw):7.3f} "
              f"{statistics.fmean(adj):9.3f} {statistics.stdev(adj):7.3f} {ratio:10.2f} "
              f"{units_to_tell(raw):10.0f} {units_to_tell(adj):10.0f}  "
              f"{statistics.fmean(luck):+.3f} ({luck_se:.3f})")  # fmt: skip
    print(f"Hearts bound (V = 16 playouts by the true bots): {oracle_ratio(int(600 * scale)):.2f}")
    print("AIVAT (Burch et al. 2018, heads-up no-limit poker): 85% less spread, 6.7x variance")


def oracle_ratio(hands: int) -> float:
    """The variance ratio with the best V of the deal: the true bots' mean result from it."""
    rules = get_rules("hearts")
    scoring = frozenset(score_unit("hearts").events)
    heuristic = rules.bots()["heuristic"]
    bots = [careless_bot("hearts", 0.2), heuristic, heuristic, heuristic]
    raw, adj = [], []
    for g in range(hands):
        rng = random.Random(f"oracle/{g}")
        first = rules.setup_event(f"o{g}", 4, rng, {})
        state = rules.start(first)
        for _ in range(4):
            deal = rules.sample_chance(state, rng)
            state = rules.apply(state, deal)
        actual, _ = play_relative(rules, state.clone(), bots, rng, scoring)
        mean = [0.0] * 4
        for j in range(16):
            value, _ = play_relative(rules, state.clone(), bots, random.Random(j), scoring)
            mean = [m + v / 16 for m, v in zip(mean, value, strict=True)]
        raw.append(actual[0] - sum(actual[1:]) / 3)
        adj.append(raw[-1] - (mean[0] - sum(mean[1:]) / 3))
    return statistics.variance(raw) / statistics.variance(adj)


def bias(hands: int) -> None:
    bots = [careless_bot("hearts", 0.2)] * 4
    rows = []
    for g in corpus("hearts", hands, 3, 4, bots):
        rows += game_luck(g)
        if len(rows) >= 4 * hands:
            break
    for seat in range(4):
        adjusted = [r.adjusted for r in rows if r.seat == seat][:hands]
        mean = statistics.fmean(adjusted)
        error = statistics.stdev(adjusted) / len(adjusted) ** 0.5
        raw = statistics.fmean([r.relative for r in rows if r.seat == seat][:hands])
        ratio = abs(mean) / error
        print(f"seat {seat}: {len(adjusted)} hands, raw mean {raw:+.3f}, adjusted mean "
              f"{mean:+.3f}, standard error {error:.3f}, |mean|/se {ratio:.2f}")  # fmt: skip


def speed(hands: int) -> None:
    heuristic = get_rules("hearts").bots()["heuristic"]
    games = list(corpus("hearts", max(1, hands // 10), 5, 4, [heuristic] * 4))
    hez2 = list(
        corpus("hez2", max(1, hands // 10), 5, 4, [get_rules("hez2").bots()["heuristic"]] * 4)
    )
    for kind, logs in (("hearts", games), ("hez2", hez2)):
        start = time.process_time()
        units = sum(len(game_luck(g)) for g in logs) // 4  # four seats a unit
        spent = time.process_time() - start
        print(f"{kind}: {units} units ({len(logs)} games), {spent:.2f} CPU s, "
              f"{units / spent:.0f} units/CPU s (a unit: a Hearts hand, a Hez2 game)")  # fmt: skip
    units = sum(1 for g in games for e in g if e.type == "round_scored") // 4
    with tempfile.TemporaryDirectory() as folder:
        store = EventStore.open(Path(folder) / "store", create=True)
        store.ingest(games)
        for jobs in (1, 2):
            luck_path(store).unlink(missing_ok=True)
            start, cpu = time.perf_counter(), time.process_time() + _children_cpu()
            update_luck(store, LuckSettings(), jobs=jobs)
            wall = time.perf_counter() - start
            cpu = time.process_time() + _children_cpu() - cpu
            print(f"update_luck (reindex --luck) --jobs {jobs}: {units} Hearts hands, "
                  f"{wall:.1f} s wall, {cpu:.1f} CPU s; 1M hands: {wall / units * 1e6 / 60:.0f} "
                  f"min wall, {cpu / units * 1e6 / 60:.0f} CPU min")  # fmt: skip


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    known = ["variance", "bias", "speed"]
    parser.add_argument("--part", action="append", choices=known)
    parser.add_argument("--scale", type=float, default=1.0, help="of the variance corpora")
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--speed-hands", type=int, default=2_000)
    args = parser.parse_args()
    print(f"replay engine: {engine_build()}")
    parts = args.part or known
    if "variance" in parts:
        variance(args.scale)
    if "bias" in parts:
        bias(args.hands)
    if "speed" in parts:
        speed(args.speed_hands)


if __name__ == "__main__":
    main()
