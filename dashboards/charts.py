"""The charts and tables the pages share, in words: a rate per row with its 95% interval, a
table's columns and values named for people (:mod:`replay.analytics.words`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import altair as alt
import pyarrow as pa

from replay.analytics.words import column_words, value_words

#: The most bars a chart draws (the table below it has every row).
MAX_BARS = 60
#: The height of one bar's row (a fixed height in pixels collapses a short bar chart).
ROW = alt.Step(20)
#: The colour of a rate read from enough opportunities, and of one from too few.
READ, TOO_FEW = "#1565c0", "#bdbdbd"
RATE_AXIS = "rate (line: 95% interval)"


def in_words(table: pa.Table) -> pa.Table:
    """The table with its columns named in words (what the page's tables show)."""
    names = [column_words(n) for n in table.column_names]
    seen: dict[str, int] = {}
    unique = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        unique.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return table.rename_columns(unique)


def labelled(table: pa.Table, keys: Sequence[str]) -> Any:
    """The table as a data frame with ``row`` (the key values in words) beside it."""
    data = table.to_pandas()
    data["row"] = [
        ", ".join(value_words(k, row[k]) for k in keys)
        for row in data[list(keys)].to_dict("records")
    ]
    return data


def keys_words(keys: Sequence[str]) -> str:
    return " and ".join(column_words(k) for k in keys)


def tooltips(table: pa.Table) -> list[Any]:
    """Every column of the table as a tooltip line, named in words (rates as percentages)."""
    return [_tooltip(name, table.schema.field(name).type) for name in table.column_names]


def _tooltip(name: str, kind: pa.DataType) -> Any:
    title = column_words(name)
    if name in ("rate", "low", "high"):
        return alt.Tooltip(f"{name}:Q", title=title, format=".1%")
    if pa.types.is_floating(kind):
        return alt.Tooltip(f"{name}:Q", title=title, format=".2f")
    if pa.types.is_integer(kind):
        return alt.Tooltip(f"{name}:Q", title=title, format=",")
    return alt.Tooltip(f"{name}:N", title=title)


def rate_chart(table: pa.Table, keys: Sequence[str], title: str) -> Any:
    """Rates per row (its key values in words) with their Wilson interval as a line; grey
    where the sample is too small."""
    data = labelled(table, keys).head(MAX_BARS)
    base = alt.Chart(data).encode(y=alt.Y("row:N", title=keys_words(keys), sort=None))
    bars = base.mark_bar().encode(
        x=alt.X("rate:Q", title=RATE_AXIS, axis=alt.Axis(format="%")),
        color=alt.condition("datum.flagged", alt.value(TOO_FEW), alt.value(READ)),
        tooltip=tooltips(table),
    )
    errors = base.mark_errorbar(color="#212121").encode(
        x=alt.X("low:Q", title=RATE_AXIS), x2="high:Q"
    )
    return (bars + errors).properties(title=title, height=ROW)
