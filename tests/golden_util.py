"""Golden transcripts: a game's rendering after every event, checked in under tests/golden/.

Set ``REPLAY_UPDATE_GOLDEN=1`` to rewrite a transcript after an intended change, then review the
diff before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from replay.events import Event
from replay.games.base import Rules

GOLDEN_DIR = Path(__file__).parent / "golden"


def transcript(rules: Rules[Any], events: list[Event]) -> str:
    """The omniscient rendering of the state after every event, with the event above it."""
    state = rules.start(events[0])
    chunks = [f"== {events[0].describe()}\n{rules.render(state)}"]
    for event in events[1:]:
        state = rules.step(state, event)
        chunks.append(f"== {event.describe()}\n{rules.render(state)}")
    return "\n".join(chunks) + "\n"


def check_golden(name: str, text: str) -> None:
    """Compare ``text`` with ``tests/golden/<name>.txt`` (or rewrite it when asked)."""
    path = GOLDEN_DIR / f"{name}.txt"
    if os.environ.get("REPLAY_UPDATE_GOLDEN") == "1" or not path.exists():
        if os.environ.get("CI") and not path.exists():
            raise AssertionError(f"golden transcript {path} is missing")
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"transcript differs from {path}; rerun with REPLAY_UPDATE_GOLDEN=1"
