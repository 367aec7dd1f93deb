"""Statistics, a game kind at a time: the statistics library's results in sections (players,
seats and the deal, rounds and scores, cards: each file's ``section``) behind a table of
contents, one chart per question with words on every axis and legend (rates with their 95%
interval), cards in their deck's order; then a rate by any dimension and the ratings. Every
table downloadable."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

import altair as alt
import pyarrow as pa
import streamlit as st

from dashboards.charts import (
    MAX_BARS,
    READ,
    ROW,
    in_words,
    keys_words,
    labelled,
    rate_chart,
    tooltips,
)
from dashboards.data import (
    Snapshot,
    analytics,
    csv_bytes,
    library,
    page_context,
    show_problems,
    warned,
)
from replay.analytics import Filters
from replay.analytics.words import column_words
from replay.games import available_kinds
from replay.model import specs
from replay.model.faces import Face, card_face, card_order

#: The sections of the page, in order (a statistic's file names its own).
SECTIONS = ("Players", "Seats and the deal", "Rounds and scores", "Cards", "More")
#: Columns that count or measure (the rest, leading, are what a row is about).
MEASURES = frozenset(
    {"hits", "opportunities", "games", "hands", "rounds", "tricks", "passes", "played", "seats",
     "fools", "reshuffles", "rate", "low", "high", "flagged"}
)  # fmt: skip


@st.cache_resource(show_spinner="Computing the statistics…", max_entries=64)
def statistics(path: str, chosen: Filters, snap: Snapshot) -> list[Any]:
    return list(library(path, snap).statistics(chosen))


@st.cache_resource(show_spinner="Computing the rate…", max_entries=128)
def insight(path: str, metric: str, dimension: str, chosen: Filters, snap: Snapshot) -> pa.Table:
    table: pa.Table = library(path, snap).insight(metric, dimension, chosen)
    return table


@st.cache_resource(show_spinner="Rating the players…", max_entries=32)
def ratings(path: str, chosen: Filters, snap: Snapshot, luck_adjusted: bool = False) -> pa.Table:
    table: pa.Table = library(path, snap).ratings(chosen, luck_adjusted=luck_adjusted)
    return table


def kind_title(kind: str) -> str:
    spec = specs.spec(kind)
    return spec.title if spec is not None else kind


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


# --------------------------------------------------------------------- tables in words
def keys_of(table: pa.Table) -> list[str]:
    """The leading columns a row is about (player, seat, card...), before the first measure;
    at least the first column."""
    keys = []
    for name in table.column_names:
        if name in MEASURES:
            break
        keys.append(name)
    return keys or table.column_names[:1]


def value_of(table: pa.Table, keys: list[str]) -> str | None:
    """The figure a bar shows: an average or a per-round figure if there is one, else the
    first count."""
    numeric = [
        n for n in table.column_names
        if n not in keys and n not in ("low", "high", "flagged")
        and (pa.types.is_integer(table.schema.field(n).type)
             or pa.types.is_floating(table.schema.field(n).type))
    ]  # fmt: skip
    averages = [n for n in numeric if n.startswith("avg_") or "_per_" in n]
    chosen = averages or numeric
    return chosen[0] if chosen else None


def one_kind(table: pa.Table) -> pa.Table:
    """The table without its ``kind`` column (the page shows one kind)."""
    if "kind" in table.column_names:
        return table.drop_columns(["kind"])
    return table


# --------------------------------------------------------------------- charts
def suit_name(face: Face) -> str:
    return face.suit.name if face.suit is not None else "other"


def card_grid(kind: str, table: pa.Table, title: str) -> Any:
    """A rate per card as a grid of suit by rank, both in the deck's order."""
    data = table.to_pandas()
    cards = sorted(data["card"], key=lambda c: card_order(kind, str(c)))
    faces = {c: card_face(kind, str(c)) for c in cards}
    data["rank"] = [faces[c].rank for c in data["card"]]
    data["suit"] = [suit_name(faces[c]) for c in data["card"]]
    data["name"] = [faces[c].name for c in data["card"]]
    ranks = list(dict.fromkeys(faces[c].rank for c in cards))
    suits = list(dict.fromkeys(suit_name(faces[c]) for c in cards))
    return (
        alt.Chart(data)
        .mark_rect(stroke="#fff")
        .encode(
            x=alt.X("rank:O", sort=ranks, title="rank", axis=alt.Axis(labelAngle=0)),
            y=alt.Y("suit:O", sort=suits, title="suit"),
            color=alt.Color(
                "rate:Q",
                title="rate",
                scale=alt.Scale(scheme="blues"),
                legend=alt.Legend(format="%"),
            ),
            tooltip=[alt.Tooltip("name:N", title="card"), *tooltips(table)],
        )
        .properties(title=title)
    )


