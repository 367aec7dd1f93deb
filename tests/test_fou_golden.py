"""Golden transcript: one fixed Fou! game (heuristic and random bots) rendered after every event."""

from __future__ import annotations

from replay.engine.simulate import simulate_game
from replay.games.fou import RULES
from tests.golden_util import check_golden, transcript


def test_fou_golden_transcript() -> None:
    events = simulate_game(RULES, "golden-fou", players=4, seed=80, bots=("heuristic", "random"))
    check_golden("fou", transcript(RULES, events))
