"""Hez2 reviewed in its own unit: the place, and at a staked table the payout (HEZ2-STAKES):
each rollout's payout is the seat's share of the pot for the place it reached, every output
format carries the expected payouts and the payout loss of the seats that staked, and a seat
without a stake gets none."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from pathlib import Path

import jsonschema
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from replay.analytics import Analytics, Filters
from replay.analytics.reviews import stored_reviews, update_reviews
from replay.cli import app
from replay.engine.simulate import simulate_game
from replay.games import get_rules
from replay.games.hidden import sampler_for
from replay.model.events import Event
from replay.review.engine import Judge, Settings, _positions
from replay.review.rollout import Rollouts
from replay.store import EventStore
from replay.store.jsonl import event_to_line

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "cli-review.json").read_text(encoding="utf-8"))
HEZ2 = get_rules("hez2")
#: Three staked players of 100 and a bot: a pot of 300 shared 70/30 (HEZ2-STAKES).
TABLE = {"bots": [False, False, False, True], "stakes": [100, 100, 100, None]}
SHARES = (210, 90, 0)  # by rank among the staked players


def staked_game(seed: int = 2) -> list[Event]:
    return simulate_game(HEZ2, "staked", players=4, seed=seed, bots=["heuristic"], options=TABLE)


def test_a_rollouts_payout_is_the_share_of_the_place_it_reaches() -> None:
    events = staked_game()
    state = HEZ2.replay(events[:30], check=False)
    rollouts = Rollouts(HEZ2)
    for seat in range(4):
        for k in range(6):
            place = rollouts.value(state.clone(), seat, random.Random(k))
            again, payout = rollouts.value_and_payout(state.clone(), seat, random.Random(k))
            assert again == place  # the same stream, the same place
            if seat == 3:
                assert payout is None  # the bot staked nothing
                continue
            assert payout in SHARES
            # the staked players ahead of the seat: its place less the bot if the bot is ahead
            assert place in (SHARES.index(payout) + 1, SHARES.index(payout) + 2)


def test_a_decisions_expected_payout_is_the_mean_of_its_rollouts() -> None:
    events = staked_game()
    judge = Judge(HEZ2, Settings(samples=6, max_alternatives=3), sampler_for("hez2"))
    decisions = [p for p in _positions(HEZ2, events, None) if events[p[0]].player == 0]
    i, state, unit_state, unit_index = next(
        p for p in decisions if len(HEZ2.legal_decisions(p[1], 0)) > 1
    )
    review = judge.review(events, i, state, unit_state, unit_index)
    assert review.payout_loss is not None
    for alternative in review.alternatives:
        assert alternative.payout is not None
        assert 0 <= alternative.payout.mean <= SHARES[0]
        assert alternative.payout.n == alternative.value.n


def run(*args: object) -> str:
    result = CliRunner().invoke(app, ["--color", "never", "review", *(str(a) for a in args)])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_replay_review_gives_the_payout_in_every_format(tmp_path: Path) -> None:
    log = tmp_path / "staked.jsonl"
    log.write_text("\n".join(event_to_line(e) for e in staked_game()[:40]), encoding="utf-8")
    cheap = (log, "-n", "3", "--alternatives", "3", "--seat", "0", "--seat", "3")
    data = json.loads(run(*cheap, "-f", "json"))
    jsonschema.validate(data, SCHEMA)
    (game,) = data["games"]
    assert game["paid"] and game["measure"] == "place"
    staked = [d for d in game["decisions"] if d["seat"] == 0]
    unstaked = [d for d in game["decisions"] if d["seat"] == 3]
    assert staked and unstaked
    for d in staked:
        assert d["payout_loss_low"] <= d["payout_loss"] <= d["payout_loss_high"]
        assert all(0 <= a["payout"]["mean"] <= SHARES[0] for a in d["alternatives"])
    for d in unstaked:
        assert d["payout_loss"] is None and all(a["payout"] is None for a in d["alternatives"])
    seats = {s["seat"]: s["mean_payout_loss"] for s in game["seats"]}
    assert seats[0] is not None and seats[3] is None
    rows = list(csv.DictReader(io.StringIO(run(*cheap, "-f", "csv"))))
    assert [r["payout_loss"] != "" for r in rows] == [d["seat"] == 0 for d in game["decisions"]]
    lines = [json.loads(line) for line in run(*cheap, "-f", "jsonl").splitlines()]
    assert [row["payout_loss"] for row in lines] == [d["payout_loss"] for d in game["decisions"]]
    assert "payout loss" in run(*cheap) and "payout in minor units" in run(*cheap)
    for fmt in ("markdown", "html"):
        out = run(*cheap, "-f", fmt)
        assert "mean payout loss [95%]" in out and " payout " in out


def test_the_html_replay_gives_each_alternatives_payout_where_the_seat_is_paid(
    tmp_path: Path,
) -> None:
    log, page = tmp_path / "staked.jsonl", tmp_path / "staked.html"
    log.write_text("\n".join(event_to_line(e) for e in staked_game()[:30]), encoding="utf-8")
    result = CliRunner().invoke(
        app, ["export", str(log), "-f", "html", "--review", "--samples", "2", "-o", str(page)]
    )
    assert result.exit_code == 0, result.output
    found = re.search(r'id="replay-data">(.*?)</script>', page.read_text("utf-8"), re.S)
    assert found is not None
    review = json.loads(found.group(1))["review"]
    assert review["columns"] == ["", "move", "expected [95%]", "expected payout [95%]"]
    seats = {d["seat"]: d for d in review["decisions"].values()}
    assert {0, 3} <= set(seats)
    assert all(len(row) == 4 for d in seats.values() for row in d["alternatives"])
    assert all(row[3] != "-" for row in seats[0]["alternatives"])  # staked: a payout
    assert all(row[3] == "-" for row in seats[3]["alternatives"])  # the bot staked nothing


def test_a_table_without_stakes_gives_no_payout() -> None:
    table = {"bots": [True] * 4}  # bots never stake
    events = simulate_game(HEZ2, "bots", players=4, seed=2, bots=["heuristic"], options=table)
    judge = Judge(HEZ2, Settings(samples=2, max_alternatives=2), sampler_for("hez2"))
    reviewed = 0
    for i, state, unit_state, unit_index in _positions(HEZ2, events[:40], None):
        seat = events[i].player
        if seat is None or len(HEZ2.legal_decisions(state, seat)) < 2:
            continue
        review = judge.review(events, i, state, unit_state, unit_index)
        assert review.payout_loss is None
        assert all(a.payout is None for a in review.alternatives)
        reviewed += 1
    assert reviewed


def test_the_stored_reviews_carry_the_payouts(tmp_path: Path) -> None:
    """``replay reindex --reviews``: each decision's payout loss in ``reviews`` and
    ``decisions``, each player's mean payout loss in ``review_summary`` and the statistic
    ``review_players``; null for the seat without a stake."""
    store = EventStore.open(tmp_path / "store", create=True)
    store.ingest([staked_game()[:40]])
    update_reviews(store, Settings(samples=3, max_alternatives=3))
    analytics = Analytics.open(EventStore.open(store.path))
    rows = analytics.sql("SELECT * FROM decisions ORDER BY seq").to_pylist()
    stored = pq.read_table(stored_reviews(store)["reviews"]).to_pylist()
    assert [r["payout_loss"] for r in rows] == [r["payout_loss"] for r in stored]
    assert {r["seat"] for r in rows} == {0, 1, 2, 3}
    for r in rows:
        if r["seat"] == 3:  # the bot staked nothing
            assert r["payout_loss"] is r["payout_loss_low"] is r["payout_loss_high"] is None
        else:
            assert r["payout_loss_low"] <= r["payout_loss"] <= r["payout_loss_high"]
    seats = {r["player"]: r["seat"] for r in rows}
    summary = analytics.sql("SELECT * FROM review_summary").to_pylist()
    players = analytics.statistic("review_players", Filters()).table.to_pylist()
    for table in (summary, players):
        assert sorted(seats[r["player"]] for r in table) == [0, 1, 2, 3]
        for r in table:
            mine = [d["payout_loss"] for d in rows if d["player"] == r["player"]]
            if seats[r["player"]] == 3:
                assert r["paid_decisions"] == 0 and r["mean_payout_loss"] is None
                continue
            assert r["paid_decisions"] == len(mine)
            assert r["mean_payout_loss"] == pytest.approx(sum(mine) / len(mine))
            assert r["payout_loss_low"] <= r["mean_payout_loss"] <= r["payout_loss_high"]
