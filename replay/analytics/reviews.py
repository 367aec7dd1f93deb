"""The reviews of a store as data: ``replay reindex STORE --reviews`` reviews its games
(:mod:`replay.review`) and stores the result next to the derived tables, as two Parquet files
that the views of ``sql/common/reviews`` read (``reviews``: one row per decision,
``review_games``: one row per game).

Reviewing is incremental: a game already stored with the same settings key
(:attr:`~replay.review.engine.Settings.key`: samples, seed, policy, alternatives and the
review's version) and the same number of events is kept as it is; the others (new games, games
that grew, every game when the settings change) are reviewed. Unlike the derived tables, the
stored reviews do not go stale when games are added: each row names its game.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.parquet as pq

from replay.analytics.derived import DERIVED_DIR
from replay.review.engine import review_games
from replay.review.report import (
    DECISION_COLUMNS,
    PAYOUT_COLUMNS,
    POLICY_COLUMNS,
    decision_row,
)
from replay.text import shown

if TYPE_CHECKING:
    from replay.review.engine import DecisionReview, GameReview, Settings
    from replay.store import EventStore

REVIEWS = "reviews"
REVIEW_GAMES = "review_games"


def _schema(columns: Mapping[str, pa.DataType]) -> pa.Schema:
    return pa.schema(columns)


#: ``reviews``: the columns of ``sql/common/reviews/reviews.sql``, in its order.
DECISIONS_SCHEMA = _schema(
    {
        "game_id": pa.string(),
        "kind": pa.string(),
        "seq": pa.int32(),
        "seat": pa.int32(),
        "type": pa.string(),
        "played": pa.string(),
        "best": pa.string(),
        "legal": pa.int32(),
        "loss": pa.float64(),
        "loss_low": pa.float64(),
        "loss_high": pa.float64(),
        "label": pa.string(),
        "visible_loss": pa.int32(),
        "payout_loss": pa.float64(),
        "payout_loss_low": pa.float64(),
        "payout_loss_high": pa.float64(),
        "agrees": pa.bool_(),
        "beyond_policy": pa.float64(),
        "beyond_policy_low": pa.float64(),
        "beyond_policy_high": pa.float64(),
        "samples": pa.int32(),
        "settings": pa.string(),
        "alternatives": pa.string(),
    }
)
#: ``review_games``: the columns of ``sql/common/reviews/review_games.sql``.
GAMES_SCHEMA = _schema(
    {
        "game_id": pa.string(),
        "kind": pa.string(),
        "settings": pa.string(),
        "events": pa.int64(),
        "reviewed_to": pa.int32(),
        "stop_reason": pa.string(),
        "decisions": pa.int32(),
        "forced": pa.int32(),
    }
)


@dataclass
class ReviewUpdate:
    """What one ``replay reindex --reviews`` did."""

    reviewed: list[str] = field(default_factory=list)  # game ids reviewed now
    kept: int = 0  # games whose stored review was kept
    decisions: int = 0  # decision rows stored in all
    #: Games that could not be reviewed (their stored review, if any, kept), unusable files.
    problems: list[str] = field(default_factory=list)


def review_paths(store: EventStore) -> dict[str, Path]:
    """Table name -> the Parquet file that holds it (whether it exists or not)."""
    folder = store.path / DERIVED_DIR
    return {name: folder / f"{name}.parquet" for name in (REVIEWS, REVIEW_GAMES)}


def stored_reviews(store: EventStore, problems: list[str] | None = None) -> dict[str, str]:
    """Table name -> Parquet file of the stored reviews; empty when there are none, or when a
    file cannot be read or holds other columns (then one line in ``problems``)."""
    paths = review_paths(store)
    if not all(p.is_file() for p in paths.values()):
        return {}
    schemas = {REVIEWS: DECISIONS_SCHEMA, REVIEW_GAMES: GAMES_SCHEMA}
    for name, path in paths.items():
        try:
            usable = pq.read_schema(path).equals(schemas[name])
            why = "other columns than this version writes"
        except (OSError, pa.ArrowException) as exc:
            usable, why = False, f"unreadable ({type(exc).__name__})"
        if not usable:
            if problems is not None:
                problems.append(f"{path}: stored reviews left out: {why}; "
                                "`replay reindex STORE --reviews` makes them again")  # fmt: skip
            return {}
    return {name: str(p) for name, p in paths.items()}


def update_reviews(store: EventStore, settings: Settings, *, jobs: int = 1) -> ReviewUpdate:
    """Review the store's games not yet reviewed with ``settings`` (see the module) and store
    every review; a game that cannot be reviewed is named in ``problems`` and keeps the review
    stored before, if any."""
    listing = store.list_games_table().select(["game_id", "events"]).to_pylist()
    events = {r["game_id"]: int(r["events"]) for r in listing}
    update = ReviewUpdate()
    old_games, old_decisions = _read_stored(store, update.problems)
    kept = {
        g["game_id"]
        for g in old_games
        if g["settings"] == settings.key and events.get(g["game_id"]) == g["events"]
    }
    todo = [g for g in events if g not in kept]
    update.kept = len(kept)
    problems: list[tuple[str, str]] = []
    reviews = review_games(
        [store.load_game(g) for g in todo], settings, jobs=jobs, problems=problems
    )
    update.reviewed = [r.game_id for r in reviews]
    update.problems += [f"{store.path}: game {shown(g)}: {why}" for g, why in problems]
    kept |= {g for g, _ in problems}  # its stored review, if any, stays until one can be made
    games = [g for g in old_games if g["game_id"] in kept]
    games += [_game_row(r, events[r.game_id]) for r in reviews]
    decisions = [d for d in old_decisions if d["game_id"] in kept]
    decisions += [_decision_row(d, r) for r in reviews for d in r.decisions]
    update.decisions = len(decisions)
    paths = review_paths(store)
    paths[REVIEWS].parent.mkdir(exist_ok=True)
    _write(pa.Table.from_pylist(decisions, DECISIONS_SCHEMA), paths[REVIEWS])
    _write(pa.Table.from_pylist(games, GAMES_SCHEMA), paths[REVIEW_GAMES])
    return update


def _read_stored(
    store: EventStore, problems: list[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The stored rows (per game, per decision); none when missing or unusable (every game is
    then reviewed again, and ``problems`` says why)."""
    tables = stored_reviews(store, problems)
    if not tables:
        return [], []
    try:
        games = pq.read_table(tables[REVIEW_GAMES])
        decisions = pq.read_table(tables[REVIEWS])
    except (OSError, pa.ArrowException) as exc:
        problems.append(f"{store.path}: stored reviews unreadable ({exc}): reviewed again")
        return [], []
    return games.to_pylist(), decisions.to_pylist()


def _game_row(review: GameReview, events: int) -> dict[str, Any]:
    return {
        "game_id": review.game_id,
        "kind": review.kind,
        "settings": review.settings.key,
        "events": events,
        "reviewed_to": review.stopped_at,
        "stop_reason": review.stop_reason or None,
        "decisions": len(review.decisions),
        "forced": sum(review.forced.values()),
    }


def _decision_row(decision: DecisionReview, review: GameReview) -> dict[str, Any]:
    row = decision_row(decision)
    out = {name: row[name] for name in (*DECISION_COLUMNS, *PAYOUT_COLUMNS, *POLICY_COLUMNS)}
    out["samples"] = decision.loss.n  # --samples, or more where the review thought longer
    out["settings"] = review.settings.key
    out["alternatives"] = json.dumps(row["alternatives"], ensure_ascii=False)
    return out


def _write(table: pa.Table, target: Path) -> None:
    partial = target.with_suffix(".parquet.partial")
    pq.write_table(table, partial, compression="zstd")
    os.replace(partial, target)
