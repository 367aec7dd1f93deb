"""The fair-play signal's counts as data: ``replay reindex STORE --fairplay`` judges the telling
plays of every game (:mod:`replay.review.fairplay`) and stores one row per game and seat, the
counts from which a player's signal over any set of games follows (view ``fairplay``; statistic
``fairplay_players``): the telling plays, the hits, the sum over them of ``B / (L - 1)`` and of
its square (``B`` all-visible best cards of ``L`` legal ones), and the seat's other decisions
with a choice and those where it played the policy's card. Stored like the luck
(:mod:`replay.analytics.per_game`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from replay.analytics.per_game import TableUpdate, stored_table, update_table
from replay.review import DEFAULT_POLICY
from replay.review.fairplay import FAIRPLAY_VERSION, game_plays
from replay.solver import KINDS

if TYPE_CHECKING:
    from replay.model.events import Event
    from replay.store import EventStore

FAIRPLAY = "fairplay"

#: ``fairplay``: the columns of ``sql/common/reviews/fairplay.sql``, in its order.
_COLUMNS: dict[str, pa.DataType] = {
    "game_id": pa.string(),
    "kind": pa.string(),
    "seat": pa.int32(),
    "decisions": pa.int32(),
    "hits": pa.int32(),
    "share_sum": pa.float64(),
    "share_squares": pa.float64(),
    "agreed": pa.int32(),
    "other": pa.int32(),
    "settings": pa.string(),
    "events": pa.int64(),
}
FAIRPLAY_SCHEMA = pa.schema(_COLUMNS)


@dataclass(frozen=True, slots=True)
class FairplaySettings:
    """What the signal's counts are made with."""

    max_cards: int = 4
    policy: str = DEFAULT_POLICY

    @property
    def key(self) -> str:
        return f"v{FAIRPLAY_VERSION} max_cards={self.max_cards} policy={self.policy}"


def stored_fairplay(store: EventStore, problems: list[str] | None = None) -> dict[str, str]:
    """``{"fairplay": its Parquet file}``; empty when there is none or it is unusable."""
    return stored_table(store, FAIRPLAY, FAIRPLAY_SCHEMA, problems)


def game_rows(settings: FairplaySettings, events: list[Event]) -> tuple[list[dict[str, Any]], str]:
    """One game's rows (one a seat); none for a kind the solver does not know, and why for a
    game the signal cannot judge."""
    if not events or events[0].kind not in KINDS:
        return [], ""
    try:
        plays = game_plays(events, policy=settings.policy, max_cards=settings.max_cards)
    except (ValueError, KeyError) as exc:
        return [], str(exc)
    rows = []
    for p in plays:
        shares = [len(t.best) / (t.legal - 1) for t in p.telling]
        rows.append({
            "game_id": p.game_id, "kind": p.kind, "seat": p.seat, "decisions": len(p.telling),
            "hits": sum(t.hit for t in p.telling), "share_sum": sum(shares),
            "share_squares": sum(s * s for s in shares), "agreed": p.agreed, "other": p.other,
        })  # fmt: skip
    return rows, ""


def update_fairplay(store: EventStore, settings: FairplaySettings, *, jobs: int = 1) -> TableUpdate:
    """Judge the store's games not yet judged with ``settings`` and store their counts."""
    compute = functools.partial(game_rows, settings)
    return update_table(store, FAIRPLAY, FAIRPLAY_SCHEMA, settings.key, compute, jobs)
