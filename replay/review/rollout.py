"""Rollouts: a game played on from a state to the end of its scoring unit (a Hearts hand, a
Hiifuu or Fou! round, a Hez2 game) through the game's reducer, decisions by a policy (one of
the game's bots, by name), chance from a seeded generator; the value is the seat's result of
the unit in the game's own measure (:class:`~replay.model.specs.ScoreUnit`).

An :class:`Evaluator` is what a review values a state with; :class:`Rollouts` is the one it
uses by default. An exact endgame solver plugs in as another evaluator (one ``value`` method).

>>> import random
>>> from replay.games import get_rules
>>> from replay.engine.simulate import simulate_game
>>> rules = get_rules("hearts")
>>> events = simulate_game(rules, "doc", players=4, seed=3, bots=["heuristic"])
>>> state = rules.replay(events[:60], check=False)
>>> rollouts = Rollouts(rules, "heuristic")
>>> value = rollouts.value(state.clone(), 0, random.Random(1))
>>> 0 <= value <= 26
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from replay.engine.simulate import SimulationError
from replay.games.base import Bot, Game, Phase
from replay.games.fast import apply_in_place
from replay.model.events import Event
from replay.model.specs import ScoreUnit, spec
from replay.review import DEFAULT_POLICY

#: A bound no scoring unit of the four games comes near (a runaway policy is a bug).
MAX_UNIT_EVENTS = 100_000
#: A bound no whole game of the four comes near.
MAX_GAME_EVENTS = 1_000_000


class Evaluator(Protocol):
    """What a decision's alternatives are valued with."""

    def value(self, state: Any, seat: int, rng: random.Random) -> float:
        """The seat's result of the scoring unit from ``state`` on (``state`` is the caller's
        to give away: it may be changed); ``rng`` draws every chance outcome."""
        ...


def score_unit(kind: str) -> ScoreUnit:
    """The scoring unit a review counts for a game kind; ValueError when it has none."""
    game = spec(kind)
    unit = game.score_unit if game is not None else None
    if unit is None:
        raise ValueError(f"no review for game kind {kind!r}: its spec declares no score unit")
    return unit


class Rollouts:
    """Values a state by playing it out with a policy (every seat plays the same bot)."""

    def __init__(self, rules: Game[Any], policy: str = DEFAULT_POLICY) -> None:
        bots = rules.bots()
        if policy not in bots:
            raise ValueError(f"no policy {policy!r} for {rules.kind}; policies: {', '.join(bots)}")
        self.rules = rules
        self.policy = policy
        self.bot: Bot = bots[policy]
        self.unit = score_unit(rules.kind)
        self.rollouts = 0  # rollouts played (the benchmarks' rate)

    def value(self, state: Any, seat: int, rng: random.Random) -> float:
        self.rollouts += 1
        return play_unit(self.rules, state, seat, [self.bot] * state.n, rng, self.unit.events)

    def value_and_payout(
        self, state: Any, seat: int, rng: random.Random
    ) -> tuple[float, float | None]:
        """The seat's result as :meth:`value` gives it (the same stream, the same result), and
        its payout (the unit's ``payout`` rulings; None: the seat is not paid)."""
        self.rollouts += 1
        bots = [self.bot] * state.n
        return play_paid_unit(self.rules, state, seat, bots, rng, self.unit)


def play_unit(
    rules: Game[Any],
    state: Any,
    seat: int,
    bots: Sequence[Bot],
    rng: random.Random,
    scoring: Sequence[str],
) -> float:
    """Play on from ``state`` (changed in place) until a ruling of a type in ``scoring`` gives
    ``seat`` its result (the ``amount`` returned), with ``bots[s]`` deciding for seat ``s``."""
    for _ in range(MAX_UNIT_EVENTS):
        event = next_event(rules, state, bots, rng)
        if event is None:
            break
        if event.player == seat and event.type in scoring:  # scoring types are rulings'
            return float(event.amount or 0)
        state = apply_in_place(rules, state, event)
    raise SimulationError(f"{state.game_id}: seat {seat} got no result from step {state.seq}")


def play_paid_unit(
    rules: Game[Any],
    state: Any,
    seat: int,
    bots: Sequence[Bot],
    rng: random.Random,
    unit: ScoreUnit,
) -> tuple[float, float | None]:
    """As :func:`play_unit`, then on until a ruling of a type in ``unit.payout`` gives ``seat``
    its payout, or the game ends (the payout None: the seat is not paid)."""
    result: float | None = None
    for _ in range(MAX_GAME_EVENTS):
        event = next_event(rules, state, bots, rng)
        if event is None:
            break
        if event.player == seat:
            if result is None and event.type in unit.events:
                result = float(event.amount or 0)
            elif result is not None and event.type in unit.payout:
                return result, float(event.amount or 0)
        state = apply_in_place(rules, state, event)
    if result is None:
        raise SimulationError(f"{state.game_id}: seat {seat} got no result from step {state.seq}")
    return result, None


def play_game(rules: Game[Any], state: Any, policy: str, rng: random.Random) -> Any:
    """Play on from ``state`` (changed in place) to the end of the game, every seat played by
    the bot ``policy``, every chance outcome drawn from ``rng``: the final state."""
    bots = [rules.bots()[policy]] * state.n
    for _ in range(MAX_GAME_EVENTS):
        event = next_event(rules, state, bots, rng)
        if event is None:
            return state
        state = apply_in_place(rules, state, event)
    raise SimulationError(f"{state.game_id}: no end of the game from step {state.seq}")


def next_event(
    rules: Game[Any], state: Any, bots: Sequence[Bot], rng: random.Random
) -> Event | None:
    """The event that comes next in ``state`` (None once the game is over): the ruling due,
    the chance outcome drawn from ``rng``, or the decision of ``bots[s]`` for the seat ``s``
    to move."""
    due = rules.due(state)
    phase = due.phase
    if phase is Phase.RULING:
        assert due.ruling is not None
        return due.ruling
    if phase is Phase.DECISION:
        return bots[due.seats[0]](state, due.seats[0], rng)
    if phase is Phase.CHANCE:
        return rules.sample_chance(state, rng)
    return None
