"""A store's audit slice by slice, in this process: memory bounded by a slice of whole games
(:mod:`replay.store.slices`), not by the store, for a caller that keeps only part of each
slice's report (``replay audit STORE`` spools it, the dashboard keeps the findings and the
counts).

>>> import tempfile
>>> from replay.games import get_rules
>>> from replay.engine.simulate import simulate_game
>>> from replay.store import EventStore
>>> store = EventStore.open(tempfile.mkdtemp() + "/s", create=True)
>>> _ = store.ingest([simulate_game(get_rules("hearts"), "g1", players=4, seed=1)])
>>> [len(report.games) for report in audit_slices(store)]
[1]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from replay.audit.check import audit_game
from replay.audit.findings import AuditReport
from replay.audit.parallel import audit_many
from replay.store.errors import InvalidGame
from replay.store.slices import game_runs, game_slices, kinds
from replay.store.validate import Rejection

if TYPE_CHECKING:
    from replay.store import EventStore


def audit_slices(
    store: EventStore,
    kind: str | None = None,
    *,
    complete: bool = False,
    jobs: int = 1,
    on_progress: Callable[[int, int], None] | None = None,
) -> Iterator[AuditReport]:
    """The audit of every stored game of ``kind`` (all kinds: None), one report per slice of
        whole games (:data:`replay.store.slices.SLICE_ROWS` rows, read at call time), then one per
        live game (a journal; an unreadable one joins ``store.problems``). Together they hold the
        games of ``replay audit STORE``, kind by kind, each slice's games in (kind, game id) order.
        ``on_progress(done, total)``: games audited so far, of all. ``complete``: as in
        :func:`replay.audit.audit_game`. ``jobs``: worker processes forked per slice
    (:func:`replay.audit.audit_many`); 1, no worker process, is what a threaded server can use."""
    runs = {name: game_runs(store, name) for name in kinds(store, kind)}
    live = store.live_games()
    total = sum(r.games for r in runs.values()) + len(live)
    done = 0

    def advance(games: int) -> None:
        nonlocal done
        done += games
        if on_progress is not None:
            on_progress(done, total)

    for name, of_kind in runs.items():
        for table in game_slices(store, name, of_kind):
            if jobs > 1:
                _join_helper_threads()  # the last slice's worker joiners: none runs at a fork
            yield audit_many(table, jobs, advance, complete=complete)
            del table
    for game_id in live:
        try:
            events = store.journal.read(game_id)
        except InvalidGame as exc:
            store.problems.append(Rejection(exc.rule, exc.message, game_id, exc.seq, exc.source))
            events = []
        if events and kind in (None, events[0].kind):
            yield AuditReport(games=[audit_game(events, complete=complete)])
        advance(1)


def _join_helper_threads() -> None:
    """Wait for the threads an earlier :func:`audit_many` left joining its workers."""
    import threading

    for thread in threading.enumerate():
        if thread is not threading.main_thread() and thread.daemon:
            thread.join(timeout=10)
