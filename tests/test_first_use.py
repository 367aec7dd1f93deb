"""What a new user meets first: the README's commands as written, --help, a mistyped game id,
``make demo`` in a pipe, the package's name, ``replay games``, the audit's counts, a Hez2 replay
page and ``replay stats`` (each in process, on the smallest inputs that show it)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from typer.testing import CliRunner

from replay import DISTRIBUTION
from replay.analytics.catalog import SUMMARY, statistic_files
from replay.cli import app
from replay.render.pages import replay_frames, replay_page
from replay.sources import open_sources

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
RUNNER = CliRunner()
JSONL = ROOT / "sample_logs" / "jsonl"


def run(*args: object, input: str | None = None) -> tuple[int, str, str]:
    result = RUNNER.invoke(app, [str(a) for a in args], input=input, env={"COLUMNS": "200"})
    return result.exit_code, result.stdout, result.stderr


def sh_blocks(text: str) -> list[list[str]]:
    """The command lines of each ``sh`` block (comments cut off)."""
    blocks = re.findall(r"```sh\n(.*?)```", text, flags=re.S)
    lines = [[line.split("#")[0].strip() for line in b.splitlines()] for b in blocks]
    return [[line for line in block if line] for block in lines]


def test_the_readme_puts_replay_on_path_before_its_commands() -> None:
    """After the setup block, ``replay`` is found: the block activates .venv (make venv creates
    it with ``python -m venv``, whose bin/activate puts .venv/bin first on PATH)."""
    setup = sh_blocks(README)[0]
    assert setup[:2] == ["make demo", "make test"]
    assert "source .venv/bin/activate" in setup
    first_replay = README.index("\nreplay ")
    assert README.index("source .venv/bin/activate") < first_replay


def test_the_arbiter_commands_of_the_readme_run_as_written(tmp_path: Path) -> None:
    """Each command of "The arbiter's path", copied as written (``$F`` as its line sets it),
    run from the checkout, with the exit code a dispute gives."""
    block = next(b for b in sh_blocks(README) if b[0].startswith("F="))
    variable, value = block[0].split("=", 1)
    want = {"audit": 1, "show": 0, "step": 0, "explain": 1}
    cwd = Path.cwd()
    os.chdir(ROOT)
    try:
        for line in block[1:]:
            words = shlex.split(line.replace(f"${variable}", value))
            out = None
            if ">" in words:
                words, out = words[: words.index(">")], words[words.index(">") + 1]
            assert words[0] == "replay", line
            code, stdout, stderr = run(*words[1:], input="fq\n")
            assert code == want[words[1]], (line, stderr)
            if out is not None:
                (tmp_path / out).write_text(stdout)
                assert stdout.startswith("<!DOCTYPE html>")
    finally:
        os.chdir(cwd)


@pytest.mark.parametrize("command", ["stats", "sql", "audit"])
def test_help_names_the_spark_extra(command: str) -> None:
    _, out, _ = run(command, "--help")
    assert f"pip install '{DISTRIBUTION}[spark]'" in " ".join(re.sub(r"[│]", " ", out).split())


def test_a_mistyped_game_id_suggests_the_nearest_ids() -> None:
    code, _, err = run("show", JSONL / "hearts4.jsonl", "--game", "heats-2026-03-27")
    assert code == 2 and "did you mean 'hearts-2026-03-27-t1'" in err
    code, _, err = run("show", JSONL, "--game", "hez2-2026-03-06-t5")
    assert code == 2 and "did you mean 'hez2-2026-03-06-t" in err


def test_make_demo_writes_no_escape_codes_into_a_pipe(tmp_path: Path) -> None:
    """scripts/demo.sh with stand-ins for replay (echo) and a dashboard that does not start."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "replay").write_text('#!/bin/sh\necho ran replay "$1"\n')
    (bin_dir / "replay").chmod(0o755)
    (bin_dir / "python").symlink_to(sys.executable)
    shown = subprocess.run(
        ["bash", "scripts/demo.sh"], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "BIN": str(bin_dir), "PORT": "8590"},
    )  # fmt: skip
    assert "$ " in shown.stdout and "ran replay info" in shown.stdout
    assert "\x1b[" not in shown.stdout


def test_the_distribution_has_a_free_name_and_an_spdx_licence() -> None:
    """``replay`` on the package index is another project; the command and the import package
    stay ``replay``."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == DISTRIBUTION == "cardgame-replay"
    assert project["license"] == "MIT" and project["scripts"] == {"replay": "replay.cli:main"}
    assert version(DISTRIBUTION)  # installed under that name
    makefile = (ROOT / "Makefile").read_text()
    assert "cardgame_replay-*.whl" in makefile and "replay-*.whl" not in makefile.replace(
        "cardgame_replay-*.whl", ""
    )
    assert "pip install 'replay[" not in README


def test_replay_games_lines_up_its_columns() -> None:
    code, out, _ = run("games", JSONL)
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[:4] == ["game", "kind", "started", "events"]
    for column in ("kind", "started", "winners", "file", "players"):
        at = lines[0].index(column)
        assert all(line[at - 2 : at] == "  " and line[at] != " " for line in lines[1:]), column


def test_the_audit_counts_in_the_singular_for_one() -> None:
    dispute = ROOT / "sample_logs" / "disputes" / "hez2" / "HEZ2-STAKES.jsonl"
    _, out, _ = run("audit", dispute)
    assert out.splitlines()[-1] == "1 game, 28 events audited: 1 finding in 1 game"


def test_a_hez2_replay_page_offers_no_tricks_no_empty_table_and_no_empty_findings() -> None:
    [(_, events)] = list(open_sources([JSONL / "hez23.jsonl"]).iter_games())
    data = replay_frames(events)
    assert data["tricks"] == [] and data["findings"] == []
    page = replay_page(events, "hez23.jsonl")
    assert 'if (D.tricks.length === 0) absent("Trick");' in page  # its buttons hidden
    assert 'absent("Finding"); $("findings-head").hidden = true;' in page
    assert '<p hidden><span class="muted">table:</span>' in page  # shown when it has cards


def test_stats_prints_a_short_summary_with_words_and_lists_the_rest() -> None:
    code, out, _ = run("stats", JSONL)
    assert code == 0 and len(out.splitlines()) < 60
    assert "The games of each kind" in out and "Who wins most [leaders" in out
    assert "seats   won" in out and "humans" in out and "bots" in out
    assert "False" not in out and "True" not in out and "opportunities" not in out
    code, listed, _ = run("stats", "--list")  # no source needed
    names = [line.split()[0] for line in listed.splitlines()]
    assert code == 0 and names == [s.name for s in statistic_files()]
    assert set(SUMMARY) <= set(names) and f"{len(names) - len(SUMMARY)} more statistics" in out
