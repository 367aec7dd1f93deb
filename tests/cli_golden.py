"""Golden transcripts of CLI output under tests/golden/cli/: a missing one fails the test.

``REPLAY_UPDATE_GOLDEN=1`` writes (or rewrites) them; review the diff before committing.
"""

from __future__ import annotations

from pathlib import Path

from tests.golden_util import check_golden_file

GOLDEN_CLI = Path(__file__).parent / "golden" / "cli"


def check_cli_golden(name: str, text: str) -> None:
    """Compare ``text`` with ``tests/golden/cli/<name>``; fail when the file is missing."""
    check_golden_file(GOLDEN_CLI / name, text)
