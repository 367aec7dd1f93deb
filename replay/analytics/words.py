"""The columns and values of the statistics in words, for screens: ``from_dealer`` is *seats
after the dealer*, ``avg_rounds`` *average rounds*, ``bot`` true/false *bot*/*human*.

A column named here reads as written; any other reads by its parts (``avg_`` average, ``min_``
fewest, ``max_`` most, ``_per_`` per, underscores as spaces), so a new statistic's columns read
without an entry.

>>> column_words("from_dealer"), column_words("avg_points_taken"), column_words("max_turns")
('seats after the dealer', 'average points taken', 'most turns')
>>> value_words("bot", True), value_words("players", 4), value_words("kind", "fou")
('bot', '4 players', 'Fou!')
"""

from __future__ import annotations

from typing import Any, Final

from replay.model import specs

#: Columns whose words are not their parts.
COLUMNS: Final[dict[str, str]] = {
    "kind": "game",
    "players": "players at the table",
    "from_dealer": "seats after the dealer",
    "hits": "times",
    "opportunities": "out of",
    "rate": "rate",
    "low": "95% interval from",
    "high": "95% interval to",
    "flagged": "too few to read",
    "avg_place": "average place",
    "avg_score": "average score",
    "roi": "return on stake",
    "led": "suit or colour led",
    "taken_by": "taken by",
    "level": "level games",
    "behind": "finished behind",
    "one": "one trick",
    "zero": "no trick",
    "three_or_more": "three tricks or more",
    "n": "count",
    "score": "points in the round",
    "penalty": "penalty points",
    "cards": "cards left",
    "longest_draw": "longest pending draw (cards)",
    "trick": "trick number",
}
#: How a value of a column reads on its own (a bar's label): ``{}`` is the value.
VALUES: Final[dict[str, str]] = {
    "players": "{} players",
    "seat": "seat {}",
    "from_dealer": "{} after the dealer",
    "place": "place {}",
    "round": "round {}",
    "trick": "trick {}",
    "position": "position {}",
}
_PARTS: Final = (("avg_", "average "), ("min_", "fewest "), ("max_", "most "))


def column_words(name: str) -> str:
    """A column's name in words."""
    if name in COLUMNS:
        return COLUMNS[name]
    for prefix, words in _PARTS:
        if name.startswith(prefix):
            return words + column_words(name.removeprefix(prefix))
    return name.replace("_per_", " per ").replace("_", " ")


def value_words(column: str, value: Any) -> str:
    """One value of a column in words (``bot``: bot or human)."""
    if isinstance(value, bool):
        if column == "bot":
            return "bot" if value else "human"
        return column_words(column) if value else f"not {column_words(column)}"
    if value is None:
        return "-"
    if column == "kind":
        spec = specs.spec(str(value))
        return spec.title if spec is not None else str(value)
    return VALUES.get(column, "{}").format(value)
