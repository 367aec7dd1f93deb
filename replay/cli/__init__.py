"""The ``replay`` command line: a thin layer over the library.

Each group of commands lives in its own module and registers itself on :data:`app`.
"""

from __future__ import annotations

import errno
import os
import signal
import sys
from typing import Annotated

import typer

from replay.cli.output import COLOR, Color

app = typer.Typer(
    name="replay",
    help="Replay, audit and analyse recorded card games (Hearts, Hez2, Hiifuu, Fou!).",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

#: The exit status after output to a closed pipe (``replay games S | head -1``) where no
#: SIGPIPE kills the process first: 128 + SIGPIPE, what a shell shows for git's.
CLOSED_PIPE = 141


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        from replay import DISTRIBUTION, engine_build

        typer.echo(f"replay {version(DISTRIBUTION)} (rules engine: {engine_build()})")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: bool = typer.Option(
        False,
        "--version",
        callback=_print_version,
        is_eager=True,
        help="Print the version and which build of the rules engine runs.",
    ),
    color: Annotated[
        Color,
        typer.Option(
            "--color", help="Colour: auto (on a terminal, unless NO_COLOR is set), always, never."
        ),
    ] = Color.auto,
    ascii_cards: Annotated[
        bool,
        typer.Option(
            "--ascii",
            help="Cards as the logs write them (QS), not with suit marks (Q♠); the default "
            "where the output's encoding has no marks.",
        ),
    ] = False,
) -> None:
    """Replay, audit and analyse recorded card games (Hearts, Hez2, Hiifuu, Fou!)."""
    from replay.cli.output import use_color
    from replay.render.terminal import set_ascii

    COLOR["mode"] = color
    set_ascii(ascii_cards or not _can_show_marks(), colour=use_color())


def _can_show_marks() -> bool:
    """Whether stdout's encoding has the suit marks."""
    try:
        "♠♥◉⚔★".encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


# Command modules register their commands on `app` when imported.
from replay.cli import audit_cmds as _audit_cmds  # noqa: E402,F401
from replay.cli import dashboard_cmds as _dashboard_cmds  # noqa: E402,F401
from replay.cli import replay_cmds as _replay_cmds  # noqa: E402,F401
from replay.cli import review_cmds as _review_cmds  # noqa: E402,F401
from replay.cli import sim_cmds as _sim_cmds  # noqa: E402,F401
from replay.cli import solve_cmds as _solve_cmds  # noqa: E402,F401
from replay.cli import stats_cmds as _stats_cmds  # noqa: E402,F401
from replay.cli import store_cmds as _store_cmds  # noqa: E402,F401


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
