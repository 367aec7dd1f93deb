"""The review (``replay review``): speed, and the validity figures too heavy for the suite.

Run: ``PYTHONPATH=build/native .venv/bin/python benchmarks/bench_review.py [--part P ...]``
(the compiled build: ``REPLAY_PGO=0 make native``). Parts:

- ``speed``: one scoring unit of a heuristic game of every kind (a Hearts hand, a Hiifuu and a
  Fou! round, a Hez2 game) reviewed for every seat with the default settings on one core:
  seconds, decisions, rollouts and rollouts/s, beside the unchecked replay speed of the same
  events (what ``bench_games.py`` calls ``nocheck ev/s``);
- ``scaling``: the Hearts hand at ``--samples`` 8 to 128; four hands with ``--jobs`` 1 and 2
  (wall-clock and CPU seconds, the workers' included);
- ``strength``: the heuristic bot against random play (mean points of a Hearts hand);
- ``validity``: over ``--hands`` Hearts hands (``--samples``, the review's default) in which
  one seat is careless (the heuristic bot playing a uniformly random legal move 20% of the
  time), the careless seat's mean loss per decision against the heuristic seats' (hands as
  clusters, :func:`~replay.review.stats.clustered_p`, and by permutation of the seats of each
  hand, :func:`~replay.review.stats.seat_permutation_p`; Welch's test beside them), for
  ``--contrasts`` corpora from ``--first-contrast`` (corpus ``c``: the seeds from ``c *
  hands``); over ``--corpora`` corpora of ``--corpus-hands`` heuristic hands
  (``--null-samples``), how often two heuristic seats are told apart (p < 0.01 and p < 0.05,
  with the rate's Wilson interval);
- ``labels``: over ``--label-hands`` hands at ``--label-samples`` (the default settings), the
  labelled moves (and the mistakes and blunders) labelled again, and with the same label,
  under another seed; the samples a decision took; the labels of the policy's own moves;
- ``hez2``: staked Hez2 games reviewed in places and in payout (the same rollouts);
- ``impact``: the adjusted result (``replay explain --impact``, default settings) of every
  dispute file of sample_logs/disputes whose finding is played on (an illegal decision, a
  wrong ruling), on one core: CPU seconds per file, the slowest, rollouts/s.
"""

from __future__ import annotations

import argparse
import random
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
from replay.review.engine import (
    LABELS,
    THINK_LONGER,
    DecisionReview,
    GameReview,
    Settings,
    decision_steps,
    departures,
    plan_review,
    review_games,
    review_steps,
)
from replay.review.rollout import score_unit
from replay.review.stats import clustered_p, mean_interval, seat_permutation_p, welch_p, wilson

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
    """The rollouts played: every alternative on every sample its decision took."""
    return sum(len(d.alternatives) * d.loss.n for r in reviews for d in r.decisions)


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


def cpu_seconds() -> float:
    """CPU seconds of this process and of its finished children (the review's workers)."""
    import resource

    me, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                      resource.RUSAGE_CHILDREN))  # fmt: skip
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def scaling(hands: int = 4) -> None:
    """The Hearts hand at 8 to 128 samples (CPU seconds, one job); ``hands`` hands at the
    default samples with one and two jobs: wall-clock and CPU seconds (the workers' included)."""
    hand = first_unit("hearts")
    print("scaling: the Hearts hand, every seat, one job (CPU seconds)")
    print(f"{'samples':>8}{'seconds':>9}{'mean samples':>14}")
    for samples in (8, 16, 32, 64, 128):
        seconds, reviews = timed_review(hand, Settings(samples=samples))
        decisions = reviews[0].decisions
        mean = sum(d.loss.n for d in decisions) / len(decisions)
        print(f"{samples:>8}{seconds:>9.2f}{mean:>14.0f}")
    games = [first_unit("hearts", seed) for seed in range(1, hands + 1)]
    print(f"scaling: {hands} Hearts hands, every seat, {DEFAULT_SAMPLES} samples")
    print(f"{'jobs':>5}{'wall s':>9}{'CPU s':>9}")
    for jobs in (1, 2):
        wall, cpu = time.perf_counter(), cpu_seconds()
        review_games(games, Settings(), jobs=jobs)
        print(f"{jobs:>5}{time.perf_counter() - wall:>9.2f}{cpu_seconds() - cpu:>9.2f}")


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
            rng = random.Random(k)
            first = rules.setup_event(f"s{k}", 4, rng, {})
            seat = k % 4
            seats = [bots[me if s == seat else others] for s in range(4)]
            events = play_out(rules, rules.start(first), [first], rng, seats)
            points.append(next(e.amount for e in events if e.type == "round_scored"
                               and e.player == seat) or 0)  # fmt: skip
        m = mean_interval([float(p) for p in points])
        print(f"  {me:<9} among 3 {others:<9} {m.mean:5.2f} [{m.low:.2f}, {m.high:.2f}]")


