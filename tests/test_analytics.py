"""The statistics views and the common statistics, checked against figures computed here in
Python from the events (the rules' results, and walks over the events) on simulated corpora of
the four games; filters, hostile names, empty and one-game sources, the read-only guard."""

from __future__ import annotations

import datetime
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pyarrow as pa
import pytest

from replay.analytics import Analytics, Filters, QueryRefused
from replay.analytics.rates import MIN_SAMPLE
from replay.engine.simulate import simulate_game
from replay.games import get_rules
from replay.model.events import Event, events_to_table
from replay.review.stats import wilson

#: A pool of players, hostile names included: they must only ever be query values.
POOL = (
    "ann",
    "bob",
    "cy",
    "dee",
    "O'Brien",
    'x"; DROP TABLE games; --',
    "Zoë ☃",
    "ed -- not a comment",
    "fay",
)
#: (kind, seat count, games) of the test corpus.
PLAN = (("hearts", 4, 3), ("hez2", 2, 3), ("hez2", 4, 3), ("hiifuu", 4, 2), ("hiifuu", 6, 2),
        ("fou", 4, 2), ("fou", 7, 2))  # fmt: skip
LOWER_WINS = {"hearts"}


def names_for(kind: str, n: int, i: int) -> list[str]:
    """Changing tables: each game seats a different slice of the pool."""
    start = (len(kind) * 3 + n + i * 2) % len(POOL)
    return [POOL[(start + s) % len(POOL)] for s in range(n)]


@cache
def corpus() -> tuple[tuple[Event, ...], ...]:
    """Simulated games of every kind and several seat counts, named players, mixed bots."""
    games: list[tuple[Event, ...]] = []
    for kind, n, count in PLAN:
        rules = get_rules(kind)
        for i in range(count):
            seed = 41_017 * (len(games) + 1)  # start times spread over the year
            bots = [s % 2 == 1 for s in range(n)]
            options = {"names": names_for(kind, n, i), "bots": bots}
            if kind == "hez2":
                options["stakes"] = [None if b else 100 * (s + 1) for s, b in enumerate(bots)]
            if kind == "hiifuu" and i % 2:
                options["variant"] = "random-tokens"
            game = simulate_game(rules, f"{kind}{n}-{i}", players=n, seed=seed,
                                 bots=("heuristic", "random"), options=options)  # fmt: skip
            games.append(tuple(game))
    return tuple(games)


def table_of(games: Iterable[Sequence[Event]]) -> pa.Table:
    return events_to_table([e for g in games for e in g])


@cache
def analytics() -> Analytics:
    return Analytics.open(table_of(corpus()))


# --------------------------------------------------------------------- the reference
def suit_of(kind: str, card: str | None) -> str | None:
    """The suit or colour of a card code, written here from docs/games/*.md."""
    if card is None:
        return None
    if kind == "fou":
        return None if card[0] == "1" else card[0]
    return card[-1]


@dataclass
class Seat:
    game_id: str
    kind: str
    seat: int
    player: str
    bot: bool
    players: int
    place: int | None = None
    score: int | None = None
    won: bool = False
    from_dealer: int | None = None


@dataclass
class Trick:
    leader: int
    led: str | None
    winner: int
    winning_card: str
    cards: list[str] = field(default_factory=list)


@dataclass
class Game:
    game_id: str
    kind: str
    players: int
    day: datetime.date | None
    events: int
    rounds: int
    seats: list[Seat]
    tricks: dict[tuple[int, int], Trick]
    round_scores: dict[tuple[int, int], int]  # (round, seat) -> round score


def places_by_total(totals: list[int], lower_wins: bool) -> list[int]:
    """Competition ranking (1 = best, ties share the better place)."""
    key = [t if lower_wins else -t for t in totals]
    return [1 + sum(1 for other in key if other < mine) for mine in key]


