"""The golden transcript checks: a missing file fails, a different text fails, an update writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import cli_golden, golden_util


@pytest.fixture
def golden_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Both golden folders pointed at an empty temporary one, updates off."""
    monkeypatch.setattr(golden_util, "GOLDEN_DIR", tmp_path)
    monkeypatch.setattr(cli_golden, "GOLDEN_CLI", tmp_path / "cli")
    monkeypatch.delenv("REPLAY_UPDATE_GOLDEN", raising=False)
    return tmp_path


def test_a_missing_transcript_fails_and_is_not_written(golden_dirs: Path) -> None:
    with pytest.raises(AssertionError, match="missing"):
        golden_util.check_golden("hearts_new", "== game_start\n")
    assert not (golden_dirs / "hearts_new.txt").exists()


def test_a_missing_cli_transcript_fails_and_is_not_written(golden_dirs: Path) -> None:
    with pytest.raises(AssertionError, match="missing"):
        cli_golden.check_cli_golden("show_hearts.txt", "seat 0\n")
    assert not (golden_dirs / "cli" / "show_hearts.txt").exists()


def test_a_different_text_fails(golden_dirs: Path) -> None:
    (golden_dirs / "fou.txt").write_text("== game_start\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="differs"):
        golden_util.check_golden("fou", "== game_end\n")
    golden_util.check_golden("fou", "== game_start\n")


def test_an_update_writes_it(golden_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPLAY_UPDATE_GOLDEN", "1")
    golden_util.check_golden("hez2", "== deal\n")
    cli_golden.check_cli_golden("explain_hez2.md", "# verdict\n")
    assert (golden_dirs / "hez2.txt").read_text(encoding="utf-8") == "== deal\n"
    assert (golden_dirs / "cli" / "explain_hez2.md").read_text(encoding="utf-8") == "# verdict\n"