#: Per hand, the reviewed decisions' losses of each seat, the tested seat first.
Hands = list[list[list[float]]]


def seat_losses(
    review: GameReview, seats: Sequence[int], beyond: bool = False
) -> list[list[float]]:
    """The losses of ``seats``' decisions in a review, seat by seat in that order (with
    ``beyond``, each move's cost beyond the policy's move instead)."""
    return [
        [(d.beyond_policy if beyond else d.loss).mean for d in review.decisions if d.seat == seat]
        for seat in seats
    ]


def careless_hands(hands: int, settings: Settings, first: int = 0) -> tuple[Hands, Hands]:
    """Hands ``first`` to ``first + hands - 1``, one careless seat (``k % 4``), every seat
    reviewed, the careless seat first: the losses, and the costs beyond the policy's move."""
    losses, beyond = [], []
    for k in range(first, first + hands):
        (review,) = review_games([first_hand(k, k % 4)], settings)
        seats = [(k + s) % 4 for s in range(4)]
        losses.append(seat_losses(review, seats))
        beyond.append(seat_losses(review, seats, beyond=True))
    return losses, beyond


def pvalues(hands: Hands) -> tuple[float, float]:
    """The tested seat (first of each hand) against the others: the clustered p-value and the
    permutation p-value (:func:`~replay.review.stats.seat_permutation_p`), hands as units."""
    tested = [(k, v) for k, hand in enumerate(hands) for v in hand[0]]
    others = [(k, v) for k, hand in enumerate(hands) for seat in hand[1:] for v in seat]
    return clustered_p(tested, others), seat_permutation_p(hands)


def told_apart(corpora: int, hands: int, settings: Settings) -> list[tuple[float, float]]:
    """The p-values (clustered, permutation) of two heuristic seats (``k % 4`` and across it)
    compared over ``corpora`` corpora of ``hands`` heuristic hands each (their own seeds)."""
    out = []
    for c in range(corpora):
        corpus = []
        for k in range(10_000 * (c + 1), 10_000 * (c + 1) + hands):
            seats = [k % 4, (k + 2) % 4]
            (review,) = review_games([first_hand(k, None)], settings, seats)
            corpus.append(seat_losses(review, seats))
        out.append(pvalues(corpus))
    return out


def validity(
    hands: int, samples: int, corpora: int, corpus_hands: int, null_samples: int, contrasts: range
) -> None:
    found = [careless_contrast(hands, Settings(samples=samples), c * hands) for c in contrasts]
    if len(found) > 1:
        for name, ps in (
            ("clustered", [p for p, _ in found]),
            ("permutation", [p for _, p in found]),
        ):
            below = sum(p < 0.01 for p in ps)
            low, high = wilson(below, len(ps))
            print(f"  {name}: p < 0.01 in {below} of {len(ps)} corpora of {hands} hands "
                  f"(95% [{low:.0%}, {high:.0%}])")  # fmt: skip
    if corpora:
        null_corpora(corpora, corpus_hands, Settings(samples=null_samples))


def careless_contrast(hands: int, settings: Settings, first: int = 0) -> tuple[float, float]:
    """The careless seat against the heuristic seats over ``hands`` hands (seeds ``first``
    on): the mean losses, the clustered and permutation p-values (returned) and Welch's; then
    the same with the policy's loss at each decision taken out (the cost beyond the policy's
    move, a control variate), and the seats' agreement with the policy."""
    start = time.process_time()
    corpus, beyond = careless_hands(hands, settings, first)
    careless = [v for hand in corpus for v in hand[0]]
    heuristic = [v for hand in corpus for seat in hand[1:] for v in seat]
    a, b = mean_interval(careless), mean_interval(heuristic)
    clustered, permuted = pvalues(corpus)
    print(f"validity: {hands} Hearts hands (seeds {first} on), one careless seat (20% random), "
          f"{settings.samples} samples")  # fmt: skip
    print(f"  careless seat  {a.mean:.3f} [{a.low:.3f}, {a.high:.3f}] points/decision, n={a.n}")
    print(f"  heuristic      {b.mean:.3f} [{b.low:.3f}, {b.high:.3f}] points/decision, n={b.n}")
    print(f"  p = {clustered:.2g} clustered by hand, {permuted:.2g} by permutation of the seats "
          f"of each hand (Welch's, decisions as independent: {welch_p(careless, heuristic):.2g})"
          f"  {time.process_time() - start:.0f} s CPU", flush=True)  # fmt: skip
    a = mean_interval([v for hand in beyond for v in hand[0]])
    b = mean_interval([v for hand in beyond for seat in hand[1:] for v in seat])
    clustered_beyond, permuted_beyond = pvalues(beyond)
    print(
          f"  beyond the policy's move: careless {a.mean:.3f} [{a.low:.3f}, {a.high:.3f}], "
          f"heuristic {b.mean:.3f} [{b.low:.3f}, {b.high:.3f}] points/decision; "
          f"p = {clustered_beyond:.2g} clustered, {permuted_beyond:.2g} by permutation"
    )  # fmt: skip
    return clustered, permuted


