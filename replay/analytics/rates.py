"""Rates as hits / opportunities with a Wilson 95% interval, flagged below a minimum sample.

A statistic that is a rate has ``hits`` and ``opportunities`` columns; :func:`with_rates` adds
``rate``, ``low``, ``high`` (the Wilson score interval) and ``flagged`` (fewer than
:data:`MIN_SAMPLE` opportunities: too few to read the rate as a figure), as
:func:`replay.review.stats.wilson` gives it for one rate.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from replay.review.stats import Z95

#: Below this many opportunities a rate is flagged.
MIN_SAMPLE = 30
RATE_COLUMNS = ("rate", "low", "high", "flagged")


def is_rate(table: pa.Table) -> bool:
    """Whether a result holds a rate (``hits`` and ``opportunities`` columns)."""
    return "hits" in table.column_names and "opportunities" in table.column_names


def _numbers(table: pa.Table, name: str) -> np.ndarray:
    """A column as float64, null as 0."""
    values = np.asarray(table.column(name).to_numpy(zero_copy_only=False), dtype=np.float64)
    return np.nan_to_num(values, nan=0.0)


def with_rates(table: pa.Table, min_sample: int = MIN_SAMPLE) -> pa.Table:
    """``table`` plus rate, low, high (null where there is no opportunity) and flagged."""
    if not is_rate(table) or "rate" in table.column_names:
        return table
    hits = _numbers(table, "hits")
    n = _numbers(table, "opportunities")
    safe = np.where(n > 0, n, 1.0)
    p = hits / safe
    z2 = Z95 * Z95
    denom = 1 + z2 / safe
    centre = (p + z2 / (2 * safe)) / denom
    half = Z95 * np.sqrt(np.maximum(p * (1 - p) / safe + z2 / (4 * safe * safe), 0.0)) / denom
    empty = n <= 0
    out = table
    for name, values in (
        ("rate", p),
        ("low", np.where(hits <= 0, 0.0, np.maximum(0.0, centre - half))),
        ("high", np.where(hits >= n, 1.0, np.minimum(1.0, centre + half))),
    ):
        out = out.append_column(name, pa.array(values, pa.float64(), mask=empty))
    return out.append_column("flagged", pa.array(n < min_sample, pa.bool_()))
