# ruff: noqa: F811  (the fixture of test_dashboard_app, imported, is an argument here)
"""The replay page's review pane on one short Hearts hand whose seat 2 plays at random: the
review asked for, the alternatives of the decision shown with the move played marked, and the
mistake jumps of the library's cursor landing on the labelled decisions (one app run, AppTest
being slow)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from dashboards.verdicts import in_notation
from replay.corpus.samples import write_jsonl
from replay.engine.cursor import Cursor
from replay.games import get_rules
from replay.model.events import Event
from replay.review.engine import Settings, move_text, review_game
from replay.review.exact import exact_play, visible_loss
from replay.solver import solve
from tests.review_support import first_hand
from tests.test_dashboard_app import Open, html_of, open_page, texts  # noqa: F401  (a fixture)
from tests.test_review_payout import staked_game

SEAT = 2
SAMPLES = 4


@cache
def hand_events() -> list[Event]:
    """One Hearts hand whose seat 2 plays at random."""
    return first_hand(2, SEAT, 1.0)


@pytest.fixture(scope="module")
def hand(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int]]:
    """A file of one Hearts hand (seat 2 playing at random), and the seqs of the decisions
    of seat 2 the library labels with 4 samples, seed 0."""
    events = hand_events()
    path = tmp_path_factory.mktemp("review") / "hand.jsonl"
    write_jsonl(path, events)
    review = review_game(events, Settings(samples=SAMPLES), [SEAT])
    return path, review.mistakes


def alternatives(at: AppTest) -> Any:
    """The review pane's table of alternatives (None: not shown)."""
    return next((d.value for d in at.dataframe if "expected [95%]" in d.value.columns), None)


def test_the_cursor_jumps_between_a_review_s_mistakes() -> None:
    rules = get_rules("hearts")
    cursor = Cursor(rules, hand_events())
    seqs = [51, 20, 20, 10_000]  # a duplicate and one past the replay's end (left out)
    assert cursor.jump("next_mistake", mistakes=seqs).step == 20
    assert cursor.jump("next_mistake", mistakes=seqs).step == 51
    assert not cursor.can_jump("next_mistake", mistakes=seqs)
    assert cursor.jump("prev_mistake", mistakes=seqs).step == 20
    assert not cursor.can_jump("prev_mistake", mistakes=seqs)
    assert not cursor.can_jump("next_mistake") and not cursor.can_jump("prev_mistake")


