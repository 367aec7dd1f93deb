"""Writes of the Delta table that fail cleanly when the storage does.

deltalake's writer runs in a Rust (tokio) runtime: when the disk fills up, its worker thread
panics and prints the panic and a backtrace on file descriptor 2 itself, out of Python's reach,
and the error that reaches Python is a generic ``DeltaError``. :func:`storage_guard` silences
descriptor 2 around the write (the text is kept in the error, not shown), recognises a storage
fault by the operating system's error number in the message (``os error 28``), and raises
:class:`~replay.store.errors.StorageFailure` naming the store and the cause; data files the
failed write left behind (the log never listed them) are removed, so the store is as it was.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from replay.store.errors import StorageFailure

#: The error numbers of a storage that refuses a write.
STORAGE_ERRNOS = frozenset(
    {errno.ENOSPC, errno.EDQUOT, errno.EACCES, errno.EPERM, errno.EROFS, errno.EIO, errno.EFBIG}
)
_OS_ERROR = re.compile(r"os error (\d+)")


def storage_cause(exc: BaseException) -> str | None:
    """``no space left on device`` (the OS's words, in lower case) when ``exc`` is a storage
    fault, else None.

    >>> storage_cause(OSError(errno.ENOSPC, "No space left on device"))
    'no space left on device'
    >>> storage_cause(RuntimeError("Unable to copy data to file: ... (os error 5)"))
    'input/output error'
    """
    number = exc.errno if isinstance(exc, OSError) else None
    if number is None:
        found = _OS_ERROR.search(str(exc))
        number = int(found.group(1)) if found else None
    if number not in STORAGE_ERRNOS:
        return None
    return os.strerror(number).lower()


@contextlib.contextmanager
def quiet_stderr() -> Iterator[Callable[[], str]]:
    """Descriptor 2 sent to a temporary file while the block runs (a Rust runtime's panic
    messages); yields a function that returns what was written there."""
    with contextlib.suppress(ValueError, OSError):
        sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as sink:

        def captured() -> str:
            sink.seek(0)
            return sink.read().decode("utf-8", "replace")

        os.dup2(sink.fileno(), 2)
        try:
            yield captured
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def data_files(root: Path) -> set[str]:
    """The Parquet files under the partition directories of a store (``kind=*/``)."""
    found: set[str] = set()
    with contextlib.suppress(OSError), os.scandir(root) as entries:
        for entry in entries:
            if entry.name.startswith("kind=") and entry.is_dir(follow_symlinks=False):
                with contextlib.suppress(OSError), os.scandir(entry.path) as files:
                    found.update(f.path for f in files if f.name.endswith(".parquet"))
    return found


@contextlib.contextmanager
def storage_guard(root: Path, version: Callable[[], int]) -> Iterator[None]:
    """Run a write of the table at ``root`` (under the store lock) with descriptor 2 quiet; a
    storage fault becomes :class:`StorageFailure` (``committed`` when ``version`` moved), and
    the data files it left that no commit lists are removed."""
    before = version()
    existing = data_files(root)
    with quiet_stderr():
        try:
            yield
        except Exception as exc:
            cause = storage_cause(exc)
            if cause is None:
                raise
            failure = exc
        else:
            return
    committed = _version_or(version, before) != before
    if not committed:
        for path in data_files(root) - existing:
            with contextlib.suppress(OSError):
                os.unlink(path)
    raise StorageFailure(str(root), cause, committed) from failure


def _version_or(version: Callable[[], int], default: int) -> int:
    try:
        return version()
    except Exception:  # the log cannot be read now: say nothing was committed
        return default


#: What a store holds before its first commit of events: the lock file, the commit that
#: creates the empty table, and empty folders (the log, the journals, a partition).
_SKELETON_FILES = frozenset({"_store.lock", "_delta_log/00000000000000000000.json"})


def remove_skeleton(root: Path) -> bool:
    """Remove a store that holds no events yet (what a failed first write of a new store
    leaves: ``_delta_log/``, ``_store.lock``...), so that it does not read as an empty store;
    anything else in it (a commit of events, a data file, a journal, a file of someone else's)
    keeps it. True when it was removed."""
    try:
        for folder, _dirs, files in os.walk(root):
            for name in files:
                relative = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
                if relative not in _SKELETON_FILES:
                    return False
    except OSError:
        return False
    for folder, dirs, files in os.walk(root, topdown=False):
        for name in files:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(folder, name))
        for name in dirs:
            with contextlib.suppress(OSError):
                os.rmdir(os.path.join(folder, name))
    with contextlib.suppress(OSError):
        os.rmdir(root)
    return not root.exists()
