"""Statistics: the statistics library's results as charts with captions, a metric x dimension
picker (rates with their 95% interval) and the ratings leaderboard; every table downloadable."""

from __future__ import annotations

from typing import Any

import altair as alt
import pyarrow as pa
import streamlit as st

from dashboards.data import (
    Chosen,
    Snapshot,
    analytics,
    csv_bytes,
    page_context,
    show_problems,
    warned,
)


@st.cache_resource(show_spinner="Computing the statistics…", max_entries=64)
def statistics(path: str, chosen: Chosen, snap: Snapshot) -> list[Any]:
    return list(analytics(path, snap).statistics(chosen.analytics()))


@st.cache_resource(show_spinner="Computing the rate…", max_entries=128)
def insight(path: str, metric: str, dimension: str, chosen: Chosen, snap: Snapshot) -> pa.Table:
    table: pa.Table = analytics(path, snap).insight(metric, dimension, chosen.analytics())
    return table


@st.cache_resource(show_spinner="Rating the players…", max_entries=32)
def ratings(path: str, chosen: Chosen, snap: Snapshot) -> pa.Table:
    table: pa.Table = analytics(path, snap).ratings(chosen.analytics())
    return table


#: Columns that count or measure (the rest, leading, are what a row is about).
MEASURES = frozenset(
    {"hits", "opportunities", "games", "hands", "rounds", "tricks", "passes", "played", "seats",
     "fools", "reshuffles", "rate", "low", "high", "flagged"}
)  # fmt: skip
#: The most bars a chart draws (the table below it has every row).
MAX_BARS = 60
#: The height of one bar's row (a fixed height in pixels collapses a short bar chart).
ROW = alt.Step(22)


def keys_of(table: pa.Table) -> list[str]:
    """The leading columns a row is about (kind, player, seat, card...), before the first
    measure; at least the first column."""
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
    averages = [n for n in numeric if n.startswith("avg_") or n.endswith("_per_round")]
    chosen = averages or numeric
    return chosen[0] if chosen else None


def labelled(table: pa.Table, keys: list[str]) -> Any:
    """The table as a data frame with a ``row_label`` column joining the key columns."""
    data = table.to_pandas()
    data["row_label"] = data[keys].astype(str).agg(" · ".join, axis=1)
    return data


def rate_chart(table: pa.Table, key: str, title: str) -> Any:
    """Rates per value of ``key`` (or of all the key columns, joined) with their Wilson
    interval as error bars; grey where the sample is too small."""
    keys = [key] if key in table.column_names else keys_of(table)
    data = labelled(table, keys).head(MAX_BARS)
    base = alt.Chart(data).encode(y=alt.Y("row_label:N", title=" · ".join(keys), sort=None))
    bars = base.mark_bar().encode(
        x=alt.X("rate:Q", title="rate (bars: 95% interval)", axis=alt.Axis(format="%")),
        color=alt.condition("datum.flagged", alt.value("#bdbdbd"), alt.value("#1565c0")),
        tooltip=[*keys, "hits", "opportunities",
                 alt.Tooltip("rate:Q", format=".1%"), alt.Tooltip("low:Q", format=".1%"),
                 alt.Tooltip("high:Q", format=".1%"), "flagged"],
    )  # fmt: skip
    errors = base.mark_errorbar(color="#212121").encode(
        x=alt.X("low:Q", title="rate (bars: 95% interval)"), x2="high:Q"
    )
    return (bars + errors).properties(title=title, height=ROW)