def heatmap(table: pa.Table, keys: list[str], title: str) -> Any:
    value = "rate" if "rate" in table.column_names else value_of(table, keys)
    x, y = keys[-1], keys[-2]
    chart = (
        alt.Chart(labelled(table, keys[:-2]) if len(keys) > 2 else table.to_pandas())
        .mark_rect()
        .encode(
            x=alt.X(f"{x}:O", title=column_words(x)), y=alt.Y(f"{y}:O", title=column_words(y)),
            color=alt.Color(f"{value}:Q", title=column_words(str(value))),
            tooltip=tooltips(table),
        )
    )  # fmt: skip
    if len(keys) > 2:
        chart = chart.facet(column=alt.Column("row:N", title=keys_words(keys[:-2])))
    return chart.properties(title=title)


def histogram(table: pa.Table, keys: list[str], value: str, title: str) -> Any:
    x = keys[-1]
    spread = pa.types.is_floating(table.schema.field(x).type)  # whole numbers: one bar each
    encoding: dict[str, Any] = {
        "x": alt.X(
            f"{x}:{'Q' if spread else 'O'}", title=column_words(x), axis=alt.Axis(labelAngle=0)
        ),
        "y": alt.Y(f"{value}:Q", title=column_words(value)),
        "tooltip": tooltips(table),
    }
    data = labelled(table, keys[:-1]) if len(keys) > 1 else table.to_pandas()
    if len(keys) > 1:
        encoding["color"] = alt.Color("row:N", title=keys_words(keys[:-1]))
    return alt.Chart(data).mark_bar(opacity=0.8).encode(**encoding).properties(title=title)


def result_chart(kind: str, result: Any, title: str) -> Any:
    """The chart of one statistic of one kind, by its hint and the shape of its table."""
    table = one_kind(result.table)
    if table.num_rows == 0:
        return None
    keys = keys_of(table)
    if keys == ["card"] and "rate" in table.column_names:
        return card_grid(kind, table, title)
    if result.chart == "heatmap" and len(keys) >= 2:
        return heatmap(table, keys, title)
    if "rate" in table.column_names:
        return rate_chart(table, keys, title)
    value = value_of(table, keys)
    if value is None:
        return None
    if result.chart == "histogram":
        return histogram(table, keys, value, title)
    return (
        alt.Chart(labelled(table, keys).head(MAX_BARS))
        .mark_bar(color=READ)
        .encode(
            x=alt.X(f"{value}:Q", title=column_words(value)),
            y=alt.Y("row:N", title=keys_words(keys), sort=None),
            tooltip=tooltips(table),
        )
        .properties(title=title, height=ROW)
    )


def question(result: Any, kind: str) -> str:
    """A statistic's title without its game's name (the page shows one game)."""
    title = str(result.title).removeprefix(f"{kind_title(kind)}: ")
    return title[:1].upper() + title[1:]


@st.cache_resource(show_spinner=False, max_entries=64)
def prepared(path: str, chosen: Filters, snap: Snapshot) -> list[tuple[Any, str, Any, bytes]]:
    """Each statistic of the chosen kind with its question, chart and CSV, built once per
    filter (a rerun only sends them)."""
    kind = str(chosen.kind)
    out = []
    for result in statistics(path, chosen, snap):
        if result.table.num_rows == 0:
            continue  # a statistic of something this game does not have (a dealer, tricks)
        title = question(result, kind)
        chart = result_chart(kind, result, title)
        if chart is not None:  # the heading above asks the question: the chart only describes it
            chart = chart.properties(title="", description=title)
        out.append((result, title, chart, csv_bytes(result.table)))
    return out


def show_result(kind: str, result: Any, title: str, chart: Any, csv: bytes) -> None:
    st.subheader(title, anchor=slug(title))
    st.caption(f"{result.description} Rests on {result.games:,} games.")
    if chart is not None:
        st.altair_chart(chart)
    table = one_kind(result.table)
    bars = result.chart != "heatmap" and keys_of(table) != ["card"]
    if chart is not None and "rate" in table.column_names and bars:
        st.caption("Grey bars: fewer opportunities than the statistics read (the interval is "
                   "wide); hover a bar for its figures.")  # fmt: skip
    with st.expander(f"Table ({table.num_rows:,} rows)"):
        if keys_of(table) == ["card"]:
            cards = [str(c) for c in table.column("card").to_pylist()]
            table = table.take(sorted(range(len(cards)), key=lambda i: card_order(kind, cards[i])))
        st.dataframe(in_words(table), hide_index=True)
        st.download_button(
            "CSV", csv, f"{result.name}.csv", "text/csv", key=f"csv_{result.name}",
            on_click="ignore",
        )  # fmt: skip


# --------------------------------------------------------------------- the page's parts
def pick_kind(chosen: Filters) -> str | None:
    """The sidebar's game, else one picked here (the page shows one kind at a time)."""
    kinds = available_kinds()
    if chosen.kind is not None or not kinds:
        return chosen.kind
    if st.session_state.get("stats_kind") not in kinds:
        st.session_state["stats_kind"] = kinds[0]
    picked = st.segmented_control(
        "Game", kinds, format_func=kind_title, key="stats_kind", required=True,
        bind="query-params",
    )  # fmt: skip
    return str(picked or kinds[0])


