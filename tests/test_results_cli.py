"""``replay games --format json`` gives each game's result as the rules compute it
(``recomputed``, docs/schemas/cli-games.json): for a clean simulated game of every kind it
equals what the log records, and where a log records a wrong result the two differ."""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from replay.engine.simulate import simulate_game
from replay.games import get_rules
from replay.model.events import Event
from replay.store.jsonl import event_to_line
from tests.store_helpers import run_cli

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[1] / "docs" / "schemas" / "cli-games.json").read_text()
)
#: Every kind, Hez2 with and without a duel after the first out, Fou! with two Fools.
KINDS = [("hearts", 4), ("hez2", 2), ("hez2", 4), ("hiifuu", 4), ("fou", 4), ("fou", 7)]


def _games(tmp_path: Path, games: list[list[Event]]) -> list[dict[str, Any]]:
    path = tmp_path / "games.jsonl"
    path.write_text("".join(event_to_line(e) + "\n" for g in games for e in g), encoding="utf-8")
    result = run_cli("games", str(path), "--format", "json")
    assert result.exit_code == 0, result.output
    rows: list[dict[str, Any]] = json.loads(result.stdout)
    jsonschema.validate(rows, SCHEMA)
    return rows


def recorded(events: list[Event]) -> dict[str, Any]:
    """The result a log records: ``game_end``'s seats; each seat's last ``round_scored``
    total; in Hez2 the places (``player_out``, ``placed``), the payouts and the net winnings
    (payout less stake)."""
    setup = json.loads(events[0].data or "{}")
    n = int(setup["players"])
    end = next(e for e in events if e.type == "game_end")
    out: dict[str, Any] = {"winners": list(end.values or ())}
    if events[0].kind == "hez2":
        places = sorted((e.amount, e.player) for e in events if e.type in ("player_out", "placed"))
        payouts = [0] * n
        for e in events:
            if e.type == "payout" and e.player is not None:
                payouts[e.player] = int(e.amount or 0)
        stakes = setup.get("stakes") or [None] * n
        net = [paid - (stake or 0) for paid, stake in zip(payouts, stakes, strict=True)]
        return {**out, "places": [seat for _, seat in places], "payouts": payouts, "totals": net}
    totals = [0] * n
    for e in events:
        if e.type == "round_scored" and e.player is not None:
            totals[e.player] = int(e.total or 0)
    return {**out, "totals": totals}


def test_the_recomputed_result_of_each_kind_equals_the_recorded_one(tmp_path: Path) -> None:
    games = {
        f"{kind}-{n}": simulate_game(get_rules(kind), f"{kind}-{n}", players=n, seed=11)
        for kind, n in KINDS
    }
    rows = {r["game_id"]: r for r in _games(tmp_path, list(games.values()))}
    assert sorted(rows) == sorted(games)
    for game_id, events in games.items():
        got = rows[game_id]["recomputed"]
        want = recorded(events)
        assert {k: got[k] for k in want} == want, game_id
        assert got["over"] is True and got["seq"] == len(events) - 1
        assert rows[game_id]["result"] == got["winners"]  # the recorded game_end
        assert ("places" in got) == (events[0].kind == "hez2")


def test_a_wrong_recorded_result_shows_beside_the_rules_one(tmp_path: Path) -> None:
    hearts = simulate_game(get_rules("hearts"), "hearts-wrong", players=4, seed=11)
    hez2 = simulate_game(get_rules("hez2"), "hez2-wrong", players=3, seed=11)
    right = {"hearts-wrong": recorded(hearts), "hez2-wrong": recorded(hez2)}
    loser = next(s for s in range(4) if s not in right["hearts-wrong"]["winners"])
    last_score = max(i for i, e in enumerate(hearts) if e.type == "round_scored")
    hearts[last_score] = dataclasses.replace(
        hearts[last_score], total=int(hearts[last_score].total or 0) + 100
    )
    hearts[-1] = dataclasses.replace(hearts[-1], values=(loser,))
    paid = next(i for i, e in enumerate(hez2) if e.type == "payout" and e.amount)
    hez2[paid] = dataclasses.replace(hez2[paid], amount=int(hez2[paid].amount or 0) + 7)
    rows = {r["game_id"]: r for r in _games(tmp_path, [hearts, hez2])}
    wrong = rows["hearts-wrong"]
    assert wrong["result"] == [loser] != wrong["recomputed"]["winners"]
    assert wrong["recomputed"]["winners"] == right["hearts-wrong"]["winners"]
    assert wrong["recomputed"]["totals"] == right["hearts-wrong"]["totals"]
    assert recorded(hearts)["totals"] != wrong["recomputed"]["totals"]
    duel = rows["hez2-wrong"]["recomputed"]
    assert duel["payouts"] == right["hez2-wrong"]["payouts"] != recorded(hez2)["payouts"]


def _hearts_row(tmp_path: Path) -> dict[str, Any]:
    events = simulate_game(get_rules("hearts"), "h", players=4, seed=1)
    return _games(tmp_path, [events])[0]


@pytest.mark.parametrize(
    "damage",
    [
        lambda r: r.pop("winners"),
        lambda r: r.update(totals=["13"]),
        lambda r: r.update(winners=[-1]),
        lambda r: r.update(places=[0, 1, 2, 3]),  # Hez2's keys in a Hearts result
        lambda r: r.update(surprise=1),
        lambda r: r.update(over="yes"),
    ],
)
def test_the_schema_gives_the_recomputed_result_its_shape(tmp_path: Path, damage: Any) -> None:
    row = _hearts_row(tmp_path)
    bad = copy.deepcopy(row)
    damage(bad["recomputed"])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate([bad], SCHEMA)
    unplayable = {**row, "recomputed": {"over": False, "seq": None, "error": "LOG-SETUP: ..."}}
    jsonschema.validate([unplayable], SCHEMA)
    hez2 = {**row, "kind": "hez2"}  # a Hez2 result without its places and payouts
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate([hez2], SCHEMA)
