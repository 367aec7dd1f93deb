"""The reference part of docs/statistics.md, written from the SQL files' header comments.

``python -m replay.analytics.reference`` prints it; a test keeps the doc equal to it.
"""

from __future__ import annotations

from replay.analytics import catalog

BEGIN = "<!-- reference: python -m replay.analytics.reference -->"
END = "<!-- end of reference -->"


def _row(*cells: str) -> str:
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


def _file(f: catalog.SqlFile) -> str:
    return f"`{f.relative}`"


def _views() -> list[str]:
    lines = ["### Views", "", _row("view", "what one row is", "file", "derived"),
             _row("---", "---", "---", "---")]  # fmt: skip
    for f in catalog.view_files():
        text = f.description.removeprefix(f"{f.name}:").strip()
        lines.append(_row(f"`{f.name}`", text, _file(f), "yes" if f.derived else ""))
    lines += ["", "Parts (each game kind adds its rows in `<kind>/<part>.sql`):", ""]
    for part in catalog.PARTS:
        common = catalog.read_sql(catalog.SQL_DIR / catalog.COMMON / "parts" / f"{part}.sql", None)
        kinds = [k for k in catalog.kinds() if (catalog.SQL_DIR / k / f"{part}.sql").is_file()]
        text = common.description.removeprefix(f"{part}:").strip()
        lines.append(f"- `{part}` ({_file(common)}; rows from {', '.join(kinds)}): {text}")
    return lines


def _table(title: str, files: tuple[catalog.SqlFile, ...], extra: str) -> list[str]:
    lines = [f"### {title}", ""]
    for kind in (None, *catalog.kinds()):
        chosen = [f for f in files if f.kind == kind]
        if not chosen:
            continue
        lines += [f"#### {kind or 'Every game'}", "", _row("name", "title", "definition", extra,
                  "file"), _row("---", "---", "---", "---", "---")]  # fmt: skip
        for f in chosen:
            hint = f.headers.get("unit" if extra == "unit" else "chart", "")
            lines.append(_row(f"`{f.name}`", f.title, f.description, hint, _file(f)))
        lines.append("")
    return lines


def reference_markdown() -> str:
    """The generated reference: views, parts, statistics and metrics."""
    lines = [BEGIN, "", *_views(), ""]
    lines += _table("Statistics", catalog.statistic_files(), "chart")
    lines += _table("Metrics (rates for the metric x dimension view)", catalog.metric_files(),
                    "unit")  # fmt: skip
    lines.append(END)
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(reference_markdown(), end="")
