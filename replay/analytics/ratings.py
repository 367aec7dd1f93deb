"""Player ratings per game kind: OpenSkill's Plackett-Luce model over finishing places.

``rate(results)`` takes one row per game x player (``game_id``, ``kind``, ``started``,
``player``, ``place``; place 1 is best, tied players share a place) and plays the games through
one model per kind in date order (ties broken by game id). Each player starts at the model's
default rating (mu 25, sigma 25/3); the result is the rating after the last game, with the
conservative estimate mu - 3 sigma (OpenSkill's ``ordinal``) that ranks the table.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa
from openskill.models import PlackettLuce, PlackettLuceRating

#: Columns of ``rate``'s result.
_FIELDS: list[pa.Field[Any]] = [
    pa.field("kind", pa.string()),
    pa.field("player", pa.string()),
    pa.field("mu", pa.float64()),
    pa.field("sigma", pa.float64()),
    pa.field("conservative", pa.float64()),
    pa.field("games", pa.int64()),
]
RATINGS_SCHEMA = pa.schema(_FIELDS)

#: Columns ``rate`` reads.
RESULT_COLUMNS = ("game_id", "kind", "started", "player", "place")


@dataclass
class _Ladder:
    """The ratings of one game kind, updated one game at a time."""

    model: PlackettLuce = field(default_factory=PlackettLuce)
    ratings: dict[str, PlackettLuceRating] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)

    def play(self, places: list[tuple[str, int]]) -> None:
        """Rate one game: (player, place) pairs."""
        teams = [[self.rating(player)] for player, _ in places]
        rated = self.model.rate(teams, ranks=[float(place) for _, place in places])
        for (player, _), (rating,) in zip(places, rated, strict=True):
            self.ratings[player] = rating
            self.games[player] = self.games.get(player, 0) + 1

    def rating(self, player: str) -> PlackettLuceRating:
        if player not in self.ratings:
            self.ratings[player] = self.model.rating(name=player)
        return self.ratings[player]


def _games_in_order(results: pa.Table) -> Iterator[tuple[str, list[tuple[str, int]]]]:
    """(kind, [(player, place)...]) per game, by start time, then game id."""
    ordered = results.select(list(RESULT_COLUMNS)).sort_by(
        [("started", "ascending"), ("game_id", "ascending"), ("kind", "ascending")]
    )
    current: tuple[Any, str] | None = None
    places: list[tuple[str, int]] = []
    for row in ordered.to_pylist():
        key = (row["game_id"], row["kind"])
        if key != current:
            if current is not None:
                yield current[1], places
            current, places = key, []
        places.append((row["player"], row["place"]))
    if current is not None:
        yield current[1], places


def rate(results: pa.Table) -> pa.Table:
    """Ratings per kind and player, sorted by kind, then conservative rating (best first)."""
    ladders: dict[str, _Ladder] = {}
    for kind, places in _games_in_order(results):
        ladders.setdefault(kind, _Ladder()).play(places)
    entries = [
        (kind, player, rating, ladder.games[player])
        for kind, ladder in ladders.items()
        for player, rating in ladder.ratings.items()
    ]
    entries.sort(key=lambda e: (e[0], -e[2].ordinal(), e[1]))
    columns: dict[str, list[Any]] = {
        "kind": [kind for kind, _, _, _ in entries],
        "player": [player for _, player, _, _ in entries],
        "mu": [rating.mu for _, _, rating, _ in entries],
        "sigma": [rating.sigma for _, _, rating, _ in entries],
        "conservative": [rating.ordinal() for _, _, rating, _ in entries],
        "games": [games for _, _, _, games in entries],
    }
    return pa.table(columns, schema=RATINGS_SCHEMA)
