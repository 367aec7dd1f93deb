"""Every bad-input case of the store: a clear rejection naming file, game, seq and rule, and the
good games of the same batch still stored."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pyarrow as pa
import pytest

from replay.events import Event, events_to_table
from replay.store import EventStore
from replay.store.jsonl import event_to_line, read_jsonl
from tests.store_helpers import hearts_games


@pytest.fixture
def store(tmp_path: Path) -> EventStore:
    return EventStore.open(tmp_path / "store", create=True)


def _renumber(events: list[Event]) -> list[Event]:
    return [e.at(i) for i, e in enumerate(events)]


def _bad_cases() -> dict[str, tuple[list[Event], str, int | None]]:
    g = hearts_games(1, prefix="bad")[0]
    return {
        "gap": (g[:5] + g[6:], "LOG-SEQUENCE", 5),
        "duplicate": ([*g[:5], g[4], *g[5:]], "LOG-SEQUENCE", 4),
        "after end": ([*g, replace(g[-1], seq=len(g))], "LOG-AFTER-END", len(g)),
        "unknown type": ([*g[:3], replace(g[3], type="bluff"), *g[4:]], "LOG-ORDER", 3),
        "unknown card": ([*g[:9], replace(g[9], card="1Z"), *g[10:]], "LOG-CARD", 9),
        "unknown card in list": (
            [*g[:1], replace(g[1], cards=("2C", "XX")), *g[2:]],
            "LOG-CARD",
            1,
        ),
        "unknown kind": ([replace(e, kind="poker") for e in g], "LOG-SETUP", 0),
        "no game_start": (_renumber(g[1:]), "LOG-SETUP", 0),
        "two kinds": ([*g[:7], replace(g[7], kind="hez2"), *g[8:]], "LOG-SETUP", 7),
    }


@pytest.mark.parametrize("case", list(_bad_cases()))
def test_bad_game_is_rejected_and_good_games_are_stored(store: EventStore, case: str) -> None:
    bad, rule, seq = _bad_cases()[case]
    good = hearts_games(2)
    report = store.ingest([good[0], bad, good[1]], source="batch.parquet")
    assert sorted(report.ingested) == ["h-000", "h-001"]
    (rejection,) = report.rejected
    assert (rejection.rule, rejection.game_id, rejection.seq) == (rule, "bad-000", seq)
    assert str(rejection).startswith(f"batch.parquet: game bad-000 seq {seq}: ")
    assert [g.game_id for g in store.list_games()] == ["h-000", "h-001"]


def test_wrong_schema_rejects_the_input_as_a_whole(store: EventStore) -> None:
    game = hearts_games(1)[0]
    table = events_to_table(game).append_column("bogus", pa.nulls(len(game), pa.int8()))
    report = store.ingest(table, source="x.parquet")
    (rejection,) = report.rejected
    assert rejection.rule == "STORE-SCHEMA" and "unknown column 'bogus'" in rejection.reason
    wrong_type = events_to_table(game).set_column(8, "card", pa.array([[1]] * len(game)))
    assert store.ingest(wrong_type).rejected[0].rule == "STORE-SCHEMA"
    assert store.list_games() == []


def test_malformed_json_lines_are_reported_by_number_and_the_rest_read(tmp_path: Path) -> None:
    game = hearts_games(1)[0]
    lines = [event_to_line(e) for e in game]
    lines[2] = lines[2][:-5]  # truncated line
    lines[4] = '{"game_id":"h-000","seq":"four"}'
    lines[6] = lines[6].replace('"kind"', '"colour"')
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(lines) + "\n")
    read = read_jsonl(path)
    assert [(r.line, r.rule) for r in read.rejected] == [
        (3, "STORE-JSON"),
        (5, "STORE-JSON"),
        (7, "STORE-JSON"),
    ]
    assert "in.jsonl:5: game h-000" in str(read.rejected[1])
    assert "unknown field 'colour'" in str(read.rejected[2])
    assert read.table.num_rows == len(game) - 3


def test_corrupt_parquet_file_is_reported_other_games_still_read(store: EventStore) -> None:
    store.ingest(hearts_games(2)[:1])
    store.ingest(hearts_games(2)[1:])
    victim = sorted(store.files(), key=lambda f: f.min_game or "")[0]
    data = Path(victim.path).read_bytes()
    Path(victim.path).write_bytes(data[: len(data) // 2])  # truncated
    assert [g.game_id for g in store.list_games()] == ["h-001"]
    assert len(store.problems) == 1 and store.problems[0].rule == "STORE-CORRUPT"
    assert victim.path in str(store.problems[0])
    assert len(list(store.scan())) >= 1


def test_garbage_parquet_with_right_size_is_reported(store: EventStore) -> None:
    store.ingest(hearts_games(2)[:1])
    store.ingest(hearts_games(2)[1:])
    victim = sorted(store.files(), key=lambda f: f.min_game or "")[1]
    size = Path(victim.path).stat().st_size
    Path(victim.path).write_bytes(b"\0" * size)
    assert [g.game_id for g in store.list_games()] == ["h-000"]
    assert store.problems and store.problems[0].rule == "STORE-CORRUPT"
