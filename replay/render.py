"""Terminal rendering shared by the CLI: coloured cards and a panel for a state view.

Everything here reads the common keys of a game's view (see ``docs/state.md``); what a card
code shows (its suit and terminal colour) comes from :mod:`replay.faces`. Game-specific data
(``view["game"]``) is shown as ``key: value`` lines.

>>> card_style("hearts", "QH"), card_style("fou", "G12"), card_style("fou", "1a")
('bold red', 'bold green', 'bold magenta')
>>> cards_text("hez2", ["7O", "RE"]).plain
'7O RE'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from replay.faces import PLAIN as PLAIN
from replay.faces import card_face, suit_of


def card_style(kind: str, code: str) -> str:
    """The rich style of a card code in a game (its suit's colour, :mod:`replay.faces`)."""
    return card_face(kind, code).style


def card_text(kind: str, code: str) -> Text:
    """One card, coloured."""
    return Text(code, style=card_style(kind, code))


def cards_text(kind: str, codes: Sequence[str], empty: str = "-") -> Text:
    """Cards separated by spaces, each coloured; ``empty`` when there are none."""
    if not codes:
        return Text(empty, style="dim")
    return Text(" ").join(card_text(kind, c) for c in codes)


# --------------------------------------------------------------------- the state panel
def _seat_label(seat: int | None) -> str:
    return "omniscient view" if seat is None else f"seat {seat}'s view"


def headline(view: Mapping[str, Any]) -> Text:
    """Round, trick, what is due and by whom, and whose view this is."""
    parts = [f"round {_dash(view.get('round'))}", f"trick {_dash(view.get('trick'))}"]
    if view.get("over"):
        due = "game over"
    elif view.get("turn"):
        due = "turn: seat " + ", ".join(str(s) for s in view["turn"])
    else:
        due = f"{view.get('phase', '?')} due"
    parts.append(due)
    parts.append(_seat_label(view.get("seat_view")))
    return Text("  ·  ".join(parts), style="bold")


def seats_table(view: Mapping[str, Any]) -> Table:
    """One row per seat: whose turn, name, total, hand size and the hand (or hidden)."""
    kind = str(view.get("kind", ""))
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="dim")
    for column, justify in (("", "left"), ("seat", "right"), ("name", "left")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    table.add_column("total", justify="right")
    table.add_column("cards", justify="right")
    table.add_column("hand")
    hands = view.get("hands") or []
    sizes = view.get("hand_sizes") or []
    names = view.get("names") or []
    totals = view.get("totals") or []
    turn = set(view.get("turn") or [])
    for seat in range(int(view.get("players", 0))):
        hand = hands[seat] if seat < len(hands) else None
        size = sizes[seat] if seat < len(sizes) else None
        shown = cards_text(kind, hand) if hand is not None else Text("(hidden)", style="dim")
        table.add_row(
            Text("▶", style="bold cyan") if seat in turn else Text(""),
            str(seat),
            str(names[seat]) if seat < len(names) else "",
            _dash(totals[seat] if seat < len(totals) else None),
            _dash(size),
            shown,
        )
    return table


def table_line(view: Mapping[str, Any]) -> Text:
    """The cards on the table (the trick, or Hez2's exposed card) with who played them."""
    kind = str(view.get("kind", ""))
    line = Text("table: ", style="dim")
    entries = view.get("table") or []
    if not entries:
        return line.append("-", style="dim")
    for i, entry in enumerate(entries):
        if i:
            line.append("  ")
        if entry.get("seat") is not None:
            line.append(f"{entry['seat']}:", style="dim")
        line.append_text(card_text(kind, str(entry.get("card"))))
    return line


def game_lines(view: Mapping[str, Any]) -> Text:
    """The game-specific data as ``key: value`` lines (card codes coloured)."""
    kind = str(view.get("kind", ""))
    out = Text()
    for i, (key, value) in enumerate((view.get("game") or {}).items()):
        if i:
            out.append("\n")
        out.append(f"{key}: ", style="dim")
        out.append_text(format_value(kind, value))
    return out


def format_value(kind: str, value: Any) -> Text:
    """A JSON value compactly: ``-`` for null, lists space-separated, cards in colour.

    >>> format_value("hearts", [["QS", "2H"], None, []]).plain
    '[QS 2H] - []'
    >>> format_value("hiifuu", [{"value": 3, "holder": None}]).plain
    '{value=3 holder=-}'
    """
    if value is None:
        return Text("-", style="dim")
    if isinstance(value, bool):
        return Text("yes" if value else "no")
    if isinstance(value, str):
        return card_text(kind, value) if suit_of(kind, value) else Text(value)
    if isinstance(value, Mapping):
        inner = Text(" ").join(
            Text(f"{k}=").append_text(format_value(kind, v)) for k, v in value.items()
        )
        return Text("{").append_text(inner).append("}")
    if isinstance(value, list | tuple):
        if not value:
            return Text("[]")
        return Text(" ").join(_bracketed(kind, v) for v in value)
    return Text(str(value))


def _bracketed(kind: str, value: Any) -> Text:
    """A list element: nested lists in brackets, anything else as :func:`format_value`."""
    if isinstance(value, list | tuple):
        inner = Text(" ").join(format_value(kind, v) for v in value)
        return Text("[").append_text(inner).append("]")
    return format_value(kind, value)


def state_panel(view: Mapping[str, Any], *, notes: Sequence[str] = ()) -> Panel:
    """The whole state at one step as a rich panel: headline, seats, table, event, game data.

    ``notes`` are extra lines under the panel body (e.g. a warning that the log stops early).
    """
    step = view.get("step")
    last = view.get("last_step")
    counter = f"step {step}/{last}" if step is not None else f"seq {view.get('seq')}"
    title = f"[bold]{view.get('kind')}[/] {view.get('game_id')}  ·  {counter}"
    event = Text("event: ", style="dim").append(str(view.get("last_event") or "-"))
    parts: list[RenderableType] = [
        headline(view),
        Text(""),
        seats_table(view),
        Text(""),
        table_line(view),
        event,
    ]
    if view.get("game"):
        parts += [Text(""), game_lines(view)]
    parts += [Text(note, style="bold yellow") for note in notes]
    return Panel(Group(*parts), title=title, title_align="left", border_style="cyan")


def _dash(value: object) -> str:
    return "-" if value is None else str(value)
