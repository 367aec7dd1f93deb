"""Storage failures (disk full, permission, I/O error): one clean line, exit code 4, nothing
committed, nothing from the Rust runtime on the terminal."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from deltalake.exceptions import DeltaError

from replay.store import EventStore, StorageFailure
from replay.store import ingest as store_ingest
from replay.store.jsonl import write_lines
from replay.store.synthetic import hearts_like_table
from tests.store_helpers import hearts_game, tmpfs

EXIT_STORAGE = StorageFailure.exit_code


def _log(path: Path, games: int, seed: int = 3) -> Path:
    with path.open("w", encoding="utf-8") as out:
        write_lines(hearts_like_table(games=games, seed=seed).to_batches(), out)
    return path


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from replay.cli import main; main()", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=300,
    )


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 256 kB tmpfs (root only; skipped where it cannot be mounted)."""
    with tmpfs(tmp_path / "tiny", "256k") as mount:
        yield mount


@pytest.mark.slow
def test_a_full_disk_is_one_clean_line_and_the_store_is_as_it_was(
    tiny_disk: Path, tmp_path: Path
) -> None:
    log = _log(tmp_path / "games.jsonl", 400)
    store = tiny_disk / "store"
    first = _run("import", str(_log(tmp_path / "small.jsonl", 1, seed=4)), "--into", str(store))
    assert first.returncode == 0, first.stderr
    done = _run("import", str(log), "--into", str(store))
    assert done.returncode == EXIT_STORAGE, done.stderr
    assert done.stderr == f"error: {store}: no space left on device: nothing was committed\n"
    assert "panicked" not in done.stdout + done.stderr
    assert len(EventStore.open(store).list_games()) == 1
    assert len(list(store.glob("kind=*/*.parquet"))) == 1  # the failed write left no file


def _failing_write(number: int) -> Any:
    """A stand-in for the data writer (``write_files``) that fails as deltalake's writer does
    when the storage refuses: a data file half written, a panic printed on descriptor 2, then a
    DeltaError."""

    def write(uri: str, *args: Any, **kwargs: Any) -> None:
        stray = Path(uri) / "kind=hearts" / "part-stray.parquet"
        stray.parent.mkdir(exist_ok=True)
        stray.write_bytes(b"PAR1")
        os.write(2, b"thread 'tokio-rt-worker' panicked at buffered.rs: Already shut down\n")
        reason = os.strerror(number)
        raise DeltaError(f"Generic LocalFileSystem error: {reason} (os error {number})")

    return write


@pytest.mark.parametrize(
    ("number", "cause"),
    [
        (errno.ENOSPC, "no space left on device"),
        (errno.EDQUOT, "disk quota exceeded"),
        (errno.EACCES, "permission denied"),
        (errno.EIO, "input/output error"),
    ],
)
def test_a_storage_fault_names_the_store_and_the_cause(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, number: int, cause: str
) -> None:
    store = EventStore.open(tmp_path / "s", create=True)
    monkeypatch.setattr(store_ingest, "write_files", _failing_write(number))
    with pytest.raises(StorageFailure) as raised:
        store.ingest([list(hearts_game("h"))])
    assert str(raised.value) == f"{tmp_path / 's'}: {cause}: nothing was committed"
    assert not list((tmp_path / "s").glob("kind=*/*.parquet"))
    assert EventStore.open(tmp_path / "s").list_games() == []


@pytest.mark.parametrize("number", [errno.ENOSPC, errno.EIO])
def test_a_failing_parquet_write_leaves_no_file_and_commits_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, number: int
) -> None:
    """Arrow's Parquet writer fails midway (its OSError): the file it began is removed."""
    import pyarrow.parquet as pq

    class Failing(pq.ParquetWriter):
        def write_table(self, *args: Any, **kwargs: Any) -> None:
            raise OSError(number, os.strerror(number))

    store = EventStore.open(tmp_path / "s", create=True)
    store.ingest([list(hearts_game("first"))])
    monkeypatch.setattr(pq, "ParquetWriter", Failing)
    with pytest.raises(StorageFailure, match=f"{os.strerror(number).lower()}: nothing was"):
        store.ingest([list(hearts_game("h"))])
    assert len(list((tmp_path / "s").glob("kind=*/*.parquet"))) == 1
    assert [g.game_id for g in EventStore.open(tmp_path / "s").list_games()] == ["first"]


@pytest.mark.slow
def test_the_runtime_panic_never_reaches_the_terminal(tmp_path: Path) -> None:
    """A real process, its descriptor 2 captured: the panic the writer prints is silenced."""
    log = _log(tmp_path / "games.jsonl", 2)
    script = textwrap.dedent(
        f"""
        import sys
        from replay.store import ingest
        from tests.test_reliability_storage import _failing_write
        ingest.write_files = _failing_write({errno.ENOSPC})
        from replay.cli import main
        sys.argv = ["replay", "import", {str(log)!r}, "--into", {str(tmp_path / "s")!r}]
        main()
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == EXIT_STORAGE
    assert done.stderr.splitlines() == [
        f"error: {tmp_path / 's'}: no space left on device: nothing was committed"
    ]


def test_a_journal_append_on_a_full_disk_leaves_the_journal_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = EventStore.open(tmp_path / "s", create=True)
    events = list(hearts_game("h"))
    store.append("h", events[:5], expected_seq=0)
    journal = store.journal.path("h")
    size = journal.stat().st_size

    def full(fd: int, data: bytes) -> int:
        os.ftruncate(fd, size + 3)  # a part of the line reached the disk
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(StorageFailure, match="no space left on device: nothing was committed"):
        store.append("h", events[5:9], expected_seq=5)
    monkeypatch.undo()
    assert journal.stat().st_size == size
    assert store.append("h", events[5:], expected_seq=5) == len(events)
