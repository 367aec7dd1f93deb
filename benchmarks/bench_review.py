"""The review (``replay review``): speed, and the validity figures too heavy for the suite.

Run: ``PYTHONPATH=build/native .venv/bin/python benchmarks/bench_review.py [--part P ...]``
(the compiled build: ``REPLAY_PGO=0 make native``). Parts:

- ``speed``: one scoring unit of a heuristic game of every kind (a Hearts hand, a Hiifuu and a
  Fou! round, a Hez2 game) reviewed for every seat with the default settings on one core:
  seconds, decisions, rollouts and rollouts/s, beside the unchecked replay speed of the same
  events (what ``bench_games.py`` calls ``nocheck ev/s``);
- ``scaling``: the Hearts hand at ``--samples`` 4 to 32 and ``--jobs`` 1 and 2;
- ``strength``: the heuristic bot against random play (mean points of a Hearts hand);
- ``validity``: over ``--hands`` Hearts hands in which one seat is careless (the heuristic bot
  playing a uniformly random legal move 20% of the time), the careless seat's mean loss per
  decision against the heuristic seats' (Welch's test); over ``--corpora`` corpora of
  heuristic hands, how often two heuristic seats are told apart (p < 0.01);
- ``labels``: the share of labelled moves labelled again under another seed (default
  settings, ``--label-hands`` hands);
- ``impact``: the adjusted result (``replay explain --impact``, default settings) of every
  dispute file of sample_logs/disputes whose finding is played on (an illegal decision, a
  wrong ruling), on one core: CPU seconds per file, the slowest, rollouts/s.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from replay import engine_build
from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_rules
from replay.model.events import Event
from replay.model.specs import spec
from replay.review import DEFAULT_SAMPLES
from replay.review.engine import GameReview, Settings, review_games, review_steps
from replay.review.rollout import score_unit
from replay.review.stats import mean_interval, welch_p

sys.path.append(str(Path(__file__).resolve().parent.parent))  # tests.review_support
from tests.review_support import first_hand


def first_unit(kind: str, seed: int = 1) -> list[Event]:
    """The first scoring unit of a heuristic game of ``kind`` at its sample table."""
    rules = get_rules(kind)
    game = spec(kind)
    players = (game.sample_players if game else None) or rules.min_players
    events = simulate_game(rules, f"{kind}-{seed}", players=players, seed=seed, bots=["heuristic"])
    scoring = score_unit(kind).events
    scored = [i for i, e in enumerate(events) if e.type in scoring]
    return events[: scored[players - 1] + 1]


def rollouts_of(reviews: Sequence[GameReview]) -> int:
    return sum(len(d.alternatives) * r.settings.samples for r in reviews for d in r.decisions)


def timed_review(events: list[Event], settings: Settings, jobs: int = 1) -> tuple[float, Any]:
    """The review and its seconds: CPU seconds of this process for one job (the machine may be
    shared), wall-clock seconds for several."""
    clock = time.process_time if jobs == 1 else time.perf_counter
    start = clock()
    reviews = review_games([events], settings, jobs=jobs)
    return clock() - start, reviews


def replay_rate(kind: str, events: list[Event], repeat: int = 200) -> float:
    rules = get_rules(kind)
    start = time.process_time()
    for _ in range(repeat):
        rules.replay(events, check=False)
    return repeat * len(events) / (time.process_time() - start)


def speed() -> None:
    print("speed: one scoring unit, every seat, default settings, one core (CPU seconds)")
    print(f"{'kind':<8}{'unit':<7}{'events':>7}{'decisions':>10}{'seconds':>9}{'rollouts':>10}"
          f"{'rollouts/s':>12}{'replay ev/s':>13}")  # fmt: skip
    for kind in available_kinds():
        events = first_unit(kind)
        try:
            seconds, reviews = timed_review(events, Settings())
        except KeyError as exc:  # a kind with no sampler of hidden cards yet
            print(f"{kind:<8}{exc}")
            continue
        rollouts = rollouts_of(reviews)
        decisions = len(reviews[0].decisions)
        print(
            f"{kind:<8}{score_unit(kind).unit:<7}{len(events):>7}{decisions:>10}{seconds:>9.2f}"
            f"{rollouts:>10,}{rollouts / seconds:>12,.0f}{replay_rate(kind, events):>13,.0f}"
        )


def scaling() -> None:
    hand = first_unit("hearts")
    print("scaling: the Hearts hand, every seat (CPU seconds; jobs: wall clock, both)")
    print(f"{'samples':>8}{'jobs':>6}{'seconds':>9}")
    for samples in (8, 16, 32, 64, 128):
        print(f"{samples:>8}{1:>6}{timed_review(hand, Settings(samples=samples))[0]:>9.2f}")
    for jobs in (1, 2):
        start = time.perf_counter()
        review_games([hand], Settings(), jobs=jobs)
        print(f"{DEFAULT_SAMPLES:>8}{jobs:>6}{time.perf_counter() - start:>9.2f}  wall")


def strength(hands: int) -> None:
    """Mean points of a Hearts hand for a seat of one bot among three of another."""
    from replay.engine.simulate import play_out

    rules = get_rules("hearts")
    bots = rules.bots()
    print(f"strength: mean points of a Hearts hand (lower is better), {hands} hands each")
    for me, others in (("heuristic", "random"), ("random", "random"),
                       ("random", "heuristic"), ("heuristic", "heuristic")):  # fmt: skip
        points = []
        for k in range(hands):
            import random

            rng = random.Random(k)
            first = rules.setup_event(f"s{k}", 4, rng, {})
            seat = k % 4
            seats = [bots[me if s == seat else others] for s in range(4)]
            events = play_out(rules, rules.start(first), [first], rng, seats)
            points.append(next(e.amount for e in events if e.type == "round_scored"
                               and e.player == seat) or 0)  # fmt: skip
        m = mean_interval([float(p) for p in points])
        print(f"  {me:<9} among 3 {others:<9} {m.mean:5.2f} [{m.low:.2f}, {m.high:.2f}]")


def careless_losses(hands: int, settings: Settings) -> tuple[list[float], list[float]]:
    """Loss per decision of the careless seats and of the heuristic seats over ``hands``."""
    careless: list[float] = []
    heuristic: list[float] = []
    for k in range(hands):
        (review,) = review_games([first_hand(k, k % 4)], settings)
        for d in review.decisions:
            (careless if d.seat == k % 4 else heuristic).append(d.loss.mean)
    return careless, heuristic


def labels_again(hands: int) -> None:
    """The share of labelled moves labelled again under another seed, default settings."""
    again = labelled = 0
    for k in range(hands):
        events = first_hand(k, k % 4)
        (review,) = review_games([events], Settings())
        steps = [d.seq for d in review.decisions if d.label]
        if steps:
            redone = review_steps(events, steps, Settings(seed=1))
            labelled += len(redone)
            again += sum(d.label is not None for d in redone)
    share = again / labelled if labelled else 0.0
    print(f"labels: {hands} hands, {DEFAULT_SAMPLES} samples: {again}/{labelled} labelled moves "
          f"labelled again under another seed ({share:.0%})")  # fmt: skip


def validity(hands: int, corpora: int, samples: int) -> None:
    settings = Settings(samples=samples)
    start = time.perf_counter()
    careless, heuristic = careless_losses(hands, settings)
    a, b = mean_interval(careless), mean_interval(heuristic)
    print(f"validity: {hands} Hearts hands, one careless seat (20% random), {samples} samples")
    print(f"  careless seat  {a.mean:.3f} [{a.low:.3f}, {a.high:.3f}] points/decision, n={a.n}")
    print(f"  heuristic      {b.mean:.3f} [{b.low:.3f}, {b.high:.3f}] points/decision, n={b.n}")
    print(f"  Welch p = {welch_p(careless, heuristic):.2g}  ({time.perf_counter() - start:.0f} s)")
    apart = 0
    for c in range(corpora):
        left: list[float] = []
        right: list[float] = []
        for k in range(hands // 4):
            (review,) = review_games(
                [first_hand(10_000 * (c + 1) + k, None)], settings, [k % 4, (k + 2) % 4]
            )
            for d in review.decisions:
                (left if d.seat == k % 4 else right).append(d.loss.mean)
        apart += welch_p(left, right) < 0.01
    if corpora:
        print(f"  heuristic seats told apart (p < 0.01) in {apart}/{corpora} corpora of "
              f"{hands // 4} hands")  # fmt: skip


def impact() -> None:
    from replay.cli.common import read_events_file
    from replay.review import DEFAULT_IMPACT_SAMPLES
    from replay.review.impact import game_impacts

    root = Path(__file__).resolve().parent.parent / "sample_logs" / "disputes"
    print(f"impact: adjusted results of the dispute files, {DEFAULT_IMPACT_SAMPLES} rollouts")
    worst, total, rollouts = ("", 0.0), 0.0, 0
    for path in sorted(root.glob("*/*.jsonl")):
        events, _ = read_events_file(path)
        events.sort(key=lambda e: e.seq)
        start = time.process_time()
        found = game_impacts(events)
        seconds = time.process_time() - start
        played = sum(i.samples * (2 if i.baseline_change else 1) for i in found)
        if not played:
            continue
        total, rollouts = total + seconds, rollouts + played
        worst = max(worst, (path.stem, seconds), key=lambda w: w[1])
        name = f"{path.parent.name}/{path.stem}"
        print(f"  {name:28} {seconds:6.2f} s CPU  {played:4} games played on")
    print(f"  slowest: {worst[0]} {worst[1]:.2f} s; {rollouts / total:.0f} games/s on one core")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parts_known = ["speed", "scaling", "strength", "validity", "labels", "impact"]
    parser.add_argument("--part", action="append", choices=parts_known)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--corpora", type=int, default=20)
    parser.add_argument("--samples", type=int, default=8, help="of the validity part")
    parser.add_argument("--label-hands", type=int, default=16)
    args = parser.parse_args()
    print(f"replay engine: {engine_build()}")
    parts = args.part or parts_known
    if "speed" in parts:
        speed()
    if "scaling" in parts:
        scaling()
    if "strength" in parts:
        strength(args.hands * 2)
    if "validity" in parts:
        validity(args.hands, args.corpora, args.samples)
    if "labels" in parts:
        labels_again(args.label_hands)
    if "impact" in parts:
        impact()


if __name__ == "__main__":
    main()