def test_the_pane_reviews_the_game_and_jumps_to_its_mistakes(
    open_page: Open, hand: tuple[Path, list[int]]
) -> None:
    path, mistakes = hand
    assert len(mistakes) >= 2, "the careless seat makes labelled mistakes"
    at = open_page(path, "replay", step="0", seat=str(SEAT))
    assert alternatives(at) is None and not at.get("progress")
    at.number_input(key="review_samples").set_value(SAMPLES).run()
    at.button(key="review_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    words = texts(at)
    assert f"policy heuristic, {SAMPLES} samples" in words and "seed 0" in words
    assert "Step 0 is not a reviewed decision" in words
    assert at.button(key="jump_prev_mistake").disabled
    at.button(key="jump_next_mistake").click().run()
    assert at.query_params["step"] == str(mistakes[0])
    decision = next(str(m.value) for m in at.markdown if str(m.value).startswith("Seat "))
    label = re.search(r"\]: (\w+)", decision)
    assert label is not None and label.group(1) in ("inaccuracy", "mistake", "blunder")
    table = alternatives(at)
    assert len(table) > 1 and sum("played" in mark for mark in table[""]) == 1
    assert "expected payout [95%]" not in table.columns  # no stakes at Hearts
    played = table["move"][next(i for i, m in enumerate(table[""]) if "played" in m)]
    recorded = hand_events()[mistakes[0]]
    assert recorded.player == SEAT and played == in_notation("hearts", move_text(recorded))
    assert decision.startswith(f"Seat {SEAT} (p{SEAT}) chose `{played}`; best `")
    policy = "policy" in table[""][table["move"].tolist().index(played)]
    assert ("; the policy's move" in decision) == policy  # else its cost beyond the policy's
    assert ("; beyond the policy's move " in decision) != policy
    at.button(key="jump_next_mistake").click().run()
    assert at.query_params["step"] == str(mistakes[1])
    other = next(e.seq for e in hand_events() if e.type == "play" and e.player != SEAT)
    at.query_params["step"] = str(other)
    at.run()  # another seat's move: not reviewed in seat 2's view (it would show that hand)
    assert alternatives(at) is None and "other seats' moves are not" in texts(at)
    seq, loss = last_choice_solved()
    at.query_params["step"] = str(seq)
    at.run()  # an endgame play: its loss with all cards visible beside the review's
    decision = next(str(m.value) for m in at.markdown if str(m.value).startswith("Seat "))
    assert decision.endswith(f"; with all cards visible {loss}")
    table = alternatives(at)  # each alternative's value with every hand seen, beside its own
    assert list(table["all cards visible"]) == solved_values(seq, list(table["move"]))
    at.query_params["seat"] = "everyone"
    at.run()  # everyone's view: the trick's cards can be framed by their loss
    assert "loss with all cards visible" not in html_of(at)
    at.toggle(key="visible_frames").set_value(True).run()
    assert f"loss with all cards visible: {loss}" in html_of(at)
    assert "best with all cards visible (loss 0)" in html_of(at)  # the legend
    at.query_params["seat"] = str(SEAT)
    at.number_input(key="review_samples").set_value(SAMPLES + 1).run()
    assert f"{SAMPLES} samples" in texts(at)  # new settings: nothing until the button


def solved_values(seq: int, moves: list[str]) -> list[str]:
    """The value of each move (as the pane writes it) for seat 2 with all cards visible, in the
    game's points, at the play of ``seq``."""
    rules = get_rules("hearts")
    state = rules.start(hand_events()[0])
    for event in hand_events()[1:seq]:
        state = rules.apply(state, event)
    values = solve(state, line=False).values
    codes = {in_notation("hearts", f"play {card}"): card for card in values}
    return [str(values[codes[move]][SEAT]) for move in moves]


def last_choice_solved() -> tuple[int, int]:
    """The seq of seat 2's last play with a choice, and its loss with all cards visible (only
    the plays the review gives that loss for: few enough cards in hand for the solver)."""
    rules = get_rules("hearts")
    events = hand_events()
    state = rules.start(events[0])
    found: tuple[int, int] | None = None
    for event in events[1:]:
        chooses = event.player == SEAT and rules.legal_decisions(state, SEAT)[1:]
        if chooses and exact_play("hearts", state, event, visible=True):
            loss = visible_loss(state, event)
            assert loss is not None
            found = (event.seq, loss)
        state = rules.apply(state, event)
    assert found is not None
    return found


def test_the_pane_gives_the_expected_payouts_at_a_table_with_stakes(
    open_page: Open, tmp_path: Path
) -> None:
    """A staked Hez2 table (seat 0 staked): each alternative's expected payout beside its
    expected place, and the decision's payout loss."""
    events = staked_game()[:34]  # seat 0 chooses at steps 29 and 33
    path = tmp_path / "staked.jsonl"
    write_jsonl(path, events)
    rules = get_rules("hez2")
    state = rules.start(events[0])
    step = None
    for event in events[1:]:
        if event.player == 0 and rules.legal_decisions(state, 0)[1:] and step is None:
            step = event.seq
        state = rules.apply(state, event)
    assert step is not None
    at = open_page(path, "replay", step=str(step), seat="0")
    at.number_input(key="review_samples").set_value(2).run()
    at.button(key="review_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Payouts in the stakes' minor units" in texts(at)
    decision = next(str(m.value) for m in at.markdown if str(m.value).startswith("Seat 0"))
    assert re.search(r"; payout loss -?\d+\.\d\d \[-?\d+\.\d\d, -?\d+\.\d\d\]$", decision)
    table = alternatives(at)
    payouts = table["expected payout [95%]"]
    assert len(table) > 1 and all(re.match(r"\d+\.\d\d \[", p) for p in payouts)