def reference(game: Sequence[Event]) -> Game:
    """A game reduced in Python: the rules' result and one walk over the events."""
    start = game[0]
    kind, gid = start.kind, start.game_id
    setup = json.loads(start.data or "{}")
    n = int(setup["players"])
    rules = get_rules(kind)
    result = rules.result(rules.replay(list(game)))
    seats = [Seat(gid, kind, s, setup["names"][s], bool(setup["bots"][s]), n) for s in range(n)]
    for s in result["winners"]:
        seats[s].won = True
    plays: dict[tuple[int, int], list[Event]] = defaultdict(list)
    tricks: dict[tuple[int, int], Trick] = {}
    round_scores: dict[tuple[int, int], int] = {}
    dealer = setup.get("dealer")
    for e in game:
        if e.type == "play" and e.trick is not None:
            plays[(e.round or 0, e.trick)].append(e)
        elif e.type == "trick_won":
            cards = plays[(e.round or 0, e.trick or 0)]
            led = next((suit_of(kind, p.card) for p in cards if suit_of(kind, p.card)), None)
            winning = next(p.card for p in cards if p.player == e.player)
            tricks[(e.round or 0, e.trick or 0)] = Trick(
                cards[0].player or 0,
                led,
                e.player or 0,
                winning or "",
                [p.card or "" for p in cards],
            )
        elif e.type == "round_scored":
            round_scores[(e.round or 0, e.player or 0)] = e.amount or 0
        elif e.type in ("player_out", "placed"):
            seats[e.player or 0].place = e.amount
        elif e.type == "payout":
            stake = setup["stakes"][e.player or 0]
            seats[e.player or 0].score = (e.amount or 0) - stake
        elif e.type == "dealer":
            dealer = e.player
    if kind != "hez2":
        totals = result["totals"]
        for s, place in enumerate(places_by_total(totals, kind in LOWER_WINS)):
            seats[s].place, seats[s].score = place, totals[s]
    if dealer is not None:
        for s in seats:
            s.from_dealer = (s.seat - dealer) % n
    rounds = max((e.round or 0) for e in game)
    day = start.ts.date() if start.ts else None
    return Game(gid, kind, n, day, len(game), rounds, seats, tricks, round_scores)


@cache
def games() -> tuple[Game, ...]:
    return tuple(reference(g) for g in corpus())


def rows(table: pa.Table, *keys: str) -> list[dict[str, Any]]:
    return sorted(table.to_pylist(), key=lambda r: tuple(str(r[k]) for k in keys))


def stat(name: str, f: Filters | None = None) -> list[dict[str, Any]]:
    return analytics().statistic(name, f or Filters()).table.to_pylist()


def chosen(f: Filters) -> list[Game]:
    """The filters applied in Python."""
    out = []
    for g in games():
        names = {s.player for s in g.seats}
        if f.kind is not None and g.kind != f.kind:
            continue
        if f.players is not None and g.players != f.players:
            continue
        if f.since is not None and (g.day is None or g.day < f.since):
            continue
        if f.until is not None and (g.day is None or g.day > f.until):
            continue
        if f.player is not None and f.player not in names:
            continue
        out.append(g)
    return out


# --------------------------------------------------------------------- views
def test_games_view_matches_the_events() -> None:
    got = {r["game_id"]: r for r in analytics().sql("SELECT * FROM games").to_pylist()}
    assert set(got) == {g.game_id for g in games()}
    for g in games():
        r = got[g.game_id]
        winners = sorted(s.player for s in g.seats if s.won)
        assert (r["kind"], r["players"], r["events"], r["rounds"], r["day"]) == (
            g.kind, g.players, g.events, g.rounds, g.day
        )  # fmt: skip
        assert r["ended"] and r["bots"] == sum(s.bot for s in g.seats)
        assert r["winner_names"] == ", ".join(winners) and r["winners"] == len(winners)
        assert json.loads(r["names"]) == [s.player for s in g.seats]


def test_seats_view_matches_the_rules_results() -> None:
    got = rows(analytics().sql("SELECT * FROM seats"), "game_id", "seat")
    want = sorted((s for g in games() for s in g.seats), key=lambda s: (s.game_id, str(s.seat)))
    assert len(got) == len(want)
    for r, s in zip(got, want, strict=True):
        assert (r["game_id"], r["seat"], r["player"], r["bot"]) == (
            s.game_id, s.seat, s.player, s.bot
        )  # fmt: skip
        assert (r["place"], r["score"], r["won"], r["from_dealer"]) == (
            s.place, s.score, s.won, s.from_dealer
        ), r  # fmt: skip


def test_tricks_view_matches_a_walk_over_the_plays() -> None:
    got = analytics().sql("SELECT * FROM tricks").to_pylist()
    want = {(g.game_id, r, t): tr for g in games() for (r, t), tr in g.tricks.items()}
    assert len(got) == len(want) > 100
    for r in got:
        tr = want[(r["game_id"], r["round"], r["trick"])]
        assert (r["leader"], r["led"], r["winner"], r["winning_card"], r["cards"]) == (
            tr.leader, tr.led, tr.winner, tr.winning_card, len(tr.cards)
        )  # fmt: skip
        assert r["lead_held"] == (tr.leader == tr.winner)


