"""Shared test settings: a Hypothesis profile without deadlines (the machine is shared)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "replay",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("replay")

#: The Spark tests' session and stores (session-scoped, built only when a test asks).
pytest_plugins = ["tests.spark_support"]


@pytest.fixture(scope="session")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of three Hearts games, one data file each: copy it (``copy``), never change it."""
    from tests.store_helpers import three_game_store

    return three_game_store(tmp_path_factory.mktemp("pristine") / "store")


@pytest.fixture
def copy(pristine: Path, tmp_path: Path) -> Path:
    """A fresh copy of :func:`pristine`, for a test to damage."""
    return Path(shutil.copytree(pristine, tmp_path / "store"))


def pytest_sessionstart(session: pytest.Session) -> None:
    """``make unit-native`` runs the suite against the compiled build: refuse to run it on the
    pure package by mistake (it would pass without testing the build)."""
    from replay import is_compiled

    if os.environ.get("REPLAY_EXPECT_NATIVE") == "1" and not is_compiled():
        pytest.exit("REPLAY_EXPECT_NATIVE=1 but the pure-Python package was imported", 4)


def pytest_report_header() -> str:
    """Say which build runs."""
    from replay import engine_build

    return f"replay engine: {engine_build()}"
