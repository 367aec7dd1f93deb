"""The audit and the statistics on Apache Spark, for stores that outgrow one machine.

An optional engine (``pip install 'cardgame-replay[spark]'``): nothing here is imported by
``replay`` itself, and pyspark is imported only when a Spark session is asked for. The store is
read in place (:mod:`replay.spark.snapshot`: the current Delta snapshot resolved with
``deltalake``, its Parquet files read by ``spark.read.parquet``); the audit runs per game on
the workers, calling the same game modules as the local engine (:mod:`replay.spark.audit`). See
docs/scale-out.md.
"""

from replay.spark.errors import SparkUnavailable, UnsupportedTable

__all__ = ["SparkUnavailable", "UnsupportedTable"]
