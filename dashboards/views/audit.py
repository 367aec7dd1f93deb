"""Audit: the findings of the chosen games (rule IDs and texts); selecting one shows
``replay explain``'s verdict beside the state before the event and opens the replay at its step
(``?finding=N`` selects the N-th finding of the table, for a shared link)."""

from __future__ import annotations

from typing import Any

import altair as alt
import streamlit as st

from dashboards.data import (
    adjusted_result,
    csv_bytes,
    findings_table,
    page_context,
    run_audit,
    show_problems,
    verdict,
)
from dashboards.verdicts import in_notation, in_notation_column, outcome_html
from replay.words import counted

REPLAY_PAGE = "views/replay.py"


def selected_row(event: Any, rows: int) -> int | None:
    """The row picked in the table, else the URL's ``finding``."""
    picked = list(getattr(getattr(event, "selection", None), "rows", None) or [])
    if picked:
        st.query_params["finding"] = str(picked[0])
        return int(picked[0])
    text = st.query_params.get("finding")
    if text is not None and text.isdigit() and int(text) < rows:
        return int(text)
    return None


def counts_chart(findings: Any, column: str, title: str) -> None:
    counts = findings.group_by(column).aggregate([("seq", "count")])
    data = counts.select([column, "seq_count"]).rename_columns([column, "findings"]).to_pandas()
    chart = (
        alt.Chart(data)
        .mark_bar()
        .encode(
            x=alt.X("findings:Q", title="findings", axis=alt.Axis(tickMinStep=1, format="d")),
            y=alt.Y(f"{column}:N", sort="-x", title=column),
            tooltip=[column, "findings"],
        )
        .properties(title=title, height=alt.Step(22))
    )
    st.altair_chart(chart)


def main() -> None:
    path, chosen, snap = page_context()
    st.title("Audit")
    show_problems(path)
    report = run_audit(path, snap)
    for problem in report.problems:
        st.warning(problem)
    findings = findings_table(path, chosen, snap)
    audited = f"{counted(report.games, 'game')} audited, {counted(report.events, 'event')}"
    chosen_findings = counted(findings.num_rows, "finding")
    st.caption(f"{audited}; {chosen_findings} in the games the filters choose")
    if findings.num_rows == 0:
        st.success("No findings: every move is legal and every ruling is the one the rules give.")
        return
    left, right = st.columns(2)
    with left:
        counts_chart(findings, "rule", "Findings per rule")
    with right:
        counts_chart(findings, "kind", "Findings per game kind")
    st.subheader("Findings")
    st.caption("Select a row to see the verdict and open the replay at its step.")
    event = st.dataframe(
        in_notation_column(findings, "message"), hide_index=True, key="findings",
        on_select="rerun", selection_mode="single-row",
    )  # fmt: skip
    st.download_button(  # the CSV is made when the button is pressed
        "Download the findings (CSV)", lambda: csv_bytes(findings), "findings.csv", "text/csv",
        key="csv_findings", on_click="ignore",
    )  # fmt: skip
    row = selected_row(event, findings.num_rows)
    if row is None:
        return
    finding = findings.slice(row, 1).to_pylist()[0]
    game, seq = str(finding["game_id"]), int(finding["seq"])
    st.subheader(f"{finding['rule']} · game {game} · step {seq}")
    result = verdict(path, game, seq)
    explained, state = st.columns(2)
    kind = str(finding["kind"])
    with explained:
        st.markdown(f"**Finding**: {in_notation(kind, str(finding['message']))}")
        if isinstance(result, str):
            st.warning(result)
        elif result.outcome is not None:  # recorded, the rules' event or word, rule, what next
            st.html(outcome_html(result.outcome, kind, result.names))
    with state:
        if not isinstance(result, str):
            st.markdown("**State before the event**")
            st.code(in_notation(kind, result.before), language=None)
    if st.button("Open the replay at this step", type="primary", key="open_replay"):
        st.switch_page(REPLAY_PAGE, query_params={"game": game, "step": str(seq)})
    impact_section(path, game, seq)


def impact_section(path: str, game: str, seq: int) -> None:
    """``replay explain --impact``: did the finding change the result? Computed on demand."""
    st.subheader("Did it change the result?")
    key = f"impact_{game}_{seq}"
    if not st.session_state.get(key) and not st.button("Play the game on", key="run_impact"):
        st.caption("The game played on to its end from the rules' ruling, many times, beside "
                   "the recorded result (docs/review.md).")  # fmt: skip
        return
    st.session_state[key] = True
    impact = adjusted_result(path, game, seq)
    if impact is None or isinstance(impact, str):
        st.warning(impact or "No finding at this step.")
        return
    for line in impact.headline:
        st.markdown(line)
    head, rows = impact.table()
    if rows:
        st.dataframe([dict(zip(head, row, strict=True)) for row in rows], hide_index=True,
                     key="impact_table")  # fmt: skip


main()
