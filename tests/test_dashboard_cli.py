"""``replay dashboard``: checks its input, binds 127.0.0.1 unless told, runs Streamlit safely."""

from __future__ import annotations

from pathlib import Path

import pytest

from replay.cli import dashboard_cmds
from tests.store_helpers import run_cli

SAMPLE = Path(__file__).parent.parent / "sample_logs" / "store"


def test_the_command_serves_the_app_on_localhost_by_default() -> None:
    command = dashboard_cmds.streamlit_command(SAMPLE, "127.0.0.1", 8600)
    assert command[1:4] == ["-m", "streamlit", "run"]
    assert Path(command[4]).name == "app.py" and Path(command[4]).is_file()
    assert "--server.address=127.0.0.1" in command and "--server.port=8600" in command
    assert "--browser.gatherUsageStats=false" in command and "--server.headless=true" in command
    assert command[-2:] == ["--", str(SAMPLE)]


def test_the_default_host_and_port(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []

    def execve(program: str, command: list[str], env: dict[str, str]) -> None:
        assert program == command[0] and env["REPLAY_DASHBOARD_SOURCE"] == str(SAMPLE.resolve())
        seen.append(command)

    monkeypatch.setattr("replay.cli.dashboard_cmds.os.execve", execve)
    result = run_cli("dashboard", str(SAMPLE))
    assert result.exit_code == 0
    assert "http://localhost:8501" in result.output
    assert "--server.address=127.0.0.1" in seen[0] and "--server.port=8501" in seen[0]
    result = run_cli("dashboard", str(SAMPLE), "--host", "0.0.0.0", "--port", "9000")
    assert "--server.address=0.0.0.0" in seen[1] and "http://0.0.0.0:9000" in result.output


def test_a_json_lines_file_is_served(monkeypatch: pytest.MonkeyPatch) -> None:
    dispute = SAMPLE.parent / "disputes" / "hearts" / "HEARTS-FOLLOW.jsonl"
    seen: list[list[str]] = []
    monkeypatch.setattr(
        "replay.cli.dashboard_cmds.os.execve", lambda program, command, env: seen.append(command)
    )
    assert run_cli("dashboard", str(dispute)).exit_code == 0
    assert seen[0][-1] == str(dispute.resolve())


@pytest.mark.parametrize("make", ["missing", "folder"])
def test_a_source_that_is_no_store_or_file_exits_2(tmp_path: Path, make: str) -> None:
    target = tmp_path / "x"
    if make == "folder":
        target.mkdir()
    result = run_cli("dashboard", str(target))
    assert (
        result.exit_code == 2
        and result.output.startswith("error: ")
        and str(target) in result.output
    )