def test_plays_view_positions_and_following() -> None:
    got = analytics().sql("SELECT * FROM plays WHERE trick IS NOT NULL").to_pylist()
    by_game = {g.game_id: g for g in games()}
    assert len(got) == sum(len(t.cards) for g in games() for t in g.tricks.values())
    for r in got:
        g = by_game[r["game_id"]]
        tr = g.tricks[(r["round"], r["trick"])]
        assert tr.cards[r["position"] - 1] == r["card"]
        suit = suit_of(g.kind, r["card"])
        assert r["led"] == tr.led and r["joker"] == (suit is None)
        assert r["followed"] == (suit == tr.led)
        assert r["discarded"] == (suit is not None and suit != tr.led)


def test_rounds_view_scores_and_tricks_won() -> None:
    got = analytics().sql("SELECT * FROM rounds").to_pylist()
    for r in got:
        g = next(x for x in games() if x.game_id == r["game_id"])
        won = sum(
            1 for (rd, _), t in g.tricks.items() if rd == r["round"] and t.winner == r["seat"]
        )
        assert r["tricks_won"] == won
        assert r["score"] == g.round_scores.get((r["round"], r["seat"]))
    assert len(got) == sum(g.rounds * g.players for g in games())


# --------------------------------------------------------------------- statistics
def test_games_played_per_player() -> None:
    want: dict[tuple[str, str], list[Any]] = defaultdict(lambda: [0, 0, 0, []])
    for g in games():
        for s in g.seats:
            w = want[(g.kind, s.player)]
            w[0] += 1
            w[1] += g.rounds
            w[2] += s.won
            w[3].append(s.place)
    got = stat("games_played")
    assert {(r["kind"], r["player"]) for r in got} == set(want)
    for r in got:
        games_, rounds, wins, places = want[(r["kind"], r["player"])]
        assert (r["games"], r["rounds"], r["hits"], r["opportunities"]) == (
            games_,
            rounds,
            wins,
            games_,
        )
        assert r["avg_place"] == pytest.approx(sum(places) / len(places))
        low, high = wilson(wins, games_)
        assert (r["rate"], r["low"], r["high"]) == pytest.approx((wins / games_, low, high))
        assert r["flagged"] == (games_ < MIN_SAMPLE)


def test_seat_and_dealer_advantage() -> None:
    seat: Counter[tuple[str, int, int]] = Counter()
    seat_wins: Counter[tuple[str, int, int]] = Counter()
    dealer: Counter[tuple[str, int, int]] = Counter()
    dealer_wins: Counter[tuple[str, int, int]] = Counter()
    for g in games():
        for s in g.seats:
            seat[(g.kind, g.players, s.seat)] += 1
            seat_wins[(g.kind, g.players, s.seat)] += s.won
            if s.from_dealer is not None:
                dealer[(g.kind, g.players, s.from_dealer)] += 1
                dealer_wins[(g.kind, g.players, s.from_dealer)] += s.won
    got = {(r["kind"], r["players"], r["seat"]): r for r in stat("seat_advantage")}
    assert {k: (r["hits"], r["opportunities"]) for k, r in got.items()} == {
        k: (seat_wins[k], n) for k, n in seat.items()
    }
    got = {(r["kind"], r["players"], r["from_dealer"]): r for r in stat("dealer_advantage")}
    assert {k: (r["hits"], r["opportunities"]) for k, r in got.items()} == {
        k: (dealer_wins[k], n) for k, n in dealer.items()
    }
    assert {k[0] for k in dealer} == {"hez2", "fou"}


def test_bots_and_humans() -> None:
    want: Counter[tuple[str, bool]] = Counter()
    wins: Counter[tuple[str, bool]] = Counter()
    for g in games():
        for s in g.seats:
            want[(g.kind, s.bot)] += 1
            wins[(g.kind, s.bot)] += s.won
    got = {(r["kind"], r["bot"]): (r["hits"], r["opportunities"]) for r in stat("bots_and_humans")}
    assert got == {k: (wins[k], n) for k, n in want.items()}


def test_game_length_and_round_points() -> None:
    by: dict[tuple[str, int], list[Game]] = defaultdict(list)
    for g in games():
        by[(g.kind, g.players)].append(g)
    got = {(r["kind"], r["players"]): r for r in stat("game_length")}
    for key, gs in by.items():
        r = got[key]
        assert (r["games"], r["min_rounds"], r["max_rounds"], r["max_events"]) == (
            len(gs), min(g.rounds for g in gs), max(g.rounds for g in gs), max(g.events for g in gs)
        )  # fmt: skip
    points = Counter((g.kind, v) for g in games() for v in g.round_scores.values())
    assert {(r["kind"], r["score"]): r["rounds"] for r in stat("round_points")} == points


