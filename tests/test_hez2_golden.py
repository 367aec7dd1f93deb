"""Golden transcript: one fixed three-player Hez2 game (staked, with a 7, a skip and a 2)."""

from __future__ import annotations

from replay.engine.simulate import simulate_game
from replay.games.hez2 import RULES
from tests.golden_util import check_golden, transcript


def test_hez2_golden_transcript() -> None:
    events = simulate_game(RULES, "golden-hez2", players=3, seed=171, bots=("heuristic", "random"))
    types = {e.type for e in events}
    assert {"declare_suit", "skip", "forced_draw", "placed", "payout"} <= types
    check_golden("hez2", transcript(RULES, events))
