"""Derived tables (``replay reindex``) hold exactly the rows of the views over the raw events,
are used only while they match the store's snapshot, and survive compaction."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from replay.analytics import Analytics, Filters, derived
from replay.analytics.catalog import derived_views
from replay.store import EventStore
from tests.test_analytics import corpus, table_of

DAY = datetime.date(2026, 6, 1)
#: Every kind of ratings query: the stored rating log and the games rated again agree on each.
RATING_FILTERS = (
    Filters(),
    Filters(kind="hez2"),
    Filters(player="ann"),
    Filters(since=DAY),
    Filters(until=DAY),
    Filters(since=datetime.date(2026, 3, 1), until=DAY),
    Filters(players=4),
    Filters(kind="hez2", players=2, player="ann"),
    Filters(players=4, since=datetime.date(2026, 3, 1)),
    Filters(since=datetime.date(2030, 1, 1)),
    Filters(until=datetime.date(2000, 1, 1)),
)


def _rounded(table: pa.Table) -> list[tuple[Any, ...]]:
    return [tuple(round(v, 9) if isinstance(v, float) else v for v in r.values())
            for r in table.to_pylist()]  # fmt: skip


def _store(path: Path) -> EventStore:
    store = EventStore.open(path, create=True)
    games = corpus()
    store.ingest([list(g) for g in games[: len(games) // 2]])
    store.ingest([list(g) for g in games[len(games) // 2 :]])
    return store


def _sorted(a: Analytics, view: str) -> list[tuple[Any, ...]]:
    return sorted(
        tuple(str(v) for v in r.values()) for r in a.sql(f'SELECT * FROM "{view}"').to_pylist()
    )


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> EventStore:
    return _store(tmp_path_factory.mktemp("derived") / "store")


@pytest.mark.slow
def test_derived_tables_equal_the_views(store: EventStore) -> None:
    raw = Analytics.open(store, use_derived=False, materialize=False)
    in_memory = Analytics.open(store, use_derived=False, materialize=True)
    rows = derived.rebuild(store)
    fast = Analytics.open(EventStore.open(store.path))
    assert fast.derived and not raw.derived
    assert set(rows) == {*derived_views(), derived.RATING_LOG}
    assert set(derived_views()) >= {"games", "seats", "rounds", "tricks", "plays"}
    for view in derived_views():
        assert rows[view] > 0
        assert _sorted(fast, view) == _sorted(raw, view) == _sorted(in_memory, view), view
        assert fast.sql(f'DESCRIBE "{view}"').equals(raw.sql(f'DESCRIBE "{view}"')), view
    for f in (Filters(), Filters(kind="fou", player="ann")):
        assert [s.table for s in fast.statistics(f)] == [s.table for s in raw.statistics(f)]
    assert fast.stored_ratings and not raw.stored_ratings and not in_memory.stored_ratings
    for f in RATING_FILTERS:
        assert (
            _rounded(fast.ratings(f)) == _rounded(raw.ratings(f)) == _rounded(in_memory.ratings(f))
        ), f
    assert fast.ratings(Filters(since=DAY)) != fast.ratings(Filters())


@pytest.mark.slow
def test_views_over_a_store_equal_the_views_over_the_table(store: EventStore) -> None:
    from_store = Analytics.open(store, use_derived=False, materialize=False)
    from_table = Analytics.open(table_of(corpus()), materialize=False)
    for view in ("games", "seats", "rounds", "tricks", "plays"):
        assert _sorted(from_store, view) == _sorted(from_table, view), view


def test_a_large_store_without_derived_tables_says_so(
    store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from replay.analytics import api

    monkeypatch.setattr(api, "MATERIALIZE_ROWS", 10)
    slow = Analytics.open(EventStore.open(store.path), use_derived=False)
    assert slow.notes and "replay reindex" in slow.notes[0]
    assert slow.overview(Filters()).num_rows == 4


@pytest.mark.slow
def test_stale_derived_tables_are_not_used(tmp_path: Path) -> None:
    store = EventStore.open(tmp_path / "s", create=True)
    store.ingest([list(corpus()[0])])
    derived.rebuild(store)
    assert Analytics.open(store).derived
    store.ingest([list(corpus()[1])])
    stale = Analytics.open(EventStore.open(store.path))
    assert not stale.derived
    assert stale.overview(Filters()).column("games").to_pylist() == [2]
    store.compact()
    derived.rebuild(store)
    assert Analytics.open(EventStore.open(store.path)).derived
    store.compact()  # vacuum keeps _analytics/
    assert (store.path / derived.DERIVED_DIR / derived.MANIFEST).is_file()


def test_damaged_manifest_falls_back_to_the_views(tmp_path: Path) -> None:
    store = EventStore.open(tmp_path / "s", create=True)
    store.ingest([list(corpus()[0])])
    derived.rebuild(store)
    (store.path / derived.DERIVED_DIR / derived.MANIFEST).write_text("{not json")
    a = Analytics.open(store)
    assert not a.derived and a.overview(Filters()).column("games").to_pylist() == [1]


def test_a_rating_log_of_another_format_is_not_read(tmp_path: Path) -> None:
    """The rating log is made by Python code, not by the SQL files the fingerprint covers: a
    manifest that names another version of it (or none: written before it) keeps the derived
    views but rates the games again."""
    import json

    store = EventStore.open(tmp_path / "s", create=True)
    store.ingest([list(g) for g in corpus()[:6]])
    derived.rebuild(store)
    stored = Analytics.open(EventStore.open(store.path))
    assert stored.derived and stored.stored_ratings
    manifest = store.path / derived.DERIVED_DIR / derived.MANIFEST
    data = json.loads(manifest.read_text())
    for formats in ({derived.RATING_LOG: -1}, None):
        if formats is None:
            del data["formats"]
        else:
            data["formats"] = formats
        manifest.write_text(json.dumps(data))
        again = Analytics.open(EventStore.open(store.path))
        assert again.derived and not again.stored_ratings
        for f in RATING_FILTERS:
            assert _rounded(again.ratings(f)) == _rounded(stored.ratings(f)), f
