"""Strings from a log made safe to print on a terminal.

A game id, a card code or any other string of a log may hold control characters (an ``ESC``
sequence sets the title of the terminal that shows it, moves the cursor, hides text) or
bidirectional-text controls (which reorder what is shown): printed raw, an error line would do
what the log's author wants and could show another id than the real one. Every text report and
error line prints such strings through :func:`shown` (an id or a code: unambiguous, ``""`` when
empty) or :func:`escaped` (a message that may quote them). JSON output keeps the raw strings.

>>> shown("g\\x1b]0;pwned\\x07"), shown(""), shown("a\\u202eb"), shown("ok")
('g\\\\x1b]0;pwned\\\\x07', '""', 'a\\\\u202eb', 'ok')
>>> escaped("game g\\x1b[2J: reason"), escaped("a\\\\x1b stays")
('game g\\\\x1b[2J: reason', 'a\\\\x1b stays')
"""

from __future__ import annotations

from collections.abc import Container, Sequence

#: Shown for an empty id, so that ``game  seq 4`` cannot be misread.
EMPTY = '""'


def _escape_char(char: str) -> str:
    """A character the way Python's string literals write it: ``\\x1b``, ``\\u202e``..."""
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escaped(text: str) -> str:
    """``text`` with every character that is not printable (controls, bidirectional and other
    format characters, separators other than the space, surrogates, unassigned code points)
    written as an escape; backslashes stay as they are (a message may quote a ``repr``)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _escape_char(c) for c in text)


def shown(value: str) -> str:
    """An id or code as a text report prints it: :func:`escaped`, a backslash doubled (so that
    the escape of a control character cannot be taken for the id that spells it out), and
    ``""`` for the empty string."""
    if not value:
        return EMPTY
    if value.isprintable() and "\\" not in value:
        return value
    return "".join(
        "\\\\" if c == "\\" else c if c.isprintable() else _escape_char(c) for c in value
    )


def aligned(
    rows: Sequence[Sequence[str]], right: Container[int] = (), *, header_left: bool = False
) -> str:
    """Rows of cells as text columns two spaces apart, each as wide as its widest cell: the
    columns in ``right`` right-aligned (``header_left``: not in the first row), the others
    left-aligned; no trailing spaces.

    >>> print(aligned([["name", "n"], ["ann", "12"]], right={1}))
    name   n
    ann   12
    >>> print(aligned([["name", "n"], ["ann", "12"]], right={1}, header_left=True))
    name  n
    ann   12
    """
    if not rows:
        return ""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]

    def line(row: Sequence[str], right: Container[int]) -> str:
        cells = (
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        )
        return "  ".join(cells).rstrip()

    first = line(rows[0], () if header_left else right)
    return "\n".join([first, *(line(row, right) for row in rows[1:])])
