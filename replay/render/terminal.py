"""Terminal rendering shared by the CLI: cards with their suit marks, a panel for a state view.

Everything here reads the common keys of a game's view (see ``docs/state.md``); what a card
code shows (rank, suit mark, terminal colour, ASCII fallback) comes from :mod:`replay.model.faces`.
The panel shows each seat with its name and the card it has on the table, the last trick while
the table is empty again, a score sheet at a round's end and at game over, and the game's own
data in words (``hearts broken: no``), leaving out what is empty.

Every string of the log it shows (the game id, names, card codes, the event in words) goes
through :mod:`replay.text` (control and bidirectional characters as escapes), and into
:class:`~rich.text.Text` rather than rich markup (a ``[bold]`` in a name stays text).

>>> card_style("hearts", "QH"), card_style("fou", "G12"), card_style("fou", "1a")
('bold red', 'bold green', 'bold magenta')
>>> cards_text("hez2", ["7O", "RE"]).plain
'7◉ R⚔'
>>> from replay.model.faces import ascii_cards
>>> with ascii_cards():
...     cards_text("hearts", ["TH", "QS"]).plain
'TH QS'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from replay.engine.cursor import Cursor, Outcome
from replay.model.events import Category
from replay.model.faces import (
    ascii_on,
    card_label,
    card_style,
    suit_of,
)
from replay.model.rulebook import rule_text
from replay.text import escaped, shown


def _dot() -> str:
    """The separator of a headline's parts."""
    return "  |  " if ascii_on() else "  ·  "


def card_text(kind: str, code: str) -> Text:
    """One card, coloured."""
    return Text(card_label(kind, code), style=card_style(kind, code))


def cards_text(kind: str, codes: Sequence[str], empty: str = "-") -> Text:
    """Cards separated by spaces, each coloured; ``empty`` when there are none."""
    if not codes:
        return Text(empty, style="dim")
    return Text(" ").join(card_text(kind, c) for c in codes)


# --------------------------------------------------------------------- what the view lacks
@dataclass(frozen=True, slots=True)
class Extras:
    """What a panel shows beyond the state view, read from the game's events.

    ``last_trick``: the (seat, card) plays of the last complete trick, while the table is empty
    again after it, ``last_winner`` its winner (the ruling play continued from) and
    ``recorded_winner`` the seat the log recorded when that differs; ``sheet``: the totals
    after each round so far (round, totals), at a round's end or at game over; ``outcome``:
    the step's event as recorded and the rules' verdict on it.
    """

    last_trick: list[tuple[int, str]] = field(default_factory=list)
    last_winner: int | None = None
    sheet: list[tuple[int, list[Any]]] = field(default_factory=list)
    outcome: Outcome | None = None
    recorded_winner: int | None = None


def extras(cursor: Cursor) -> Extras:
    """The last trick and the score sheet at the cursor's step (no game-specific names: the
    trick and round columns, the event categories)."""
    step = cursor.step
    view = cursor.rules.view(cursor.state, None)
    last: list[tuple[int, str]] = []
    winner: int | None = None
    recorded: int | None = None
    if not view.get("table"):
        done = [s for s in cursor.trick_stops if s <= step]
        if done:
            last, winner, recorded = _trick_at(cursor, done[-1], step)
    sheet: list[tuple[int, list[Any]]] = []
    if step in cursor.round_stops or view.get("over"):
        for stop in (s for s in cursor.round_stops if s <= step):
            round_ = cursor.events[stop].round
            totals = cursor.rules.view(cursor.state_at(stop), None).get("totals") or []
            if round_ is not None:
                sheet.append((round_, list(totals)))
    return Extras(last, winner, sheet, cursor.outcome(), recorded)


def _trick_at(
    cursor: Cursor, end: int, step: int
) -> tuple[list[tuple[int, str]], int | None, int | None]:
    """The plays of the trick complete at step ``end``, the seat of the ruling after it (its
    winner, as play continued from it) if recorded by ``step``, and the seat the log recorded
    when it differs; nothing when a new round has begun since."""
    key = (cursor.events[end].round, cursor.events[end].trick)
    if any(cursor.events[s].round != key[0] for s in range(end + 1, step + 1)):
        return [], None, None
    types = cursor.rules.event_types
    plays = [
        (int(e.player), str(e.card))
        for e in cursor.events[: end + 1]
        if (e.round, e.trick) == key
        and types.get(e.type) is Category.DECISION
        and e.card is not None
        and e.player is not None
    ]
    for s in range(end + 1, step + 1):
        outcome = cursor.outcome(s)
        e = outcome.applied or outcome.recorded
        if types.get(e.type) is Category.RULING and e.player is not None:
            said = outcome.recorded.player
            recorded = None if said == e.player or outcome.applied is None else said
            return plays, int(e.player), recorded
    return plays, None, None