def null_corpora(corpora: int, corpus_hands: int, settings: Settings) -> None:
    start = time.process_time()
    found = told_apart(corpora, corpus_hands, settings)
    for name, ps in (("clustered", [p for p, _ in found]), ("permutation", [p for _, p in found])):
        for level in (0.01, 0.05):
            apart = sum(p < level for p in ps)
            low, high = wilson(apart, corpora)
            print(f"  two heuristic seats told apart at p < {level} ({name}): {apart}/{corpora} "
                  f"corpora of {corpus_hands} hands ({apart / corpora:.1%}, 95% [{low:.1%}, "
                  f"{high:.1%}]), {settings.samples} samples")  # fmt: skip
    print(f"  ({time.process_time() - start:.0f} s CPU)")


def beyond_hand(
    k: int, careless: Sequence[int], seats: Sequence[int], settings: Settings
) -> list[list[float]]:
    """Hand ``k`` (``careless`` seats random 20% of the time, the others heuristic): each of
    ``seats``' costs beyond the policy's move, decision by decision, only the departures from
    the policy valued (the others are 0 by construction)."""
    events = first_hand(k, careless)
    steps = decision_steps(events, plan_review(events, seats, settings))
    away = departures(events, steps, settings)
    cost = {d.seq: d.beyond_policy.mean for d in review_steps(events, away, settings)}
    return [[cost.get(events[i].seq, 0.0) for i in steps if events[i].player == s] for s in seats]


def departures_part(hands: int, corpora: int, corpus_hands: int, samples: int) -> None:
    """The cost beyond the policy's move, valued at the departures only: the careless seat
    (``k % 4``) against the heuristic seat across it over ``hands`` hands; then ``corpora``
    corpora of ``corpus_hands`` hands where every seat is careless (the same bot), seat ``k %
    4`` against the one across: how often they are told apart."""
    settings = Settings(samples=samples, think_longer=1)
    start = time.process_time()
    if hands:
        corpus = [beyond_hand(k, [k % 4], [k % 4, (k + 2) % 4], settings) for k in range(hands)]
        mine = mean_interval([v for hand in corpus for v in hand[0]])
        print(f"departures: {hands} Hearts hands, one careless seat, {samples} samples: beyond "
              f"the policy {mine.mean:.3f} [{mine.low:.3f}, {mine.high:.3f}] points/decision "
              f"(n={mine.n}), the heuristic seat 0; p = {seat_permutation_p(corpus):.2g} by "
              f"permutation ({time.process_time() - start:.0f} s CPU)", flush=True)  # fmt: skip
    ps = []
    for c in range(corpora):
        seeds = range(20_000 * (c + 1), 20_000 * (c + 1) + corpus_hands)
        every = range(4)
        ps.append(seat_permutation_p(
            [beyond_hand(k, every, [k % 4, (k + 2) % 4], settings) for k in seeds]
        ))  # fmt: skip
    for level in (0.01, 0.05) if corpora else ():
        apart = sum(p < level for p in ps)
        low, high = wilson(apart, corpora)
        print(f"  two seats of the same careless bot told apart at p < {level}: "
              f"{apart}/{corpora} corpora of {corpus_hands} hands ({apart / corpora:.1%}, "
              f"95% [{low:.1%}, {high:.1%}]), {samples} samples "
              f"({time.process_time() - start:.0f} s CPU)")  # fmt: skip


