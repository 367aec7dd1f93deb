"""sample_logs/store and sample_logs/jsonl: the club's season of replay/corpus/season.py."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from replay.audit import audit_many
from replay.corpus.samples import build_season, jsonl_files
from replay.corpus.season import BOTS, HUMANS, plan, season_games
from replay.games import available_kinds, get_rules
from replay.model.events import Event, events_to_table
from replay.store import EventStore
from replay.store.jsonl import line_to_event

SAMPLES = Path(__file__).parent.parent / "sample_logs"


@pytest.fixture(scope="module")
def games() -> list[list[Event]]:
    return list(season_games())


@pytest.fixture(scope="module")
def setups(games: list[list[Event]]) -> list[dict[str, Any]]:
    """Each game's game_start data, with its game id, kind and start time."""
    return [
        {**json.loads(g[0].data or "{}"), "game_id": g[0].game_id, "kind": g[0].kind, "ts": g[0].ts}
        for g in games
    ]


def sorted_table(table: pa.Table) -> pa.Table:
    return table.sort_by([("game_id", "ascending"), ("seq", "ascending")])


def stored_table(path: Path) -> pa.Table:
    store = EventStore.open(path)
    table = pa.Table.from_batches(list(store.scan()))
    assert not store.problems
    return sorted_table(table)


def season_table(games: list[list[Event]]) -> pa.Table:
    return sorted_table(events_to_table([e for g in games for e in g]))


@pytest.mark.slow
def test_the_season_is_deterministic(games: list[list[Event]]) -> None:
    assert plan() == plan()
    assert list(season_games()) == games


def test_the_committed_store_is_the_season(games: list[list[Event]]) -> None:
    stored = stored_table(SAMPLES / "store")
    assert stored.equals(season_table(games).cast(stored.schema)), "run `make samples`"


@pytest.mark.slow
def test_build_season_writes_the_store_and_the_jsonl_files(
    games: list[list[Event]], tmp_path: Path
) -> None:
    assert build_season(tmp_path, available_kinds()) == len(games)
    assert stored_table(tmp_path / "store").equals(stored_table(SAMPLES / "store"))
    written = sorted(p.name for p in (tmp_path / "jsonl").iterdir())
    assert written == sorted(p.name for p in (SAMPLES / "jsonl").iterdir())
    for name in written:
        assert (tmp_path / "jsonl" / name).read_bytes() == (SAMPLES / "jsonl" / name).read_bytes()


def test_jsonl_files_hold_season_games_of_every_kind_and_player_count(
    games: list[list[Event]],
) -> None:
    by_id = {g[0].game_id: g for g in games}
    files = jsonl_files(games)
    wanted = {
        f"{kind}{n}"
        for kind in available_kinds()
        for n in range(get_rules(kind).min_players, get_rules(kind).max_players + 1)
    }
    assert wanted <= set(files)
    for name, events in files.items():
        lines = (SAMPLES / "jsonl" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
        assert [line_to_event(line) for line in lines] == events
        ids = sorted({e.game_id for e in events})
        assert events == [e for i in ids for e in by_id[i]]
    night = [name for name in files if name.startswith("night-")]
    assert len(night) == 1
    assert len({e.game_id for e in files[night[0]]}) >= 3


def test_every_sample_game_audits_clean() -> None:
    report = audit_many(stored_table(SAMPLES / "store"))
    assert len(report.games) >= 150
    assert report.exit_code == 0
    assert [g.game_id for g in report.games if not g.clean] == []


def test_a_few_dozen_named_players_humans_and_bots_of_both_kinds(
    setups: list[dict[str, Any]],
) -> None:
    seated = Counter(
        (name, bot) for s in setups for name, bot in zip(s["names"], s["bots"], strict=True)
    )
    humans = {name for name, bot in seated if not bot}
    bots = {name for name, bot in seated if bot}
    assert len(humans) >= 25 and len(bots) >= 4
    assert not humans & bots
    assert not any(re.fullmatch(r"p\d+|bot\d+", name) for name in humans | bots)
    assert humans == {m.name for m in HUMANS}
    assert bots == {m.name for m in BOTS}
    # Bots of both simulator strategies sit at the tables, and humans too are played by both.
    strategies = Counter((m.bot, m.strategy) for t in plan() for m in t.seats)
    assert {(b, s) for b in (True, False) for s in ("random", "heuristic")} <= set(strategies)
    assert min(seated.values()) >= 3  # latecomers too


def test_tables_of_changing_membership(setups: list[dict[str, Any]]) -> None:
    line_ups = [frozenset(s["names"]) for s in setups]
    assert len(set(line_ups)) >= 0.95 * len(line_ups)
    met = Counter(pair for names in line_ups for pair in combinations(sorted(names), 2))
    regular = "Ada"
    assert len({p for pair in met if regular in pair for p in pair} - {regular}) >= 20
    # Members who join late or leave early play only in their weeks.
    first_day = min(s["ts"] for s in setups)
    for member in HUMANS:
        weeks = {(s["ts"] - first_day).days // 7 for s in setups if member.name in s["names"]}
        assert weeks, member.name
        assert member.weeks[0] <= min(weeks) and max(weeks) < member.weeks[1]


def test_dates_span_several_months_and_ids_read_well(setups: list[dict[str, Any]]) -> None:
    days = sorted({s["ts"].date() for s in setups})
    assert len(days) >= 30
    assert (days[-1] - days[0]).days >= 120
    assert len({d.month for d in days}) >= 4
    for s in setups:
        assert s["ts"].tzinfo is not None
        day = s["ts"].date().isoformat()
        assert re.fullmatch(rf"{s['kind']}-{day}-t\d", s["game_id"]), s["game_id"]
    assert all(s["ts"].time() >= dt.time(19, 0) for s in setups)


def test_every_kind_and_player_count_is_played(setups: list[dict[str, Any]]) -> None:
    played = Counter((s["kind"], s["players"]) for s in setups)
    for kind in available_kinds():
        rules = get_rules(kind)
        for n in range(rules.min_players, rules.max_players + 1):
            assert played[kind, n] >= 5, (kind, n)


def test_stakes_at_some_hez2_tables(setups: list[dict[str, Any]]) -> None:
    hez2 = [s for s in setups if s["kind"] == "hez2"]
    staked = [s for s in hez2 if any(s["stakes"])]
    assert 8 <= len(staked) <= len(hez2) - 8
    several = [s for s in staked if sum(x is not None for x in s["stakes"]) >= 2]
    assert len(several) >= 4  # a pot shared by rank
    amounts = {x for s in staked for x in s["stakes"] if x is not None}
    assert len(amounts) >= 3
    for s in staked:
        assert all(x is None for x, bot in zip(s["stakes"], s["bots"], strict=True) if bot)


def test_hiifuu_is_played_in_both_variants(setups: list[dict[str, Any]]) -> None:
    variants = Counter(s["variant"] for s in setups if s["kind"] == "hiifuu")
    assert variants["normal"] >= 5 and variants["random-tokens"] >= 5
