"""Statistics: SQL views over the event table (DuckDB), statistics, rates and ratings.

The views and statistics are ``.sql`` files under ``sql/`` (see :mod:`.catalog`), run by a small
DuckDB runner (:mod:`.engine`); :class:`Analytics` is what the CLI and the dashboard use.
"""

from replay.analytics.api import (
    DIMENSIONS,
    Analytics,
    Filters,
    Metric,
    StatResult,
    UnknownStatistic,
)
from replay.analytics.engine import QueryRefused
from replay.analytics.rates import MIN_SAMPLE

__all__ = [
    "DIMENSIONS",
    "MIN_SAMPLE",
    "Analytics",
    "Filters",
    "Metric",
    "QueryRefused",
    "StatResult",
    "UnknownStatistic",
]