def labels_again(hands: int, samples: int) -> None:
    """Labels under two seeds: the share of the moves labelled under seed 0 labelled again
    (and with the same label) under seed 1; how often the policy's own move is labelled; the
    samples the review took (a close decision's samples double up to THINK_LONGER times)."""
    first: list[DecisionReview] = []
    again: list[DecisionReview] = []
    policy_moves = 0
    policy_labels: dict[str | None, int] = {}
    for k in range(hands):
        events = first_hand(k, k % 4)
        (review,) = review_games([events], Settings(samples=samples))
        first += review.decisions
        for d in review.decisions:
            mine = next(a for a in d.alternatives if a.chosen)
            if mine.policy:
                policy_moves += 1
                policy_labels[d.label] = policy_labels.get(d.label, 0) + 1
        steps = [d.seq for d in review.decisions if d.label]  # seq = position: from game_start
        again += review_steps(events, steps, Settings(samples=samples, seed=1))
    labelled = [d for d in first if d.label]
    pairs = list(zip(labelled, again, strict=True))
    mean_samples = sum(d.loss.n for d in first) / max(len(first), 1)
    print(f"labels: {hands} hands, {samples} samples (close decisions up to "
          f"{samples * THINK_LONGER}), {len(first)} decisions, {mean_samples:.0f} samples each "
          f"on average; under another seed:")  # fmt: skip
    for name, worst in (("labelled", LABELS), ("mistakes or blunders", LABELS[1:])):
        these = [(a, b) for a, b in pairs if a.label in worst]
        kept = sum(b.label is not None for _, b in these)
        same = sum(a.label == b.label for a, b in these)
        low, high = wilson(kept, len(these)) if these else (0.0, 0.0)
        print(f"  {name}: {len(these)}, labelled again {kept} ({kept / max(len(these), 1):.0%}, "
              f"95% [{low:.0%}, {high:.0%}]), the same label {same}")  # fmt: skip
    counts = ", ".join(f"{policy_labels.get(name, 0)} {name}" for name in LABELS)
    print(f"  the policy's own move, {policy_moves} decisions: {counts}")


def hez2_payout(samples: int, games: int = 3) -> None:
    """Hez2 games at a staked table (four humans, 100 minor units each: the pot's 60/30/10%
    by place, HEZ2-STAKES) reviewed as ``replay review`` does: the loss in places, the
    review's measure, and in payout, from the same rollouts."""
    rules = get_rules("hez2")
    options = {"bots": [False] * 4, "stakes": [100] * 4}
    logs = [
        simulate_game(rules, f"staked-{seed}", players=4, seed=seed, bots=["heuristic"],
                      options=options)
        for seed in range(1, games + 1)
    ]  # fmt: skip
    start = time.process_time()
    decisions = [d for r in review_games(logs, Settings(samples=samples)) for d in r.decisions]
    place = mean_interval([d.loss.mean for d in decisions])
    paid = mean_interval([d.payout_loss.mean for d in decisions if d.payout_loss is not None])
    other_best = sum(
        d.best != max(d.alternatives, key=lambda a: a.payout.mean if a.payout else 0.0).move
        for d in decisions
    )
    print(
        f"hez2: {games} staked games (4 x 100: a pot of 400 shared 240/120/40/0 by place), "
        f"{samples} samples, {place.n} decisions ({time.process_time() - start:.0f} s CPU)"
    )
    print(
        f"  mean loss per decision: {place.mean:.3f} [{place.low:.3f}, {place.high:.3f}] "
        f"places; {paid.mean:.2f} [{paid.low:.2f}, {paid.high:.2f}] minor units of payout"
    )
    print(f"  the best move differs between the two measures at {other_best} decisions")


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
    parts_known = [
        "speed", "scaling", "strength", "validity", "departures", "labels", "hez2", "impact",
    ]  # fmt: skip
    parser.add_argument("--part", action="append", choices=parts_known)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--corpora", type=int, default=100)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="of the validity part")
    parser.add_argument("--contrasts", type=int, default=1, help="corpora of --hands hands")
    parser.add_argument(
        "--first-contrast", type=int, default=0, help="(corpus c: seeds c*hands on)"
    )
    parser.add_argument("--corpus-hands", type=int, default=10)
    parser.add_argument("--null-samples", type=int, default=8)
    parser.add_argument("--label-hands", type=int, default=32)
    parser.add_argument("--departure-samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--hez2-samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--label-samples", type=int, default=DEFAULT_SAMPLES)
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
        contrasts = range(args.first_contrast, args.first_contrast + args.contrasts)
        if not args.hands:
            contrasts = range(0)
        validity(
            args.hands, args.samples, args.corpora, args.corpus_hands, args.null_samples, contrasts
        )
    if "departures" in parts:
        departures_part(args.hands, args.corpora, args.corpus_hands, args.departure_samples)
    if "labels" in parts:
        labels_again(args.label_hands, args.label_samples)
    if "hez2" in parts:
        hez2_payout(args.hez2_samples)
    if "impact" in parts:
        impact()


if __name__ == "__main__":
    main()
