"""The replay page's review pane: the game shown reviewed on demand by :mod:`replay.review`
(docs/review.md), then for the step shown, if it is a decision of a reviewed seat, each legal
alternative with its expected result and 95% interval (and its expected payout where the seat is
paid: a table with stakes), the move played marked, its loss (and payout loss) and label; and
jumps to the previous and next labelled decision
(:meth:`replay.engine.cursor.Cursor.jump`).

A review is cached by game, seat, samples and seed, a part of its decisions at a time, so that
the page shows its progress and a review once made is not made again. In a seat's view only
that seat's decisions are reviewed: the alternatives of another seat would show its hand.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from dashboards.data import Replay, load_events
from dashboards.verdicts import in_notation
from replay.engine.cursor import MISTAKE_JUMPS, Jump
from replay.review.engine import (
    DecisionReview,
    GameReview,
    Settings,
    decision_steps,
    plan_review,
    review_steps,
)
from replay.review.exact import exact_play
from replay.review.report import loss_words, ranked_alternatives, review_caption, stop_words
from replay.solver import NotSolvable, sign, solve

#: Decisions reviewed per cached part (the progress bar moves a part at a time).
PART = 6
#: The samples a review starts with on the page (the CLI's default is more, and slower).
PANE_SAMPLES = 16
#: The mistake jumps: (jump, label, icon, help, key).
MISTAKE_BUTTONS: dict[Jump, tuple[str, str, str, str]] = {
    "prev_mistake": ("mistake", ":material/undo:", "the previous labelled decision", "Shift+M"),
    "next_mistake": ("mistake", ":material/redo:", "the next labelled decision", "M"),
}


def _settings(samples: int, seed: int) -> Settings:
    return replace(Settings(), samples=samples, seed=seed)


def _seats(seat: int | None) -> list[int] | None:
    return None if seat is None else [seat]


@st.cache_data(show_spinner=False, max_entries=32)
def review_plan(
    path: str, game_id: str, seat: int | None, samples: int, seed: int
) -> tuple[GameReview, list[list[int]]] | str:
    """A game's review before any decision is valued, with its decisions' positions in parts
    of :data:`PART`; or why it cannot be reviewed (one line)."""
    try:
        events = sorted(load_events(path, game_id), key=lambda e: e.seq)
        review = plan_review(events, _seats(seat), _settings(samples, seed))
        steps = decision_steps(events, review)
    except (KeyError, ValueError, IndexError) as exc:
        return f"game {game_id} cannot be reviewed: {exc}"
    return review, [steps[k : k + PART] for k in range(0, len(steps), PART)]


@st.cache_data(show_spinner=False, max_entries=1024)
def review_part(
    path: str, game_id: str, seat: int | None, samples: int, seed: int, part: int
) -> list[DecisionReview]:
    """The reviews of the decisions of one part of a game's review plan."""
    plan = review_plan(path, game_id, seat, samples, seed)
    assert not isinstance(plan, str)
    events = sorted(load_events(path, game_id), key=lambda e: e.seq)
    return review_steps(events, plan[1][part], _settings(samples, seed))


def game_review(
    path: str, game_id: str, seat: int | None, samples: int, seed: int
) -> GameReview | str:
    """The game's review, its parts from the cache or made now under a progress bar."""
    plan = review_plan(path, game_id, seat, samples, seed)
    if isinstance(plan, str):
        return plan
    planned, parts = plan
    review = replace(planned, decisions=[])
    total = sum(len(p) for p in parts)
    bar = st.progress(0.0, text=f"Reviewing {total} decisions…") if parts else None
    for k in range(len(parts)):
        review.decisions.extend(review_part(path, game_id, seat, samples, seed, k))
        if bar is not None:
            done = len(review.decisions)
            bar.progress(done / total, text=f"Reviewed {done} of {total} decisions…")
    if bar is not None:
        bar.empty()
    return review


# --------------------------------------------------------------------- all cards visible
@st.cache_data(show_spinner=False, max_entries=4096)
def visible_values(path: str, game_id: str, step: int, _replay: Replay) -> dict[str, int] | None:
    """Each legal card's value for the seat that plays at ``step``, every hand seen (the
    solver, :mod:`replay.solver`), where the review gives a play's loss with all cards visible
    (few enough cards in hand: :func:`replay.review.exact.exact_play`); None elsewhere."""
    event = _replay.event(step)
    if step <= 0 or event.type != "play":
        return None
    state = _replay.state_before(step)
    if not exact_play(event.kind, state, event, visible=True):
        return None
    try:
        solution = solve(state, line=False)
    except NotSolvable:
        return None
    return {card: value[solution.seat] for card, value in solution.values.items()}


def visible_loss_at(path: str, game_id: str, step: int, replay: Replay) -> int | None:
    """The loss with all cards visible of the card played at ``step`` (None: not solved)."""
    values = visible_values(path, game_id, step, replay)
    card = replay.event(step).card
    if values is None or card not in values:
        return None
    better = sign(replay.event(step).kind)
    return max(better * v for v in values.values()) - better * values[card]


