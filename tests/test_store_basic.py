"""The store's round trips, reads, idempotence and live journal (RULES.md LOG-* rules)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from replay.model.events import events_to_table
from replay.store import (
    AmbiguousGameId,
    ConcurrencyConflict,
    EventStore,
    GameNotFound,
    InvalidGame,
    StoreNotFound,
)
from replay.store.synthetic import hearts_like_table
from tests.store_helpers import hearts_games


@pytest.fixture
def store(tmp_path: Path) -> EventStore:
    return EventStore.open(tmp_path / "store", create=True)


def test_open_missing_store_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreNotFound, match="no event store"):
        EventStore.open(tmp_path / "nothing")


def test_ingest_then_load_game_round_trips(store: EventStore) -> None:
    games = hearts_games(3)
    report = store.ingest(games)
    assert report.ok and sorted(report.ingested) == ["h-000", "h-001", "h-002"]
    assert report.events == sum(len(g) for g in games)
    for game in games:
        assert store.load_game(game[0].game_id) == game


def test_synthetic_table_round_trips_with_timestamps(store: EventStore) -> None:
    table = hearts_like_table(4, seed=3)
    store.ingest(table)
    one = table.filter(pc.equal(table.column("game_id"), pa.scalar("hearts-s3-0000002")))
    assert store.load_game_table("hearts-s3-0000002").equals(one)
    scanned = pa.Table.from_batches(list(store.scan()))
    assert scanned.num_rows == table.num_rows
    assert scanned.column_names == table.column_names


def test_scan_with_dictionaries_reads_the_same_values(store: EventStore) -> None:
    from replay.audit.check import plain_strings

    store.ingest(hearts_games(3))
    plain = pa.Table.from_batches(list(store.scan()))
    encoded = pa.Table.from_batches(list(store.scan(dictionary=True)))
    for name in ("game_id", "kind", "type", "card"):
        assert pa.types.is_dictionary(encoded.schema.field(name).type), name
    assert pa.types.is_dictionary(encoded.schema.field("cards").type.value_type)
    assert encoded.schema.field("data").type == pa.string()  # JSON texts stay plain
    assert plain_strings(encoded).equals(plain)


def test_scan_with_dictionaries_reads_files_of_many_row_groups(
    store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A streamed import writes a row group per part, of any size: a batch read across two
    row groups would hold two dictionaries of ``cards`` (Arrow cannot read that into a list)."""
    import pyarrow.parquet as pq

    from replay.audit.check import plain_strings
    from replay.store import ingest as store_ingest

    monkeypatch.setattr(store_ingest, "ROW_GROUP_ROWS", 1000)
    store.ingest(hearts_games(3))
    (data_file,) = store.parquet_files()
    assert pq.ParquetFile(data_file).num_row_groups == 3
    plain = pa.Table.from_batches(list(store.scan()))
    encoded = pa.Table.from_batches(list(store.scan(dictionary=True)))
    assert store.problems == [] and plain.num_rows == sum(len(g) for g in hearts_games(3))
    assert plain_strings(encoded).equals(plain)


def test_list_games_gives_players_length_rounds_and_winners(store: EventStore) -> None:
    games = hearts_games(2)
    store.ingest(games)
    rows = {g.game_id: g for g in store.list_games()}
    first = rows["h-000"]
    assert first.kind == "hearts" and first.players == ("p0", "p1", "p2", "p3")
    assert first.events == len(games[0])
    assert first.rounds == len({e.round for e in games[0] if e.round is not None})
    winners = games[0][-1].values
    assert winners is not None
    assert first.result == winners
    assert first.winners == tuple(f"p{s}" for s in winners)
    assert store.list_games(player="nobody") == []
    assert store.list_games(kind="hez2") == []
    assert len(store.list_games(kind="hearts", player="p1")) == 2


def test_identical_reingest_is_skipped(store: EventStore) -> None:
    games = hearts_games(2)
    store.ingest(games)
    version = store.table().version()
    again = store.ingest(games)
    assert again.ok and again.ingested == [] and sorted(again.skipped) == ["h-000", "h-001"]
    assert store.table().version() == version  # nothing committed
    assert store.info().events == sum(len(g) for g in games)


def test_reused_game_id_with_other_content_is_rejected_others_kept(store: EventStore) -> None:
    games = hearts_games(2)
    store.ingest(games[:1])
    other = [replace(e, game_id="h-000") for e in hearts_games(3)[2]]
    report = store.ingest([other, games[1]])
    assert report.ingested == ["h-001"]
    assert [(r.rule, r.game_id) for r in report.rejected] == [("STORE-GAME-ID", "h-000")]
    assert store.load_game("h-000") == games[0]


def test_resolve_game_id_by_prefix(store: EventStore) -> None:
    store.ingest(hearts_games(2))
    assert store.resolve_game_id("h-001") == "h-001"
    with pytest.raises(AmbiguousGameId, match="h-000, h-001"):
        store.resolve_game_id("h-")
    with pytest.raises(GameNotFound, match="zzz"):
        store.resolve_game_id("zzz")


