"""Dispute reports (Markdown, HTML) of every dispute file, the HTML replay export, verdicts in
words, ``replay rules``, and golden transcripts of show, explain and the report per game kind."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from replay.cli import app
from replay.corpus.disputes import Dispute, find_disputes
from replay.engine.cursor import cards_in_text
from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_rules
from replay.model.faces import card_face
from replay.render.pages import position_before
from replay.sources import open_sources
from replay.store.jsonl import event_to_line
from tests.cli_golden import check_cli_golden

RUNNER = CliRunner()
DISPUTES = Path(__file__).resolve().parent.parent / "sample_logs" / "disputes"
FILES = sorted(DISPUTES.glob("*/*.jsonl"))
#: Any URL but the SVG namespace (an identifier, never fetched).
EXTERNAL = re.compile(
    r"(?:https?:)?//(?!www\.w3\.org/2000/svg)[\w.-]+|\b(?:src|href)\s*=|@import|url\("
)


def run(*args: object) -> Result:
    return RUNNER.invoke(app, ["--color", "never", *(str(a) for a in args)])


def text_label(kind: str, code: str) -> str:
    """A card as a text report writes it (rank and mark, or the code for colour-only decks)."""
    face = card_face(kind, code)
    return face.label if kind in ("hearts", "hez2") else face.ascii


def expected(path: Path) -> dict[str, object]:
    loaded: dict[str, object] = json.loads(path.with_suffix(".expected.json").read_text("utf-8"))
    return loaded


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
@pytest.mark.slow
def test_reports_of_every_dispute_name_the_rule_the_verdict_and_the_cards(path: Path) -> None:
    want = expected(path)
    args = ("explain", path, "-g", str(want["game_id"]), "-s", str(want["seq"]))
    data = json.loads(run(*args, "-f", "json").stdout)
    assert data["rule"] == want["rule"] and data["ok"] is False
    markdown = run(*args, "-f", "markdown")
    html = run(*args, "-f", "html")
    assert markdown.exit_code == html.exit_code == 1, (markdown.output, html.output)
    kind = str(want["kind"])
    for text in (markdown.stdout, html.stdout):
        assert str(want["rule"]) in text
        assert (
            "ruling wrong" in text
            or "illegal" in text
            or "out of sequence" in text
            or ("invalid" in text or "impossible" in text)
        )
    verdict = cards_in_text(str(data["verdict"]), lambda code: text_label(kind, code))
    assert verdict in markdown.stdout.replace("\\|", "|")  # in the faces' card notation
    for code in data["cards"]:
        assert text_label(kind, code) in markdown.stdout
        assert f"card {card_face(kind, code).name}" in html.stdout  # its SVG
    [(_, events)] = list(open_sources([path]).iter_games())
    view = position_before(events, int(str(want["seq"])))
    if view is not None:
        assert "| hand |" in markdown.stdout
        held = [c for hand in view["hands"] for c in hand or []]
        held += [str(t["card"]) for t in view["table"]]
        for code in held:  # the position drawn as cards
            assert text_label(kind, code) in markdown.stdout
            assert f"card {card_face(kind, code).name}" in html.stdout
    else:  # a log that cannot be replayed up to the event: its state as text
        assert "```" in markdown.stdout and "<pre>" in html.stdout
    assert not EXTERNAL.search(html.stdout), EXTERNAL.search(html.stdout)
    assert html.stdout.startswith("<!DOCTYPE html>")


def test_a_wrong_ruling_is_the_fields_that_differ_recorded_vs_given() -> None:
    path = DISPUTES / "hearts" / "HEARTS-TRICK.jsonl"
    want = expected(path)
    data = json.loads(
        run("explain", path, "-g", want["game_id"], "-s", want["seq"], "--json").stdout
    )
    [diff] = data["differences"]
    assert diff["field"] == "player" and diff["recorded"] != diff["given"]
    assert re.fullmatch(
        r"seat: recorded seat \d \(\w+\), the rules give seat \d \(\w+\): the highest card of the "
        r"led suit wins the trick",
        diff["words"],
    )
    text = run("explain", path, "-g", want["game_id"], "-s", want["seq"]).stdout
    assert diff["words"] in text


def test_an_illegal_decision_names_the_cards_that_made_it_illegal() -> None:
    path = DISPUTES / "hearts" / "HEARTS-FOLLOW.jsonl"
    want = expected(path)
    data = json.loads(
        run("explain", path, "-g", want["game_id"], "-s", want["seq"], "--json").stdout
    )
    played = data["event"].split()[-1]
    assert played in data["cards"] and len(data["cards"]) >= 2  # the card and one held


def test_the_html_replay_is_one_self_contained_page_with_step_controls(tmp_path: Path) -> None:
    path = DISPUTES / "fou" / "FOU-TRICK.jsonl"
    want = expected(path)
    out = tmp_path / "replay.html"
    result = run("export", path, "-g", want["game_id"], "--format", "html", "--out", out)
    assert result.exit_code == 0, result.output
    page = out.read_text("utf-8")
    assert not EXTERNAL.search(page)
    data = json.loads(
        re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
        .group(1)  # type: ignore[union-attr]
        .replace("<\\/", "</")
    )
    [(_, events)] = list(open_sources([path]).iter_games())
    assert len(data["frames"]) == len(events)
    assert [f["step"] for f in data["findings"]] == [want["seq"]]
    assert data["tricks"] and data["rounds"]
    for action in ("first", "prev", "next", "last", "nextTrick", "nextRound", "nextFinding"):
        assert f'data-do="{action}"' in page
    assert run("export", path, "--format", "html", "--out", out).exit_code == 0  # its one game
    several = run("export", path, DISPUTES / "hez2" / "HEZ2-ACE.jsonl", "-f", "html", "-o", out)
    assert several.exit_code == 2 and "--game" in several.stderr


def test_rules_prints_one_rule_a_games_rules_or_all() -> None:
    one = run("rules", "HEARTS-TRICK")
    assert one.stdout.startswith("HEARTS-TRICK: the highest card of the led suit")
    hez2 = run("rules", "hez2").stdout.splitlines()
    assert hez2 and all(line.startswith("HEZ2-") for line in hez2)
    everything = json.loads(run("rules", "--format", "json").stdout)
    assert {r["rule"].split("-")[0] for r in everything} >= {"LOG", "HEARTS", "HEZ2", "FOU"}
    bad = run("rules", "NOPE")
    assert bad.exit_code == 2 and "rules start with" in bad.stderr


# --------------------------------------------------------------------- golden transcripts
#: The rule of the one dispute per game kind shown in the golden transcripts.
GOLDEN_RULES = {"hearts": "HEARTS-TRICK", "hez2": "HEZ2-MATCH", "hiifuu": "HIIFUU-TRICK",
                "fou": "FOU-TRICK"}  # fmt: skip


@cache
def golden_dispute(kind: str) -> Dispute:
    """A fixed one-fault game of this kind, built from a seeded simulated game."""
    rules = get_rules(kind)
    game = simulate_game(rules, f"golden-{kind}", players=rules.min_players, seed=11)
    found = find_disputes(rules, [game[:120]])
    return found[GOLDEN_RULES[kind]][0]


@pytest.mark.parametrize("kind", available_kinds())
def test_golden_show_explain_and_report(kind: str, tmp_path: Path) -> None:
    dispute = golden_dispute(kind)
    path = tmp_path / f"{kind}.jsonl"
    path.write_text("".join(event_to_line(e) + "\n" for e in dispute.events))
    game = f"golden-{kind}"
    step = str(dispute.seq)
    show = run("show", path, "-g", game, "-s", step)
    explain = run("explain", path, "-g", game, "-s", step)
    report = run("explain", path, "-g", game, "-s", step, "-f", "markdown")
    assert show.exit_code == 0 and explain.exit_code == report.exit_code == 1
    check_cli_golden(f"{kind}-show.txt", show.stdout)
    check_cli_golden(f"{kind}-explain.txt", explain.stdout.replace(str(path), "GAME.jsonl"))
    check_cli_golden(f"{kind}-report.md", report.stdout.replace(str(path), "GAME.jsonl"))
