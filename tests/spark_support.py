"""What the Spark tests share: the marker, the session and the stores they read.

The fixtures are session-scoped (``tests/conftest.py`` registers them): one Spark session
(``local[2]``, about 25 s to start) and one build of each store for the whole test run.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from deltalake import write_deltalake

from replay.engine.simulate import simulate_corpus
from replay.games import get_rules
from replay.model.events import Event, events_to_table
from replay.spark.session import spark_unavailable
from replay.store import EventStore
from replay.store.jsonl import line_to_event

UNAVAILABLE = spark_unavailable()
Test = TypeVar("Test", bound=Callable[..., None])


def needs_spark(test: Test) -> Test:
    """A test that runs Spark: only in ``make unit-spark`` (``-m spark``), in a process of its
    own (a forking local audit must not share it with the JVM gateway's threads)."""
    skip = pytest.mark.skipif(UNAVAILABLE is not None, reason=f"Spark: {UNAVAILABLE}")
    marked: Test = pytest.mark.spark(skip(test))
    return marked


DISPUTES = Path(__file__).parent.parent / "sample_logs" / "disputes"
#: Small simulated corpora of the four games (kind, seats, games).
CORPORA = [("hearts", 4, 3), ("hez2", 2, 2), ("hez2", 4, 2), ("hiifuu", 5, 2), ("fou", 4, 2),
           ("fou", 8, 1)]  # fmt: skip


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """The test run's Spark session (``local[2]``)."""
    from replay.spark.session import spark_session

    yield spark_session("local[2]")


def corpus() -> list[list[Event]]:
    """Simulated games of the four games, one event in three games out of four changed (a
    card, a seat, an amount) so that the audit has findings of every kind to report."""
    rng = random.Random(28)
    games = []
    for kind, seats, count in CORPORA:
        rules = get_rules(kind)
        for game in simulate_corpus(rules, games=count, seed=seats, players=seats):
            if rng.random() < 0.75:
                game = changed(game, rng)
            games.append(game)
    return games


def changed(game: list[Event], rng: random.Random) -> list[Event]:
    """The game with one field of one event (after the setup) set to a value seen in it."""
    i = rng.randrange(1, len(game))
    event = game[i]
    if event.card is not None:
        event = dataclasses.replace(event, card=rng.choice([e.card for e in game if e.card]))
    elif event.player is not None:
        event = dataclasses.replace(event, player=(event.player + 1) % 2)
    elif event.amount is not None:
        event = dataclasses.replace(event, amount=event.amount + 1)
    return [*game[:i], event, *game[i + 1 :]]


def append_raw(path: Path, events: list[Event]) -> None:
    """Add events to the store's table as one more data file, without the store's checks (as
    an external writer could): broken sequences, games split over files."""
    write_deltalake(str(path), events_to_table(events), partition_by=["kind"], mode="append")


def dispute_games() -> list[Event]:
    """Every game of sample_logs/disputes, its id made unique (``kind-RULE``)."""
    events = []
    for log in sorted(DISPUTES.glob("*/*.jsonl")):
        game_id = f"{log.parent.name}-{log.stem}"
        for line in log.read_text().splitlines():
            events.append(dataclasses.replace(line_to_event(line), game_id=game_id))
    return events


@pytest.fixture(scope="session")
def corpus_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus in a store: ingested in two commits (two files per kind), plus raw files
    with a game split over two files and a game with a seq recorded twice, once differently."""
    path = tmp_path_factory.mktemp("spark") / "store"
    store = EventStore.open(path, create=True)
    games = corpus()
    store.ingest(games[::2])
    store.ingest(games[1::2])
    split = next(iter(simulate_corpus(get_rules("hearts"), games=1, seed=99, players=4)))
    split = [dataclasses.replace(e, game_id="split") for e in split]
    append_raw(path, [*split[200:], dataclasses.replace(split[5], card="2C")])
    append_raw(path, split[:200])
    return path


@pytest.fixture(scope="session")
def dispute_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The dispute set in one store (as raw files: the store's ingest refuses the logs whose
    fault is in the record itself, LOG-SEQUENCE and the like)."""
    path = tmp_path_factory.mktemp("spark-disputes") / "store"
    EventStore.open(path, create=True)
    append_raw(path, dispute_games())
    return path
