"""Luck (docs/review.md, "Luck"): every seat's luck of the deals and draws per scoring unit, the
luck-adjusted result, and their store table and statistic (``replay reindex --luck``,
``luck_players``). The 10,000-hand figures are in benchmarks/bench_luck.py."""

from __future__ import annotations

import dataclasses
import statistics
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner, Result

from replay.analytics import Analytics, Filters
from replay.analytics.luck import LuckSettings, luck_path
from replay.cli import app
from replay.games import get_rules
from replay.review.luck import checked_luck, game_luck, load_model, luck_weight
from replay.store import EventStore
from tests.luck_support import careless_bot, corpus, paired, play_streams

RUNNER = CliRunner()


def run(*args: object) -> Result:
    return RUNNER.invoke(app, ["--color", "never", *(str(a) for a in args)])


def heuristic_games(kind: str, games: int, players: int, seed: int = 1) -> list[list]:  # type: ignore[type-arg]
    bot = get_rules(kind).bots()["heuristic"]
    return list(corpus(kind, games, seed, players, [bot] * players))


def test_a_table_of_the_policy_has_no_luck_left() -> None:
    """Every seat the (deterministic) reference policy, no chance after the deal: the deal
    decided everything. At Hearts, where no seat has a place of its own, the luck is the whole
    relative result and nothing is left; at Hiifuu and Fou! (a seat leads) what is left is the
    value of the seat's place in the round, a small part of the results' spread."""
    rows = [r for g in heuristic_games("hearts", 2, 4) for r in game_luck(g)]
    assert len(rows) > 40 and all(r.blocks == 1 for r in rows)
    for r in rows:
        assert r.adjusted == pytest.approx(0.0, abs=1e-9), r
        assert r.luck == pytest.approx(r.relative, abs=1e-9)
    for kind, players in (("hiifuu", 4), ("fou", 5)):
        rows = [r for g in heuristic_games(kind, 2, players) for r in game_luck(g)]
        raw = statistics.pvariance([r.relative for r in rows])
        assert statistics.pvariance([r.adjusted for r in rows]) < raw / 4, kind


def test_same_bot_seats_have_adjusted_means_of_zero() -> None:
    """Four seats of the same careless bot (heuristic, random 20% of the time): each seat's
    mean luck-adjusted result is within 3 standard errors of 0 (about 140 hands here; within
    one standard error over 10,000 hands: benchmarks/bench_luck.py --part bias)."""
    bots = [careless_bot("hearts", 0.2)] * 4
    rows = [r for g in corpus("hearts", 13, 5, 4, bots) for r in game_luck(g)]
    for seat in range(4):
        adjusted = [r.adjusted for r in rows if r.seat == seat]
        error = statistics.stdev(adjusted) / len(adjusted) ** 0.5
        assert abs(statistics.fmean(adjusted)) < 3 * error, seat
        assert len(adjusted) > 120


def test_adjusted_results_tell_a_careless_seat_with_fewer_rounds() -> None:
    """A careless seat among heuristic ones at Fou!: the variance of its paired difference
    (its result minus the others' mean) falls once the luck is out, so fewer rounds tell it
    apart (1.4x over 517 rounds, and every kind: benchmarks/bench_luck.py --part variance);
    it still does worse than the others, luck or none."""
    heuristic = get_rules("fou").bots()["heuristic"]
    bots = [careless_bot("fou", 0.2)] + [heuristic] * 4
    rows = [r for g in corpus("fou", 10, 7, 5, bots) for r in game_luck(g)]
    raw, adjusted = paired(rows, 0, "relative"), paired(rows, 0, "adjusted")
    assert len(raw) > 100
    assert statistics.variance(raw) / statistics.variance(adjusted) > 1.2
    assert statistics.fmean(adjusted) < 0 and statistics.fmean(raw) < 0


def test_the_luck_is_a_function_of_the_chance_outcomes_alone() -> None:
    """Two Hearts games with the same deals (one chance stream) and other random choices by
    careless seats: the first hand's luck is the same in both, its results are not. The luck
    takes nothing of what the seats chose, so what it leaves is theirs; hence the ceiling of the
    variance reduction (docs/review.md, "Why not 3x")."""
    bots = [careless_bot("hearts", 0.5)] * 4
    first, second = (
        [r for r in game_luck(play_streams("hearts", 4, "g", "chance", f"play/{s}", bots))
         if r.unit == 1]
        for s in (1, 2)
    )  # fmt: skip
    assert [r.luck for r in first] == [r.luck for r in second]
    assert any(r.luck != 0 for r in first)
    assert [r.relative for r in first] != [r.relative for r in second]


def test_draws_are_valued_by_the_hand_model() -> None:
    """Hez2: the deal and every draw is a chance block; the shipped hand model values the
    draws, and the sum of a game's luck over the seats is 0 (relative values)."""
    assert load_model("hez2", 3).units >= 1000
    rows = [r for g in heuristic_games("hez2", 4, 3) for r in game_luck(g)]
    assert max(r.blocks for r in rows) > 5
    for game_id in {r.game_id for r in rows}:
        assert sum(r.luck for r in rows if r.game_id == game_id) == pytest.approx(0, abs=1e-6)


