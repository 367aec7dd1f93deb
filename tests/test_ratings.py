"""Ratings: OpenSkill Plackett-Luce per game kind, games in date order; the update of one game
against OpenSkill's own, and the ratings of a date window and of a seat count from the rating
log against OpenSkill run directly on the same games."""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from typing import Any

import pyarrow as pa
import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from replay.analytics import Filters
from replay.analytics.ratings import (
    LOG_SCHEMA,
    MU,
    RATINGS_SCHEMA,
    SIGMA,
    rate,
    rating_log,
    rating_log_parts,
    ratings_of_log,
    update,
)

DAY = dt.datetime(2026, 3, 1, 19, 0, tzinfo=dt.UTC)

Row = tuple[str, str, dt.datetime | None, str, int]  # game_id, kind, started, player, place


def table(rows: list[Row]) -> pa.Table:
    names = ("game_id", "kind", "started", "player", "place")
    return pa.table({name: [row[i] for row in rows] for i, name in enumerate(names)})


def full_table(rows: list[Row]) -> pa.Table:
    """With the columns the views give besides: the start's UTC date and the seat count."""
    seats = Counter((row[0], row[1]) for row in rows)
    return (
        table(rows)
        .append_column(
            "day", pa.array([row[2].date() if row[2] else None for row in rows], pa.date32())
        )
        .append_column("players", pa.array([seats[(row[0], row[1])] for row in rows], pa.int32()))
    )


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


# --------------------------------------------------------------------- one game
def random_game(
    rng: random.Random, wide: bool = False
) -> tuple[list[float], list[float], list[int]]:
    """2-8 seats with any ratings, places with and without ties."""
    n = rng.randint(2, 8)
    mus = [rng.uniform(-10.0, 60.0) for _ in range(n)]
    sigmas = [rng.uniform(0.01, 300.0 if wide else 12.0) for _ in range(n)]
    if rng.random() < 0.5:
        places = rng.sample(range(1, n + 1), n)
    else:
        places = [rng.randint(1, n) for _ in range(n)]
    return mus, sigmas, places


def openskill_update(
    mus: list[float], sigmas: list[float], places: list[int]
) -> tuple[list[float], list[float]]:
    model = PlackettLuce()
    teams = [[model.rating(mu=m, sigma=s)] for m, s in zip(mus, sigmas, strict=True)]
    rated = model.rate(teams, ranks=[float(p) for p in places])
    return [t[0].mu for t in rated], [t[0].sigma for t in rated]


