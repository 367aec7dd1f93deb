"""Every bad-input case of the store: a clear rejection naming file, game, seq and rule, and the
good games of the same batch still stored."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pyarrow as pa
import pytest

from replay.model.events import Event, events_to_table
from replay.store import EventStore
from replay.store.jsonl import JsonlRead, event_to_line, read_jsonl
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
        "data not JSON": ([replace(g[0], data="not json {"), *g[1:]], "STORE-SCHEMA", 0),
        "data a JSON list": ([replace(g[0], data="[1]"), *g[1:]], "STORE-SCHEMA", 0),
        "data nested too deep": (
            [replace(g[0], data="[" * 100_000 + "]" * 100_000), *g[1:]],
            "STORE-SCHEMA",
            0,
        ),
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


_LINE = '{"game_id":"g","seq":1,"kind":"hearts","type":"play"%s}'
# Extra fields of one line, and whether the line must be rejected.
_LINE_CASES = {
    "plain": ("", False),
    "ts with offset": (',"ts":"2024-05-01T12:00:00+02:00"', False),
    "ts without ms": (',"ts":"2024-05-01T12:00:00Z"', False),
    "ts without zone": (',"ts":"2024-05-01T12:00:00"', True),
    "ts date only": (',"ts":"2024-05-01"', True),
    "ts in microseconds": (',"ts":"2024-05-01T12:00:00.123456Z"', True),
    "ts as number": (',"ts":5', True),
    "ts in year 0": (',"ts":"0000-01-01T00:00:00Z"', True),
    "ts in year 1": (',"ts":"0001-01-01T00:00:00Z"', False),
    "ts in year 9999": (',"ts":"9999-12-31T23:59:59.999Z"', False),
    "float for int": (',"round":1.0', True),
    "exponent for int": (',"round":1e2', True),
    "bool for int": (',"player":true', True),
    "string for int": (',"player":"1"', True),
    "int out of range": (',"player":300', True),
    "number for string": (',"card":5', True),
    "list for string": (',"card":["2C"]', True),
    "string for list": (',"cards":"2C"', True),
    "null list item": (',"cards":["2C",null]', True),
    "null int item": (',"values":[1,null]', True),
    "object for string": (',"data":{"a":1}', True),
    "duplicate field": (',"round":1,"round":2', True),
    "unknown field": (',"colour":"red"', True),
    "explicit null": (',"card":null', False),
    "lone surrogate": (',"card":"\\ud800"', True),
}


@pytest.mark.parametrize("case", list(_LINE_CASES))
def test_fast_and_slow_paths_judge_a_line_alike(tmp_path: Path, case: str) -> None:
    """The whole-file parse (all lines good so far) and the line-by-line one (another line is
    malformed) accept and reject the same lines: no coercion slips through either."""
    extra, bad = _LINE_CASES[case]
    path = tmp_path / "in.jsonl"
    for first in ('{"game_id":"g","seq":0,"kind":"hearts","type":"game_start"}', "{not json"):
        path.write_text(first + "\n" + _LINE % extra + "\n")
        read = read_jsonl(path)
        assert any(r.line == 2 for r in read.rejected) is bad, (first, read.rejected)
        assert read.table.num_rows == (first != "{not json") + (not bad)


def test_a_line_only_arrow_refuses_is_named_by_game_and_seq(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(_LINE % ',"card":"\\ud800"' + "\n")  # valid JSON, not valid UTF-8 text
    (rejection,) = read_jsonl(path).rejected
    assert str(rejection).startswith(f"{path}:1: game g seq 1: JSON parse error: The surrogate")


def test_ts_offset_is_converted_to_utc(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(_LINE % ',"ts":"2024-05-01T12:00:00.5+02:00"' + "\n")
    (row,) = read_jsonl(path).table.to_pylist()
    assert row["ts"].isoformat() == "2024-05-01T10:00:00.500000+00:00"


def _clean_lines() -> list[str]:
    return [event_to_line(e) for game in hearts_games(2) for e in game]


@pytest.mark.parametrize("form", ["bom", "crlf", "blank lines", "no final newline"])
def test_harmless_file_forms_read_like_the_plain_file(tmp_path: Path, form: str) -> None:
    lines = _clean_lines()
    text = "\n".join(lines) + "\n"
    data = {
        "bom": b"\xef\xbb\xbf" + text.encode(),
        "crlf": text.replace("\n", "\r\n").encode(),
        "blank lines": ("\n".join(lines[:5]) + "\n\n  \t\n" + "\n".join(lines[5:])).encode(),
        "no final newline": text.rstrip("\n").encode(),
    }[form]
    path = tmp_path / "in.jsonl"
    path.write_bytes(data)
    read = read_jsonl(path)
    assert read.rejected == []
    assert read.table.equals(read_jsonl_text(tmp_path, text).table)


@pytest.mark.parametrize("form", ["object over lines", "two objects a line", "cr line ends"])
def test_a_file_not_one_object_a_line_is_judged_line_by_line(tmp_path: Path, form: str) -> None:
    """Arrow's reader alone would take these whole; the line-by-line reading rejects the lines
    that are not one object each, with or without another bad line in the file."""
    lines = _clean_lines()
    pretty = json.dumps(json.loads(lines[3]), indent=1)
    text = {
        "object over lines": "\n".join([*lines[:3], pretty, *lines[4:]]) + "\n",
        "two objects a line": "\n".join([*lines[:3], lines[3] + lines[4], *lines[5:]]) + "\n",
        "cr line ends": "\r".join(lines) + "\r",
    }[form]
    for tail in ("", "{not json\n"):
        path = tmp_path / "in.jsonl"
        path.write_text(text + tail)
        read = read_jsonl(path)
        assert read.rejected, (form, tail)
        assert read.table.num_rows < len(lines)
        kept = {(row["game_id"], row["seq"]) for row in read.table.to_pylist()}
        assert len(kept) == read.table.num_rows


def test_a_ts_outside_years_1_to_9999_is_rejected_at_ingest(store: EventStore) -> None:
    good, bad = hearts_games(2)
    table = events_to_table(good + bad)
    ms = table.column("ts").cast(pa.int64()).to_pylist()
    ms[len(good) + 2] = -62_135_596_800_001  # one ms before year 1
    table = table.set_column(
        table.schema.get_field_index("ts"),
        table.schema.field("ts"),
        pa.array(ms, pa.int64()).cast(table.schema.field("ts").type),
    )
    report = store.ingest(table, source="b.parquet")
    (rejection,) = report.rejected
    assert (rejection.rule, rejection.game_id, rejection.seq) == ("STORE-SCHEMA", "h-001", 2)
    assert "outside years 1 to 9999" in rejection.reason
    assert [g.game_id for g in store.list_games()] == ["h-000"]


def read_jsonl_text(tmp_path: Path, text: str) -> JsonlRead:
    plain = tmp_path / "plain.jsonl"
    plain.write_text(text)
    return read_jsonl(plain)


def test_line_longer_than_a_parse_block_is_read(tmp_path: Path) -> None:
    lines = _clean_lines()
    start = json.loads(lines[0])
    start["data"] = json.dumps({"pad": "x" * (17 << 20)})
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join([json.dumps(start), *lines[1:]]) + "\n")
    read = read_jsonl(path)
    assert read.rejected == [] and read.table.num_rows == len(lines)
    assert len(read.table.column("data")[0].as_py()) > 17 << 20


def test_invalid_utf8_is_rejected_by_line_number(tmp_path: Path) -> None:
    lines = _clean_lines()
    lines[3] = lines[3].replace('"hearts"', '"h\xe9arts"')
    path = tmp_path / "in.jsonl"
    path.write_bytes("\n".join(lines).encode("latin-1"))
    read = read_jsonl(path)
    assert [(r.line, r.rule) for r in read.rejected] == [(4, "STORE-JSON")]
    assert "utf-8" in read.rejected[0].reason
    assert read.table.num_rows == len(lines) - 1


def test_a_game_stored_without_its_end_is_continued_by_a_later_ingest(
    store: EventStore, tmp_path: Path
) -> None:
    """A truncated file stores the start of a game; the whole file then appends the rest
    (seq >= what is stored), and the game reads, lists and audits as one."""
    from replay.audit import audit_many

    game = hearts_games(1)[0]
    store.ingest([game[:30]], source="truncated.jsonl")
    report = store.ingest([game], source="whole.jsonl")
    assert (report.ingested, report.continued, report.events) == (
        ["h-000"],
        ["h-000"],
        len(game) - 30,
    )
    assert "1 game (1 continued)" in report.summary()
    assert store.load_game("h-000") == game
    assert len(store.files()) == 2  # the first 30 rows were not written again
    (summary,) = store.list_games()
    assert summary.events == len(game)
    table = pa.Table.from_batches(list(store.scan()))
    assert audit_many(table).exit_code == 0
    assert store.ingest([game]).skipped == ["h-000"]  # and now it is stored as it is


def test_a_longer_game_whose_start_differs_from_the_stored_one_is_still_rejected(
    store: EventStore,
) -> None:
    game = hearts_games(1)[0]
    store.ingest([game[:30]])
    other = [*game[:10], replace(game[10], ts=None, player=(game[10].player or 0) + 1), *game[11:]]
    (rejection,) = store.ingest([other]).rejected
    assert (rejection.rule, rejection.seq) == ("STORE-GAME-ID", 10)
    assert store.load_game("h-000") == game[:30]
