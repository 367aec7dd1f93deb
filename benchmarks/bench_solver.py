"""The all-cards-visible solver's speed: positions per second and time per position with 4, 6, 8
and 10 cards a hand for each game, a full 13-card Hearts position, and the time to annotate every
play of a whole Hearts hand (:func:`replay.solver.card_losses`).

Run: ``PYTHONPATH=build/native .venv/bin/python benchmarks/bench_solver.py [--positions N]
[--sizes 4,6,8] [--games hearts,hiifuu,fou] [--full N] [--annotate 7,8,all] [--review]`` (the
compiled build; ``make native`` first). ``--review`` measures the review's thresholds instead
(replay/review/exact.py): at decisions with a choice, one solve of the deal (every
alternative valued at once) against one heuristic rollout an alternative, CPU time. The
default stops at 8 cards and no full Hearts position (docs/solver.md gives 10 cards' figures).
Positions are trick starts of simulated games (random bots, seeded), four players, each solved
with a fresh table (CPU time of this process, one core). Each line gives the mean, median and
largest time, the positions per second (1 / mean), the positions visited and the table's entries
(mean), and the positions visited a second of search.

Anchors: DDS (bridge, two sides: alpha-beta prunes far more than max^n can) 0.3-2 ms a position;
an open-source Hearts review tool's max^n about 12 ms with 8 tricks left and 1-7 s with 10-12.
Targets: a full 13-card Hearts position under 1 s, 8 cards a hand under 15 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from replay import engine_build
from replay.engine.simulate import simulate_game
from replay.games import get_rules
from replay.model.events import Event
from replay.review import DEFAULT_ALTERNATIVES, DEFAULT_POLICY
from replay.review.rollout import Rollouts
from replay.solver import card_losses, solve


def positions(
    kind: str, cards: int, count: int, seed: int, prefix: str, wanted: Callable[[Any, int], bool]
) -> Iterator[Any]:
    """``count`` states of simulated four-player games where the seat to play a card holds
    ``cards`` cards and ``wanted(state, seat)`` holds (one a scoring unit, each from its own
    game)."""
    rules = get_rules(kind)
    rng = random.Random(seed)
    game = 0
    made = 0
    while made < count:
        events = simulate_game(rules, f"{prefix}{game}", players=4, seed=rng.randrange(1 << 30))
        game += 1
        state = rules.start(events[0])
        for event in events[1:]:
            seat = event.player
            if event.type == "play" and seat is not None:
                held = bin(state.hand(seat)).count("1")
                if held == cards and wanted(state, seat):
                    yield state
                    made += 1
                    break
            state = rules.apply(state, event)


def trick_starts(kind: str, cards: int, count: int, seed: int) -> Iterator[Any]:
    """``count`` states at a trick's start with ``cards`` cards in the leader's hand."""
    return positions(kind, cards, count, seed, "b", lambda state, seat: not state.table)


def timed(kind: str, cards: int, count: int, seed: int) -> str:
    times: list[float] = []
    nodes: list[int] = []
    entries: list[int] = []
    for state in trick_starts(kind, cards, count, seed):
        start = time.process_time()
        solution = solve(state, line=False)
        times.append(time.process_time() - start)
        nodes.append(solution.nodes)
        entries.append(solution.entries)
    mean = statistics.fmean(times)
    return (
        f"{kind:<7} {cards:>2} cards  n={len(times):<3} mean {mean * 1000:9.2f} ms  median "
        f"{statistics.median(times) * 1000:9.2f} ms  max {max(times) * 1000:9.2f} ms  "
        f"{1 / mean:9.1f} positions/s  nodes {statistics.fmean(nodes):12,.0f}  "
        f"table {statistics.fmean(entries):10,.0f}  {sum(nodes) / sum(times):11,.0f} searched/s"
    )


def first_hand(seed: int) -> list[Event]:
    """A simulated Hearts game's events up to the end of its first hand."""
    events = simulate_game(get_rules("hearts"), "hand", players=4, seed=seed)
    end = next(i for i, e in enumerate(events) if e.type == "round_scored")
    return events[:end]


def annotate_hand(seed: int, max_cards: int | None) -> str:
    events = first_hand(seed)
    start = time.process_time()
    losses = card_losses(events, max_cards=max_cards)
    spent = time.process_time() - start
    lost = sum(loss.loss for loss in losses)
    return (
        f"hearts hand annotated (plays with at most {max_cards or 13} cards): {len(losses)} plays "
        f"in {spent:.2f} s, {lost} points lost with all cards visible"
    )


def decisions(kind: str, cards: int, count: int, seed: int) -> Iterator[Any]:
    """``count`` states where the seat to play holds ``cards`` cards and has a choice."""
    rules = get_rules(kind)
    return positions(
        kind,
        cards,
        count,
        seed,
        "r",
        lambda state, seat: len(rules.legal_decisions(state, seat)) > 1,
    )


def solver_or_rollouts(kind: str, cards: int, count: int, seed: int) -> str:
    """The review's choice at one decision: one solve of the deal (every alternative at once)
    against one heuristic rollout an alternative (CPU time, means)."""
    rules = get_rules(kind)
    rollouts = Rollouts(rules, DEFAULT_POLICY)
    solves: list[float] = []
    rolled: list[float] = []
    for state in decisions(kind, cards, count, seed):
        start = time.process_time()
        solve(state, rules, line=False)
        solves.append(time.process_time() - start)
        seat = rules.due(state).seats[0]
        start = time.process_time()
        for move in rules.legal_decisions(state, seat)[:DEFAULT_ALTERNATIVES]:
            after = rules.apply(state, move)
            rollouts.value(after, seat, random.Random(0))
        rolled.append(time.process_time() - start)
    solve_ms = statistics.fmean(solves) * 1000
    roll_ms = statistics.fmean(rolled) * 1000
    return (
        f"{kind:<7} {cards:>2} cards  n={len(solves):<3} one solve {solve_ms:9.3f} ms  "
        f"one rollout an alternative {roll_ms:7.3f} ms  ratio {solve_ms / roll_ms:8.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20, help="positions a size (4-6 cards)")
    parser.add_argument("--sizes", default="4,6,8", help="cards a hand, e.g. 4,6,8,10")
    parser.add_argument("--full", type=int, default=0, help="13-card Hearts positions")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default="hearts,hiifuu,fou", help="the games to measure")
    parser.add_argument(
        "--annotate", default="7,8", help="a Hearts hand's plays with at most N cards, or all"
    )
    parser.add_argument(
        "--review", action="store_true", help="the review's threshold: solver against rollouts"
    )
    args = parser.parse_args()
    print(f"rules engine: {engine_build()}")
    if args.review:
        for kind in args.games.split(","):
            for cards in (int(s) for s in args.sizes.split(",")):
                print(solver_or_rollouts(kind, cards, args.positions, args.seed), flush=True)
        return
    for kind in args.games.split(","):
        for cards in (int(s) for s in args.sizes.split(",")):
            if kind == "hiifuu" and cards > 9:
                continue  # four players keep 9 cards
            count = args.positions if cards <= 6 else max(1, args.positions // (cards - 5))
            if kind == "fou" and cards > 4:
                count = max(1, count // 5)  # uneven hands, no merging: far slower
            print(timed(kind, cards, count, args.seed), flush=True)
    if args.full:
        print(timed("hearts", 13, args.full, args.seed), flush=True)
    for most in args.annotate.split(","):
        print(annotate_hand(args.seed, None if most == "all" else int(most)), flush=True)


if __name__ == "__main__":
    main()