def test_head_to_head() -> None:
    want: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for g in games():
        for a in g.seats:
            for b in g.seats:
                if a.seat == b.seat:
                    continue
                w = want[(g.kind, a.player, b.player)]
                w[0] += 1
                assert a.place is not None and b.place is not None
                w[1] += a.place < b.place
                w[2] += a.place > b.place
                w[3] += a.place == b.place
    got = {
        (r["kind"], r["player"], r["opponent"]): [
            r["opportunities"],
            r["hits"],
            r["behind"],
            r["level"],
        ]
        for r in stat("head_to_head")
    }
    assert got == want


def test_lead_holds_and_winning_cards() -> None:
    lead: Counter[tuple[str, str | None]] = Counter()
    held: Counter[tuple[str, str | None]] = Counter()
    played: Counter[tuple[str, str]] = Counter()
    won: Counter[tuple[str, str]] = Counter()
    for g in games():
        for t in g.tricks.values():
            lead[(g.kind, t.led)] += 1
            held[(g.kind, t.led)] += t.leader == t.winner
            for c in t.cards:
                played[(g.kind, c)] += 1
            won[(g.kind, t.winning_card)] += 1
    got = {(r["kind"], r["led"]): (r["hits"], r["opportunities"]) for r in stat("lead_holds")}
    assert got == {k: (held[k], n) for k, n in lead.items()}
    got = {(r["kind"], r["card"]): (r["hits"], r["opportunities"]) for r in stat("winning_cards")}
    assert got == {k: (won[k], n) for k, n in played.items()}


def test_tricks_by_seat() -> None:
    tricks: Counter[tuple[str, int, int]] = Counter()
    rounds: Counter[tuple[str, int, int]] = Counter()
    for g in games():
        if not g.tricks:
            continue
        for s in g.seats:
            rounds[(g.kind, g.players, s.seat)] += g.rounds
        for t in g.tricks.values():
            tricks[(g.kind, g.players, t.winner)] += 1
    got = {
        (r["kind"], r["players"], r["seat"]): (r["tricks"], r["rounds"])
        for r in stat("tricks_by_seat")
    }
    assert got == {k: (tricks[k], n) for k, n in rounds.items()}


# --------------------------------------------------------------------- filters
FILTERS = [
    Filters(),
    Filters(kind="hez2"),
    Filters(kind="hez2", players=4),
    Filters(players=4),
    Filters(player="ann"),
    Filters(player="ann", kind="fou"),
    Filters(since=datetime.date(2026, 3, 1), until=datetime.date(2026, 9, 30)),
    Filters(kind="hiifuu", player="Zoë ☃", since=datetime.date(2026, 1, 1)),
    Filters(until=datetime.date(2025, 1, 1)),
    Filters(kind="no such kind"),
]


@pytest.mark.parametrize("f", FILTERS, ids=repr)
def test_filters_combine(f: Filters) -> None:
    want = chosen(f)
    got = analytics().overview(f).to_pylist()
    assert {r["kind"]: r["games"] for r in got} == Counter(g.kind for g in want)
    seats = stat("seat_advantage", f)
    wanted = [s for g in want for s in g.seats if f.player is None or s.player == f.player]
    assert sum(r["opportunities"] for r in seats) == len(wanted)
    assert sum(r["hits"] for r in seats) == sum(s.won for s in wanted)
    assert analytics().players(f) == sorted({s.player for g in want for s in g.seats})


@pytest.mark.parametrize("f", FILTERS, ids=repr)
def test_player_counts_per_kind_and_in_all(f: Filters) -> None:
    """Every seat of the chosen games counts (a chosen player's opponents too), each name once
    per kind and once in the last row (kind null), which is there even when nothing is chosen."""
    want = chosen(f)
    got = analytics().player_counts(f).to_pylist()
    per_kind = {k: len({s.player for g in want if g.kind == k for s in g.seats})
                for k in {g.kind for g in want}}  # fmt: skip
    assert got[:-1] == [{"kind": k, "players": per_kind[k]} for k in sorted(per_kind)]
    assert got[-1] == {"kind": None, "players": len({s.player for g in want for s in g.seats})}
    if f.player is not None and want:
        assert got[-1]["players"] > 1