def trick_losses(path: str, game_id: str, step: int, replay: Replay) -> dict[int, int]:
    """The loss with all cards visible of each card of the trick on the table at ``step``, by
    seat (the seats whose play was solved)."""
    wanted = {(e.get("seat"), e.get("card")) for e in replay.view(step, None).get("table") or []}
    losses: dict[int, int] = {}
    for back in range(step, 0, -1):
        if not wanted:
            break
        event = replay.event(back)
        if event.type == "play" and (event.player, event.card) in wanted:
            wanted.discard((event.player, event.card))
            loss = visible_loss_at(path, game_id, back, replay)
            if loss is not None and event.player is not None:
                losses[event.player] = loss
    return losses


# --------------------------------------------------------------------- the pane
def on_mistake(replay: Replay, step: int, where: Jump, mistakes: list[int]) -> None:
    st.query_params["step"] = str(replay.jump(step, where, mistakes))


def mistake_buttons(replay: Replay, step: int, mistakes: list[int]) -> None:
    cols = st.columns(len(MISTAKE_JUMPS))
    for col, where in zip(cols, MISTAKE_JUMPS, strict=True):
        label, icon, tip, key = MISTAKE_BUTTONS[where]
        col.button(
            label, key=f"jump_{where}", help=f"To {tip} ({key})", on_click=on_mistake,
            args=(replay, step, where, mistakes), icon=icon, shortcut=key, width="stretch",
            disabled=not replay.can_jump(step, where, mistakes),
            icon_position="left" if where.startswith("prev") else "right",
        )  # fmt: skip


def review_controls(game_id: str, seat: int | None) -> tuple[int, int] | None:
    """The samples and seed of the review asked for this game and seat (None: none asked).
    The review is made when the button is pressed, with the settings of that moment; it then
    follows the steps, and changing the settings asks nothing until the button is pressed."""
    left, right = st.columns(2)
    samples = left.number_input(
        "Samples", 1, 4096, PANE_SAMPLES, key="review_samples",
        help="Deals of the hidden cards per decision",
    )  # fmt: skip
    seed = right.number_input(
        "Seed", 0, 2**31 - 1, 0, key="review_seed", help="The same seed gives the same review"
    )
    if st.button("Review this game", key="review_run", icon=":material/analytics:"):
        st.session_state["review_of"] = (game_id, seat, int(samples), int(seed))
    asked = st.session_state.get("review_of")
    if not isinstance(asked, tuple) or asked[:2] != (game_id, seat):
        return None
    return asked[2], asked[3]


def review_pane(path: str, game_id: str, step: int, seat: int | None, replay: Replay) -> None:
    """The review pane of the replay page for ``step`` (``seat``: the seat whose view is shown,
    the only one reviewed; None: every seat)."""
    st.subheader("Review")
    asked = review_controls(game_id, seat)
    if asked is None:
        whose = "every seat's" if seat is None else "this seat's"
        st.caption(f"Values {whose} decisions against their alternatives on sampled deals of "
                   "what the seat could not see (docs/review.md).")  # fmt: skip
        return
    review = game_review(path, game_id, seat, *asked)
    if isinstance(review, str):
        st.warning(review)
        return
    st.caption(review_caption(review))
    stop = stop_words(review)
    if stop:
        st.info(in_notation(review.kind, stop[0].upper() + stop[1:]))
    mistake_buttons(replay, step, review.mistakes)
    decision = review.decision_at(step)
    if decision is None:
        others = " and other seats' moves" if seat is not None else ""
        st.caption(f"Step {step} is not a reviewed decision (rulings, chance, forced moves"
                   f"{others} are not).")  # fmt: skip
        return
    names = list(replay.view(step, None).get("names") or [])
    who = f" ({names[decision.seat]})" if decision.seat < len(names) else ""
    played, best = (in_notation(review.kind, m) for m in (decision.played, decision.best))
    st.markdown(f"Seat {decision.seat}{who} chose `{played}`; best `{best}`; "
                f"{loss_words(decision)}")  # fmt: skip
    rows = ranked_alternatives(decision, review.unit.lower_is_better)
    table = {"": [r["mark"] for r in rows],
             "move": [in_notation(review.kind, r["move"]) for r in rows],
             "expected [95%]": [r["expected"] for r in rows]}  # fmt: skip
    if any("payout" in r for r in rows):  # a seat paid at a table with stakes
        table["expected payout [95%]"] = [r.get("payout", "-") for r in rows]
    values = visible_values(path, game_id, step, replay)
    if values is not None:  # a play the review solved: each card's value, every hand seen
        table["all cards visible"] = [
            str(values.get(r["move"].removeprefix("play "), "-")) for r in rows
        ]
    st.dataframe(table, hide_index=True)
