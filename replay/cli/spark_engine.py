"""The Spark side of the commands' ``--engine local|spark [--master URL]`` options.

Imported by the command modules; pyspark itself is imported only when ``--engine spark`` runs.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar

from replay.cli.common import Engine, fail

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

    from replay.analytics import Analytics
    from replay.audit import AuditReport
    from replay.sources import Sources
    from replay.store import EventStore

T = TypeVar("T")


def with_spark(master: str | None, work: Callable[[SparkSession], T]) -> T:
    """``work`` run with a Spark session; any failure (no Java, a job that failed) ends the
    command with one line, exit 2."""
    from replay.spark.session import spark_session

    with spark_failures():
        return work(spark_session(master))


@contextlib.contextmanager
def spark_failures(engine: Engine = Engine.spark) -> Iterator[None]:
    """With the Spark engine, a failure inside (no Java, a failed job, a query Spark refuses)
    ends the command with one line, exit 2; with the local engine, nothing changes."""
    from replay.spark.errors import SparkUnavailable
    from replay.store import StoreError

    if engine is not Engine.spark:
        yield
        return
    try:
        yield
    except (SparkUnavailable, StoreError) as exc:
        fail(f"--engine spark: {exc}")
    except Exception as exc:  # a failed Spark job: the JVM's report is pages long
        fail(f"--engine spark: the Spark job failed: {error_line(exc)}")


def error_line(exc: BaseException) -> str:
    """The telling line of a Spark error: a worker's Python exception (the last line of its
    traceback), else the first line of the message."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    if not lines:
        return type(exc).__name__
    python_error = [line for line in lines if line.startswith(("Traceback", "File "))]
    return lines[-1] if python_error else lines[0]


def spark_store(sources: Sources) -> EventStore:
    """The one store of the inputs: the Spark engine reads a store in place, not a file."""
    from replay.sources import StoreInput

    if len(sources.inputs) != 1 or not isinstance(sources.inputs[0], StoreInput):
        fail(
            f"{sources.describe()}: --engine spark reads one event store, not files "
            "(replay import them into a store first)"
        )
    store: EventStore = sources.inputs[0].store
    return store


def audit_with_spark(
    sources: Sources, game: str | None, kind: str | None, master: str | None
) -> AuditReport:
    """``replay audit STORE --engine spark [--game ID | --kind K]``: the report (the store's
    problems are left in the store, for the command to collect with the others)."""
    from replay.spark.audit import audit_on_spark
    from replay.store import StoreError

    store = spark_store(sources)
    game_id = None
    if game is not None:  # as the local engine: one game, whatever --kind says
        try:
            game_id, kind = store.resolve_game_id(game), None
        except StoreError as exc:
            fail(str(exc))
    return with_spark(master, lambda spark: audit_on_spark(spark, store, kind, game_id))


def analytics_with_spark(sources: Sources, master: str | None) -> Analytics:
    """``replay stats|sql STORE --engine spark``: the statistics of the one store on Spark."""
    from replay.spark.stats import analytics_on_spark

    store = spark_store(sources)
    return with_spark(master, lambda spark: analytics_on_spark(spark, store))
