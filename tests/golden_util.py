"""Golden transcripts: a game's rendering after every event, checked in under tests/golden/.

A missing transcript fails the test. Set ``REPLAY_UPDATE_GOLDEN=1`` to write or rewrite one after
an intended change, then review the diff before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from replay.games.base import Game
from replay.model.events import Event

GOLDEN_DIR = Path(__file__).parent / "golden"


def transcript(rules: Game[Any], events: list[Event]) -> str:
    """The omniscient rendering of the state after every event, with the event above it."""
    state = rules.start(events[0])
    chunks = [f"== {events[0].describe()}\n{rules.render(state)}"]
    for event in events[1:]:
        state = rules.step(state, event)
        chunks.append(f"== {event.describe()}\n{rules.render(state)}")
    return "\n".join(chunks) + "\n"


def check_golden(name: str, text: str) -> None:
    """Compare ``text`` with ``tests/golden/<name>.txt``; fail when the file is missing."""
    check_golden_file(GOLDEN_DIR / f"{name}.txt", text)


def check_golden_file(path: Path, text: str) -> None:
    """Compare ``text`` with the file at ``path``, which must exist (``REPLAY_UPDATE_GOLDEN=1``
    writes or rewrites it first)."""
    if os.environ.get("REPLAY_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"golden transcript {path} is missing (REPLAY_UPDATE_GOLDEN=1 writes it)"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"output differs from {path}; rerun with REPLAY_UPDATE_GOLDEN=1"
