"""An audit report of any size in bounded memory: each game's audit is written to a temporary
file as it comes; memory holds the counts, and for each game worth a line (a finding, a stop,
a wait) its sort key and where its audit lies in the file.

>>> from replay.audit import Finding, GameAudit
>>> spool = SpooledReport()
>>> spool.add([GameAudit("b", "hearts", 90), GameAudit("a", "hearts", 80, [
...     Finding("a", "hearts", 3, "LOG-CARD", "seat 0 played 8D which it does not hold")])])
>>> [g.game_id for g in spool.noteworthy()], spool.counts().games, spool.exit_code
(['a'], 2, 1)
>>> spool.close()
"""

from __future__ import annotations

import pickle
import tempfile
from collections.abc import Iterable, Iterator
from typing import Any

from replay.audit.findings import GameAudit
from replay.audit.report import Counts, noteworthy


class SpooledReport:
    """The audits of many games, those worth a line kept on disk (a temporary file, deleted
    when closed), read back in the report's order (kind, game id)."""

    def __init__(self) -> None:
        self.problems: list[Any] = []
        self._counts = Counts()
        self._file = tempfile.TemporaryFile(prefix="replay-audit-")  # noqa: SIM115 (closed by close)
        self._index: list[tuple[str, str, int, int]] = []  # kind, game id, offset, size

    def add(self, games: Iterable[GameAudit]) -> None:
        """Count ``games`` and spool those worth a line."""
        for game in games:
            self._counts.add(game)
            if noteworthy(game):
                data = pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)
                offset = self._file.seek(0, 2)
                self._file.write(data)
                self._index.append((game.kind, game.game_id, offset, len(data)))

    def noteworthy(self) -> Iterator[GameAudit]:
        """The spooled games in order (kind, game id), read back one at a time."""
        self._index.sort()
        for _, _, offset, size in self._index:
            self._file.seek(offset)
            game: GameAudit = pickle.loads(self._file.read(size))
            yield game

    def counts(self) -> Counts:
        return self._counts

    @property
    def exit_code(self) -> int:
        """0 clean, 1 with findings, 2 when some input could not be read or reduced."""
        if self.problems or self._counts.internal_errors:
            return 2
        return 1 if self._counts.findings else 0

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> SpooledReport:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
