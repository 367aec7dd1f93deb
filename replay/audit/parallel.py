"""The audit of a whole event table on several processes: the table cut into slices of whole
games as the forked workers go (guided self-scheduling), each slice audited by
:func:`replay.audit.check.audit_table`, the reports gathered in a stable order; and glibc's
``mallopt`` setting that keeps freed memory for the next slice.
"""

from __future__ import annotations

import gc
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from contextlib import suppress
from typing import Any, Final

from replay.audit.check import audit_table, game_runs, game_starts, sorted_by_game
from replay.audit.findings import AuditReport, GameAudit, sort_report
from replay.games import UnknownGame, get_rules

#: Rows per process below which :func:`audit_many` starts fewer worker processes: starting
#: one (a fork, then copy-on-write page faults) costs about as much as auditing 50,000 events.
MIN_ROWS_PER_JOB: Final = 50_000


def audit_many(
    table: Any,
    jobs: int = 1,
    on_progress: Callable[[int], None] | None = None,
    *,
    min_rows_per_job: int = MIN_ROWS_PER_JOB,
    complete: bool = False,
) -> AuditReport:
    """Audit every game of an event table on up to ``jobs`` processes (one per
    ``min_rows_per_job`` rows at most); the report does not depend on ``jobs``.
    ``complete``: as in :func:`audit_game`.
    ``on_progress`` receives the number of games done after each slice (in this thread, as
    this process audits or receives each slice)."""
    report = AuditReport()
    if table.num_rows == 0:
        return report
    if min_rows_per_job > 0:
        jobs = max(1, min(jobs, table.num_rows // min_rows_per_job))
    retain_freed_memory()
    starts, distinct = game_runs(table)
    if distinct < len(starts):  # a game in several runs
        table = sorted_by_game(table)
        starts = game_starts(table)
    plan = _SlicePlan(starts, table.num_rows, jobs, complete)
    context = fork_context() if jobs > 1 and len(starts) > 2 else None
    if context is None:  # one process: not worth starting workers, or no fork here
        ends = [0, table.num_rows]
        while (piece := plan.take(ends, from_back=False)) is not None:
            _collect(report, plan.audit(table, *piece), on_progress)
    else:
        _audit_in_processes(report, table, plan, on_progress, context)
    return sort_report(report)


#: The most rows in one slice: about 100,000 events decode and audit within the caches (a
#: 1-job Hearts audit runs 5-10% faster in 8 slices than in 2 or 32).
MAX_SLICE_ROWS: Final = 110_000
#: The fewest rows in one slice (the last ones, where the processes meet): each slice costs
#: about 1.5 ms of set-up (decoding its columns: numpy and Arrow calls), as much as auditing
#: 2,500 events, so smaller slices would cost more than the idle time they save.
MIN_SLICE_ROWS: Final = 6_000


class _SlicePlan:
    """How the processes of :func:`audit_many` cut a table into slices of whole games as they
    go (guided self-scheduling): each takes a ``1 / (2 * jobs)`` share of the rows still left,
    within ``[MIN_SLICE_ROWS, MAX_SLICE_ROWS]`` (scaled down for small tables), so the slices
    shrink as the processes meet and they finish within a small slice of each other, with few
    slices (and little set-up) in all. With one job, every slice has the largest size."""

    def __init__(self, starts: list[int], rows: int, jobs: int, complete: bool = False) -> None:
        self.starts = starts
        self.jobs = jobs
        self.complete = complete
        self.largest = max(1, min(MAX_SLICE_ROWS, rows // 8))  # 8 slices at least: progress
        self.smallest = max(1, min(MIN_SLICE_ROWS, rows // (8 * jobs)))

    def size(self, remaining: int) -> int:
        """The rows of the next slice when ``remaining`` rows are left."""
        if self.jobs == 1:
            return self.largest
        return min(self.largest, max(self.smallest, remaining // (2 * self.jobs)))

    def take(self, ends: Any, from_back: bool) -> tuple[int, int] | None:
        """The next slice (offset, rows) from the front or the back of the rows still left,
        ``ends[0]`` to ``ends[1]`` (updated), or None when none are left. The cut falls on a
        game's first row: at or after ``size`` rows from the front, at or before it from the
        back (all that is left when no game begins there)."""
        front, back = int(ends[0]), int(ends[1])
        if front >= back:
            return None
        size = self.size(back - front)
        if from_back:
            index = bisect_right(self.starts, back - size) - 1
            cut = self.starts[index] if index >= 0 and self.starts[index] > front else front
            ends[1] = cut
            return cut, back - cut
        index = bisect_left(self.starts, front + size)
        cut = self.starts[index] if index < len(self.starts) else back
        cut = cut if cut < back else back
        ends[0] = cut
        return front, cut - front

    def audit(self, table: Any, offset: int, rows: int) -> list[GameAudit]:
        """Audit the slice of ``rows`` rows at ``offset`` (its games' starts are known)."""
        first = bisect_left(self.starts, offset)
        last = bisect_left(self.starts, offset + rows)
        starts = [start - offset for start in self.starts[first:last]]
        return audit_table(table.slice(offset, rows), starts, complete=self.complete)


def fork_context() -> Any:
    """The ``fork`` start method's context (workers inherit the table, not a copy), or None
    on a platform without fork."""
    import multiprocessing

    try:
        return multiprocessing.get_context("fork")
    except ValueError:
        return None


#: Freed memory glibc's malloc keeps at the top of its heap (``M_TOP_PAD``), in bytes.
RETAINED_HEAP: Final = 64 << 20


def retain_freed_memory() -> None:
    """Have glibc's malloc keep up to :data:`RETAINED_HEAP` bytes of freed memory for reuse.

    Each slice's columns and events are freed, then allocated again for the next slice. By
    default malloc returns the freed top of its heap to the kernel, and every page then comes
    back through a page fault: 24,000 faults in a 1-job Hearts audit of 870,000 events, at
    3.4 µs each on this project's virtual machines (80 ms of about 700). Nothing is done where
    the C library is not glibc (no ``mallopt``); forked workers inherit the setting.
    """
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(ctypes.c_int(M_TOP_PAD), ctypes.c_int(RETAINED_HEAP))


#: glibc's ``mallopt`` parameter for the freed memory kept at the top of the heap.
M_TOP_PAD: Final = -2


def _audit_in_processes(
    report: AuditReport,
    table: Any,
    plan: _SlicePlan,
    on_progress: Callable[[int], None] | None,
    context: Any,
) -> None:
    """``jobs - 1`` forked workers take slices from the front and this process takes them
    from the back, each the next one when it is done with its last (the two ends of the rows
    left, shared by the processes), until they meet: the processes finish within one (small)
    slice of each other. This process's share costs no fork, no warm-up and no result
    transfer; a worker sends the audits of each slice as soon as it is done (progress)."""
    import threading

    _load_rules(table)  # imported once here, not by every worker
    ends = context.Array("q", [0, table.num_rows])  # the rows left: front, back
    frozen_before = gc.get_freeze_count()
    gc.freeze()  # forked workers then never touch (and copy) the parent's objects
    receivers: list[Any] = []
    workers: list[Any] = []
    try:
        for _ in range(plan.jobs - 1):
            receiver, sender = context.Pipe(duplex=False)
            worker = context.Process(
                target=_audit_from_front, args=(table, plan, ends, sender), daemon=True
            )
            worker.start()
            sender.close()
            receivers.append(receiver)
            workers.append(worker)
        while (piece := _take_slice(plan, ends, from_back=True)) is not None:
            _collect(report, plan.audit(table, *piece), on_progress)
            _receive(report, receivers, on_progress, wait=False)
        _receive(report, receivers, on_progress, wait=True)
    finally:
        for receiver in receivers:  # left open only when this process stopped early
            receiver.close()
        # Joined in the background: a worker that inherited a large table takes several
        # milliseconds to exit (its page tables are torn down), and the report is complete.
        for worker in workers:
            threading.Thread(target=worker.join, daemon=True).start()
        if not frozen_before:  # a caller's own freeze is left as it was
            gc.unfreeze()


def _take_slice(plan: _SlicePlan, ends: Any, from_back: bool) -> tuple[int, int] | None:
    """The next slice from the front or the back of the rows left (shared by the processes),
    or None when all are taken."""
    with ends.get_lock():
        return plan.take(ends, from_back)


def _audit_from_front(table: Any, plan: _SlicePlan, ends: Any, sender: Any) -> None:
    """A worker process: audit slices from the front and send each one's audits, then None
    (or the error that stopped it)."""
    try:
        while (piece := _take_slice(plan, ends, from_back=False)) is not None:
            sender.send(plan.audit(table, *piece))
        sender.send(None)
    except Exception as exc:  # reported by the parent, which raises it
        with suppress(OSError):  # the parent may have stopped listening
            sender.send(RuntimeError(f"an audit worker process failed: {exc!r}"))
    finally:
        sender.close()


def _receive(
    report: AuditReport,
    receivers: list[Any],
    on_progress: Callable[[int], None] | None,
    wait: bool,
) -> None:
    """Collect the audits the workers sent (all of them, until each says it is done, when
    ``wait``)."""
    for receiver in list(receivers):
        while wait or receiver.poll():
            try:
                message = receiver.recv()
            except EOFError:
                raise RuntimeError("an audit worker process ended before its results") from None
            if message is None:
                receivers.remove(receiver)
                receiver.close()
                break
            if isinstance(message, BaseException):
                raise message
            _collect(report, message, on_progress)


def _load_rules(table: Any) -> None:
    """Import the game module of every kind in the table (unknown kinds are reported later)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kinds = table.column("kind")
    if pa.types.is_dictionary(kinds.type):  # as read from Parquet: the dictionaries suffice
        names = {name for chunk in kinds.chunks for name in chunk.dictionary.to_pylist()}
    else:
        names = set(pc.unique(kinds).to_pylist())
    for kind in names:
        with suppress(UnknownGame, TypeError):  # TypeError: a null kind
            get_rules(kind)


def _collect(
    report: AuditReport, audits: list[GameAudit], on_progress: Callable[[int], None] | None
) -> None:
    report.games.extend(audits)
    if on_progress is not None:
        on_progress(len(audits))
