"""A finding's one-line summary of the state: the game's headline (the first line of its
rendering), the seat's hand and the table, built without rendering the whole state (a faulty
log pays it once per finding)."""

from __future__ import annotations

from typing import Any

import pytest

from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_rules, get_spec
from replay.games.fast import apply_in_place


def _states(kind: str) -> list[tuple[Any, int | None]]:
    """A few states through one simulated game (and the seat that acts after each)."""
    rules = get_rules(kind)
    players = get_spec(kind).sample_players or rules.min_players
    events = simulate_game(rules, f"summary-{kind}", players=players, seed=3)
    state = rules.start(events[0])
    out: list[tuple[Any, int | None]] = []
    for index, event in enumerate(events[1:], 1):
        if index % max(1, len(events) // 12) == 0 or index == len(events) - 1:
            out.append((state.clone(), event.player))
        state = apply_in_place(rules, state, event)
    out.append((state, None))
    return out


@pytest.mark.parametrize("kind", available_kinds())
def test_the_summary_is_the_headline_and_needs_no_rendering(kind: str) -> None:
    rules = get_rules(kind)

    class Unrendered(type(rules)):  # type: ignore[misc]
        def render(self, state: Any, seat: int | None = None) -> str:
            raise AssertionError("the whole state rendered for a summary")

    quiet = Unrendered()
    for state, seat in _states(kind):
        first_line = rules.render(state).splitlines()[0]
        assert rules.headline(state) == first_line
        view = rules.view(state)
        summary = quiet.summary(state, seat, view)
        assert summary == rules.summary(state, seat) and summary.startswith(first_line)
