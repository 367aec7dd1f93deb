"""Logs from other platforms (RULES.md "Recording order"): the rules' text and seeds shipped."""

from __future__ import annotations

from importlib import resources

import pytest

from replay.games import available_kinds


@pytest.mark.parametrize("kind", available_kinds())
def test_the_french_seed_of_each_game_ships_beside_rules_md(kind: str) -> None:
    seed = resources.files("replay.data").joinpath("seeds", f"{kind}.fr.txt")
    assert seed.is_file()
    assert len(seed.read_text(encoding="utf-8")) > 1000
