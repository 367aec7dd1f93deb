"""The reference part of docs/statistics.md, written from the SQL files' header comments.

``python -m replay.analytics.reference`` prints it, ``... --write docs/statistics.md`` puts it in
place; a test keeps the doc equal to it.
"""

from __future__ import annotations

import sys
from pathlib import Path

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


def rewrite(path: Path) -> None:
    """Replace the reference part of a Markdown file (between its markers) with a fresh one."""
    doc = path.read_text(encoding="utf-8")
    start, end = doc.index(BEGIN), doc.index(END) + len(END) + 1
    path.write_text(doc[:start] + reference_markdown() + doc[end:], encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--write"]:
        rewrite(Path(sys.argv[2]))
    else:
        print(reference_markdown(), end="")
