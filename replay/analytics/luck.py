"""The luck of a store's games as data: ``replay reindex STORE --luck`` computes every seat's
luck in every scoring unit (:mod:`replay.review.luck`) and stores it next to the derived tables
(:mod:`replay.analytics.per_game`: incremental like the reviews), as the Parquet file ``luck``
that the views of ``sql/common/reviews`` read (``luck_units``: with the players; the statistic
``luck_players``).
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from replay.analytics.per_game import TableUpdate, stored_table, table_path, update_table
from replay.model.specs import spec
from replay.review import DEFAULT_POLICY
from replay.review.luck import LUCK_VERSION, checked_luck

if TYPE_CHECKING:
    from pathlib import Path

    from replay.model.events import Event
    from replay.store import EventStore

LUCK = "luck"

#: ``luck``: the columns of ``sql/common/reviews/luck.sql``, in its order.
_COLUMNS: dict[str, pa.DataType] = {
    "game_id": pa.string(),
    "kind": pa.string(),
    "unit": pa.int32(),
    "seat": pa.int32(),
    "players": pa.int32(),
    "result": pa.float64(),
    "relative": pa.float64(),
    "luck": pa.float64(),
    "adjusted": pa.float64(),
    "blocks": pa.int32(),
    "settings": pa.string(),
    "events": pa.int64(),
}
LUCK_SCHEMA = pa.schema(_COLUMNS)


@dataclass(frozen=True, slots=True)
class LuckSettings:
    """What the luck is computed with; the same settings give the same figures."""

    draws: int = 16
    seed: int = 0
    policy: str = DEFAULT_POLICY
    playouts: int = 0  # per draw of a later chance block (Hez2's); 0: the hand model

    @property
    def key(self) -> str:
        key = f"v{LUCK_VERSION} draws={self.draws} seed={self.seed} policy={self.policy}"
        return f"{key} playouts={self.playouts}" if self.playouts else key


#: Per seat of the ladder the filters choose (kind, seat count; every date), the sum of its
#: luck-adjusted results over the game's valued units, in date order (the rating's input).
LADDER_SCORES = """
SELECT l.game_id, l.kind, l.started, l.day, l.players, l.seat, l.player,
  sum(l.adjusted) AS score
FROM luck_units l
WHERE l.player IS NOT NULL
  AND (:kind IS NULL OR l.kind = :kind) AND (:players IS NULL OR l.players = :players)
GROUP BY l.game_id, l.kind, l.started, l.day, l.players, l.seat, l.player
ORDER BY l.started, l.game_id, l.seat
"""


def adjusted_places(scores: pa.Table) -> pa.Table:
    """``scores`` (LADDER_SCORES) with each seat's place in its game by its luck-adjusted
    score (1 best; lower scores best where the kind's scoring unit says so; equal scores share
    a place), without the scores: the results :mod:`replay.analytics.ratings` rates."""
    rows = scores.to_pylist()
    by_game: dict[str, list[float]] = {}
    for r in rows:
        by_game.setdefault(r["game_id"], []).append(r["score"])
    for r in rows:
        game = spec(r["kind"])
        unit = game.score_unit if game is not None else None
        sign = 1.0 if unit is not None and unit.lower_is_better else -1.0
        mine = sign * r["score"]
        r["place"] = 1 + sum(sign * other < mine - 1e-9 for other in by_game[r["game_id"]])
    columns = ["game_id", "kind", "started", "day", "players", "player"]
    schema = pa.schema([scores.schema.field(c) for c in columns] + [pa.field("place", pa.int64())])
    return pa.Table.from_pylist([{c: r[c] for c in schema.names} for r in rows], schema)


def luck_path(store: EventStore) -> Path:
    return table_path(store, LUCK)


def stored_luck(store: EventStore, problems: list[str] | None = None) -> dict[str, str]:
    """``{"luck": its Parquet file}``; empty when there is none or it is unusable."""
    return stored_table(store, LUCK, LUCK_SCHEMA, problems)


def game_rows(settings: LuckSettings, events: list[Event]) -> tuple[list[dict[str, Any]], str]:
    """The rows of one game's luck, and why they stop early ("" when they do not)."""
    try:
        units, fault = checked_luck(
            events, draws=settings.draws, seed=settings.seed, policy=settings.policy,
            playouts=settings.playouts,
        )  # fmt: skip
    except (ValueError, LookupError, KeyError, RuntimeError) as exc:
        return [], str(exc)
    return [asdict(u) for u in units], fault or ""


def update_luck(store: EventStore, settings: LuckSettings, *, jobs: int = 1) -> TableUpdate:
    """Compute the luck of the store's games not yet stored with ``settings`` and store it."""
    compute = functools.partial(game_rows, settings)
    return update_table(store, LUCK, LUCK_SCHEMA, settings.key, compute, jobs)