def assert_same_update(
    got: tuple[list[float], list[float]], want: tuple[list[float], list[float]]
) -> None:
    """The same mu and sigma per seat, to 1e-9."""
    assert got[0] == pytest.approx(want[0], rel=0, abs=1e-9)
    assert got[1] == pytest.approx(want[1], rel=0, abs=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_one_game_update_is_openskills(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(500):
        mus, sigmas, places = random_game(rng, wide=seed % 2 == 1)
        assert_same_update(update(mus, sigmas, places), openskill_update(mus, sigmas, places))


def test_defaults_ties_and_the_sigma_floor_are_openskills() -> None:
    assert (MU, SIGMA) == (25.0, 25.0 / 3.0)
    # every place tied: each seat is its own group of the others' places
    for places in ([1, 1], [2, 2, 2, 2], [1, 2, 2, 2, 5, 5], [3, 1, 3, 1]):
        n = len(places)
        mus, sigmas = [20.0 + i for i in range(n)], [SIGMA - i / 3 for i in range(n)]
        assert_same_update(update(mus, sigmas, places), openskill_update(mus, sigmas, places))
    # last of eight, far less certain than the rest: 1 - delta falls below kappa, and sigma
    # shrinks by sqrt(kappa) alone
    mus, sigmas, places = [25.0] * 8, [1.0] * 7 + [50.0], list(range(1, 9))
    got_mu, got_sigma = update(mus, sigmas, places)
    floored = (50.0**2 + (25 / 300) ** 2) ** 0.5 * 0.0001**0.5
    assert got_sigma[7] == pytest.approx(floored, rel=1e-12)
    assert_same_update((got_mu, got_sigma), openskill_update(mus, sigmas, places))


def test_a_game_with_one_rated_seat_is_not_rated() -> None:
    rows = game("g1", "hez2", 0, {"Ana": 1}) + game("g2", "hez2", 1, {"Ana": 2, "Bo": 1})
    ratings = by_player(rate(table(rows)), "hez2")
    assert ratings["Ana"]["games"] == 1
    assert rate(table(game("g1", "hez2", 0, {"Ana": 1}))).num_rows == 0


# --------------------------------------------------------------------- the rating log
def dated_season(seed: int) -> list[Row]:
    """A random season, a few games of it without a start time."""
    rows = random_season(seed)
    undated = {row[0] for row in rows[:: len(rows) // 3]}
    return [(g, k, None if g in undated else t, p, pl) for g, k, t, p, pl in rows]


def openskill_window(
    rows: list[Row], since: dt.date | None, until: dt.date | None, players: int | None
) -> dict[tuple[str, str], tuple[float, float, int]]:
    """The reference: per kind (and seat count), OpenSkill run directly over the games in date
    order up to the end of ``until`` (the games without a time last, and only with no date
    filter); the rating after them of each player who played from ``since`` on, and how many
    games from then."""
    dated = since is not None or until is not None
    games: dict[tuple[str, str], list[Row]] = {}
    for row in rows:
        games.setdefault((row[0], row[1]), []).append(row)
    if players is not None:
        games = {key: g for key, g in games.items() if len(g) == players}

    def when(key: tuple[str, str]) -> tuple[bool, dt.datetime, str]:
        started = games[key][0][2]
        return started is None, started or DAY, key[0]

    models: dict[str, PlackettLuce] = {}
    ratings: dict[tuple[str, str], PlackettLuceRating] = {}
    in_window: Counter[tuple[str, str]] = Counter()
    for key in sorted(games, key=when):
        seats = games[key]
        started = seats[0][2]
        day = started.date() if started else None
        if dated and (day is None or (until is not None and day > until)):
            continue
        kind = key[1]
        model = models.setdefault(kind, PlackettLuce())
        teams = [[ratings.get((kind, row[3])) or model.rating(name=row[3])] for row in seats]
        new = model.rate(teams, ranks=[float(row[4]) for row in seats])
        for row, (rating,) in zip(seats, new, strict=True):
            ratings[(kind, row[3])] = rating
            if since is None or (day is not None and day >= since):
                in_window[(kind, row[3])] += 1
    return {k: (r.mu, r.sigma, in_window[k]) for k, r in ratings.items() if in_window[k]}


def windows(seed: int) -> list[tuple[dt.date | None, dt.date | None, int | None]]:
    rng = random.Random(seed)
    day = DAY.date()
    out: list[tuple[dt.date | None, dt.date | None, int | None]] = [
        (None, None, None),
        (None, None, 3),
        (day + dt.timedelta(days=30), None, None),  # after the last game
        (None, day - dt.timedelta(days=1), None),  # before the first
    ]
    for _ in range(12):
        since = day + dt.timedelta(days=rng.randint(-2, 22)) if rng.random() < 0.7 else None
        until = day + dt.timedelta(days=rng.randint(-2, 22)) if rng.random() < 0.7 else None
        out.append((since, until, rng.choice([None, None, 2, 4, 5])))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_ratings_of_a_window_are_openskill_run_directly_up_to_its_end(seed: int) -> None:
    rows = dated_season(seed)
    log = rating_log(full_table(rows), whole=True, split=True)
    for since, until, players in windows(seed):
        params = {"kind": None, "player": None, "players": players, "since": since, "until": until}
        got = ratings_of_log(log, params).to_pylist()
        want = openskill_window(rows, since, until, players)
        window = (since, until, players)
        assert {(r["kind"], r["player"]) for r in got} == set(want), window
        for r in got:
            mu, sigma, games = want[(r["kind"], r["player"])]
            assert (r["mu"], r["sigma"]) == (
                pytest.approx(mu, rel=0, abs=1e-9),
                pytest.approx(sigma, rel=0, abs=1e-9),
            ), window
            assert r["games"] == games, window
            assert r["conservative"] == pytest.approx(r["mu"] - 3 * r["sigma"], rel=0, abs=1e-9)
        assert [(r["kind"], -r["conservative"], r["player"]) for r in got] == sorted(
            (r["kind"], -r["conservative"], r["player"]) for r in got
        )


def test_kind_and_player_keep_their_rows_of_the_same_ratings() -> None:
    rows = dated_season(5)
    log = rating_log(full_table(rows), whole=True, split=True)
    since = DAY.date() + dt.timedelta(days=5)
    every = ratings_of_log(log, {"since": since}).to_pylist()
    for kind, player in (("hez2", None), (None, "player c"), ("hearts", "player a")):
        params = {"kind": kind, "player": player, "since": since}
        assert ratings_of_log(log, params).to_pylist() == [
            r for r in every if kind in (None, r["kind"]) and player in (None, r["player"])
        ]


def test_the_log_is_a_row_per_ladder_player_and_day_played() -> None:
    rows = dated_season(6)
    log = rating_log(full_table(rows), whole=True, split=True)
    assert log.schema == LOG_SCHEMA
    entries = log.to_pylist()
    played = {
        (row[1], ladder, row[3], row[2].date() if row[2] else None)
        for row in rows
        for ladder in (None, Counter((r[0], r[1]) for r in rows)[(row[0], row[1])])
    }
    assert len(entries) == len(played)
    assert {(r["kind"], r["players"], r["player"], r["day"]) for r in entries} == played
    # the last row of each player of the kind ladders is the ratings after every game
    last: dict[tuple[str, str], dict[str, Any]] = {}
    for r in entries:
        if r["players"] is None:
            last[(r["kind"], r["player"])] = r
    final = {(r["kind"], r["player"]): r for r in rate(table(rows)).to_pylist()}
    assert set(last) == set(final)
    for key, r in final.items():
        assert (last[key]["mu"], last[key]["sigma"], last[key]["games"]) == (
            r["mu"],
            r["sigma"],
            r["games"],
        )


@pytest.mark.parametrize("rows_per_batch", [1, 3, 7, 50, 10_000])
def test_the_log_read_in_batches_is_the_log_of_the_whole(rows_per_batch: int) -> None:
    """``replay reindex`` rates the results a batch at a time, in the order its query gives
    (date, game id, kind, seat): the same rows, in the same order, whatever the batch size
    (a game cut by a batch's end is held back whole)."""
    rows = dated_season(7) + game("g1", "hez2", 3, {"Ana": 1, "Cy": 2})  # g1 of two kinds
    ordered = full_table(rows).sort_by(
        [("started", "ascending"), ("game_id", "ascending"), ("kind", "ascending")]
    )
    parts = list(rating_log_parts(ordered.to_batches(rows_per_batch), whole=True, split=True))
    whole = rating_log(full_table(rows), whole=True, split=True)
    assert len(parts) > (1 if rows_per_batch < ordered.num_rows else 0)
    assert pa.concat_tables(parts).equals(whole)
    assert whole.num_rows > 0


def test_ratings_of_an_empty_log() -> None:
    empty = rating_log(full_table([]), whole=True, split=True)
    assert empty.num_rows == 0 and empty.schema == LOG_SCHEMA
    assert ratings_of_log(empty, {}).num_rows == 0


# --------------------------------------------------------------------- Analytics.ratings
@pytest.mark.parametrize(
    "f",
    [
        Filters(since=dt.date(2026, 6, 1)),
        Filters(until=dt.date(2026, 6, 1)),
        Filters(since=dt.date(2026, 3, 1), until=dt.date(2026, 9, 30)),
        Filters(players=4),
        Filters(kind="hez2", players=4, since=dt.date(2026, 8, 1)),
        Filters(player="ann", until=dt.date(2026, 9, 30)),
        Filters(kind="fou", players=7, until=dt.date(2026, 4, 15)),
    ],
    ids=repr,
)
def test_analytics_ratings_are_openskill_run_directly_on_the_ladder(f: Filters) -> None:
    """The simulated corpus of test_analytics: the games of the kind (and seat count) up to the
    window's end, through OpenSkill directly; the players of the window, their games in it."""
    from tests.test_analytics import analytics, chosen, corpus

    starts = {g[0].game_id: g[0].ts for g in corpus()}
    rows: list[Row] = [
        (g.game_id, g.kind, starts[g.game_id], s.player, s.place)
        for g in chosen(Filters(kind=f.kind, players=f.players))
        for s in g.seats
        if s.place is not None
    ]
    want = openskill_window(rows, f.since, f.until, None)
    want = {k: v for k, v in want.items() if f.player in (None, k[1])}
    got = analytics().ratings(f)
    assert got.schema == RATINGS_SCHEMA
    assert {(r["kind"], r["player"]) for r in got.to_pylist()} == set(want)
    assert want, "a window with games"
    for r in got.to_pylist():
        mu, sigma, games = want[(r["kind"], r["player"])]
        assert (r["mu"], r["sigma"], r["games"]) == (
            pytest.approx(mu, rel=0, abs=1e-9),
            pytest.approx(sigma, rel=0, abs=1e-9),
            games,
        )
