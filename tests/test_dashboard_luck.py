# ruff: noqa: F811  (the fixture of test_dashboard_app, imported, is an argument here)
"""The player page's luck and fair-play sections over a store with both stored
(``replay reindex --luck --fairplay``): the raw and luck-adjusted means with their intervals,
as the statistic gives them, and the fair-play warning for the seat that sees every hand only."""

from __future__ import annotations

from pathlib import Path

import pytest

from replay.analytics import Analytics, Filters
from replay.analytics.words import value_words
from replay.games import get_rules
from replay.store import EventStore
from tests.fairplay_support import cheater
from tests.luck_support import careless_bot, corpus
from tests.store_helpers import run_cli
from tests.test_dashboard_app import Open, charts, open_page  # noqa: F401  (a fixture)


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("judged") / "store"
    heuristic = get_rules("hearts").bots()["heuristic"]
    bots = [cheater("hearts"), heuristic, careless_bot("hearts", 0.2), heuristic]
    EventStore.open(path, create=True).ingest(list(corpus("hearts", 3, 2, 4, bots)))
    result = run_cli("reindex", str(path), "--luck", "--fairplay")
    assert result.exit_code == 0, result.output
    return path


def test_the_player_page_shows_both_results_and_the_fair_play_signal(
    open_page: Open, judged: Path
) -> None:
    at = open_page(judged, "player", player="p0")
    assert {"Luck", "Fair play"} <= {h.value for h in at.header}
    rows = charts(at)["Mean result per unit, raw and with the luck taken out"]
    stat = Analytics.open(EventStore.open(judged)).statistic("luck_players", Filters("hearts"))
    mine = next(r for r in stat.table.to_pylist() if r["player"] == "p0")
    by = {r["result"]: r for r in rows}
    assert by["raw"]["mean"] == pytest.approx(mine["raw_mean"])
    assert by["luck taken out"]["low"] == pytest.approx(mine["adjusted_low"])
    assert {r["kind"] for r in rows} == {value_words("kind", "hearts")}
    warnings = [str(w.value) for w in at.warning]
    assert any("Past the threshold" in w and "never proof" in w for w in warnings), warnings
    at = open_page(judged, "player", player="p2")
    assert "Fair play" in {h.value for h in at.header}
    assert not any("Past the threshold" in str(w.value) for w in at.warning)
