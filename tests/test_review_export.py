"""``replay export --format html --review``: the page holds the game's review, each reviewed
decision with its alternatives and label as :mod:`replay.review` gives them, and a review
that the audit stopped says where."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from replay.corpus.samples import write_jsonl
from replay.engine.cursor import cards_in_text
from replay.model.faces import plain_card_label
from replay.review.engine import Settings, review_game
from replay.review.report import loss_words
from tests.review_support import first_hand
from tests.store_helpers import run_cli

ROOT = Path(__file__).parent.parent
FOLLOW = ROOT / "sample_logs" / "disputes" / "hearts" / "HEARTS-FOLLOW.jsonl"
DATA = re.compile(r'<script type="application/json" id="replay-data">(.*?)</script>', re.S)


def page_data(page: str) -> dict[str, Any]:
    found = DATA.search(page)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_the_html_replay_holds_the_review_of_each_decision(tmp_path: Path) -> None:
    events = first_hand(2, 2, 1.0)  # one Hearts hand, seat 2 playing at random
    source, out = tmp_path / "hand.jsonl", tmp_path / "hand.html"
    write_jsonl(source, events)
    result = run_cli("export", str(source), "-f", "html", "--review", "--samples", "4",
                     "-o", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    page = out.read_text("utf-8")
    review = page_data(page)["review"]
    assert "policy heuristic, 4 samples" in review["caption"] and not review["stop"]
    assert review["columns"] == ["", "move", "expected [95%]"]  # no stakes, no payout
    library = review_game(events, Settings(samples=4))
    assert set(review["decisions"]) == {str(d.seq) for d in library.decisions}
    assert review["mistakes"] == library.mistakes and library.mistakes
    for decision in library.decisions:
        shown = review["decisions"][str(decision.seq)]
        assert shown["label"] == decision.label and shown["words"] == loss_words(decision)
        marked = [move for mark, move, _ in shown["alternatives"] if "played" in mark]
        assert marked == [cards_in_text(decision.played, lambda c: plain_card_label("hearts", c))]
        assert len(shown["alternatives"]) == len(decision.alternatives)
    labelled = review["decisions"][str(library.mistakes[0])]
    assert labelled["label"] in labelled["words"]
    for action in ("prevMistake", "nextMistake"):
        assert f'data-do="{action}"' in page
    plain = tmp_path / "plain.html"
    assert run_cli("export", str(source), "-f", "html", "-o", str(plain)).exit_code == 0
    assert "review" not in page_data(plain.read_text("utf-8"))
    assert 'data-do="nextMistake"' not in plain.read_text("utf-8")


def test_a_dispute_is_reviewed_up_to_its_finding_and_review_needs_html(tmp_path: Path) -> None:
    out = tmp_path / "follow.html"
    result = run_cli("export", str(FOLLOW), "-f", "html", "--review", "--samples", "2",
                     "-o", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    review = page_data(out.read_text("utf-8"))["review"]
    assert review["stop"].startswith("reviewed up to step 10, the first audit finding: HEARTS-")
    assert review["decisions"] and all(int(seq) < 10 for seq in review["decisions"])
    refused = run_cli("export", str(FOLLOW), "--review", "-o", str(tmp_path / "x.jsonl"))
    assert refused.exit_code == 2 and refused.output == "error: --review needs --format html\n"
    assert not (tmp_path / "x.jsonl").exists()
