"""Replay: one game step by step, cards on the table, with jumps; game, step and view in the URL
(``?game=ID&step=N&seat=S``), so a step can be sent to a player in a dispute."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import altair as alt
import pandas as pd
import pyarrow.compute as pc
import streamlit as st

from dashboards.board import (
    board_html,
    game_facts,
    hands_html,
    loss_legend_html,
    result_words,
    seat_facts,
)
from dashboards.data import (
    Replay,
    chosen_games,
    final_result,
    game_replay,
    page_context,
    search_games,
    show_problems,
    standing_rows,
    standing_track,
    verdict,
)
from dashboards.review_pane import review_pane, trick_losses
from dashboards.verdicts import in_notation, outcome_html
from replay.engine.cursor import Jump
from replay.render.svg import cards_html
from replay.words import counted

#: The jump buttons, in screen order: (jump, label, help).
BUTTONS: tuple[tuple[Jump, str, str, str], ...] = (
    ("first", "", ":material/first_page:", "the first step"),
    ("prev_round", "round", ":material/keyboard_double_arrow_left:", "end of the previous round"),
    ("prev_trick", "trick", ":material/keyboard_arrow_left:", "the previous complete trick"),
    ("prev_finding", "finding", ":material/flag:", "the previous step with a finding"),
    ("prev", "", ":material/chevron_left:", "one step back"),
    ("next", "", ":material/chevron_right:", "one step forward"),
    ("next_finding", "finding", ":material/flag:", "the next step with a finding"),
    ("next_trick", "trick", ":material/keyboard_arrow_right:", "the next complete trick"),
    ("next_round", "round", ":material/keyboard_double_arrow_right:", "the end of this round"),
    ("last", "", ":material/last_page:", "the last step"),
)
OMNISCIENT = "everyone"


def url_int(name: str) -> int | None:
    text = st.query_params.get(name)
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def set_url(**values: object) -> None:
    for name, value in values.items():
        if value is None:
            st.query_params.pop(name, None)
        else:
            st.query_params[name] = str(value)


def on_game() -> None:
    set_url(game=st.session_state["replay_game"], step=0)


def on_step() -> None:
    set_url(step=st.session_state["replay_step"])


def on_seat() -> None:
    seat = st.session_state["replay_seat"]
    set_url(seat=None if seat in (None, OMNISCIENT) else seat)


def on_jump(replay: Replay, step: int, where: Jump) -> None:
    set_url(step=replay.jump(step, where))


def pick_game(path: str) -> str | None:
    """The game of the URL, or the one picked (search by id prefix or player)."""
    _, chosen, snap = page_context()
    games = chosen_games(path, chosen, snap)
    wanted = st.query_params.get("game")
    search = st.text_input("Find a game: id prefix or player", key="replay_search")
    ids = search_games(games, search.strip())
    if wanted and wanted not in ids and not search.strip():
        ids = [wanted, *ids]  # a shared link opens its game whatever the filters
    if not ids:
        st.info("No game to replay: the source is empty, or the filters or search leave none.")
        return None
    game = wanted if wanted in ids else ids[0]
    st.session_state["replay_game"] = game
    st.selectbox(f"Game ({len(ids):,} shown)", ids, key="replay_game", on_change=on_game)
    return game


def seat_choice(view: Mapping[str, Any]) -> int | None:
    names = list(view.get("names") or [])
    options = [OMNISCIENT, *range(int(view.get("players") or 0))]
    seat = url_int("seat")
    st.session_state["replay_seat"] = seat if seat in options else OMNISCIENT
    chosen = st.segmented_control(
        "Hands shown as seen by", options, key="replay_seat", on_change=on_seat,
        format_func=lambda s: s if s == OMNISCIENT else f"{names[s] if s < len(names) else s}",
    )  # fmt: skip
    return chosen if isinstance(chosen, int) else None


#: On a phone the jump buttons stay one row of icons (Streamlit stacks columns below 640 px).
NAV_STYLE = """<style>@media (max-width:640px){
.st-key-replay_nav [data-testid="stHorizontalBlock"]{flex-wrap:nowrap!important;gap:2px}
.st-key-replay_nav [data-testid="stColumn"]{min-width:0!important;width:auto!important;
 flex:1 1 0!important}
.st-key-replay_nav button{padding:0 2px;min-height:2rem}
.st-key-replay_nav button [data-testid="stMarkdownContainer"]{display:none}}</style>"""


def navigation(replay: Replay, step: int) -> None:
    st.html(NAV_STYLE)
    with st.container(key="replay_nav"):
        jump_buttons(replay, step)
    last = replay.cursor.last_step
    st.session_state["replay_step"] = step
    if last > 0:
        st.slider("Step", 0, last, key="replay_step", on_change=on_step)


def jump_buttons(replay: Replay, step: int) -> None:
    cols = st.columns([2 if label else 1 for _, label, _, _ in BUTTONS])
    for col, (where, label, icon, tip) in zip(cols, BUTTONS, strict=True):
        col.button(
            label, key=f"jump_{where}", help=f"To {tip}", on_click=on_jump,
            args=(replay, step, where), disabled=not replay.can_jump(step, where), icon=icon,
            icon_position="left" if where.startswith(("prev", "first")) else "right",
            width="stretch",
        )  # fmt: skip


def headline(view: Mapping[str, Any]) -> str:
    parts = [f"**{view.get('kind')}** `{view.get('game_id')}`",
             f"step {view.get('step')} / {view.get('last_step')}"]  # fmt: skip
    if view.get("round") is not None:
        parts.append(f"round {view['round']}")
    if view.get("trick") is not None:
        parts.append(f"trick {view['trick']}")
    names = list(view.get("names") or [])
    if view.get("over"):
        parts.append("game over")
    elif view.get("turn"):
        parts.append("to play: " + ", ".join(names[s] if s < len(names) else str(s)
                                             for s in view["turn"]))  # fmt: skip
    else:
        parts.append(f"{view.get('phase')} due")
    return " · ".join(parts)


#: The players' legend beside the chart, one compact row per player.
LEGEND = alt.Legend(orient="right", rowPadding=1, labelLimit=110, symbolLimit=0)


def standing_chart(path: str, game_id: str, view: Mapping[str, Any]) -> None:
    """The game's own figure (Hearts' points, Hez2's cards left...) per player up to the step
    shown, never beyond it (the rest of the game is not given away), then every figure of the
    step as a table."""
    rows, figures = standing_rows(view)
    figure = str(rows[0]["figure"]) if rows else "score"
    track = standing_track(path, game_id)
    shown = track.filter(pc.less(track.column("step"), view["step"])) if track.num_rows else track
    data = pd.DataFrame([*shown.to_pylist(), *rows])
    if len(data) > len(rows):
        lines = (
            alt.Chart(data)
            .mark_line(point=True, interpolate="step-after")
            .encode(
                x=alt.X("step:Q", title="step", scale=alt.Scale(domainMin=0)),
                y=alt.Y("value:Q", title=figure, axis=alt.Axis(format="d", tickMinStep=1)),
                color=alt.Color("name:N", title="player", legend=LEGEND),
                tooltip=[alt.Tooltip("name:N", title="player"), alt.Tooltip("step:Q"),
                         alt.Tooltip("value:Q", title=figure)],
            )
        )  # fmt: skip
        height = max(220, 110 + 24 * len(rows))  # the whole chart: its legend fits beside it
        st.altair_chart(lines.properties(height=height, title=f"{figure.capitalize()} so far"))
    names = list(view.get("names") or [])
    table: dict[str, list[Any]] = {"player": names}
    for name, values in figures.items():
        table[name] = ["-" if v is None else v for v in values]
    table.update(seat_facts(view))
    st.dataframe(table, hide_index=True)


def result_panel(path: str, game_id: str, view: Mapping[str, Any]) -> None:
    """At the end of a game: who won, the places and payouts by name (the rules' result)."""
    names = list(view.get("names") or [])
    lines = result_words(final_result(path, game_id), names)
    if lines:
        st.success("  \n".join(lines))


def explanation(path: str, game_id: str, step: int, replay: Replay) -> None:
    """The findings at this step and what differs between the recorded ruling and the rules'
    (the event, the rules' event and the rule are on the left, :func:`outcome_html`)."""
    here = [f for f in replay.findings if f.seq == step]
    if not here:
        return
    kind = here[0].kind
    for finding in here:
        st.error(f"**{finding.rule}** at step {finding.seq}: {in_notation(kind, finding.message)}")
    result = verdict(path, game_id, step)
    if isinstance(result, str):
        st.caption(result)
    elif result.differs:
        words = "\n".join(f"- {in_notation(kind, d.words)}" for d in result.differs)
        st.markdown(f"**What differs** (recorded vs the rules):\n{words}")


def visible_frames(
    path: str, game_id: str, step: int, seat: int | None, replay: Replay
) -> dict[int, int] | None:
    """The losses with all cards visible of the trick's cards when asked for (everyone's view
    only: a loss is judged with every hand seen)."""
    if seat is not None or not replay.view(step, None).get("table"):
        return None
    if not st.toggle("Frame the trick's cards by their loss with all cards visible",
                     key="visible_frames", help="As the BBO hand viewer: each card of the "
                     "trick against the best card, every hand seen (docs/solver.md)"):  # fmt: skip
        return None
    return trick_losses(path, game_id, step, replay)


def main() -> None:
    path, _, _ = page_context()
    st.title("Replay")
    show_problems(path)
    game = pick_game(path)
    if game is None:
        return
    replay = game_replay(path, game)
    if isinstance(replay, str):
        st.warning(replay)
        return
    last = replay.cursor.last_step
    step = min(max(url_int("step") or 0, 0), last)
    seat = seat_choice(replay.view(0, None))
    navigation(replay, step)
    view = replay.view(step, seat)
    st.markdown(headline(view))
    event = replay.event(step)
    left, right = st.columns([3, 2])
    with left:
        outcome = replay.outcome(step)
        hidden = view.get("last_event") != outcome.recorded.describe()  # a seat's view hid cards
        names = [str(n) for n in view.get("names") or []]
        words = outcome_html(outcome, view["kind"], names, verdict=seat is None, hide_cards=hidden)
        cards = [event.card] if event.card else list(event.cards or ())
        shown = (
            cards_html(view["kind"], cards, width=34, img=True) if cards and seat is None else ""
        )
        st.html(f"{words}{shown}")
        losses = visible_frames(path, game, step, seat, replay)
        st.html(board_html(view, losses))
        if losses is not None:
            st.html(loss_legend_html())
        st.html(hands_html(view))
    with right:
        if replay.cursor.stopped is not None:
            stop = replay.cursor.stopped
            st.warning(f"The log cannot be replayed past step {last}: seq {stop.seq} "
                       f"breaks {stop.violation}")  # fmt: skip
        if seat is None:
            explanation(path, game, step, replay)
        elif any(f.seq == step for f in replay.findings):
            st.info("A finding at this step: its verdict may name hidden cards, so it shows in "
                    "everyone's view only.")  # fmt: skip
        review_pane(path, game, step, seat, replay)
        if view.get("over"):
            result_panel(path, game, view)
        standing_chart(path, game, view)
        facts = game_facts(view)
        if facts:
            st.dataframe({"": [k for k, _ in facts], " ": [v for _, v in facts]}, hide_index=True)
        if replay.findings and seat is None:
            listed = ", ".join(f"step {f.seq} {f.rule}" for f in replay.findings[:12])
            st.caption(f"{counted(len(replay.findings), 'finding')} in this game: {listed}")
    set_url(game=game, step=step)


main()
