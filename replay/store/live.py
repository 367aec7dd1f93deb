"""Games in progress: events appended to a live game's journal, sealed into the table once
finished, and the journals a crash left behind settled when the store opens.

The journal itself (fsync'ed JSON Lines, one file a game, locked while written) is
:mod:`replay.store.journal`; this part joins it to the table.
"""

from __future__ import annotations

from collections.abc import Iterable

from replay.model.decode import events_from_table
from replay.model.events import Event, events_to_table
from replay.model.violation import LogRule
from replay.store.errors import GameNotFound, InvalidGame, StoreRule
from replay.store.ingest import StoreIngest
from replay.store.validate import Rejection
from replay.text import shown


class LiveGames(StoreIngest):
    """:meth:`append` to a live game, :meth:`seal` it into the table, :meth:`recover`."""

    def append(self, game_id: str, events: Iterable[Event], expected_seq: int) -> int:
        """Append events to a live game; ``expected_seq`` must be the stream's next seq
        (else :class:`ConcurrencyConflict`). Durable on return; returns the next seq."""
        return self.journal.append(game_id, list(events), expected_seq, self._stored_length)

    def seal(self, game_id: str, *, require_end: bool = True) -> int:
        """Move a finished live game into the table (one commit), then drop its journal.

        Returns the number of events sealed. A crash between the commit and the removal leaves
        a journal that :meth:`recover` drops.
        """
        with self.journal.locked(game_id) as fd:
            if fd is None:
                raise GameNotFound(f"game {shown(game_id)}: no live game with this id")
            events = self.journal.read(game_id)
            if require_end and (not events or events[-1].type != "game_end"):
                last = events[-1].seq if events else None
                raise InvalidGame(LogRule.ORDER, "no game_end yet", game_id=game_id, seq=last)
            report = self.ingest(events_to_table(events), source=str(self.journal.path(game_id)))
            if report.rejected:
                raise report.rejected[0].error()
            self.journal.remove(game_id)
        return len(events)

    def recover(self) -> list[str]:
        """Drop journals of games already in the table (a seal interrupted after its commit),
        when the table holds exactly their events; others are kept and reported."""
        live = self.live_games()
        if not live:
            return []
        stored = set(self._stored_counts(live))
        dropped = []
        for game_id in live:
            if game_id in stored and self._settle_locked(game_id):
                dropped.append(game_id)
        return dropped

    def _settle_locked(self, game_id: str) -> bool:
        """:meth:`_settle` under the journal's lock; a journal that cannot be opened (a
        directory, no permission) is kept and reported, and the store still opens."""
        try:
            with self.journal.locked(game_id) as fd:
                return fd is not None and self._settle(game_id)
        except OSError as exc:
            reason = f"journal kept: cannot open it: {exc.strerror or exc}"
            path = str(self.journal.path(game_id))
            self._report(Rejection(StoreRule.JOURNAL, reason, game_id, None, path))
            return False

    def _settle(self, game_id: str) -> bool:
        """Delete the journal of a stored game if the table holds exactly its events; else
        keep it and report it (STORE-JOURNAL). Whether it was deleted."""
        problem = self.journal.unsettled(game_id, events_from_table(self.load_game_table(game_id)))
        if problem is not None:
            self._report(problem)
            return False
        return self.journal.remove(game_id)