def contents(sections: dict[str, list[str]], more: Sequence[str]) -> None:
    lines = []
    for section, titles in sections.items():
        lines.append(f"- [{section}](#{slug(section)}): " + " · ".join(
            f"[{t}](#{slug(t)})" for t in titles))  # fmt: skip
    lines += [f"- [{m}](#{slug(m)})" for m in more]
    st.markdown("\n".join(lines))


def picker(path: str, chosen: Filters, snap: Snapshot) -> None:
    """A rate by any dimension, in the manner of lichess insights."""
    lib = library(path, snap)
    metrics = {m.name: m for m in lib.metrics(chosen.kind)}
    dimensions = [d for d in lib.dimensions(chosen.kind) if d != "kind"]
    for key, known in (("metric", metrics), ("dimension", dimensions)):
        if st.query_params.get(key) not in (None, *known):  # another kind's, in the URL
            st.query_params.pop(key)
            st.session_state.pop(key, None)
    if not metrics:
        return
    st.header("A rate by any dimension", anchor="a-rate-by-any-dimension")
    left, right = st.columns(2)
    name = left.selectbox("Rate", list(metrics), format_func=lambda n: metrics[n].title,
                          key="metric", bind="query-params")  # fmt: skip
    dimension = str(right.selectbox("By", dimensions, format_func=column_words, key="dimension",
                                    bind="query-params"))  # fmt: skip
    metric = metrics[str(name)]
    table = insight(path, metric.name, dimension, chosen, snap)
    opportunities = int(sum(v or 0 for v in table.column("opportunities").to_pylist()))
    st.caption(f"{metric.description} One opportunity per {metric.unit}; "
               f"{opportunities:,} opportunities.")  # fmt: skip
    if table.num_rows:
        words = f"{metric.title} by {column_words(dimension)}"
        st.altair_chart(rate_chart(table, [dimension], words))
    with st.expander("Table"):
        st.dataframe(in_words(table), hide_index=True)
        st.download_button("CSV", csv_bytes(table), f"{metric.name}_by_{dimension}.csv",
                           "text/csv", key="csv_insight")  # fmt: skip


def leaderboard(path: str, chosen: Filters, snap: Snapshot) -> None:
    st.header("Ratings", anchor="ratings")
    stored = bool(getattr(library(path, snap), "stored_luck", False))
    adjusted = st.toggle(
        "Luck taken out", key="ratings_luck", disabled=not stored,
        help="Places by the luck-adjusted results of the games whose luck is stored "
        "(`replay reindex STORE --luck`; docs/review.md, Luck)." if stored else
        "No luck stored: `replay reindex STORE --luck` computes it (docs/review.md, Luck).",
    )  # fmt: skip
    table = ratings(path, chosen, snap, adjusted)
    st.caption(
        "OpenSkill (Plackett-Luce) over finishing places, in date order; ranked by the "
        "conservative rating mu - 3 sigma. A player's page shows the rating over time."
        + (" Places here: by the sum of each seat's luck-adjusted results in the game."
           if adjusted else "")
    )  # fmt: skip
    if table.num_rows == 0:
        st.info("No rated games among the chosen ones.")
        return
    ranked = table.sort_by([("kind", "ascending"), ("conservative", "descending")])
    st.dataframe(ranked, hide_index=True)
    st.download_button("CSV", csv_bytes(ranked), "ratings.csv", "text/csv", key="csv_ratings")


def main() -> None:
    path, chosen, snap = page_context()
    st.title("Statistics")
    show_problems(path)
    lib = analytics(path, snap)
    if lib is None:
        st.info("There are no games to count in this source.")
        return
    for problem in lib.problems[:5]:
        st.warning(str(problem))
    kind = pick_kind(chosen)
    chosen = dataclasses.replace(chosen, kind=kind)
    with warned("The statistics could not be computed"):
        results = prepared(path, chosen, snap)
        sections: dict[str, list[tuple[Any, str, Any, bytes]]] = {s: [] for s in SECTIONS}
        for item in results:
            sections.setdefault(item[0].section, []).append(item)
        filled = {s: items for s, items in sections.items() if items}
        contents({s: [i[1] for i in items] for s, items in filled.items()},
                 ["A rate by any dimension", "Ratings"])  # fmt: skip
        for section, items in filled.items():
            st.header(section, anchor=slug(section), divider="gray")
            for result, title, chart, csv in items:
                show_result(str(kind), result, title, chart, csv)
    with warned("The rate by dimension could not be computed"):
        picker(path, chosen, snap)
    with warned("The ratings could not be computed"):
        leaderboard(path, chosen, snap)


main()