def result_chart(result: Any) -> Any:
    """A chart for one statistic, by its hint and the shape of its table."""
    table: pa.Table = result.table
    if table.num_rows == 0:
        return None
    keys = keys_of(table)
    if result.chart == "heatmap" and len(keys) >= 2:
        value = "rate" if "rate" in table.column_names else value_of(table, keys)
        x, y = keys[-2], keys[-1]
        chart = (
            alt.Chart(table.to_pandas())
            .mark_rect()
            .encode(
                x=alt.X(f"{x}:O"), y=alt.Y(f"{y}:O"), color=alt.Color(f"{value}:Q"),
                tooltip=[*keys, value],
            )
        )  # fmt: skip
        if len(keys) > 2:
            chart = chart.facet(column=alt.Column(f"{keys[0]}:N"))
        return chart.properties(title=result.title)
    if "rate" in table.column_names:
        return rate_chart(table, "", result.title)
    value = value_of(table, keys)
    if value is None:
        return None
    data = labelled(table, keys)
    if result.chart == "histogram":
        x = keys[-1]
        numeric = pa.types.is_integer(table.schema.field(x).type) or pa.types.is_floating(
            table.schema.field(x).type
        )
        encoding: dict[str, Any] = {
            "x": alt.X(f"{x}:{'Q' if numeric else 'O'}", title=x),
            "y": alt.Y(f"{value}:Q", title=value),
            "tooltip": list(table.column_names),
        }
        if len(keys) > 1:
            encoding["color"] = alt.Color("group:N", title=" · ".join(keys[:-1]))
            data["group"] = data[keys[:-1]].astype(str).agg(" · ".join, axis=1)
        return (
            alt.Chart(data).mark_bar(opacity=0.8).encode(**encoding).properties(title=result.title)
        )
    return (
        alt.Chart(data.head(MAX_BARS))
        .mark_bar()
        .encode(
            x=alt.X(f"{value}:Q", title=value),
            y=alt.Y("row_label:N", title=" · ".join(keys), sort=None),
            tooltip=list(table.column_names),
        )
        .properties(title=result.title, height=ROW)
    )


@st.cache_resource(show_spinner=False, max_entries=64)
def prepared(path: str, chosen: Chosen, snap: Snapshot) -> list[tuple[Any, Any, bytes]]:
    """Each statistic with its chart and its CSV, built once per filter (a rerun only sends
    them)."""
    return [(r, result_chart(r), csv_bytes(r.table)) for r in statistics(path, chosen, snap)]


def show_result(result: Any, chart: Any, csv: bytes, index: int) -> None:
    scope = result.kind or "every game"
    st.markdown(f"#### {result.title}")
    st.caption(f"{result.description} — {scope}; rests on {result.games:,} games.")
    if chart is not None:
        st.altair_chart(chart)
        if result.table.num_rows > MAX_BARS and result.chart not in ("heatmap", "histogram"):
            st.caption(f"The chart shows the first {MAX_BARS} of {result.table.num_rows:,} rows; "
                       "the table has them all.")  # fmt: skip
    with st.expander("Table"):
        st.dataframe(result.table, hide_index=True)
    st.download_button(
        "CSV", csv, f"{result.name}.csv", "text/csv", key=f"csv_{index}_{result.name}",
        on_click="ignore",
    )  # fmt: skip


def picker(path: str, chosen: Chosen, snap: Snapshot) -> None:
    """Metric x dimension, in the manner of lichess insights."""
    lib = analytics(path, snap)
    metrics = {m.name: m for m in lib.metrics(chosen.kind)}
    if not metrics:
        return
    st.subheader("Metric by dimension")
    left, right = st.columns(2)
    name = left.selectbox("Metric", list(metrics), format_func=lambda n: metrics[n].title,
                          key="metric", bind="query-params")  # fmt: skip
    dimension = right.selectbox("By", lib.dimensions(chosen.kind), key="dimension",
                                bind="query-params")  # fmt: skip
    metric = metrics[str(name)]
    table = insight(path, metric.name, str(dimension), chosen, snap)
    opportunities = int(sum(v or 0 for v in table.column("opportunities").to_pylist()))
    st.caption(f"{metric.description} — one opportunity per {metric.unit}; "
               f"{opportunities:,} opportunities. Grey bars: too few to read.")  # fmt: skip
    if table.num_rows:
        st.altair_chart(rate_chart(table, str(dimension), f"{metric.title} by {dimension}"))
    st.dataframe(table, hide_index=True)
    st.download_button("CSV", csv_bytes(table), f"{metric.name}_by_{dimension}.csv", "text/csv",
                       key="csv_insight")  # fmt: skip


def leaderboard(path: str, chosen: Chosen, snap: Snapshot) -> None:
    st.subheader("Ratings")
    table = ratings(path, chosen, snap)
    st.caption("OpenSkill (Plackett-Luce) over finishing places, in date order; ranked by the "
               "conservative rating mu - 3 sigma.")  # fmt: skip
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
        st.info("The statistics library is not available for this source.")
        return
    for problem in getattr(lib, "problems", [])[:5]:
        st.warning(str(problem))
    with warned("The metric picker could not be computed"):
        picker(path, chosen, snap)
    with warned("The statistics could not be computed"):
        results = prepared(path, chosen, snap)
        scope = chosen.kind or "all games"
        st.subheader(f"Statistics ({scope})")
        for index, (result, chart, csv) in enumerate(results):
            show_result(result, chart, csv, index)
    with warned("The ratings could not be computed"):
        leaderboard(path, chosen, snap)


main()