def test_date_filter_really_splits_the_corpus() -> None:
    f = Filters(since=datetime.date(2026, 3, 1), until=datetime.date(2026, 9, 30))
    assert 0 < len(chosen(f)) < len(games())


@pytest.mark.parametrize("name", [n for n in POOL if not n.isalpha()])
def test_hostile_player_names_are_only_values(name: str) -> None:
    f = Filters(player=name)
    got = stat("games_played", f)
    want = [s for g in chosen(f) for s in g.seats if s.player == name]
    assert want and [r["player"] for r in got] == [name] * len({s.kind for s in want})
    assert sum(r["games"] for r in got) == len(want)
    assert analytics().sql("SELECT count(*) AS n FROM games").column("n")[0].as_py() == len(games())


def test_unknown_player_gives_empty_results() -> None:
    f = Filters(player="nobody' OR '1'='1")
    assert analytics().overview(f).num_rows == 0
    assert all(s.table.num_rows == 0 for s in analytics().statistics(f))


# --------------------------------------------------------------------- edge sources
def test_empty_source_gives_empty_results() -> None:
    empty = Analytics.open(table_of([]))
    assert empty.overview(Filters()).num_rows == 0
    results = empty.statistics(Filters())
    assert results and all(r.table.num_rows == 0 and r.games == 0 for r in results)
    assert empty.players(Filters()) == []
    assert empty.player_counts(Filters()).to_pylist() == [{"kind": None, "players": 0}]
    assert empty.insight("win", "seat", Filters()).num_rows == 0


def test_one_game_gives_single_rows() -> None:
    game = corpus()[0]
    one = Analytics.open(table_of([game]))
    assert one.overview(Filters()).to_pylist()[0]["games"] == 1
    length = one.statistic("game_length", Filters()).table.to_pylist()
    assert len(length) == 1 and length[0]["games"] == 1
    seats = one.statistic("seat_advantage", Filters()).table
    assert seats.num_rows == 4 and set(seats.column("opportunities").to_pylist()) == {1}


# --------------------------------------------------------------------- insight
@pytest.mark.parametrize("dimension", ["seat", "player", "players", "bot", "kind", "from_dealer"])
def test_insight_win_by_dimension(dimension: str) -> None:
    want: Counter[object] = Counter()
    wins: Counter[object] = Counter()
    for g in games():
        for s in g.seats:
            value = getattr(s, dimension, None) if dimension != "kind" else g.kind
            want[value] += 1
            wins[value] += s.won
    got = analytics().insight("win", dimension, Filters())
    assert {r[dimension]: (r["hits"], r["opportunities"]) for r in got.to_pylist()} == {
        k: (wins[k], n) for k, n in want.items()
    }
    assert set(got.column_names) >= {"hits", "opportunities", "rate", "low", "high", "flagged"}


def test_dimensions_and_metrics_by_kind() -> None:
    a = analytics()
    assert "from_dealer" not in a.dimensions("hearts")
    assert "from_dealer" in a.dimensions("hez2") and "from_dealer" in a.dimensions(None)
    assert "win" in [m.name for m in a.metrics(None)]


# --------------------------------------------------------------------- read-only
@pytest.mark.parametrize(
    "query",
    [
        "CREATE TABLE x AS SELECT 1",
        "DROP VIEW games",
        "INSERT INTO games SELECT * FROM games",
        "COPY games TO '/tmp/replay-stolen.csv'",
        "ATTACH '/tmp/replay-x.db' AS x",
        "INSTALL httpfs",
        "LOAD httpfs",
        "PRAGMA version",
        "SET enable_external_access = true",
        "SELECT 1; DROP VIEW games",
        "DELETE FROM games",
    ],
)
def test_sql_refuses_anything_but_one_select(query: str) -> None:
    with pytest.raises(QueryRefused):
        analytics().sql(query)
    assert analytics().sql("SELECT count(*) AS n FROM games").num_rows == 1


@pytest.mark.parametrize(
    "query",
    [
        "SELECT * FROM read_csv('/etc/passwd')",
        "SELECT * FROM read_text('/etc/hostname')",
        "SELECT * FROM glob('/*')",
        "SELECT * FROM read_parquet('/tmp/*.parquet')",
    ],
)
def test_sql_reads_no_file(query: str) -> None:
    import duckdb

    with pytest.raises(duckdb.Error, match=r"disabled by configuration|Permission"):
        analytics().sql(query)


