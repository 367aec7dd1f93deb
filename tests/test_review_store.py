"""The reviews as data: ``replay reindex STORE --reviews`` stores the reviews of a store's games
(the same rows as ``replay review``), reviews only what is new or was reviewed with other
settings, and the views ``decisions`` and ``review_summary`` answer "mean loss per decision by
player, by month" in one query, through ``replay sql``, ``replay stats`` and the library."""

from __future__ import annotations

import datetime
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner, Result

from replay.analytics import Analytics, Filters, reviews
from replay.cli import app
from replay.model.events import Event
from replay.review import engine
from replay.review.engine import Settings, review_games
from replay.review.report import decision_row
from replay.store import EventStore
from tests.review_support import first_hand
from tests.spark_support import needs_spark

RUNNER = CliRunner()
#: Cheap settings: a few deals, three alternatives per decision.
CHEAP = Settings(samples=4, seed=0, max_alternatives=3)
CHEAP_ARGS = ("--samples", "4", "--alternatives", "3")
#: The month each game starts in.
STARTS = {"hand-1": (2026, 1, 15), "hand-2": (2026, 2, 3), "hand-3": (2026, 2, 20)}


def run(*args: object) -> Result:
    return RUNNER.invoke(app, ["--color", "never", *(str(a) for a in args)])


def game(seed: int) -> list[Event]:
    """The start of a Hearts hand (the pass and a few tricks), started on its STARTS day."""
    events = first_hand(seed, None)[:20]
    when = datetime.datetime(*STARTS[f"hand-{seed}"], 12, tzinfo=datetime.UTC)
    return [replace(events[0], ts=when), *events[1:]]


def stored(store: EventStore) -> list[dict[str, Any]]:
    """The stored decision rows, in (game, seq) order, without the alternatives."""
    table = pq.read_table(reviews.stored_reviews(store)["reviews"]).drop_columns("alternatives")
    return sorted(table.to_pylist(), key=lambda r: (r["game_id"], r["seq"]))


@pytest.fixture
def store(tmp_path: Path) -> EventStore:
    store = EventStore.open(tmp_path / "store", create=True)
    store.ingest([game(1), game(2)])
    return store


def test_reviewing_is_incremental(store: EventStore, monkeypatch: pytest.MonkeyPatch) -> None:
    first = reviews.update_reviews(store, CHEAP)
    assert sorted(first.reviewed) == ["hand-1", "hand-2"] and first.kept == 0
    rows = stored(store)
    assert len(rows) == first.decisions > 0
    again = reviews.update_reviews(store, CHEAP)  # nothing new: nothing reviewed
    assert again.reviewed == [] and again.kept == 2 and stored(store) == rows
    store.ingest([game(3)])  # a new game: the only one reviewed
    third = reviews.update_reviews(store, CHEAP)
    assert third.reviewed == ["hand-3"] and third.kept == 2
    now = stored(store)
    assert [r for r in now if r["game_id"] != "hand-3"] == rows
    assert {r["game_id"] for r in now} == {"hand-1", "hand-2", "hand-3"}
    for changed in (replace(CHEAP, seed=1), replace(CHEAP, samples=5)):  # other settings
        update = reviews.update_reviews(store, changed)
        assert sorted(update.reviewed) == ["hand-1", "hand-2", "hand-3"] and update.kept == 0
        assert {r["settings"] for r in stored(store)} == {changed.key}
    monkeypatch.setattr(engine, "REVIEW_VERSION", engine.REVIEW_VERSION + 1)  # a new method
    assert len(reviews.update_reviews(store, replace(CHEAP, samples=5)).reviewed) == 3


def test_the_stored_rows_are_those_of_replay_review(store: EventStore) -> None:
    reviews.update_reviews(store, CHEAP)
    expected = [
        {**decision_row(d), "samples": d.loss.n, "settings": CHEAP.key}
        for r in review_games([game(1), game(2)], CHEAP)
        for d in r.decisions
    ]
    for row in expected:  # the stored table holds the alternatives as text
        del row["alternatives"]
    assert stored(store) == expected
    games = Analytics.open(store).sql("SELECT count(*) AS n, sum(decisions) AS d FROM review_games")
    assert games.to_pylist() == [{"n": 2, "d": len(expected)}]


