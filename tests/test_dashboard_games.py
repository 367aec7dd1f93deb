"""The dashboard's games list is the statistics' choice of games: under any filter, the games
it lists are those the statistics count (the same SQL, ``chosen.sql``), even for a game whose
``game_start`` names no player (the rules seat ``p0``, ``p1``... and its seat count is the
setup's)."""

from __future__ import annotations

import dataclasses
import datetime
import json

import pytest

from dashboards.data import analytics, chosen_games, snapshot
from replay.analytics import Filters
from replay.engine.simulate import simulate_game
from replay.games import get_rules
from replay.model.events import Event
from replay.store import EventStore


def nameless(events: list[Event]) -> list[Event]:
    """The game with its ``game_start`` naming no player."""
    setup = json.loads(str(events[0].data))
    setup.pop("names", None)
    return [dataclasses.replace(events[0], data=json.dumps(setup)), *events[1:]]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("games") / "store"
    hearts, hez2 = get_rules("hearts"), get_rules("hez2")
    games = [simulate_game(hearts, f"h{i}", players=4, seed=i) for i in range(2)]
    games += [simulate_game(hez2, f"z{i}", players=n, seed=i) for i, n in enumerate((3, 4))]
    games.append(nameless(simulate_game(hearts, "h-nameless", players=4, seed=5)))
    EventStore.open(path, create=True).ingest(games)
    return str(path)


FILTERS = [
    Filters(),
    Filters(players=4),
    Filters(kind="hearts", players=4),
    Filters(kind="hez2", players=3),
    Filters(player="p1"),
    Filters(since=datetime.date(2000, 1, 1), until=datetime.date(2100, 1, 1)),
    Filters(until=datetime.date(2000, 1, 1)),
]


@pytest.mark.parametrize("chosen", FILTERS, ids=str)
def test_the_games_list_is_what_the_statistics_count(store: str, chosen: Filters) -> None:
    snap = snapshot(store)
    listed = chosen_games(store, chosen, snap)
    lib = analytics(store, snap)
    assert lib is not None
    counted = {r["kind"]: r["games"] for r in lib.overview(chosen).to_pylist()}
    kinds = listed.column("kind").to_pylist()
    assert {k: kinds.count(k) for k in set(kinds)} == counted
    assert sorted(str(g) for g in listed.column("game_id").to_pylist()) == lib.chosen_game_ids(
        chosen
    )


def test_the_nameless_game_is_listed_under_its_seat_count(store: str) -> None:
    # the filter the two copies read apart: the listing's names against the setup's count
    listed = chosen_games(store, Filters(players=4), snapshot(store)).column("game_id")
    assert "h-nameless" in listed.to_pylist()