def test_sql_with_parameters_and_ctes() -> None:
    got = analytics().sql(
        "WITH s AS (SELECT * FROM seats WHERE player = $p) SELECT count(*) AS n FROM s",
        {"p": "O'Brien"},
    )
    assert got.column("n")[0].as_py() == sum(
        1 for g in games() for s in g.seats if s.player == "O'Brien"
    )


# --------------------------------------------------------------------- ratings
@pytest.mark.parametrize("f", [Filters(), Filters(kind="hez2"), Filters(player="ann")], ids=repr)
def test_ratings_match_openskill_run_directly(f: Filters) -> None:
    from openskill.models import PlackettLuce

    models: dict[str, PlackettLuce] = {}
    ratings: dict[tuple[str, str], Any] = {}
    played: Counter[tuple[str, str]] = Counter()
    starts = {g[0].game_id: g[0].ts for g in corpus()}
    for g in sorted(chosen(Filters(f.kind)), key=lambda g: (starts[g.game_id], g.game_id)):
        model = models.setdefault(g.kind, PlackettLuce())
        seated = [s for s in g.seats if s.place is not None]
        teams = [[ratings.get((g.kind, s.player)) or model.rating(name=s.player)] for s in seated]
        new = model.rate(teams, ranks=[float(s.place or 0) for s in seated])
        for s, (rating,) in zip(seated, new, strict=True):
            ratings[(g.kind, s.player)] = rating
            played[(g.kind, s.player)] += 1
    got = analytics().ratings(f).to_pylist()
    want = {k: r for k, r in ratings.items() if f.player in (None, k[1])}
    assert {(r["kind"], r["player"]) for r in got} == set(want)
    for row in got:
        expected = want[(row["kind"], row["player"])]
        assert (row["mu"], row["sigma"]) == pytest.approx((expected.mu, expected.sigma))
        assert row["conservative"] == pytest.approx(expected.mu - 3 * expected.sigma)
        assert row["games"] == played[(row["kind"], row["player"])]


def test_ratings_of_an_empty_source() -> None:
    assert Analytics.open(table_of([])).ratings(Filters()).num_rows == 0


def test_statistics_read_only_the_views() -> None:
    """Statistics and metrics read the layer views (derived tables when built), never the raw
    events; the common views name no game kind."""
    import re

    from replay.analytics import catalog

    for f in (*catalog.statistic_files(), *catalog.metric_files()):
        assert not re.search(r"\b(FROM|JOIN)\s+events\b", f.sql, re.I), f.relative
    for name in catalog.LAYERS:
        sql = (catalog.SQL_DIR / "common" / "views" / f"{name}.sql").read_text()
        assert not any(f"'{kind}'" in sql for kind in catalog.kinds()), name


def test_docs_list_every_view_and_statistic() -> None:
    """docs/statistics.md holds the reference generated from the SQL files, up to date."""
    from pathlib import Path

    from replay.analytics.reference import BEGIN, END, reference_markdown

    doc = (Path(__file__).parents[1] / "docs" / "statistics.md").read_text(encoding="utf-8")
    generated = doc[doc.index(BEGIN) : doc.index(END) + len(END)] + "\n"
    fix = "python -m replay.analytics.reference --write docs/statistics.md"
    assert generated == reference_markdown(), fix


def test_sql_files_keep_to_the_portable_subset() -> None:
    """No DuckDB-only syntax in the files Spark also runs (CONTRACTS.md A); the DuckDB prelude
    is the one file allowed DuckDB's names."""
    import re

    from replay.analytics import catalog

    forbidden = re.compile(
        r"\bQUALIFY\b|\blist_\w+|->>|::|GROUP BY ALL|\$\w|\blambda\b|\"|\bunnest\b|\bstring_agg\b"
        r"|\bstruct_pack\b|\{",
        re.I,
    )
    files = [p for p in catalog.SQL_DIR.rglob("*.sql") if p != catalog.PRELUDE_DUCKDB]
    assert len(files) > 50
    for path in files:
        code = "\n".join(catalog._code_pieces(path.read_text(encoding="utf-8")))
        assert not forbidden.search(code), (path, forbidden.search(code))


def test_the_sql_folders_are_the_registered_game_kinds() -> None:
    """Each game kind's SQL lives in a folder named after it: the folders are the registry's
    kinds (:data:`replay.games.GAME_MODULES`, the one list of kinds), none missing, none stray."""
    from replay.analytics import catalog
    from replay.games import GAME_MODULES

    assert set(catalog.kinds()) == set(GAME_MODULES)