def test_info_counts_games_events_files_and_bytes(store: EventStore) -> None:
    store.ingest(hearts_like_table(3, seed=1))
    store.ingest(hearts_like_table(2, seed=2))
    info = store.info()
    (hearts,) = info.kinds
    assert (hearts.games, hearts.files) == (5, 2)
    assert hearts.events == len(pa.Table.from_batches(list(store.scan(columns=["seq"]))))
    assert 0 < hearts.bytes_per_event < 10
    assert hearts.first is not None and hearts.last is not None and hearts.first < hearts.last


def test_compact_merges_files_and_keeps_every_event(store: EventStore) -> None:
    for seed in range(4):
        store.ingest(hearts_like_table(2, seed=seed))
    before = sorted(
        pa.Table.from_batches(list(store.scan(columns=["game_id", "seq"]))).to_pylist(),
        key=lambda r: (r["game_id"], r["seq"]),
    )
    store.compact()
    assert len(store.files()) == 1
    after = pa.Table.from_batches(list(store.scan(columns=["game_id", "seq"]))).to_pylist()
    assert sorted(after, key=lambda r: (r["game_id"], r["seq"])) == before
    assert len(list(store.path.glob("kind=hearts/*.parquet"))) == 1  # vacuumed


def test_live_append_seal_and_conflicts(store: EventStore) -> None:
    game = hearts_games(1)[0]
    assert store.append("h-000", game[:10], expected_seq=0) == 10
    with pytest.raises(ConcurrencyConflict, match="expected next seq 5"):
        store.append("h-000", game[5:7], expected_seq=5)
    assert store.append("h-000", game[10:], expected_seq=10) == len(game)
    assert store.live_games() == ["h-000"]
    assert store.list_games() == []  # not visible in the table before the seal
    assert store.load_game("h-000") == game
    assert store.seal("h-000") == len(game)
    assert store.live_games() == [] and [g.game_id for g in store.list_games()] == ["h-000"]
    with pytest.raises(ConcurrencyConflict):
        store.append("h-000", game[:1], expected_seq=0)  # sealed games take no more events
    assert store.live_games() == []


def test_seal_requires_game_end(store: EventStore) -> None:
    game = hearts_games(1)[0]
    store.append("h-000", game[:5], expected_seq=0)
    with pytest.raises(InvalidGame, match="no game_end"):
        store.seal("h-000")
    assert store.live_games() == ["h-000"]


def test_append_checks_the_record(store: EventStore) -> None:
    game = hearts_games(1)[0]
    with pytest.raises(InvalidGame, match="LOG-SETUP"):
        store.append("h-000", [e.at(i) for i, e in enumerate(game[1:3])], expected_seq=0)
    assert store.live_games() == []
    store.append("h-000", game, expected_seq=0)
    with pytest.raises(InvalidGame, match="LOG-AFTER-END"):
        store.append("h-000", [replace(game[-1], seq=len(game))], expected_seq=len(game))
    bad_card = replace(game[9], game_id="h-001", seq=1, card="ZZ")
    with pytest.raises(InvalidGame, match="LOG-CARD"):
        store.append("h-001", [replace(game[0], game_id="h-001"), bad_card], expected_seq=0)


def test_partial_journal_line_is_ignored_and_cut(store: EventStore) -> None:
    game = hearts_games(1)[0]
    store.append("h-000", game[:3], expected_seq=0)
    with store.journal.path("h-000").open("a") as f:
        f.write('{"game_id":"h-000","seq":3,"ki')  # a write cut short by a crash
    assert store.load_game("h-000") == game[:3]
    assert store.append("h-000", game[3:5], expected_seq=3) == 5
    assert store.load_game("h-000") == game[:5]


def test_recovery_drops_journal_of_an_already_sealed_game(store: EventStore) -> None:
    game = hearts_games(1)[0]
    store.append("h-000", game, expected_seq=0)
    journal = store.journal.path("h-000").read_bytes()
    store.seal("h-000")
    store.journal.path("h-000").write_bytes(journal)  # as if the seal died after its commit
    reopened = EventStore.open(store.path)
    assert reopened.live_games() == []
    assert reopened.load_game("h-000") == game


def test_game_ids_with_slashes_get_safe_journal_names(store: EventStore) -> None:
    game = [replace(e, game_id="../x/y") for e in hearts_games(1)[0]]
    store.append("../x/y", game[:2], expected_seq=0)
    assert store.live_games() == ["../x/y"]
    assert store.journal.path("../x/y").parent == store.journal.directory


def test_events_table_helper_matches(store: EventStore) -> None:
    games = hearts_games(1)
    store.ingest(events_to_table(games[0]))
    assert store.load_game("h-000") == games[0]