def test_mean_loss_by_player_by_month_is_one_query(store: EventStore) -> None:
    assert run("reindex", store.path, "--reviews", *CHEAP_ARGS).exit_code == 0
    query = (
        "SELECT player, month, count(*) AS decisions, avg(loss) AS mean_loss FROM decisions "
        "GROUP BY player, month ORDER BY player, month"
    )
    result = run("sql", store.path, query, "--format", "json")
    assert result.exit_code == 0, result.output
    got = {(r["player"], r["month"]): r for r in json.loads(result.stdout)}
    months = {g: f"{y}-{m:02d}" for g, (y, m, _) in STARTS.items()}
    expected: dict[tuple[str, str], list[float]] = {}
    for r in stored(store):
        key = (f"p{r['seat']}", months[r["game_id"]])
        expected.setdefault(key, []).append(r["loss"])
    assert set(got) == set(expected) and len({m for _, m in got}) == 2
    for key, losses in expected.items():
        assert got[key]["decisions"] == len(losses)
        assert got[key]["mean_loss"] == pytest.approx(sum(losses) / len(losses))


def test_reindex_says_what_it_reviewed(store: EventStore) -> None:
    once = run("reindex", store.path, "--reviews", *CHEAP_ARGS)
    assert once.exit_code == 0, once.output
    assert "reviews stored (2 games reviewed, 0 already reviewed with v" in once.stdout
    twice = run("reindex", store.path, "--reviews", *CHEAP_ARGS)
    assert "(0 games reviewed, 2 already reviewed with" in twice.stdout
    before = reviews.review_paths(store)["reviews"].read_bytes()
    wrong = run("reindex", store.path, "--reviews", "--policy", "nonesuch")
    assert wrong.exit_code == 2 and "Traceback" not in wrong.output
    assert wrong.stderr.count("error: ") == wrong.stderr.count("no policy 'nonesuch' for") == 2
    assert reviews.review_paths(store)["reviews"].read_bytes() == before  # nothing lost


def test_damaged_stored_reviews_are_one_line_and_made_again(store: EventStore) -> None:
    reviews.update_reviews(store, CHEAP)
    damaged = reviews.review_paths(store)["reviews"]
    damaged.write_bytes(b"not parquet")
    stats = run("stats", store.path, "--stat", "review_players")
    assert stats.exit_code == 0 and "Traceback" not in stats.output
    assert "reviews.parquet: stored reviews left out: unreadable" in stats.stderr
    assert "replay reindex STORE --reviews" in stats.stdout  # the statistic: no reviews
    again = reviews.update_reviews(store, CHEAP)
    assert len(again.reviewed) == 2 and "stored reviews left out" in again.problems[0]
    assert reviews.update_reviews(store, CHEAP).reviewed == []


def test_stats_show_the_review_summary_or_how_to_make_it(store: EventStore) -> None:
    before = run("stats", store.path, "--stat", "review_players")
    assert before.exit_code == 0, before.output
    assert "replay reindex STORE --reviews" in before.stdout
    reviews.update_reviews(store, CHEAP)
    analytics = Analytics.open(EventStore.open(store.path))
    summary = analytics.sql("SELECT * FROM review_summary ORDER BY player").to_pylist()
    assert [r["player"] for r in summary] == ["p0", "p1", "p2", "p3"]
    mine = analytics.statistic("review_players", Filters(player="p1")).table.to_pylist()
    (p1,) = [r for r in summary if r["player"] == "p1"]
    assert [r["player"] for r in mine] == ["p1"] and mine[0]["decisions"] == p1["decisions"]
    assert mine[0]["mean_loss"] == pytest.approx(p1["mean_loss"])
    assert mine[0]["opportunities"] == p1["decisions"] and mine[0]["hits"] == p1["accurate"]
    feb = Filters(player="p1", since=datetime.date(2026, 2, 1))
    (late,) = analytics.statistic("review_players", feb).table.to_pylist()
    assert late["games"] == 1 and late["decisions"] < p1["decisions"]
    after = run("stats", store.path, "--stat", "review_players")
    assert "reindex" not in after.stdout and "p3" in after.stdout


@needs_spark
@pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas")
def test_the_views_of_the_reviews_are_the_same_on_spark(spark: Any, store: EventStore) -> None:
    from replay.spark.stats import analytics_on_spark
    from tests.test_spark_stats import assert_same

    reviews.update_reviews(store, CHEAP)
    local = Analytics.open(EventStore.open(store.path))
    remote = analytics_on_spark(spark, EventStore.open(store.path))
    assert local.stored_reviews and remote.stored_reviews
    for view in ("reviews", "review_games", "decisions", "review_summary"):
        mine = local.sql(f"SELECT * FROM {view}")
        assert mine.num_rows > 0, view
        assert_same(mine, remote.sql(f"SELECT * FROM {view}"), view)
    for f in (Filters(), Filters(player="p2", since=datetime.date(2026, 2, 1))):
        mine = local.statistic("review_players", f).table
        assert mine.num_rows > 0
        assert_same(mine, remote.statistic("review_players", f).table, "review_players")
