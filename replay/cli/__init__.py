"""The ``replay`` command line: a thin layer over the library.

Each group of commands lives in its own module and registers itself on
:data:`replay.cli.app.app`.
"""

from __future__ import annotations

import errno
import os
import signal
import sys

from replay.cli import (  # noqa: F401  (each registers its commands on `app` when imported)
    audit_cmds,
    dashboard_cmds,
    fairplay_cmds,
    replay_cmds,
    review_cmds,
    sim_cmds,
    solve_cmds,
    stats_cmds,
    store_cmds,
)
from replay.cli.app import app

__all__ = ["CLOSED_PIPE", "app", "main", "quiet_closed_pipe"]

#: The exit status after output to a closed pipe (``replay games S | head -1``) where no
#: SIGPIPE kills the process first: 128 + SIGPIPE, what a shell shows for git's.
CLOSED_PIPE = 141


def main() -> None:
    """Entry point of the ``replay`` console script.

    Commands report bad input themselves; anything else that escapes is printed as one line
    (set ``REPLAY_DEBUG=1`` for the traceback) with exit code 3. Output to a closed pipe
    ends the process quietly, as git's and ripgrep's: SIGPIPE keeps its default action (the
    end of the process, status 141 in a shell), and where a write still fails with EPIPE the
    command ends without a message with status 141. A write that fails on stdout (a full
    disk) is one line naming it, exit code 4 (:mod:`replay.cli.sink`).
    """
    from replay.cli.sink import OutputFailure, guarded_stdout

    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    guarded_stdout()
    try:
        try:
            app()
        finally:
            sys.stdout.flush()
    except OutputFailure as exc:
        print(f"error: {exc}", file=sys.stderr)
        _silence_stdout()
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        quiet_closed_pipe()
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            _unexpected(exc)
        quiet_closed_pipe()
    except Exception as exc:
        _unexpected(exc)


def _unexpected(exc: Exception) -> None:
    if os.environ.get("REPLAY_DEBUG"):
        raise exc
    print(f"error: unexpected {type(exc).__name__}: {exc} (REPLAY_DEBUG=1 shows where)",
          file=sys.stderr)  # fmt: skip
    sys.exit(3)


def quiet_closed_pipe() -> None:
    """End quietly after the reader of stdout went away: no message, no flush error at exit
    (stdout now points to /dev/null), exit status :data:`CLOSED_PIPE`."""
    _silence_stdout()
    sys.exit(CLOSED_PIPE)


def _silence_stdout() -> None:
    """Point stdout at /dev/null: what its buffer still holds is dropped at exit unsaid."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # no descriptor: nothing flushed at exit
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, descriptor)
