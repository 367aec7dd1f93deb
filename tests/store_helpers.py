"""Shared builders for the store tests: simulated Hearts games and small event lists."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from replay.cli import app
from replay.engine.simulate import simulate_game
from replay.games import get_rules
from replay.model.events import Event
from replay.store import EventStore


@cache
def hearts_game(game_id: str, seed: int = 1) -> tuple[Event, ...]:
    """A complete simulated Hearts game (cached: tests must not mutate it)."""
    return tuple(simulate_game(get_rules("hearts"), game_id, players=4, seed=seed))


def hearts_games(count: int, prefix: str = "h") -> list[list[Event]]:
    return [list(hearts_game(f"{prefix}-{i:03d}", seed=i)) for i in range(count)]


def three_game_store(path: Path) -> Path:
    """A store of three Hearts games, one data file (and one commit) per game."""
    store = EventStore.open(path, create=True)
    for game in hearts_games(3):
        store.ingest([game])
    return path


def run_cli(*args: str) -> Result:
    """Run the CLI in-process; it must end by an exit code, never a traceback."""
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output and "error: unexpected" not in result.output
    return result


@contextlib.contextmanager
def tmpfs(mount: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` (``256k``) mounted on the new folder ``mount``, for a disk that
    fills up (root only: the test is skipped where it cannot be mounted)."""
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)], capture_output=True
    )
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs: {done.stderr!r}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)
