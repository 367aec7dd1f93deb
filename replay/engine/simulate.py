"""The simulator: complete, self-contained game logs played by bots through the reducer.

Rulings come from the same reducer the audit uses (:meth:`Rules.due`), chance outcomes from the
game's :meth:`Game.sample_chance` with a seeded generator, decisions from the bots. The same seed
gives the same games.

>>> from replay.games import get_rules
>>> events = simulate_game(get_rules("hearts"), "doc-1", players=4, seed=7)
>>> events[0].type, events[-1].type
('game_start', 'game_end')
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from replay.games.base import Bot, Game, Phase
from replay.games.fast import apply_in_place
from replay.model.events import Event

#: Simulated games are dated within the year 2026 (from their seed), so corpora are reproducible.
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
MINUTES_PER_YEAR = 365 * 24 * 60

#: A safety bound: no game of the four needs anywhere near this many events.
MAX_EVENTS = 1_000_000


class SimulationError(RuntimeError):
    """A game did not finish (a bug in a game module or a bot)."""


def simulate_game(
    rules: Game[Any],
    game_id: str,
    *,
    players: int,
    seed: int,
    bots: Sequence[str] = ("random",),
    options: Mapping[str, Any] | None = None,
    check: bool = False,
) -> list[Event]:
    """Play one game with the named bots (cycled over the seats) and return its events.

    With ``check`` every event is verified before it is applied (slower; used by tests).
    """
    rng = random.Random(seed)
    first = rules.setup_event(game_id, players, rng, dict(options or {}))
    started = EPOCH + timedelta(minutes=seed % MINUTES_PER_YEAR)
    first = replace(first, ts=started)
    events = play_out(rules, rules.start(first), [first], rng, seat_bots(rules, players, bots),
                      check=check)  # fmt: skip
    # A simulated game takes a second per event; only its start and end are timestamped.
    events[-1] = replace(events[-1], ts=started + timedelta(seconds=len(events)))
    return events


def seat_bots(rules: Game[Any], players: int, bots: Sequence[str]) -> list[Bot]:
    """The bots of each seat, the names cycled over the seats."""
    table = rules.bots()
    return [table[bots[i % len(bots)]] for i in range(players)]


def play_out(
    rules: Game[Any],
    state: Any,
    events: list[Event],
    rng: random.Random,
    bots: Sequence[Bot],
    *,
    check: bool = False,
) -> list[Event]:
    """Play a game on from ``state`` to its end, appending to ``events`` (returned).

    ``state`` is not modified (the game goes on in a copy, updated in place).
    """
    state = state.clone()
    while len(events) < MAX_EVENTS:
        due = rules.due(state)
        if due.phase is Phase.OVER:
            return events
        if due.phase is Phase.RULING:
            assert due.ruling is not None
            event = due.ruling
        elif due.phase is Phase.CHANCE:
            event = rules.sample_chance(state, rng)
        else:
            seat = due.seats[0]
            event = bots[seat](state, seat, rng)
        if check:
            rules.verify(state, event)
        state = apply_in_place(rules, state, event)
        events.append(event)
    raise SimulationError(f"{state.game_id}: no end after {MAX_EVENTS} events")


def game_ids(kind: str, seed: int, count: int) -> Iterator[tuple[str, int]]:
    """Deterministic (game id, game seed) pairs for a corpus."""
    for i in range(count):
        yield f"{kind}-{seed}-{i:06d}", seed * 1_000_003 + i


def simulate_corpus(
    rules: Game[Any],
    *,
    games: int,
    seed: int,
    players: int,
    bots: Sequence[str] = ("random",),
    options: Mapping[str, Any] | None = None,
) -> Iterator[list[Event]]:
    """Yield ``games`` simulated games, deterministic for a given seed."""
    for game_id, game_seed in game_ids(rules.kind, seed, games):
        yield simulate_game(
            rules, game_id, players=players, seed=game_seed, bots=bots, options=options
        )
