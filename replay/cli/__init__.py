"""The ``replay`` command line: a thin layer over the library.

Each group of commands lives in its own module and registers itself on :data:`app`.
"""

from __future__ import annotations

import os
import sys

import typer

app = typer.Typer(
    name="replay",
    help="Replay, audit and analyse recorded card games (Hearts, Hez2, Hiifuu, Fou!).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        from replay import engine_build

        typer.echo(f"replay {version('replay')} (rules engine: {engine_build()})")
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
) -> None:
    """Replay, audit and analyse recorded card games (Hearts, Hez2, Hiifuu, Fou!)."""


# Command modules register their commands on `app` when imported.
from replay.cli import audit_cmds as _audit_cmds  # noqa: E402,F401
from replay.cli import replay_cmds as _replay_cmds  # noqa: E402,F401
from replay.cli import sim_cmds as _sim_cmds  # noqa: E402,F401
from replay.cli import stats_cmds as _stats_cmds  # noqa: E402,F401
from replay.cli import store_cmds as _store_cmds  # noqa: E402,F401


def main() -> None:
    """Entry point of the ``replay`` console script.

    Commands report bad input themselves; anything else that escapes is printed as one line
    (set ``REPLAY_DEBUG=1`` for the traceback) with exit code 3.
    """
    try:
        app()
    except Exception as exc:
        if os.environ.get("REPLAY_DEBUG"):
            raise
        print(f"error: unexpected {type(exc).__name__}: {exc} (REPLAY_DEBUG=1 shows where)",
              file=sys.stderr)  # fmt: skip
        sys.exit(3)
