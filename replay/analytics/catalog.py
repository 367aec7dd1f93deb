"""The SQL files of the statistics layer, in the order an engine runs them (no engine here).

Layout of ``replay/analytics/sql/``:

- ``prelude_duckdb.sql``: DuckDB macros named after the Spark SQL functions the files use;
- ``common/views/*.sql``: the views every game shares, read only ``events`` (and each other);
- ``common/parts/*.sql``: the typed, empty start of each *part*: a view whose rows each game kind
  adds in its own ``<kind>/<part>.sql`` (card faces, seat results, round dealers), so that a new
  game adds files and never edits a common view;
- ``common/filters/*.sql``: the games and seats that :class:`~replay.analytics.Filters` select;
- ``common/stats``, ``common/metrics``: statistics and rates over every kind;
- ``common/reviews/*.sql``: the stored reviews (``replay reindex --reviews``; an empty, typed
  start while there are none) and the views over them;
- ``<kind>/views``, ``<kind>/stats``, ``<kind>/metrics``: one game's own views and statistics.

A file starts with a comment block: ``-- name: what it is`` (views), or ``-- title:``, ``--
chart:``, ``-- derived: true`` lines and free description lines. Parameters are written
``:name`` (Spark's form); :func:`duckdb_sql` turns them into DuckDB's ``$name``.
The Spark runner (:mod:`replay.spark.stats`) reads the same plan: :func:`view_plan`,
:func:`statistic_files`, :func:`metric_files`, :data:`FILTER_VIEWS` and :data:`PARAMETERS`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

SQL_DIR = Path(__file__).parent / "sql"
COMMON = "common"
PRELUDE_DUCKDB = SQL_DIR / "prelude_duckdb.sql"

#: Helper views over ``events`` that the parts read, in order.
BASE_VIEWS: tuple[str, ...] = ("seat_numbers", "game_starts", "game_ends", "final_totals")
#: The views each game kind adds rows to (``<kind>/<part>.sql``), in order.
PARTS: tuple[str, ...] = ("card_faces", "seat_results", "round_dealers")
#: The layers of the contract, in dependency order.
LAYERS: tuple[str, ...] = ("seats", "plays", "tricks", "rounds", "games")
#: Common views over the layers: per-game counts that keep the statistics off the largest views.
SUMMARIES: tuple[str, ...] = ("trick_cards",)
#: The reviews' views, in order: the two stored tables (:mod:`replay.analytics.reviews`), then
#: the views over them; then the stored luck (:mod:`replay.analytics.luck`) and its view, and
#: the fair-play signal's counts (:mod:`replay.analytics.fairplay`).
REVIEWS: tuple[str, ...] = (
    "reviews", "review_games", "decisions", "review_summary", "luck", "luck_units", "fairplay",
)  # fmt: skip
#: The filter views, built for each :class:`~replay.analytics.Filters` (parameters below).
FILTER_VIEWS: tuple[str, ...] = ("chosen", "chosen_seats")
#: Every parameter a file may use: the fields of ``Filters``.
PARAMETERS: tuple[str, ...] = ("kind", "player", "players", "since", "until")

#: The statistics ``replay stats`` shows by default, after the overview of each kind: who
#: wins most, and how bots fare against humans (``--all``: every statistic).
SUMMARY: tuple[str, ...] = ("leaders", "bots_and_humans")

_HEADER_KEYS = ("title", "chart", "derived", "unit", "section", "words", "needs")
_PARAM = re.compile(r"(?<![:\w]):([a-z_][a-z0-9_]*)")


@dataclass(frozen=True)
class SqlFile:
    """One ``.sql`` file: its name (the file stem), game kind (None: common) and text."""

    name: str
    kind: str | None
    path: Path
    sql: str
    headers: dict[str, str] = field(default_factory=dict)
    description: str = ""

    @property
    def title(self) -> str:
        return self.headers.get("title", self.name.replace("_", " "))

    @property
    def chart(self) -> str | None:
        return self.headers.get("chart")

    @property
    def section(self) -> str:
        """Where a screen lists it: ``Players``, ``Seats and the deal``, ``Cards``..."""
        return self.headers.get("section", "More")

    @property
    def words(self) -> dict[str, str]:
        """What a column is called for people (``-- words: hits=won, opportunities=played``);
        a column not named there: its name with spaces."""
        pairs = (p.partition("=") for p in self.headers.get("words", "").split(","))
        return {k.strip(): v.strip() for k, sep, v in pairs if sep}

    @property
    def derived(self) -> bool:
        """Whether ``replay reindex`` materialises this view as a Parquet file."""
        return self.headers.get("derived") == "true"

    @property
    def needs_reviews(self) -> bool:
        """Whether it reads the stored reviews (header ``needs: reviews``)."""
        return self.headers.get("needs") == "reviews"

    @property
    def relative(self) -> str:
        return self.path.relative_to(SQL_DIR.parents[2]).as_posix()


def read_sql(path: Path, kind: str | None) -> SqlFile:
    """A file with its header comments parsed."""
    text = path.read_text(encoding="utf-8")
    headers: dict[str, str] = {}
    description: list[str] = []
    for line in text.splitlines():
        if not line.startswith("--"):
            break
        body = line[2:].strip()
        key, sep, value = body.partition(":")
        if sep and key in _HEADER_KEYS:
            headers[key] = value.strip()
        else:
            description.append(body)
    return SqlFile(path.stem, kind, path, text, headers, " ".join(description).strip())


@cache
def kinds() -> tuple[str, ...]:
    """The game kinds that have SQL files (each a directory next to ``common``, named after a
    kind of the registry: ``tests/test_analytics.py`` checks them against it)."""
    return tuple(
        sorted(p.name for p in SQL_DIR.iterdir() if p.is_dir() and p.name not in (COMMON,))
    )


def _files(kind: str | None, folder: str) -> list[SqlFile]:
    base = SQL_DIR / (kind or COMMON) / folder
    return [read_sql(p, kind) for p in sorted(base.glob("*.sql"))] if base.is_dir() else []


def _common_view(name: str, folder: str = "views") -> SqlFile:
    return read_sql(SQL_DIR / COMMON / folder / f"{name}.sql", None)


def part_sql(part: str) -> str:
    """A part's view: its common empty start and every kind's rows, as one UNION ALL."""
    pieces = [read_sql(SQL_DIR / COMMON / "parts" / f"{part}.sql", None).sql]
    for kind in kinds():
        path = SQL_DIR / kind / f"{part}.sql"
        if path.is_file():
            pieces.append(path.read_text(encoding="utf-8"))
    return "\nUNION ALL\n".join(
        f"SELECT * FROM (\n{_strip(p)}\n) AS part_{i}" for i, p in enumerate(pieces)
    )


def _strip(sql: str) -> str:
    return sql.strip().rstrip(";")


@cache
def view_plan() -> tuple[tuple[str, str], ...]:
    """Every view after ``events`` as (name, SELECT), in the order they must be created."""
    plan: list[tuple[str, str]] = [(v, _strip(_common_view(v).sql)) for v in BASE_VIEWS]
    plan += [(p, part_sql(p)) for p in PARTS]
    plan += [(v, _strip(_common_view(v).sql)) for v in (*LAYERS, *SUMMARIES)]
    for kind in kinds():
        plan += [(f.name, _strip(f.sql)) for f in _files(kind, "views")]
    plan += [(v, _strip(_common_view(v, "reviews").sql)) for v in REVIEWS]
    return tuple(plan)


@cache
def view_files() -> tuple[SqlFile, ...]:
    """The view files (common layers, then each kind's views), for documentation and reindex."""
    files = [_common_view(v) for v in (*BASE_VIEWS, *LAYERS, *SUMMARIES)]
    for kind in kinds():
        files += _files(kind, "views")
    files += [_common_view(v, "reviews") for v in REVIEWS]
    return tuple(files)


def derived_views() -> tuple[str, ...]:
    """The views ``replay reindex`` materialises (header ``derived: true``), in plan order."""
    marked = {f.name for f in view_files() if f.derived}
    return tuple(name for name, _ in view_plan() if name in marked)


@cache
def filter_files() -> tuple[SqlFile, ...]:
    """``chosen`` and ``chosen_seats``, in that order."""
    return tuple(read_sql(SQL_DIR / COMMON / "filters" / f"{n}.sql", None) for n in FILTER_VIEWS)


@cache
def statistic_files() -> tuple[SqlFile, ...]:
    """Every statistic: the common ones, then each kind's."""
    return tuple(f for kind in (None, *kinds()) for f in _files(kind, "stats"))


@cache
def metric_files() -> tuple[SqlFile, ...]:
    """Every rate for the metric x dimension view: the common ones, then each kind's."""
    return tuple(f for kind in (None, *kinds()) for f in _files(kind, "metrics"))


def parameters_of(sql: str) -> list[str]:
    """The ``:name`` parameters a file uses (outside string literals and comments)."""
    found: list[str] = []
    for code in _code_pieces(sql):
        found += [m for m in _PARAM.findall(code) if m not in found]
    return found


def duckdb_sql(sql: str) -> str:
    """The file for DuckDB: ``:name`` parameters become ``$name`` (strings left as they are)."""
    out = []
    for i, piece in enumerate(_LITERAL.split(sql)):
        out.append(_PARAM.sub(r"$\1", piece) if i % 2 == 0 else piece)
    return "".join(out)


_LITERAL = re.compile(r"('(?:[^']|'')*'|--[^\n]*)")


def _code_pieces(sql: str) -> list[str]:
    return _LITERAL.split(sql)[::2]
