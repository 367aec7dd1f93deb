"""replay.sources: stores, files, folders and stdin as one source of games."""

from __future__ import annotations

import io
from pathlib import Path

from replay.engine.simulate import simulate_game
from replay.games import get_rules
from replay.sources import STDIN_NAME, cut_list, expand, open_sources, unreadable_start
from replay.store import EventStore
from replay.store.jsonl import event_to_line


def _write(path: Path, game_id: str, kind: str = "hez2", players: int = 2) -> Path:
    game = simulate_game(get_rules(kind), game_id, players=players, seed=2)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(event_to_line(e) + "\n" for e in game))
    return path


def test_a_folder_is_searched_recursively_in_name_order(tmp_path: Path) -> None:
    _write(tmp_path / "b" / "z.jsonl", "g3")
    _write(tmp_path / "a.jsonl", "g1")
    _write(tmp_path / "b" / "c.jsonl", "g2")
    store = tmp_path / "c-store"
    EventStore.open(store, create=True).ingest(
        [simulate_game(get_rules("hez2"), "g4", players=2, seed=1)]
    )
    _write(tmp_path / "c-store" / "inside.jsonl", "never")  # a store is not searched
    (tmp_path / "notes.txt").write_text("ignored")
    found, problems = expand([tmp_path])
    assert [Path(p).relative_to(tmp_path).as_posix() for p in found] == [
        "a.jsonl",
        "b/c.jsonl",
        "b/z.jsonl",
        "c-store",
    ]
    assert not problems
    sources = open_sources([tmp_path])
    assert [g.game_id for g in sources.games()] == ["g1", "g2", "g3", "g4"]
    assert sources.origin("g4") == str(store)


def test_stdin_is_named_and_a_prefix_resolves_across_inputs(tmp_path: Path) -> None:
    text = _write(tmp_path / "a.jsonl", "alpha").read_bytes()
    _write(tmp_path / "b.jsonl", "beta")
    sources = open_sources(["-", tmp_path / "b.jsonl"], stdin=io.BytesIO(text))
    assert sources.resolve("al").origin == STDIN_NAME
    assert sources.resolve("b").game_id == "beta"
    assert sources.load(sources.resolve("beta"))[0].type == "game_start"


def test_a_text_file_is_recognised_from_its_first_lines(tmp_path: Path) -> None:
    text = tmp_path / "t.txt"
    text.write_text("one\ntwo\nthree\nfour\nfive\nsix\n")
    assert unreadable_start(text) == 5
    sources = open_sources([text])
    assert not sources.inputs and len(sources.problems) == 1
    text.write_text("one\n{}\n")
    assert unreadable_start(text) == 0  # a JSON object: a log with a bad line


def test_summaries_of_a_file_match_the_stores(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.jsonl", "g1", "hearts", 4)
    store = tmp_path / "s"
    game = open_sources([path]).iter_games()
    EventStore.open(store, create=True).ingest([events for _, events in game])
    from_file = open_sources([path]).summaries()
    from_store = open_sources([store]).summaries()
    for row in (*from_file, *from_store):
        row.pop("file")
    assert from_file == from_store


def test_cut_list() -> None:
    assert cut_list([str(i) for i in range(12)]).endswith("9 and 2 more")


def test_an_unreadable_journal_is_a_problem_and_the_other_games_are_served(tmp_path: Path) -> None:
    store = tmp_path / "s"
    EventStore.open(store, create=True).ingest(
        [simulate_game(get_rules("hez2"), "kept", players=2, seed=1)]
    )
    (store / "_live" / "live-1.jsonl").mkdir(parents=True)  # a journal that cannot be read
    other = _write(tmp_path / "b.jsonl", "beta")
    sources = open_sources([store, other])
    assert [g.game_id for g in sources.games()] == ["kept", "beta"]
    assert any("live-1" in p for p in sources.collect_problems())
