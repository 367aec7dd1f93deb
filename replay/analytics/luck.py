"""The luck of a store's games as data: ``replay reindex STORE --luck`` computes every seat's
luck in every scoring unit (:mod:`replay.review.luck`) and stores it next to the derived tables,
as one Parquet file (``luck``) that the views of ``sql/common/reviews`` read (``luck_units``:
with the players; the statistic ``luck_players``).

Incremental like the reviews (:mod:`replay.analytics.reviews`): a game already stored with the
same settings key and the same number of events is kept; the others are computed again.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.parquet as pq

from replay.analytics.derived import DERIVED_DIR
from replay.review import DEFAULT_POLICY
from replay.text import shown

if TYPE_CHECKING:
    from replay.events import Event
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

    @property
    def key(self) -> str:
        from replay.review.luck import LUCK_VERSION

        return f"v{LUCK_VERSION} draws={self.draws} seed={self.seed} policy={self.policy}"


@dataclass
class LuckUpdate:
    """What one ``replay reindex --luck`` did."""

    computed: int = 0  # games whose luck was computed now
    kept: int = 0  # games whose stored luck was kept
    rows: int = 0  # unit x seat rows stored in all
    problems: list[str] = field(default_factory=list)


def luck_path(store: EventStore) -> Path:
    return store.path / DERIVED_DIR / f"{LUCK}.parquet"


def stored_luck(store: EventStore, problems: list[str] | None = None) -> dict[str, str]:
    """``{"luck": its Parquet file}``; empty when there is none or it cannot be read or holds
    other columns (then one line in ``problems``)."""
    path = luck_path(store)
    if not path.is_file():
        return {}
    try:
        usable, why = pq.read_schema(path).equals(LUCK_SCHEMA), "other columns"
    except (OSError, pa.ArrowException) as exc:
        usable, why = False, f"unreadable ({type(exc).__name__})"
    if not usable and problems is not None:
        problems.append(f"{path}: stored luck left out: {why}; "
                        "`replay reindex STORE --luck` makes it again")  # fmt: skip
    return {LUCK: str(path)} if usable else {}


def game_rows(events: list[Event], settings: LuckSettings) -> tuple[list[dict[str, Any]], str]:
    """The stored rows of one game's luck, and why they stop early ("" when they do not)."""
    from replay.review.luck import checked_luck

    try:
        units, fault = checked_luck(
            events, draws=settings.draws, seed=settings.seed, policy=settings.policy
        )
    except (ValueError, LookupError, KeyError, RuntimeError) as exc:
        return [], str(exc)
    rows = [{**asdict(u), "settings": settings.key, "events": len(events)} for u in units]
    return rows, fault or ""


def update_luck(store: EventStore, settings: LuckSettings, *, jobs: int = 1) -> LuckUpdate:
    """Compute the luck of the store's games not yet stored with ``settings`` and store it."""
    listing = store.list_games_table().select(["game_id", "events"]).to_pylist()
    events = {r["game_id"]: int(r["events"]) for r in listing}
    update = LuckUpdate()
    old = _read_stored(store, update.problems)
    kept = {r["game_id"] for r in old if r["settings"] == settings.key
            and events.get(r["game_id"]) == r["events"]}  # fmt: skip
    todo = [g for g in events if g not in kept]
    update.kept, update.computed = len(kept), len(todo)
    games = (store.load_game(g) for g in todo)
    if jobs <= 1:
        done = [game_rows(list(g), settings) for g in games]
    else:
        from concurrent.futures import ProcessPoolExecutor

        from replay.audit import _fork_context

        with ProcessPoolExecutor(jobs, mp_context=_fork_context()) as pool:
            loaded = [list(g) for g in games]
            done = list(pool.map(game_rows, loaded, [settings] * len(loaded), chunksize=64))
    rows = [r for r in old if r["game_id"] in kept]
    for game, (new, why) in zip(todo, done, strict=True):
        rows += new
        if why:
            update.problems.append(f"{store.path}: game {shown(game)}: luck up to the fault: {why}")
    update.rows = len(rows)
    target = luck_path(store)
    target.parent.mkdir(exist_ok=True)
    partial = target.with_suffix(".parquet.partial")
    pq.write_table(pa.Table.from_pylist(rows, LUCK_SCHEMA), partial, compression="zstd")
    os.replace(partial, target)
    return update


def _read_stored(store: EventStore, problems: list[str]) -> list[dict[str, Any]]:
    tables = stored_luck(store, problems)
    if not tables:
        return []
    try:
        return pq.read_table(tables[LUCK]).to_pylist()
    except (OSError, pa.ArrowException) as exc:
        problems.append(f"{store.path}: stored luck unreadable ({exc}): computed again")
        return []
