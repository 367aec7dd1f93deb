"""Golden transcripts of CLI output under tests/golden/cli/: a missing one fails the test.

``REPLAY_UPDATE_GOLDEN=1`` writes (or rewrites) them; review the diff before committing.
"""

from __future__ import annotations

import os
from pathlib import Path

GOLDEN_CLI = Path(__file__).parent / "golden" / "cli"


def check_cli_golden(name: str, text: str) -> None:
    """Compare ``text`` with ``tests/golden/cli/<name>``; fail when the file is missing."""
    path = GOLDEN_CLI / name
    if os.environ.get("REPLAY_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"golden transcript {path} is missing (REPLAY_UPDATE_GOLDEN=1 writes it)"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"output differs from {path}; rerun with REPLAY_UPDATE_GOLDEN=1"
