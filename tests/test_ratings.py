"""Ratings: OpenSkill Plackett-Luce per game kind, games in date order."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pyarrow as pa
import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from replay.analytics.ratings import RATINGS_SCHEMA, rate

DAY = dt.datetime(2026, 3, 1, 19, 0, tzinfo=dt.UTC)

Row = tuple[str, str, dt.datetime, str, int]  # game_id, kind, started, player, place


def table(rows: list[Row]) -> pa.Table:
    names = ("game_id", "kind", "started", "player", "place")
    return pa.table({name: [row[i] for row in rows] for i, name in enumerate(names)})


def game(game_id: str, kind: str, day: int, places: dict[str, int]) -> list[Row]:
    started = DAY + dt.timedelta(days=day)
    return [(game_id, kind, started, player, place) for player, place in places.items()]


def by_player(ratings: pa.Table, kind: str) -> dict[str, dict[str, Any]]:
    return {r["player"]: r for r in ratings.to_pylist() if r["kind"] == kind}


def random_season(seed: int) -> list[Row]:
    """Games of two kinds among eight players, places with ties, rows shuffled."""
    rng = random.Random(seed)
    pool = [f"player {c}" for c in "abcdefgh"]
    rows: list[Row] = []
    for g in range(40):
        kind = rng.choice(["hearts", "hez2"])
        seats = rng.sample(pool, rng.randint(2, 5))
        places = {p: rng.randint(1, len(seats)) for p in seats}
        rows += game(f"{kind}-{g:02d}", kind, rng.randint(0, 20), places)
    rng.shuffle(rows)
    return rows


def openskill_directly(rows: list[Row]) -> dict[tuple[str, str], tuple[float, float, int]]:
    """The reference: one model per kind, teams of one, games sorted by (date, game id)."""
    games: dict[str, list[Row]] = {}
    for row in rows:
        games.setdefault(row[0], []).append(row)
    models: dict[str, PlackettLuce] = {}
    ratings: dict[tuple[str, str], PlackettLuceRating] = {}
    played: dict[tuple[str, str], int] = {}
    for game_id in sorted(games, key=lambda g: (games[g][0][2], g)):
        kind = games[game_id][0][1]
        model = models.setdefault(kind, PlackettLuce())
        seats = [(kind, row[3]) for row in games[game_id]]
        teams = [[ratings.get(seat) or model.rating(name=seat[1])] for seat in seats]
        new = model.rate(teams, ranks=[float(row[4]) for row in games[game_id]])
        for seat, (rating,) in zip(seats, new, strict=True):
            ratings[seat] = rating
            played[seat] = played.get(seat, 0) + 1
    return {seat: (r.mu, r.sigma, played[seat]) for seat, r in ratings.items()}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_equal_to_openskill_run_directly(seed: int) -> None:
    rows = random_season(seed)
    got = {
        (r["kind"], r["player"]): (r["mu"], r["sigma"], r["games"])
        for r in rate(table(rows)).to_pylist()
    }
    expected = openskill_directly(rows)
    assert got.keys() == expected.keys()
    for seat, (mu, sigma, games) in expected.items():
        assert got[seat] == (pytest.approx(mu), pytest.approx(sigma), games)


def test_sorted_by_kind_then_conservative_which_is_mu_minus_three_sigma() -> None:
    ratings = rate(table(random_season(4)))
    assert ratings.schema == RATINGS_SCHEMA
    rows = ratings.to_pylist()
    assert [(r["kind"], -r["conservative"]) for r in rows] == sorted(
        (r["kind"], -r["conservative"]) for r in rows
    )
    for r in rows:
        assert r["conservative"] == pytest.approx(r["mu"] - 3 * r["sigma"])


def test_one_game_winner_up_loser_down() -> None:
    ratings = by_player(rate(table(game("g1", "hez2", 0, {"Ana": 1, "Bo": 2}))), "hez2")
    assert ratings["Ana"]["mu"] > 25 > ratings["Bo"]["mu"]
    assert ratings["Ana"]["games"] == ratings["Bo"]["games"] == 1
    assert ratings["Ana"]["sigma"] < 25 / 3


def test_tied_places_share_a_rating() -> None:
    rows = game("g1", "hearts", 0, {"Ana": 1, "Bo": 2, "Cy": 2, "Di": 4})
    ratings = by_player(rate(table(rows)), "hearts")
    assert ratings["Bo"]["mu"] == pytest.approx(ratings["Cy"]["mu"])
    assert ratings["Bo"]["sigma"] == pytest.approx(ratings["Cy"]["sigma"])
    assert ratings["Ana"]["mu"] > ratings["Bo"]["mu"] > ratings["Di"]["mu"]
    untied = by_player(
        rate(table(game("g1", "hearts", 0, {"Ana": 1, "Bo": 2, "Cy": 3, "Di": 4}))), "hearts"
    )
    assert untied["Bo"]["mu"] > untied["Cy"]["mu"]


def test_empty_input_gives_empty_ratings() -> None:
    empty = pa.table(
        {
            "game_id": pa.array([], pa.string()),
            "kind": pa.array([], pa.string()),
            "started": pa.array([], pa.timestamp("ms", tz="UTC")),
            "player": pa.array([], pa.string()),
            "place": pa.array([], pa.int64()),
        }
    )
    ratings = rate(empty)
    assert ratings.num_rows == 0
    assert ratings.schema == RATINGS_SCHEMA


def test_date_order_matters_and_row_order_does_not() -> None:
    first = game("g-b", "hearts", 0, {"Ana": 1, "Bo": 2, "Cy": 3})
    second = game("g-a", "hearts", 1, {"Cy": 1, "Bo": 2, "Ana": 3})
    swapped = game("g-b", "hearts", 1, {"Ana": 1, "Bo": 2, "Cy": 3}) + game(
        "g-a", "hearts", 0, {"Cy": 1, "Bo": 2, "Ana": 3}
    )
    in_order = rate(table(first + second))
    assert rate(table(second + first)).equals(in_order)
    assert not rate(table(swapped)).equals(in_order)
    # The last result weighs most: whoever won the later game is ahead.
    assert by_player(in_order, "hearts")["Cy"]["mu"] > by_player(in_order, "hearts")["Ana"]["mu"]


def test_same_start_time_ordered_by_game_id() -> None:
    a = game("g-a", "hearts", 0, {"Ana": 1, "Bo": 2})
    b = game("g-b", "hearts", 0, {"Bo": 1, "Ana": 2})
    assert rate(table(b + a)).equals(rate(table(a + b)))
    assert by_player(rate(table(a + b)), "hearts")["Bo"]["mu"] > 25


def test_each_kind_is_rated_apart() -> None:
    rows = game("h1", "hearts", 0, {"Ana": 1, "Bo": 2}) + game("z1", "hez2", 1, {"Bo": 1, "Ana": 2})
    ratings = rate(table(rows))
    assert by_player(ratings, "hearts")["Ana"]["mu"] > 25
    assert by_player(ratings, "hez2")["Ana"]["mu"] < 25
    assert by_player(ratings, "hez2")["Ana"]["games"] == 1
