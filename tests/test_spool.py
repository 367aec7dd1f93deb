"""The spooled audit report (``replay audit`` of a store or files): the same text in every
format as the report held in memory, a game's audit kept on disk only when it has something to
say, and the CLI's report of a multi-slice store the same as the in-memory audit's."""

from __future__ import annotations

import io
import random
from functools import cache
from pathlib import Path

import pyarrow as pa
import pytest

from replay.audit import AuditReport, GameAudit, audit_game, audit_many
from replay.audit.findings import sort_report
from replay.audit.report import format_report, noteworthy, write_report
from replay.audit.spool import SpooledReport
from replay.model.decode import events_from_table
from replay.store import EventStore
from replay.store.jsonl import parse_jsonl
from replay.store.stream import import_jsonl
from tests.store_helpers import run_cli
from tests.test_fuzz import _write

FORMATS = ("table", "markdown", "json", "jsonl", "csv")


@cache
def fuzzed_log(seed: int) -> bytes:
    """A fuzzed log of the four games: findings, stops, waits and bad lines."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "log.jsonl"
        _write(path, random.Random(seed))
        return path.read_bytes()


def audits_of(seed: int) -> tuple[list[GameAudit], list[str]]:
    read = parse_jsonl(fuzzed_log(seed), "log.jsonl")
    games: dict[str, list[object]] = {}
    for event in events_from_table(read.table):
        games.setdefault(event.game_id, []).append(event)
    audits = [audit_game(events) for events in games.values()]  # type: ignore[arg-type]
    return audits, [str(r) for r in read.rejected]


def origin(game_id: str) -> str:
    return f"file-{len(game_id) % 3}.jsonl"


@pytest.mark.parametrize("seed", [1, 2])
def test_a_spooled_report_reads_as_the_report_in_memory_in_every_format(seed: int) -> None:
    audits, problems = audits_of(seed)
    assert any(g.findings for g in audits) and any(g.incomplete for g in audits)
    assert any(g.stopped_at is not None for g in audits) and problems
    in_memory = sort_report(AuditReport(games=list(audits), problems=list(problems)))
    shuffled = audits[:]
    random.Random(seed).shuffle(shuffled)
    with SpooledReport() as spool:
        for i in range(0, len(shuffled), 97):  # added a slice at a time, in any order
            spool.add(shuffled[i : i + 97])
        spool.problems.extend(problems)
        assert spool.exit_code == in_memory.exit_code
        assert len(spool._index) == sum(noteworthy(g) for g in audits) < len(audits)
        for fmt in FORMATS:
            out = io.StringIO()
            write_report(spool, fmt, out, origin)
            origins = {g.game_id: origin(g.game_id) for g in audits}
            assert out.getvalue() == format_report(in_memory, fmt, origins), fmt


def test_the_json_report_is_json_dumps_of_the_report() -> None:
    import json

    audits, problems = audits_of(3)
    report = sort_report(AuditReport(games=audits, problems=problems))
    data = report.to_dict()
    for finding in data["findings"]:
        finding["file"] = origin(finding["game_id"])
    expected = json.dumps(data, indent=2, default=str, ensure_ascii=False)
    assert format_report(report, "json", {g.game_id: origin(g.game_id) for g in audits}) == expected


def test_an_empty_spool_reports_nothing_found() -> None:
    with SpooledReport() as spool:
        assert spool.exit_code == 0
        for fmt in FORMATS:
            out = io.StringIO()
            write_report(spool, fmt, out, origin)
            assert out.getvalue() == format_report(AuditReport(), fmt)


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_cli_report_of_a_store_in_many_slices_is_the_audit_in_memory(
    tmp_path: Path, fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("replay.store.slices.SLICE_ROWS", 500)
    log = tmp_path / "log.jsonl"
    log.write_bytes(fuzzed_log(4))
    store = EventStore(tmp_path / "store", create=True)
    import_jsonl(store, log)
    table = pa.Table.from_batches(EventStore(tmp_path / "store").scan())
    expected = format_report(audit_many(table, 1), fmt, {})
    result = run_cli("audit", str(tmp_path / "store"), "--format", fmt, "--jobs", "1")
    assert result.exit_code == 1
    body, path = result.stdout, tmp_path / "store"
    if fmt in ("table", "markdown"):  # the store's path is each finding's file
        body = body.replace(f"{path}: ", "").replace(f"| {path} |", "|  |")
    elif fmt != "csv":
        body = body.replace(f'"file": "{tmp_path / "store"}"', '"file": ""')
    else:
        body = body.replace(f"{tmp_path / 'store'},", ",")
    assert body == expected + "\n"
