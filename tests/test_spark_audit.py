"""The Spark engine reads the store in place and audits it as the local engine does.

Spark runs in local mode (``local[2]``), one session for the whole test run (it takes about
25 s to start), in ``make unit-spark`` (``pytest -n 0 -m spark``); the tests are skipped, with
the reason, where pyspark or Java is missing. The others run in ``make unit``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from deltalake import DeltaTable

from replay.audit import AuditReport, audit_many
from replay.model.events import SCHEMA
from replay.spark.snapshot import unsupported_features
from replay.store import EventStore
from tests.spark_support import DISPUTES, UNAVAILABLE, needs_spark
from tests.store_helpers import run_cli

#: pyspark's warning that it does not fully support pandas 3 (no pandas conversion runs here).
pytestmark = pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas")


def test_spark_runs_where_it_is_required() -> None:
    """CI sets REPLAY_REQUIRE_SPARK=1: there the Spark tests must run, not be skipped."""
    if os.environ.get("REPLAY_REQUIRE_SPARK") == "1":
        assert UNAVAILABLE is None, UNAVAILABLE


def local_audit(path: Path, kind: str | None = None) -> AuditReport:
    """What ``replay audit STORE`` computes (the local engine)."""
    store = EventStore.open(path)
    table = pa.Table.from_batches(list(store.scan(kind, dictionary=True)), schema=None)
    return audit_many(table, jobs=1)


def spark_audit(spark: Any, path: Path, kind: str | None = None) -> AuditReport:
    from replay.spark.audit import audit_on_spark

    return audit_on_spark(spark, EventStore.open(path), kind)


# --------------------------------------------------------------------------- reading
@needs_spark
def test_the_frame_holds_the_stored_events(spark: Any, corpus_store: Path) -> None:
    from replay.spark.frame import events_frame
    from replay.spark.snapshot import snapshot

    store = EventStore.open(corpus_store)
    frame = events_frame(spark, snapshot(store)).toArrow()
    local = pa.Table.from_batches(list(store.scan()))
    assert frame.column_names == list(SCHEMA.names)
    keys = ["game_id", "seq", "card"]
    assert frame.sort_by([(k, "ascending") for k in keys]).to_pylist() == (
        local.sort_by([(k, "ascending") for k in keys]).to_pylist()
    )


def test_deletion_vectors_and_column_mapping_are_refused(tmp_path: Path) -> None:
    from replay.spark.errors import UnsupportedTable
    from replay.spark.snapshot import snapshot

    for name, setting in [("deletionVectors", {"delta.enableDeletionVectors": "true"}),
                          ("columnMapping", {"delta.columnMapping.mode": "name"})]:  # fmt: skip
        path = tmp_path / name
        DeltaTable.create(str(path), schema=SCHEMA, partition_by=["kind"], configuration=setting)
        with pytest.raises(UnsupportedTable, match=f"{path}: the Delta table uses .*{name}"):
            snapshot(EventStore.open(path))


def test_only_features_that_change_the_rows_are_refused() -> None:
    protocol = dataclasses.make_dataclass("Protocol", ["reader_features"])
    assert unsupported_features(protocol(None), {}) == []
    assert unsupported_features(protocol(["timestampNtz", "v2Checkpoint"]), {}) == []
    assert unsupported_features(protocol(["typeWidening"]), {}) == ["typeWidening"]
    assert unsupported_features(protocol(None), {"delta.columnMapping.mode": "id"}) == [
        "columnMapping"
    ]


def test_the_snapshot_leaves_out_what_the_local_engine_does(copy: Path) -> None:
    from replay.spark.snapshot import snapshot

    store = EventStore.open(copy)
    broken = Path(store.files()[1].path)
    broken.write_bytes(broken.read_bytes()[:100])
    store = EventStore.open(copy)
    kept = snapshot(store).files
    assert len(kept) == 2 and str(broken) not in [f.path for f in kept]
    assert [p.source for p in store.problems] == [str(broken)]


# --------------------------------------------------------------------------- the audit
@needs_spark
def test_the_audit_of_four_games_is_the_local_one(spark: Any, corpus_store: Path) -> None:
    local = local_audit(corpus_store)
    assert len(local.findings) >= 10 and {g.kind for g in local.games} == {
        "hearts", "hez2", "hiifuu", "fou"
    }  # fmt: skip
    assert next(g for g in local.games if g.game_id == "split").findings  # the seq twice
    assert spark_audit(spark, corpus_store).to_dict() == local.to_dict()


@needs_spark
def test_the_audit_of_one_kind_is_the_local_one(spark: Any, corpus_store: Path) -> None:
    local = local_audit(corpus_store, "hez2")
    assert local.games and {g.kind for g in local.games} == {"hez2"}
    assert spark_audit(spark, corpus_store, "hez2").to_dict() == local.to_dict()


@needs_spark
def test_the_dispute_set_gives_its_findings_on_spark(spark: Any, dispute_store: Path) -> None:
    report = spark_audit(spark, dispute_store)
    assert report.to_dict() == local_audit(dispute_store).to_dict()
    expected = {}
    for path in sorted(DISPUTES.glob("*/*.expected.json")):
        case = json.loads(path.read_text())
        game_id = f"{path.parent.name}-{path.name.removesuffix('.expected.json')}"
        expected[game_id] = [(case["rule"], case["seq"])]
    assert {g.game_id: [(f.rule, f.seq) for f in g.findings] for g in report.games} == expected


# --------------------------------------------------------------------------- the command
@needs_spark
def test_replay_audit_engine_spark_prints_the_local_report(spark: Any, corpus_store: Path) -> None:
    for args in [[], ["--kind", "fou"], ["--game", "split"]]:
        local = run_cli("audit", str(corpus_store), "--format", "json", *args)
        on_spark = run_cli("audit", str(corpus_store), "--format", "json", "--engine", "spark",
                           "--master", "local[2]", *args)  # fmt: skip
        assert on_spark.exit_code == local.exit_code == 1
        assert on_spark.stdout == local.stdout


def test_engine_spark_refuses_a_file_in_one_line(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    log.write_text("")
    result = run_cli("audit", str(log), "--engine", "spark")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"error: {log}: --engine spark reads one event store, not files "
        "(replay import them into a store first)"
    )


def test_engine_spark_without_java_says_so(pristine: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setattr("shutil.which", lambda name: None)
    monkeypatch.setattr("replay.spark.session.pyspark_missing", lambda: None)
    result = run_cli("audit", str(pristine), "--engine", "spark")
    assert result.exit_code == 2
    assert result.stderr.strip().startswith("error: --engine spark: Java is not installed")


def test_importing_replay_imports_no_pyspark() -> None:
    code = (
        "import sys, replay, replay.cli, replay.spark, replay.spark.audit\n"
        "import replay.cli.spark_engine\n"
        "assert 'pyspark' not in sys.modules, 'pyspark imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
