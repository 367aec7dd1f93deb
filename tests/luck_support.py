"""Corpora the luck's and the fair-play signal's tests and benchmarks share: games of any kind
where one seat is careless (the heuristic bot playing a uniformly random legal move some of the
time), and the per-unit paired difference of a seat against the others."""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterator, Sequence
from typing import Any

from replay.engine.simulate import play_out
from replay.games import get_rules
from replay.games.base import Bot, Phase
from replay.games.fast import apply_in_place
from replay.model.events import Event
from replay.review.luck import UnitLuck


def careless_bot(kind: str, share: float) -> Bot:
    """The heuristic bot of ``kind`` that plays its random bot's move ``share`` of the time."""
    bots = get_rules(kind).bots()
    heuristic, uniform = bots["heuristic"], bots["random"]

    def choose(state: Any, seat: int, rng: random.Random) -> Event:
        return uniform(state, seat, rng) if rng.random() < share else heuristic(state, seat, rng)

    return choose


def corpus(
    kind: str, games: int, seed: int, players: int, seat_bots: Sequence[Bot]
) -> Iterator[list[Event]]:
    """``games`` games of ``kind``, seat ``s`` played by ``seat_bots[s]``, fixed seeds."""
    rules = get_rules(kind)
    for g in range(games):
        rng = random.Random(f"{seed}/{g}")
        first = rules.setup_event(f"{kind}-{seed}-{g}", players, rng, {})
        yield play_out(rules, rules.start(first), [first], rng, list(seat_bots))


def play_streams(
    kind: str, players: int, game_id: str, chance: str, decisions: str, seat_bots: Sequence[Bot]
) -> list[Event]:
    """A game of ``kind`` with every chance outcome drawn from the stream named ``chance`` and
    every decision from the stream named ``decisions``: games of one chance stream share their
    deals (common random numbers) while their seats' random choices differ."""
    rules = get_rules(kind)
    luck, choices = random.Random(chance), random.Random(decisions)
    first = rules.setup_event(game_id, players, luck, {})
    state = rules.start(first).clone()
    events = [first]
    while (due := rules.due(state)).phase is not Phase.OVER:
        if due.phase is Phase.RULING and due.ruling is not None:
            event = due.ruling
        elif due.phase is Phase.CHANCE:
            event = rules.sample_chance(state, luck)
        else:
            event = seat_bots[due.seats[0]](state, due.seats[0], choices)
        state = apply_in_place(rules, state, event)
        events.append(event)
    return events


def paired(rows: Sequence[UnitLuck], seat: int, field: str) -> list[float]:
    """Per unit: ``seat``'s ``field`` (relative or adjusted) minus the other seats' mean."""
    units: dict[tuple[str, int], dict[int, float]] = {}
    for r in rows:
        units.setdefault((r.game_id, r.unit), {})[r.seat] = getattr(r, field)
    out = []
    for seats in units.values():
        others = [v for s, v in seats.items() if s != seat]
        out.append(seats[seat] - sum(others) / len(others))
    return out


def units_to_tell(diffs: Sequence[float], z: float = 2.0) -> float:
    """The units for the mean of ``diffs`` to stand ``z`` standard errors from 0."""
    mean = statistics.fmean(diffs)
    return (z * statistics.stdev(diffs) / mean) ** 2 if mean else float("inf")
