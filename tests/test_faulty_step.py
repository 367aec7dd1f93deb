"""Every face at the faulty step of each dispute file (sample_logs/disputes): the event as
recorded, labelled as recorded; what the rules give instead (their event for a wrong ruling,
their reason otherwise) labelled as the rules'; the rule; and the state play continues from
(docs/audit.md, "Going on after a fault").

The expected text is built here from the log's own fields (:func:`words`), not from the face:
the recorded event's seat and cards, and for a wrong ruling the rules' event, read from the
audit's finding (``expected``).
"""

from __future__ import annotations

import io
import json
import re
from functools import cache
from html import unescape
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from dashboards.verdicts import outcome_html
from replay.audit import audit_game
from replay.audit.explain import explain_step
from replay.cli import app
from replay.cli.replay_cmds import Stepper
from replay.engine.cursor import CONTINUES_WORDS, Continues, Cursor, Outcome
from replay.games import get_rules
from replay.model.events import Event, seat_names
from replay.model.faces import ascii_cards, card_face, plain_card_label
from replay.render.pages import replay_frame
from replay.store.jsonl import line_to_event

DISPUTES = Path(__file__).parent.parent / "sample_logs" / "disputes"
FILES = sorted(DISPUTES.glob("*/*.jsonl"))
IDS = [f"{p.parent.name}/{p.stem}" for p in FILES]
RUNNER = CliRunner()


@cache
def case(path: Path) -> tuple[list[Event], str, int]:
    """The file's events, and the rule and seq of its one finding."""
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    events = [line_to_event(line) for line in path.read_text().splitlines()]
    return events, str(expected["rule"]), int(expected["seq"])


@cache
def cursor_of(path: Path) -> Cursor | None:
    """The replay of the file (None: its first event starts no game)."""
    events, _, _ = case(path)
    try:
        return Cursor(get_rules(events[0].kind), events)
    except Exception:
        return None


def step_of(path: Path) -> int:
    """The step that shows the faulty event: its place in the log (its seq, unless seqs are
    missing before it)."""
    events, _, seq = case(path)
    return next(i for i, e in enumerate(events) if e.seq == seq)


def words(event: Event, names: list[str], kind: str, *, ascii: bool) -> str:
    """What the faces write for an event: seats named, cards in the faces' notation."""
    parts = [f"#{event.seq}", event.type]

    def seat(n: int) -> str:
        return f"seat {n} ({names[n]})" if 0 <= n < len(names) else f"seat {n}"

    def card(code: str) -> str:
        return code if ascii else plain_card_label(kind, code)

    if event.player is not None:
        parts.append(seat(event.player))
    if event.target is not None:
        parts.append(f"-> {seat(event.target)}")
    if event.card is not None:
        parts.append(card(event.card))
    if event.cards is not None:
        parts.append("[" + " ".join(card(c) for c in event.cards) + "]")
    return " ".join(parts)


def rules_event(path: Path) -> Event | None:
    """The event the rules give in place of the recorded one (a wrong ruling), from the
    audit."""
    events, _, seq = case(path)
    finding = next(f for f in audit_game(events).findings if f.seq == seq)
    data = finding.expected_data
    return line_to_event(json.dumps(data)) if data else None


def flat(text: str) -> str:
    """A panel's text on one line: borders out, wrapped lines joined."""
    return " ".join(re.sub(r"[│|╭╮╰╯─+]", " ", text).split())


def expect_labelled(text: str, path: Path, *, ascii: bool, labels: dict[str, str]) -> None:
    """``text`` (one line) holds the recorded event and the rules' verdict, each labelled."""
    events, rule, _ = case(path)
    recorded = events[step_of(path)]
    names = seat_names(events)
    kind = recorded.kind
    assert f"{labels['recorded']}: {words(recorded, names, kind, ascii=ascii)}" in text
    given = rules_event(path)
    if given is not None:  # a wrong ruling: the rules' event, in words
        assert f"{labels['given']}: {words(given, names, kind, ascii=ascii)}" in text
    assert f"{labels['rule']}{rule}" in text
    assert f"{labels['continues']}: " in text


