"""One ``--format`` for every command that prints data, and the console it prints on.

``table`` is for people (the command's own layout, coloured on a terminal); ``json`` is one
document (schemas under ``docs/schemas/``); ``jsonl`` one JSON object per line; ``csv`` a header
and one row per record (lists joined by spaces, objects as JSON).
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.console import Console

from replay.text import escaped


class Format(StrEnum):
    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"


FormatOpt = Annotated[
    Format,
    typer.Option("--format", "-f", help="table (for people), json, jsonl or csv (for scripts)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Short for --format json.")]


def chosen(fmt: Format, as_json: bool) -> Format:
    """``--json`` as an alias of ``--format json``."""
    return Format.json if as_json else fmt


# --------------------------------------------------------------------- colour
class Color(StrEnum):
    auto = "auto"
    always = "always"
    never = "never"


#: Set by ``--color`` of the root command (``auto``: colour only on a terminal, and not when
#: ``NO_COLOR`` is set).
COLOR = {"mode": Color.auto}


def use_color(stream: Any = None) -> bool:
    """Whether output on ``stream`` (stdout) gets colour under the ``--color`` mode."""
    mode = COLOR["mode"]
    if mode is Color.always:
        return True
    if mode is Color.never or os.environ.get("NO_COLOR"):
        return False
    target = stream or sys.stdout
    return bool(getattr(target, "isatty", lambda: False)())


#: The width of a panel written to a file or pipe (no terminal to ask): a Hearts hand fits.
PIPE_WIDTH = 120


def console(*, stderr: bool = False) -> Console:
    """A rich console following ``--color`` (no colour codes in a pipe unless ``always``)."""
    stream = sys.stderr if stderr else sys.stdout
    color = use_color(stream)
    return Console(
        file=stream,
        stderr=stderr,
        force_terminal=color,
        no_color=not color,
        color_system="auto" if color else None,
        highlight=False,
        width=None if stream.isatty() else PIPE_WIDTH,
    )


# --------------------------------------------------------------------- data out
def plain(value: Any) -> Any:
    """A value as JSON can hold it (times in ISO 8601)."""
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def dump(document: Any) -> str:
    """One JSON document, indented."""
    return json.dumps(plain(document), indent=2, ensure_ascii=False)


def records_text(rows: Sequence[Mapping[str, Any]], fmt: Format, columns: Sequence[str]) -> str:
    """Records as ``json`` (a list), ``jsonl`` or ``csv`` (only ``columns``, in order)."""
    if fmt is Format.json:
        return dump(list(rows))
    if fmt is Format.jsonl:
        return "\n".join(json.dumps(plain(r), ensure_ascii=False) for r in rows)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([escaped(c) for c in columns])
    for row in rows:
        writer.writerow([csv_cell(row.get(c)) for c in columns])
    return out.getvalue().rstrip("\n")


def csv_cell(value: Any) -> str:
    """A CSV cell: empty for null, lists joined by spaces, objects as JSON; control and
    bidirectional characters escaped (:func:`replay.text.escaped`), never raw.

    >>> csv_cell(["a", "b"]), csv_cell(None), csv_cell({"x": 1}), csv_cell("n\x1b]0;t\x07")
    ('a b', '', '{"x": 1}', 'n\\x1b]0;t\\x07')
    """
    if value is None:
        return ""
    if isinstance(value, list | tuple) and all(not isinstance(v, dict | list) for v in value):
        return escaped(" ".join(str(plain(v)) for v in value))
    if isinstance(value, Mapping | list | tuple):
        return escaped(json.dumps(plain(value), ensure_ascii=False))
    return escaped(str(plain(value)))


def echo(text: str) -> None:
    """Print ``text`` on stdout (nothing for empty text)."""
    if text:
        typer.echo(text)