# --------------------------------------------------------------------- the state panel
def _seat_label(seat: int | None) -> str:
    return "omniscient view" if seat is None else f"seat {seat}'s view"


def seat_name(view: Mapping[str, Any], seat: int) -> str:
    """``seat 2 (cy)``, or ``seat 2`` when the game has no names (a name escaped)."""
    names = view.get("names") or []
    name = names[seat] if 0 <= seat < len(names) else ""
    return f"seat {seat} ({shown(str(name))})" if name else f"seat {seat}"


def headline(view: Mapping[str, Any]) -> Text:
    """Round, trick (when the game has them), what is due and by whom, and whose view."""
    parts = []
    for key in ("round", "trick"):
        if view.get(key) is not None:
            parts.append(f"{key} {view[key]}")
    if view.get("over"):
        due = "game over"
    elif view.get("turn"):
        due = "turn: " + ", ".join(seat_name(view, s) for s in view["turn"])
    else:
        due = f"{view.get('phase', '?')} due"
    parts.append(due)
    parts.append(_seat_label(view.get("seat_view")))
    return Text(_dot().join(parts), style="bold")


def seats_table(view: Mapping[str, Any], more: Extras | None = None) -> Table:
    """One row per seat: whose turn, seat, name, total, hand size, its card on the table (or
    in the last trick, dimmed) and the hand (or hidden)."""
    kind = str(view.get("kind", ""))
    more = more or Extras()
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="dim")
    for column, justify in (("", "left"), ("seat", "right"), ("name", "left")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    table.add_column("total", justify="right")
    table.add_column("cards", justify="right")
    played = {e.get("seat"): str(e.get("card")) for e in view.get("table") or []}
    last = dict(more.last_trick)
    show_trick = any(s is not None for s in played) or bool(last)
    if show_trick:
        table.add_column("on table" if played else "last trick")
    table.add_column("hand")
    hands = view.get("hands") or []
    sizes = view.get("hand_sizes") or []
    names = view.get("names") or []
    totals = view.get("totals") or []
    turn = set(view.get("turn") or [])
    for seat in range(int(view.get("players", 0))):
        hand = hands[seat] if seat < len(hands) else None
        size = sizes[seat] if seat < len(sizes) else None
        hand_cell = cards_text(kind, hand) if hand is not None else Text("(hidden)", style="dim")
        row: list[RenderableType] = [
            Text(">" if ascii_on() else "▶", style="bold cyan") if seat in turn else Text(""),
            str(seat),
            Text(shown(str(names[seat])) if seat < len(names) and names[seat] else ""),
            _dash(totals[seat] if seat < len(totals) else None),
            _dash(size),
        ]
        if show_trick:
            row.append(_trick_cell(kind, seat, played, last, more))
        row.append(hand_cell)
        table.add_row(*row)
    return table


def _trick_cell(
    kind: str, seat: int, played: Mapping[Any, str], last: Mapping[int, str], more: Extras
) -> Text:
    if played:
        return card_text(kind, played[seat]) if seat in played else Text("")
    if seat not in last:
        return Text("")
    cell = card_text(kind, last[seat])
    cell.stylize("dim")
    arrow = "  <- " if ascii_on() else "  ← "
    if more.recorded_winner is not None:  # the log and the rules disagree: say whose is whose
        words = {more.last_winner: "won by the rules", more.recorded_winner: "won as recorded"}
    else:
        words = {more.last_winner: "won"}
    return cell.append(arrow + words[seat] if seat in words else "", style="bold")


def outcome_text(outcome: Outcome, view: Mapping[str, Any]) -> Text:
    """The step's event as recorded and, when the rules do not accept it, their verdict and the
    event play continues from: one ``label: text`` line each (:meth:`Outcome.lines`)."""
    kind = str(view.get("kind", ""))
    names = [shown(str(n)) for n in view.get("names") or []]
    hidden = view.get("last_event") != outcome.recorded.describe()  # a seat's view hid cards
    lines = outcome.lines(names, lambda code: card_label(kind, code), rule_text, hide_cards=hidden)
    if view.get("seat_view") is not None and not outcome.stands:  # it may name hidden cards
        lines = [lines[0], ("the rules' verdict", "in the omniscient view only")]
    out = Text()
    style = "bold" if outcome.stands else "bold yellow"
    for i, (label, text) in enumerate(lines):
        out.append("\n" if i else "").append(f"{label}: ", style="dim")
        out.append(escaped(text), style=style if i else "")
    return out


def table_line(view: Mapping[str, Any]) -> Text | None:
    """The cards on the table that belong to no seat (Hez2's exposed card), or ``None``."""
    kind = str(view.get("kind", ""))
    loose = [e for e in view.get("table") or [] if e.get("seat") is None]
    if not loose:
        return None
    line = Text("table: ", style="dim")
    return line.append_text(cards_text(kind, [str(e.get("card")) for e in loose]))


def game_lines(view: Mapping[str, Any]) -> Text:
    """The game-specific data in words, one ``name: value`` line each (``hearts broken: no``;
    a value per seat next to the seat's name; empty values left out)."""
    kind = str(view.get("kind", ""))
    players = int(view.get("players", 0))
    out = Text()
    for key, value in (view.get("game") or {}).items():
        if value is None or value == [] or value == {} or value == "":
            continue
        if out.plain:
            out.append("\n")
        out.append(f"{key.replace('_', ' ')}: ", style="dim")
        if isinstance(value, list) and len(value) == players and players > 1:
            out.append_text(_per_seat(view, kind, value))
        else:
            out.append_text(format_value(kind, value))
    return out


def _per_seat(view: Mapping[str, Any], kind: str, values: list[Any]) -> Text:
    names = view.get("names") or []
    parts = []
    for seat, value in enumerate(values):
        who = shown(str(names[seat])) if seat < len(names) and names[seat] else f"seat {seat}"
        parts.append(Text(f"{who} ").append_text(_bracketed(kind, value)))
    return Text(_dot()).join(parts)


def format_value(kind: str, value: Any) -> Text:
    """A JSON value compactly: ``-`` for null, lists space-separated, cards with their marks.

    >>> format_value("hearts", [["QS", "2H"], None, []]).plain
    '[Q♠ 2♥] - []'
    >>> format_value("hiifuu", [{"value": 3, "holder": None}]).plain
    '{value 3, holder -}'
    """
    if value is None:
        return Text("-", style="dim")
    if isinstance(value, bool):
        return Text("yes" if value else "no")
    if isinstance(value, str):
        return card_text(kind, value) if suit_of(kind, value) else Text(shown(value))
    if isinstance(value, Mapping):
        inner = Text(", ").join(
            Text(f"{str(k).replace('_', ' ')} ").append_text(format_value(kind, v))
            for k, v in value.items()
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


def score_sheet(view: Mapping[str, Any], sheet: Sequence[tuple[int, Sequence[Any]]]) -> Table:
    """The totals after each round, one column per seat (named)."""
    players = int(view.get("players", 0))
    table = Table(title="score sheet", title_justify="left", box=None, header_style="dim")
    table.add_column("round", justify="right")
    for seat in range(players):
        table.add_column(Text(seat_name(view, seat)), justify="right")
    for round_, totals in sheet:
        table.add_row(
            str(round_), *(_dash(totals[s] if s < len(totals) else None) for s in range(players))
        )
    return table


def state_panel(
    view: Mapping[str, Any], *, notes: Sequence[str] = (), more: Extras | None = None
) -> Panel:
    """The whole state at one step as a rich panel: headline, seats (with the trick), the
    table's other cards, the event, the game's data, the score sheet when one is due.

    ``notes`` are extra lines under the panel body (e.g. a warning that the log stops early).
    """
    step = view.get("step")
    last = view.get("last_step")
    counter = f"step {step}/{last}" if step is not None else f"seq {view.get('seq')}"
    title = Text.assemble(  # a Text, not markup: a game id may hold ``[bold]``
        (shown(str(view.get("kind", ""))), "bold"),
        f" {shown(str(view.get('game_id', '')))}{_dot()}{counter}",
    )
    if more is not None and more.outcome is not None:
        event = outcome_text(more.outcome, view)
    else:
        event = Text("event: ", style="dim").append(escaped(str(view.get("last_event") or "-")))
    parts: list[RenderableType] = [headline(view), Text(""), seats_table(view, more), Text("")]
    loose = table_line(view)
    if loose is not None:
        parts.append(loose)
    parts.append(event)
    block = game_lines(view)
    if block.plain:
        parts += [Text(""), block]
    if more is not None and more.sheet:
        parts += [Text(""), score_sheet(view, more.sheet)]
    parts += [Text(escaped(note), style="bold yellow") for note in notes]
    return Panel(
        Group(*parts),
        title=title,
        title_align="left",
        border_style="cyan",
        expand=False,
        box=box.ASCII if ascii_on() else box.ROUNDED,
    )


def _dash(value: object) -> str:
    return "-" if value is None else str(value)
