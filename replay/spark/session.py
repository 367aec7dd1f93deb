"""Starting a Spark session for replay: pyspark and Java checked first, one clear line if not.

Workers run ``PYSPARK_PYTHON`` (set here to this interpreter unless the caller set it) so that
they import the same ``replay``, game modules and pyarrow as the driver. Spark's own log is cut
to errors (``log4j2.properties`` beside this module) and its progress bar is off: the commands
print only their results.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Final

from replay.spark.errors import SparkUnavailable

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

DEFAULT_MASTER: Final = "local[*]"
LOG_CONFIG: Final = Path(__file__).with_name("log4j2.properties")

#: Settings of every session: UTC dates (the ``ts`` column is UTC, as DuckDB reads it), no UI
#: progress bar, Arrow for the transfers between the JVM and Python.
SETTINGS: Final[dict[str, str]] = {
    "spark.sql.session.timeZone": "UTC",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.execution.arrow.pyspark.enabled": "true",
    "spark.driver.extraJavaOptions": f"-Dlog4j2.configurationFile=file:{LOG_CONFIG}",
    "spark.executor.extraJavaOptions": f"-Dlog4j2.configurationFile=file:{LOG_CONFIG}",
}
#: More settings when the master is ``local[...]``: no web UI, and few shuffle partitions (the
#: default 200 costs more than the work on a few cores).
LOCAL_SETTINGS: Final[dict[str, str]] = {
    "spark.ui.enabled": "false",
    "spark.sql.shuffle.partitions": "4",
}


def java_missing() -> str | None:
    """Why Java cannot be started (no ``java`` on PATH nor under JAVA_HOME), or None."""
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").exists():
        return None
    if shutil.which("java"):
        return None
    return "Java is not installed (Spark needs Java 17 or later: apt-get install openjdk-17-jre)"


def pyspark_missing() -> str | None:
    """Why pyspark cannot be imported, or None."""
    try:
        import pyspark  # noqa: F401
    except ImportError:
        return "pyspark is not installed (pip install 'cardgame-replay[spark]')"
    return None


def spark_unavailable() -> str | None:
    """Why the Spark engine cannot run here, or None."""
    return pyspark_missing() or java_missing()


def spark_session(
    master: str | None = None, settings: Mapping[str, str] | None = None
) -> SparkSession:
    """The Spark session for ``master`` (default ``local[*]``), started or reused; raises
    :class:`SparkUnavailable` with one line when it cannot start."""
    reason = spark_unavailable()
    if reason is not None:
        raise SparkUnavailable(reason)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    master = master or DEFAULT_MASTER
    conf = {**SETTINGS, **(LOCAL_SETTINGS if master.startswith("local") else {})}
    builder = SparkSession.builder.master(master).appName("replay")
    for key, value in {**conf, **(settings or {})}.items():
        builder = builder.config(key, value)
    try:
        session = builder.getOrCreate()
    except Exception as exc:  # the gateway's errors: Java too old, a master not reached...
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise SparkUnavailable(f"the Spark session did not start ({master}): {first}") from None
    session.sparkContext.setLogLevel("ERROR")
    _silence_query_context_loggers()
    return session


def _silence_query_context_loggers() -> None:
    """pyspark 4 logs every failed query, as JSON on stderr, before raising it: the commands
    report the error themselves, in one line."""
    from pyspark.logger import PySparkLogger

    for name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
        PySparkLogger.getLogger(name).disabled = True


@contextlib.contextmanager
def quiet_pandas_warning() -> Iterator[None]:
    """Silence pyspark's warning, at each Arrow UDF, that it does not fully support pandas 3:
    the Arrow functions used here never convert to pandas."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")
        yield
