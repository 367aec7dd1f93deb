"""Why the Spark engine cannot run: one clear line each, never a Java stack trace."""

from __future__ import annotations

from replay.store.errors import StoreError


class SparkUnavailable(RuntimeError):
    """pyspark is not installed, Java is missing, or the Spark session would not start."""


class UnsupportedTable(StoreError):
    """The Delta table uses a feature that reading its Parquet files directly would get wrong
    (deletion vectors, column mapping...): it needs the Delta Lake connector."""
