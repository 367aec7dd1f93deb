"""Crash and concurrency guarantees, with real processes: a writer killed with SIGKILL loses no
acknowledged event, two writers to one game never interleave, a killed compaction loses and
duplicates nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pytest

from replay.store import EventStore
from replay.store.synthetic import hearts_like_table
from tests.store_helpers import hearts_game

ROOT = Path(__file__).resolve().parent.parent

WRITER = """
import sys
from replay.store import EventStore
from tests.store_helpers import hearts_game
store = EventStore.open(sys.argv[1], create=True)
game = hearts_game("live-1")
for event in game:
    store.append("live-1", [event], expected_seq=event.seq)
    print(event.seq, flush=True)
"""

RACER = """
import os, sys, time
from replay.store import ConcurrencyConflict, EventStore
from tests.store_helpers import hearts_game
store = EventStore.open(sys.argv[1])
game = hearts_game("race-1")
while not os.path.exists(sys.argv[2]):
    time.sleep(0.001)
for k in range(1, int(sys.argv[3]) + 1):
    try:
        store.append("race-1", [game[k]], expected_seq=k)
        print("ok", k, flush=True)
    except ConcurrencyConflict:
        print("conflict", k, flush=True)
"""

COMPACTOR = """
import sys
from replay.store import EventStore
store = EventStore.open(sys.argv[1])
print("start", flush=True)
store.compact()
print("done", flush=True)
"""


def _spawn(script: str, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-c", script, *args], stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT
    )


def _content(store: EventStore) -> list[tuple[str, int]]:
    table = pa.Table.from_batches(list(store.scan(columns=["game_id", "seq"])))
    ids, seqs = table.column("game_id").to_pylist(), table.column("seq").to_pylist()
    return sorted((str(g), int(s or 0)) for g, s in zip(ids, seqs, strict=True))


def test_sigkilled_writer_loses_no_acknowledged_event(tmp_path: Path) -> None:
    path = str(tmp_path / "store")
    child = _spawn(WRITER, path)
    assert child.stdout is not None
    acked = -1
    while acked < 150:
        acked = int(child.stdout.readline())
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    store = EventStore.open(path)
    game = hearts_game("live-1")
    events = store.load_game("live-1")
    assert len(events) > acked and events == list(game[: len(events)])
    assert store.list_games() == []  # nothing of a live game in the table
    next_seq = store.append("live-1", list(game[len(events) :]), expected_seq=len(events))
    assert next_seq == len(game)
    store.seal("live-1")
    assert store.load_game("live-1") == list(game)


@pytest.mark.slow
def test_two_concurrent_writers_one_conflicts_stream_stays_whole(tmp_path: Path) -> None:
    path = str(tmp_path / "store")
    store = EventStore.open(path, create=True)
    game = hearts_game("race-1")
    store.append("race-1", [game[0]], expected_seq=0)
    go = tmp_path / "go"
    rounds = 40
    racers = [_spawn(RACER, path, str(go), str(rounds)) for _ in range(2)]
    time.sleep(0.2)
    go.touch()
    outputs = [r.communicate(timeout=60)[0].split("\n") for r in racers]
    results: dict[int, list[str]] = {}
    for out in outputs:
        for line in filter(None, out):
            status, k = line.split()
            results.setdefault(int(k), []).append(status)
    assert all(sorted(results[k]) == ["conflict", "ok"] for k in range(1, rounds + 1))
    assert store.load_game("race-1") == list(game[: rounds + 1])


@pytest.mark.slow
def test_compaction_killed_midway_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    store = EventStore.open(tmp_path / "store", create=True)
    for seed in range(6):
        store.ingest(hearts_like_table(25, seed=seed))
    expected = _content(store)
    for delay in (0.0, 0.05, 0.15, 0.3):
        child = _spawn(COMPACTOR, str(store.path))
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "start"
        time.sleep(delay)
        child.send_signal(signal.SIGKILL)
        child.wait()
        reopened = EventStore.open(store.path)
        assert _content(reopened) == expected
        assert reopened.problems == []
    store.compact()
    assert len(store.files()) == 1
    assert _content(store) == expected
