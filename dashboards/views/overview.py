"""Overview: what is in the source (games per kind, players, dates, events, findings)."""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import streamlit as st

from dashboards.data import (
    audited,
    chosen_games,
    csv_bytes,
    findings_table,
    open_source,
    page_context,
    player_counts,
    run_audit,
    show_problems,
    store_info,
    warned,
)


def per_kind(games: pa.Table, players: dict[str | None, int]) -> pa.Table:
    """Games, events, players (``players``: the count per kind) and dates per game kind of a
    games table."""
    if games.num_rows == 0:
        return pa.table({"kind": pa.array([], pa.string())})
    grouped = games.group_by("kind").aggregate(
        [("game_id", "count"), ("events", "sum"), ("started", "min"), ("started", "max")]
    )
    columns: dict[str, Any] = {
        "kind": grouped["kind"],
        "games": grouped["game_id_count"],
        "events": grouped["events_sum"],
        "players": [players.get(k, 0) for k in grouped["kind"].to_pylist()],
        "first": grouped["started_min"],
        "last": grouped["started_max"],
    }
    return pa.table(columns).sort_by("kind")


def main() -> None:
    path, chosen, snap = page_context()
    source = open_source(path)
    st.title("Overview")
    st.caption(f"{source.label} · filters in the sidebar apply to every page and stay in the URL")
    show_problems(path)
    with warned("The store's figures could not be read"):
        info = store_info(path, snap)
        if info is not None:
            st.caption(
                f"Delta table version {info.version} · {info.files} data files · "
                f"{info.data_bytes:,} bytes ({info.bytes_per_event:.2f} per event) · "
                f"{info.live_games} live games"
            )
    games = chosen_games(path, chosen, snap)
    players = player_counts(path, chosen, snap) if games.num_rows else {}
    kinds = per_kind(games, players)
    cols = st.columns(5)
    cols[0].metric("Games", f"{games.num_rows:,}")
    cols[1].metric("Events", f"{pc.sum(games['events']).as_py() or 0:,}")
    cols[2].metric("Players", f"{players.get(None, 0):,}")
    first = pc.min(games["started"]).as_py() if games.num_rows else None
    last = pc.max(games["started"]).as_py() if games.num_rows else None
    cols[3].metric("First game", f"{first:%Y-%m-%d}" if first else "-")
    cols[4].metric("Last game", f"{last:%Y-%m-%d}" if last else "-")
    if games.num_rows == 0:
        st.info("No game matches: the source is empty or the filters leave nothing.")
    st.subheader("Per game kind")
    st.dataframe(kinds, hide_index=True)
    st.subheader("Findings")
    if audited(path, snap) or st.button(
        "Audit the games", key="run_audit", help="Check every move and ruling"
    ):
        run_audit(path, snap)
        findings = findings_table(path, chosen, snap)
        st.metric("Findings", f"{findings.num_rows:,}")
        if findings.num_rows:
            counts = findings.group_by(["kind", "rule"]).aggregate([("seq", "count")])
            table = counts.select(["kind", "rule", "seq_count"]).sort_by([("kind", "ascending")])
            st.dataframe(table.rename_columns(["kind", "rule", "findings"]), hide_index=True)
    else:
        st.caption("The audit has not run yet in this server: the button runs it once.")
    st.subheader("Games")
    shown = games.slice(0, 1000)
    st.caption(f"{shown.num_rows:,} of {games.num_rows:,} games shown")
    st.dataframe(shown, hide_index=True)
    st.download_button(  # the CSV is made when the button is pressed (in a thread of its own)
        "Download the games (CSV)", lambda: csv_bytes(games), "games.csv", "text/csv",
        key="csv_games", on_click="ignore",
    )  # fmt: skip


main()