CLI_LABELS = {"recorded": "recorded", "given": "the rules give", "rule": "rule: ",
              "continues": "play continues from"}  # fmt: skip


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_show_labels_the_recorded_event_and_the_rules_verdict(path: Path) -> None:
    result = RUNNER.invoke(app, ["--ascii", "show", str(path), "--step", str(step_of(path))])
    if cursor_of(path) is None:  # nothing to show: the one-line error names the recorded start
        assert result.exit_code == 2
        assert "cannot replay: recorded #0 game_start" in result.stderr
        assert f"({case(path)[1]})" in result.stderr
        return
    assert result.exit_code == 0, result.stderr
    expect_labelled(flat(result.stdout), path, ascii=True, labels=CLI_LABELS)


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_the_stepper_labels_the_recorded_event_and_the_rules_verdict(path: Path) -> None:
    cursor = cursor_of(path)
    if cursor is None:
        pytest.skip("no replay: the first event starts no game (test_show covers the message)")
    cursor.seek(step_of(path))
    console = Console(width=120, no_color=True, record=True, file=io.StringIO())
    with ascii_cards():
        console.print(Stepper(cursor).frame())
    expect_labelled(flat(console.export_text()), path, ascii=True, labels=CLI_LABELS)


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_explain_labels_the_recorded_event_and_the_rules_verdict(path: Path) -> None:
    _, _, seq = case(path)
    result = RUNNER.invoke(app, ["explain", str(path), "--step", str(seq)])
    assert result.exit_code == 1, result.stderr
    labels = {"recorded": "recorded", "given": "the rules give", "rule": "rule ",
              "continues": "play continues from"}  # fmt: skip
    expect_labelled(" ".join(result.stdout.split()), path, ascii=False, labels=labels)


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_the_html_replay_labels_the_recorded_event_and_the_rules_verdict(path: Path) -> None:
    cursor = cursor_of(path)
    if cursor is None:
        pytest.skip("no replay: the export fails with test_show's message")
    names = seat_names(case(path)[0])
    frame = replay_frame(cursor, step_of(path), names)
    label = "recorded" if frame["verdict"] else "event"  # as the page's script labels it
    lines = [(label, frame["event"]), *frame["verdict"]]
    text = " ".join(f"{label}: {words}" for label, words in lines)
    expect_labelled(text, path, ascii=False, labels=CLI_LABELS)


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_the_dashboard_labels_the_recorded_event_and_the_rules_verdict(path: Path) -> None:
    """The replay page's event panel (the cursor's outcome) and the audit page's (explain's),
    one function for both (dashboards/verdicts.py)."""
    events, _, seq = case(path)
    names = seat_names(events)
    kind = events[0].kind
    outcomes = [explain_step(events, seq).outcome]  # the audit page
    cursor = cursor_of(path)
    if cursor is not None:
        outcomes.append(cursor.outcome(step_of(path)))  # the replay page
    labels = {"recorded": "Recorded</b>", "given": "The rules give</b>", "rule": "Rule</b>: ",
              "continues": "Play continues from</b>"}  # fmt: skip
    for outcome in outcomes:
        assert outcome is not None
        expect_labelled(unescape(outcome_html(outcome, kind, names)), path, ascii=False,
                        labels=labels)  # fmt: skip


def test_the_state_after_a_faulty_event_is_decided_once() -> None:
    """A wrong ruling: play continues from the rules' event (the state's last event is theirs);
    an illegal decision: from the recorded one; an event the state cannot absorb: nowhere, the
    state stays the one before it."""
    trick = DISPUTES / "hearts" / "HEARTS-TRICK.jsonl"
    cursor = cursor_of(trick)
    assert cursor is not None
    outcome = cursor.outcome(13)
    assert outcome.continues is Continues.RULES and outcome.recorded.player == 0
    assert outcome.rules_event is not None and outcome.rules_event.player == 2
    assert cursor.state_at(13).last.player == 2  # the state the rules give
    assert cursor.seek(13).view()["last_event"] == outcome.recorded.describe()  # as recorded
    follow = cursor_of(DISPUTES / "hearts" / "HEARTS-FOLLOW.jsonl")
    assert follow is not None and follow.outcome(10).continues is Continues.RECORDED
    turn = cursor_of(DISPUTES / "hearts" / "HEARTS-TURN.jsonl")
    assert turn is not None and turn.last_step == 9
    assert turn.outcome(9).continues is Continues.STOPPED
    render = turn.rules.render
    assert render(turn.state_at(9)) == render(turn.state_at(8))
    clean = Outcome(outcome.recorded, outcome.recorded)
    assert clean.lines() == [("event", outcome.recorded.describe())]
    assert set(CONTINUES_WORDS) == set(Continues)


def test_one_card_notation_in_show_explain_and_audit() -> None:
    """Cards read as the faces show them (``2♦``) in every text output, codes with --ascii."""
    follow = str(DISPUTES / "hearts" / "HEARTS-FOLLOW.jsonl")
    for args in (["audit", follow], ["explain", follow, "--step", "10"],
                 ["show", follow, "--step", "10"]):  # fmt: skip
        marked = RUNNER.invoke(app, args).stdout
        assert "played 2♦ while holding 4♣" in " ".join(flat(marked).split()), args
        assert "2D" not in marked and "4C" not in marked
        codes = RUNNER.invoke(app, ["--ascii", *args]).stdout
        assert "played 2D while holding 4C" in flat(codes) and "2♦" not in codes
    assert card_face("hearts", "TS").label == "10♠"


def test_a_seat_view_keeps_the_verdict_for_the_omniscient_view() -> None:
    """The verdict names seat 0's hidden 4C: seat 1's view shows the recorded play alone."""
    follow = str(DISPUTES / "hearts" / "HEARTS-FOLLOW.jsonl")
    panel = RUNNER.invoke(app, ["--ascii", "show", follow, "--step", "10", "--as", "1"]).stdout
    assert "recorded: #10 play seat 0 (p0) 2D" in panel and "holding" not in panel
    seat = json.loads(RUNNER.invoke(app, ["show", follow, "-s", "10", "-a", "1", "--json"]).stdout)
    assert "verdict" not in seat and seat["last_event"] == "#10 play seat 0 2D"
    everyone = json.loads(RUNNER.invoke(app, ["show", follow, "-s", "10", "--json"]).stdout)
    assert everyone["verdict"]["rule"] == "HEARTS-FOLLOW"
    assert everyone["verdict"]["continues"] == "recorded"
