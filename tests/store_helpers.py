"""Shared builders for the store tests: simulated Hearts games and small event lists."""

from __future__ import annotations

from functools import cache

from replay.events import Event
from replay.games import get_rules
from replay.simulate import simulate_game


@cache
def hearts_game(game_id: str, seed: int = 1) -> tuple[Event, ...]:
    """A complete simulated Hearts game (cached: tests must not mutate it)."""
    return tuple(simulate_game(get_rules("hearts"), game_id, players=4, seed=seed))


def hearts_games(count: int, prefix: str = "h") -> list[list[Event]]:
    return [list(hearts_game(f"{prefix}-{i:03d}", seed=i)) for i in range(count)]
