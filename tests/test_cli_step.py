"""``replay step`` driven by keys on stdin: tricks, rounds, findings, first/last, seats, ``?``."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from replay.audit import audit_game
from replay.cli import app
from replay.engine.cursor import Cursor
from replay.games import get_rules
from replay.sources import open_sources

RUNNER = CliRunner()
DISPUTE = Path(__file__).resolve().parent.parent / "sample_logs" / "disputes" / "hearts"
FILE = DISPUTE / "HEARTS-POINTS.jsonl"


def steps(keys: str, *extra: str) -> tuple[list[int], str]:
    result = RUNNER.invoke(app, ["step", str(FILE), "-g", "h", *extra], input=keys)
    assert result.exit_code == 0, result.output
    return [int(s) for s in re.findall(r"step (\d+)/\d+", result.stdout)], result.stdout


def cursor() -> Cursor:
    sources = open_sources([FILE])
    [(_, events)] = list(sources.iter_games())
    return Cursor(get_rules("hearts"), events)


def test_trick_and_round_keys_stop_at_each_boundary_forward_and_back() -> None:
    c = cursor()
    tricks, rounds = c.trick_stops, c.round_stops
    shown, _ = steps("ttt\nT\nr\nr\nR\nq\n")
    assert shown == [0, tricks[0], tricks[1], tricks[2], tricks[1], rounds[0], rounds[1], rounds[0]]
    assert all(c.events[s].round == c.events[s - 1].round for s in tricks)  # inside a round


def test_finding_keys_visit_the_audits_findings() -> None:
    c = cursor()
    [events] = [list(c.events)]
    seqs = [f.seq for f in audit_game(events).findings]
    assert seqs
    shown, out = steps("f\nf\nF\nq\n")
    first = min(seqs)
    assert shown[:2] == [0, first]
    assert f"finding at step {first}" in out
    if len(seqs) == 1:
        assert "no further finding" in out


def test_first_last_seat_view_and_help() -> None:
    c = cursor()
    shown, out = steps(">\n<\n2\na\n?\nq\n")
    assert shown[:3] == [0, c.last_step, 0]
    labels = re.findall(r"omniscient view|seat \d's view", out)
    assert labels[3:5] == ["seat 2's view", "omniscient view"]
    assert "previous round end" in out and "next finding" in out  # the key list
    shown, out = steps("\x1b[F\x1b[H\x1b[4~\x1b[1~\nq\n")
    assert shown == [0, c.last_step, 0, c.last_step, 0]
    _, out = steps("9\nq\n")
    assert "the game has seats 0..3" in out


def test_the_panel_keeps_the_last_trick_and_shows_the_score_sheet() -> None:
    c = cursor()
    after_trick = c.trick_stops[0] + 1  # the ruling: the table is empty again
    _, out = steps(f"g {after_trick}\nr\nq\n")
    assert "last trick" in out and "← won" in out
    assert "score sheet" in out
