"""Golden transcript: one fixed, short Hiifuu game rendered after every event."""

from __future__ import annotations

from replay.engine.simulate import simulate_game
from replay.games.hiifuu import RULES
from tests.golden_util import check_golden, transcript


def test_hiifuu_golden_transcript() -> None:
    events = simulate_game(RULES, "golden-hiifuu", players=4, seed=66, bots=("heuristic", "random"))
    check_golden("hiifuu", transcript(RULES, events))
