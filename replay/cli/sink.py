"""Where a command's output goes, and what a write that fails there says.

A write that fails (disk full, quota, permission, I/O error) ends the command with one line
naming the output and exit code 4, the code of a write that fails (README: exit codes):

- standard output: :func:`guarded_stdout` makes its writes raise :class:`OutputFailure`
  (``<stdout>: no space left on device: the output is incomplete``);
- a file (``--out``): :func:`atomic_output` writes a temporary file beside it and renames it
  over the file only when every write succeeded, so a failure leaves the file as it was (and
  no temporary file); a path that is no regular file (a device such as ``/dev/full``, a pipe)
  is written in place.

A closed pipe is not a failure: ``EPIPE`` is left to the quiet ending of ``replay.cli.main``.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from replay.text import escaped

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

#: The name of standard output, as ``--out`` takes it and in messages.
STDOUT = "-"
STDOUT_NAME = "<stdout>"


class OutputFailure(Exception):
    """A write of the command's output failed: one line naming the output, exit code 4.

    ``kept``: nothing was written (a file that was there is as it was).

    >>> str(OutputFailure("g.html", "no space left on device", kept=True))
    'g.html: no space left on device: nothing written'
    """

    #: The exit code of a command that ends on this error (README: exit codes).
    exit_code = 4

    def __init__(self, name: str, cause: str, *, kept: bool = False) -> None:
        outcome = "nothing written" if kept else "the output is incomplete"
        super().__init__(f"{escaped(name)}: {cause}: {outcome}")


def cause_of(exc: OSError) -> str:
    """The operating system's words for a failed write, in lower case.

    >>> cause_of(OSError(errno.ENOSPC, "No space left on device"))
    'no space left on device'
    """
    if exc.errno is not None:
        return os.strerror(exc.errno).lower()
    return str(exc)


class _GuardedWriter(io.FileIO):
    """A file descriptor whose failed writes are :class:`OutputFailure` naming the output."""

    def __init__(self, file: int | str, shown: str, *, kept: bool) -> None:
        super().__init__(file, "w", closefd=not isinstance(file, int))
        self.shown = shown
        self.kept = kept

    def write(self, data: ReadableBuffer, /) -> int:
        try:
            return super().write(data)
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                raise
            raise OutputFailure(self.shown, cause_of(exc), kept=self.kept) from None


def _text(raw: _GuardedWriter, like: TextIO | None = None) -> TextIO:
    """A text stream over ``raw`` (UTF-8, or ``like``'s encoding and buffering)."""
    return io.TextIOWrapper(
        io.BufferedWriter(raw),
        encoding=like.encoding if like else "utf-8",
        errors=like.errors if like else "strict",
        line_buffering=bool(like.line_buffering) if like else False,
    )


def guarded_stdout() -> None:
    """Make a failed write to standard output an :class:`OutputFailure` (the same text stream
    otherwise: encoding, error handling, line buffering)."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # no real descriptor (a test runner's)
        return
    sys.stdout = _text(_GuardedWriter(descriptor, STDOUT_NAME, kept=False), sys.stdout)


@contextlib.contextmanager
def atomic_output(out: Path) -> Iterator[TextIO]:
    """A text stream for ``out`` (``-``: standard output), the file written whole or not at
    all: a temporary file beside it, renamed over it once everything is written and synced;
    whatever ends the block early removes the temporary file. A failed write is an
    :class:`OutputFailure` naming ``out``."""
    if str(out) == STDOUT:
        yield sys.stdout
        sys.stdout.flush()
        return
    target = Path(os.path.realpath(out))
    if _in_place(target):
        with _failing_as_output(out, kept=True):
            stream = _text(_GuardedWriter(str(target), str(out), kept=False))
        with stream:
            yield stream
        return
    with _failing_as_output(out, kept=True):
        temp, mode = _temporary_beside(target)
    try:
        with _failing_as_output(out, kept=True):
            stream = _text(_GuardedWriter(str(temp), str(out), kept=True))
        with stream:
            yield stream
            stream.flush()
            with _failing_as_output(out, kept=True):
                os.fchmod(stream.fileno(), mode)
                os.fsync(stream.fileno())
        with _failing_as_output(out, kept=True):
            os.replace(temp, target)
    finally:
        with contextlib.suppress(OSError):
            temp.unlink()


def _in_place(target: Path) -> bool:
    """Whether ``target`` exists and is no regular file (a device, a pipe): written in place."""
    try:
        return not stat.S_ISREG(target.stat().st_mode)
    except OSError:
        return False


def _temporary_beside(target: Path) -> tuple[Path, int]:
    """A new empty file in ``target``'s folder, and the mode the output gets (the target's,
    or what the umask allows a new file)."""
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    for attempt in range(100):
        temp = target.with_name(f".{target.name}.{os.getpid()}-{attempt}.tmp")
        try:
            os.close(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            continue
        return temp, mode
    raise OSError(errno.EEXIST, os.strerror(errno.EEXIST), str(target))


@contextlib.contextmanager
def _failing_as_output(out: Path, *, kept: bool) -> Iterator[None]:
    """An I/O error of the block as an :class:`OutputFailure` naming ``out``."""
    try:
        yield
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            raise
        raise OutputFailure(str(out), cause_of(exc), kept=kept) from None
