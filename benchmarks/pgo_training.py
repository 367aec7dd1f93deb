"""The workload that GCC's profile-guided build of replay is trained on.

Run by ``scripts/build_native.py`` against the instrumented build (``PYTHONPATH`` set to it):
simulated games of every kind (the rules and the bots), ingested into a temporary store,
scanned back and audited as ``replay audit`` does (decoding, the clean path, every ruling),
plus one game per kind with a wrong ruling (the general path and its findings). What runs here
is what the compiler lays out as hot code.
"""

from __future__ import annotations

import dataclasses
import sys
import tempfile
from pathlib import Path

import pyarrow as pa

from replay.audit import audit_game, audit_many
from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_rules, get_spec
from replay.model.events import Event, events_to_table
from replay.store import EventStore

#: Games per kind: about 30,000 events of each.
GAMES = {"hez2": 10}
DEFAULT_GAMES = 40


def train(path: Path) -> None:
    """Simulate, store, scan and audit every kind's games (see the module docstring)."""
    store = EventStore.open(path, create=True)
    for kind in available_kinds():
        rules = get_rules(kind)
        players = get_spec(kind).sample_players or rules.min_players  # as the benchmarks
        games = [
            simulate_game(rules, f"{kind}{seed}", players=players, seed=seed)
            for seed in range(GAMES.get(kind, DEFAULT_GAMES))
        ]
        store.ingest(events_to_table([event for game in games for event in game]))
        table = pa.Table.from_batches(list(store.scan(kind, dictionary=True)))
        report = audit_many(table, 1)
        assert not report.findings, report.findings[:1]
        audit_game(with_a_wrong_seat(games[-1]))


def with_a_wrong_seat(game: list[Event]) -> list[Event]:
    """The game with its last event that names a seat given to the next seat."""
    last = max(i for i, event in enumerate(game) if event.player is not None)
    event = game[last]
    return [*game[:last], dataclasses.replace(event, player=(event.player or 0) + 1)]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        train(Path(tmp) / "store")
    print(f"trained on {len(available_kinds())} kinds", file=sys.stderr)


if __name__ == "__main__":
    main()