def test_draws_can_be_valued_by_playouts() -> None:
    """``--luck-playouts``: Hez2's draws valued by the policy's playouts instead of the hand
    model, up to the game's end (where seats have gone out, their places count as given); the
    luck still sums to 0 over the seats, and the settings say how it was computed."""
    events = heuristic_games("hez2", 1, 3, seed=2)[0]
    out = next(i for i, e in enumerate(events) if e.type == "player_out")
    assert any(e.type == "card_drawn" for e in events[out:])  # draws once a seat is out
    model, played = game_luck(events, draws=2), game_luck(events, draws=2, playouts=1)
    assert max(r.blocks for r in played) >= 5
    assert [r.luck for r in played] != [r.luck for r in model]
    assert sum(r.luck for r in played) == pytest.approx(0, abs=1e-9)
    assert LuckSettings(playouts=4).key.endswith(" playouts=4")
    assert "playouts" not in LuckSettings().key  # the stores valued before keep their key


def test_a_faulty_log_is_valued_up_to_its_fault() -> None:
    events = heuristic_games("hearts", 1, 4)[0]
    cut = [i for i, e in enumerate(events) if e.type == "play"][60]  # in the second hand
    events[cut] = dataclasses.replace(events[cut], player=(events[cut].player + 1) % 4)
    rows, fault = checked_luck(events)
    assert fault is not None and f"step {events[cut].seq}" in fault
    assert {r.unit for r in rows} == {1}


def test_reindex_stores_the_luck_incrementally(tmp_path: Path) -> None:
    store = EventStore.open(tmp_path / "store", create=True)
    store.ingest(heuristic_games("hearts", 2, 4) + heuristic_games("hez2", 2, 3))
    absent = Analytics.open(store).statistic("luck_players", Filters())
    assert absent.table.num_rows == 0 and "replay reindex STORE --luck" in (absent.note or "")
    first = run("reindex", store.path, "--luck")
    assert first.exit_code == 0, first.output
    assert "4 games valued, 0 already valued" in first.output
    rows = pq.read_table(luck_path(store)).num_rows
    store.ingest(heuristic_games("hez2", 1, 3, seed=9))
    again = run("reindex", store.path, "--luck")
    assert "1 games valued, 4 already valued" in again.output, again.output
    assert pq.read_table(luck_path(store)).num_rows == rows + 3
    files = sorted(luck_path(store).parent.glob("*.*"))
    written = [f.stat().st_mtime_ns for f in files]
    unchanged = run("reindex", store.path, "--luck")  # nothing to value or rebuild: no writes
    assert "derived tables up to date" in unchanged.output, unchanged.output
    assert "0 games valued, 5 already valued" in unchanged.output, unchanged.output
    assert [f.stat().st_mtime_ns for f in files] == written
    stat = Analytics.open(EventStore.open(store.path)).statistic("luck_players", Filters())
    table = stat.table.to_pylist()
    assert {r["kind"] for r in table} == {"hearts", "hez2"} and stat.note is None
    hearts = [r for r in table if r["kind"] == "hearts"]
    assert all(r["adjusted_mean"] == pytest.approx(0, abs=1e-9) for r in hearts)
    # Ratings on the luck-adjusted results: a table of the policy ties every game once the
    # luck is out (every adjusted result 0), so every player keeps the same rating.
    analytics = Analytics.open(EventStore.open(store.path))
    raw = analytics.ratings(Filters("hearts")).column("mu").to_pylist()
    luckless = analytics.ratings(Filters("hearts"), luck_adjusted=True).to_pylist()
    assert len(set(raw)) > 1 and len(luckless) == 4
    assert len({round(r["mu"], 9) for r in luckless}) == 1 and luckless[0]["games"] == 2


def test_the_statistics_weight_the_luck(tmp_path: Path) -> None:
    """The view luck_units weighs the luck by the least-squares slope of the relative results
    on it (per kind and seat count, luck_weight): below 1 at a table with a careless seat,
    where the policy's playout overstates what the deal does, and the adjusted results then
    vary less than with the whole luck taken out (docs/review.md, "Luck")."""
    heuristic = get_rules("hearts").bots()["heuristic"]
    store = EventStore.open(tmp_path / "store", create=True)
    store.ingest(list(corpus("hearts", 3, 5, 4, [careless_bot("hearts", 0.3)] + [heuristic] * 3)))
    assert run("reindex", store.path, "--luck").exit_code == 0
    analytics = Analytics.open(EventStore.open(store.path))
    units = analytics.sql("SELECT relative, luck, weight, adjusted FROM luck_units").to_pylist()
    relative, luck = [r["relative"] for r in units], [r["luck"] for r in units]
    weight = luck_weight(relative, luck)
    assert 0.2 < weight < 0.8 and len(units) > 100
    for r in units:
        assert r["weight"] == pytest.approx(weight, abs=1e-9)
        assert r["adjusted"] == pytest.approx(r["relative"] - weight * r["luck"], abs=1e-9)
    whole = [x - y for x, y in zip(relative, luck, strict=True)]
    assert statistics.variance([r["adjusted"] for r in units]) < statistics.variance(whole)
