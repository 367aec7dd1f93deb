"""A step's event as the dashboard shows it: as recorded and, when the rules do not accept it,
what the rules give instead, the rule and the state play continues from, the same lines on the
replay and audit pages (:meth:`replay.engine.cursor.Outcome.lines`), cards as the faces show them.

>>> from replay.engine.cursor import Outcome, cards_in_text
>>> from replay.model.events import Event
>>> play = Event("g", 4, "hearts", "play", player=1, card="QS")
>>> html = outcome_html(Outcome(play, play), "hearts", ["ann", "bo"])
>>> "<b>Event</b>: #4 play seat 1 (bo) Q♠" in html
True
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import pyarrow as pa

from replay.engine.cursor import Outcome, cards_in_text
from replay.model.faces import plain_card_label
from replay.model.rulebook import rule_text


def outcome_lines(
    outcome: Outcome, kind: str, names: Sequence[str], *, hide_cards: bool = False
) -> list[tuple[str, str]]:
    """(label, text) of the step's event: ``Event`` (``Recorded`` when the rules do not
    accept it), then ``The rules give`` or ``The rules say``, ``Rule`` and ``Play continues
    from``."""
    lines = outcome.lines(
        names, lambda code: plain_card_label(kind, code), rule_text, hide_cards=hide_cards
    )
    return [(label[:1].upper() + label[1:], text) for label, text in lines]


def outcome_html(
    outcome: Outcome,
    kind: str,
    names: Sequence[str],
    *,
    verdict: bool = True,
    hide_cards: bool = False,
) -> str:
    """The lines of :func:`outcome_lines` as HTML (escaped); ``verdict=False``: the event
    line alone (a seat's view, where a verdict may name hidden cards)."""
    lines = outcome_lines(outcome, kind, names, hide_cards=hide_cards)
    (label, text), rest = lines[0], lines[1:] if verdict else []
    out = f'<div style="font-size:16px"><b>{escape(label)}</b>: {escape(text)}</div>'
    if rest:
        items = "".join(f"<li><b>{escape(k)}</b>: {escape(v)}</li>" for k, v in rest)
        out += f'<ul style="margin:.3em 0 .6em 0">{items}</ul>'
    return out


def in_notation(kind: str, text: str) -> str:
    """A message's card codes as the faces show them (``2D`` -> ``2♦``)."""
    return cards_in_text(text, lambda code: plain_card_label(kind, code))


def in_notation_column(table: pa.Table, column: str) -> pa.Table:
    """``table`` with the card codes of a text column as the faces show them, each row in its
    game kind's notation (the table has a ``kind`` column); shown, not downloaded: a CSV keeps
    the log's codes."""
    kinds = table.column("kind").to_pylist()
    texts = table.column(column).to_pylist()
    shown = [
        in_notation(str(k), t) if t is not None else None for k, t in zip(kinds, texts, strict=True)
    ]
    return table.set_column(table.column_names.index(column), column, pa.array(shown, pa.string()))
