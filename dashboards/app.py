"""The dashboard's entry point: the source, the sidebar filters and the pages.

Run by ``replay dashboard STORE|FILE`` (``streamlit run dashboards/app.py -- PATH``). The
filters live in the URL (``?kind=hearts&player=p1``), so a filtered view can be shared; every
page reads them through :func:`chosen`.
"""

from __future__ import annotations

import datetime
import time
from pathlib import Path

import streamlit as st

from dashboards.data import (
    PAGE_SECONDS,
    Snapshot,
    open_source,
    player_names,
    seat_counts,
    snapshot,
    source_path,
)
from replay.analytics import Filters
from replay.games import available_kinds

PAGES = Path(__file__).parent / "views"
ANY = "any"


def sidebar_filters(path: str, snap: Snapshot) -> Filters:
    """The filters, in the sidebar and in the URL (``bind``: the widget and the URL agree)."""
    side = st.sidebar
    side.header("Filters")
    kinds = [ANY, *available_kinds()]
    kind = side.selectbox("Game", kinds, key="kind", bind="query-params")
    chosen_kind = None if kind == ANY else str(kind)
    player = side.selectbox(
        "Player", [ANY, *player_names(path, chosen_kind, snap)], key="player", bind="query-params"
    )
    seats = side.selectbox(
        "Players at the table", [ANY, *map(str, seat_counts(path, chosen_kind, snap))],
        key="players", bind="query-params",
    )  # fmt: skip
    since = side.date_input("From", value=None, key="since", bind="query-params")
    until = side.date_input("Until", value=None, key="until", bind="query-params")
    return Filters(
        chosen_kind,
        None if player == ANY else str(player),
        None if seats == ANY else int(seats),
        since if isinstance(since, datetime.date) else None,
        until if isinstance(until, datetime.date) else None,
    )


def main() -> None:
    st.set_page_config(
        page_title="replay", layout="wide"
    )  # no icons: a page icon becomes the favicon, fetched from a CDN
    path = source_path()
    source = open_source(path)
    st.session_state["source"] = path
    snap = st.session_state["snapshot"] = snapshot(path)  # once a run: what the figures read
    st.session_state["chosen"] = sidebar_filters(path, snap)
    st.sidebar.caption(f"Reading {source.label} (read-only)")
    pages = [
        st.Page(PAGES / "overview.py", title="Overview", default=True),
        st.Page(PAGES / "statistics.py", title="Statistics"),
        st.Page(PAGES / "player.py", title="Player"),
        st.Page(PAGES / "replay.py", title="Replay"),
        st.Page(PAGES / "audit.py", title="Audit"),
    ]
    start = time.perf_counter()
    st.navigation(pages).run()
    seconds = time.perf_counter() - start
    st.session_state[PAGE_SECONDS] = seconds  # read by benchmarks/bench_dashboard.py
    st.sidebar.caption(f"This page ran in {seconds:.2f} s on the server.")


main()
