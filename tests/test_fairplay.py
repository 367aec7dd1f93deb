"""The fair-play signal (docs/review.md, "Fair play"): a seat that sees every hand is flagged
within a few Hearts games, honest seats of several strengths are not; ``replay fairplay`` and
``replay reindex --fairplay`` with the statistic ``fairplay_players``. The false-positive rate
over repeated corpora is measured in benchmarks/bench_fairplay.py."""

from __future__ import annotations

import json
import math
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner, Result

from replay.analytics import Analytics, Filters
from replay.cli import app
from replay.corpus.samples import write_jsonl
from replay.engine.simulate import simulate_game
from replay.games import get_rules
from replay.model.events import Event
from replay.review.fairplay import game_plays, signals, upper_tail
from replay.store import EventStore
from tests.fairplay_support import cheater
from tests.luck_support import careless_bot, corpus

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "cli-fairplay.json").read_text(encoding="utf-8"))
RUNNER = CliRunner()
HEURISTIC = get_rules("hearts").bots()["heuristic"]
RANDOM = get_rules("hearts").bots()["random"]


def games(store: EventStore) -> list[list[Event]]:
    return [store.load_game(str(g)) for g in store.list_games_table().column("game_id").to_pylist()]


def run(*args: object) -> Result:
    return RUNNER.invoke(app, ["--color", "never", *(str(a) for a in args)])


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> EventStore:
    """Four Hearts games (about 40 hands): seat 0 sees every hand, seat 2 is careless."""
    store = EventStore.open(tmp_path_factory.mktemp("fairplay") / "store", create=True)
    bots = [cheater("hearts"), HEURISTIC, careless_bot("hearts", 0.2), HEURISTIC]
    store.ingest(list(corpus("hearts", 4, 1, 4, bots)))
    return store


def test_the_seat_that_sees_every_hand_is_flagged_within_four_games(mixed: EventStore) -> None:
    plays = [p for g in games(mixed) for p in game_plays(g)]
    found = {s.player: s for s in signals(plays)}
    assert found["p0"].flagged and found["p0"].p_value < 1e-9
    assert found["p0"].hits == found["p0"].decisions >= 8
    assert not any(found[p].flagged for p in ("p1", "p2", "p3"))
    assert found["p2"].expected > 0 and found["p1"].expected == 0  # the policy never hits


def test_honest_seats_of_several_strengths_are_not_flagged() -> None:
    """Careless seats (random 10% and 40% of the time) and a random seat, two corpora."""
    bots = [careless_bot("hearts", 0.1), careless_bot("hearts", 0.4), RANDOM, HEURISTIC]
    for seed in (21, 22):
        plays = [p for g in corpus("hearts", 4, seed, 4, bots) for p in game_plays(g)]
        found = signals(plays)
        assert sum(s.decisions for s in found) >= 30
        assert not any(s.flagged for s in found), found
        assert all(s.p_value > 0.01 for s in found)


def test_the_p_value_is_the_exact_tail() -> None:
    """Equal chances: the binomial tail; and no hit is never a signal."""
    n, p, k = 20, 0.1, 6
    binomial = sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k, n + 1))
    assert upper_tail([p] * n, k) == pytest.approx(binomial, rel=1e-12)
    assert upper_tail([0.3, 0.5], 0) == 1.0
    assert upper_tail([0.0] * 5, 1) == 0.0


def test_fairplay_cli_follows_its_schema_and_exits_1_on_a_flag(mixed: EventStore) -> None:
    result = run("fairplay", mixed.path, "--format", "json")
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    assert [p["player"] for p in data["players"] if p["flagged"]] == ["p0"]
    assert "never proof" in data["caveat"]
    one = run("fairplay", mixed.path, "--player", "p2")
    assert one.exit_code == 0 and "p2" in one.stdout and "p0" not in one.stdout
    assert "never proof" in one.stdout


def test_fairplay_cli_names_a_game_it_cannot_judge(tmp_path: Path) -> None:
    log = tmp_path / "hez2.jsonl"
    write_jsonl(log, simulate_game(get_rules("hez2"), "h", players=3, seed=1, bots=["heuristic"]))
    result = run("fairplay", log)
    assert result.exit_code == 2
    assert "game h: no fair-play signal for hez2" in result.output
    assert "Traceback" not in result.output


def test_reindex_stores_the_counts_and_the_statistic_flags(mixed: EventStore) -> None:
    absent = Analytics.open(mixed).statistic("fairplay_players", Filters())
    assert "replay reindex STORE --fairplay" in (absent.note or "")
    result = run("reindex", mixed.path, "--fairplay")
    assert result.exit_code == 0 and "4 games judged" in result.output, result.output
    stat = Analytics.open(EventStore.open(mixed.path)).statistic("fairplay_players", Filters())
    rows = {r["player"]: r for r in stat.table.to_pylist()}
    assert rows["p0"]["past_threshold"] and not rows["p2"]["past_threshold"]
    cli = {p.player: p for p in signals(p for g in games(mixed) for p in game_plays(g))}
    for player, row in rows.items():  # the SQL's counts are the library's
        assert row["best_played"] == cli[player].hits
        assert row["expected"] == pytest.approx(cli[player].expected)
