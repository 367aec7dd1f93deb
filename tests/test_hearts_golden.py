"""Golden transcript: one fixed Hearts game rendered after every event."""

from __future__ import annotations

from replay.engine.simulate import simulate_game
from replay.games.hearts import RULES
from tests.golden_util import check_golden, transcript


def test_hearts_golden_transcript() -> None:
    events = simulate_game(RULES, "golden-hearts", players=4, seed=2024, bots=("heuristic",))
    check_golden("hearts", transcript(RULES, events))
