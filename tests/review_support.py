"""Corpora and samplers the review's tests and benchmark share: Hearts hands where one seat is
careless (the heuristic bot playing a uniformly random legal move some of the time), and the
all-cards-visible "sampler" that returns the true log (for tests of the rollouts alone)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from replay.engine.simulate import play_out
from replay.games import get_rules
from replay.games.base import Bot
from replay.model.events import Event

HEARTS = get_rules("hearts")


class TrueLog:
    """Not a sampler of hidden cards: every seat sees everything (the true log returned)."""

    def sample(self, events: Sequence[Event], seat: int, rng: random.Random) -> list[Event]:
        return list(events)


def careless(share: float) -> Bot:
    """The Hearts heuristic bot that plays a uniformly random legal move ``share`` of the time."""
    bots = HEARTS.bots()
    heuristic, uniform = bots["heuristic"], bots["random"]

    def choose(state: object, seat: int, rng: random.Random) -> Event:
        return uniform(state, seat, rng) if rng.random() < share else heuristic(state, seat, rng)

    return choose


def first_hand(
    seed: int, careless_seat: int | Sequence[int] | None, share: float = 0.2
) -> list[Event]:
    """The log of a Hearts game's first hand (up to its last ``round_scored``), every seat
    the heuristic bot but ``careless_seat`` (one seat or several)."""
    rng = random.Random(seed)
    first = HEARTS.setup_event(f"hand-{seed}", 4, rng, {})
    bots = [HEARTS.bots()["heuristic"]] * 4
    seats = [careless_seat] if isinstance(careless_seat, int) else careless_seat or []
    for seat in seats:
        bots[seat] = careless(share)
    events = play_out(HEARTS, HEARTS.start(first), [first], rng, bots)
    scored = [i for i, e in enumerate(events) if e.type == "round_scored"]
    return events[: scored[3] + 1]
