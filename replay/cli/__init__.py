"""The ``replay`` command line: a thin layer over the library.

Each group of commands lives in its own module and registers itself on :data:`app`.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    name="replay",
    help="Replay, audit and analyse recorded card games (Hearts, Hez2, Hiifuu, Fou!).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Command modules register their commands on `app` when imported.
from replay.cli import audit_cmds as _audit_cmds  # noqa: E402,F401
from replay.cli import replay_cmds as _replay_cmds  # noqa: E402,F401
from replay.cli import sim_cmds as _sim_cmds  # noqa: E402,F401
from replay.cli import store_cmds as _store_cmds  # noqa: E402,F401


def main() -> None:
    """Entry point of the ``replay`` console script."""
    app()
