"""The vectorised field check (``unused_field_rows``: the store's ingest and the bulk audit)
gives, row for row, the verdict of the per-event one (``unused_field``: the general audit)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pyarrow as pa
from hypothesis import given
from hypothesis import strategies as st

from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_rules
from replay.model.events import Event, events_to_table
from replay.model.fields import OPTIONAL, first_unused, unused_field, unused_field_rows

#: A value of the right type for each optional field.
STRAY: dict[str, Any] = {
    "round": 1, "trick": 1, "player": 0, "target": 1, "card": "2C", "cards": ("2C",),
    "suit": "C", "amount": 3, "total": 7, "values": (1, 2), "data": "{}",
}  # fmt: skip


def games() -> list[Event]:
    """One short simulated game of each kind, the events after the first 60 left out."""
    events: list[Event] = []
    for kind in available_kinds():
        events += simulate_game(get_rules(kind), f"g-{kind}", players=4, seed=3)[:60]
    return events


GAMES = games()


def damaged(seed: int, share: float) -> list[Event]:
    """The games with a ``share`` of their events given one optional field (set or cleared)."""
    rng = random.Random(seed)
    out = []
    for event in GAMES:
        if rng.random() < share:
            name = rng.choice([n for n in OPTIONAL if n in STRAY])
            value: Any = None if getattr(event, name) is not None else STRAY[name]
            changes: dict[str, Any] = {name: value}
            event = dataclasses.replace(event, **changes)
        out.append(event)
    return out


def expected(events: list[Event]) -> list[bool]:
    return [unused_field(e) is not None for e in events]


def test_the_simulated_games_set_no_unused_field() -> None:
    assert not any(unused_field_rows(events_to_table(GAMES)))


@given(st.integers(0, 10_000), st.sampled_from([0.02, 0.2, 0.8]), st.integers(1, 5))
def test_the_vectorised_check_is_the_per_event_one(seed: int, share: float, pieces: int) -> None:
    events = damaged(seed, share)
    table = events_to_table(events)
    want = expected(events)
    assert any(want) or share < 0.2
    assert unused_field_rows(table).tolist() == want
    # dictionary-encoded strings, in several chunks (as a store scan gives them)
    encoded = table.set_column(2, "kind", table.column("kind").dictionary_encode())
    encoded = encoded.set_column(3, "type", encoded.column("type").dictionary_encode())
    step = -(-table.num_rows // pieces)
    chunked = pa.concat_tables([encoded.slice(i, step) for i in range(0, table.num_rows, step)])
    assert unused_field_rows(chunked).tolist() == want
    for row in [i for i, bad in enumerate(want) if bad][:5]:
        assert first_unused(table, row) == unused_field(events[row])


def test_an_unknown_kind_is_not_judged_here() -> None:
    events = [dataclasses.replace(e, kind="nope", cards=("2C",)) for e in GAMES[:5]]
    assert not any(unused_field_rows(events_to_table(events)))
    assert unused_field_rows(events_to_table([])).tolist() == []
