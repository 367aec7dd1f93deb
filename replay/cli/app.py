"""The ``replay`` application: its options before any command (``--version``, ``--color``,
``--ascii``). Each group of commands lives in its own module of :mod:`replay.cli` and registers
itself on :data:`app`.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from replay.cli.output import COLOR, Color
from replay.model.faces import set_ascii

app = typer.Typer(
    name="replay",
    help="Replay, audit and analyse recorded card games (Hearts, Hez2, Hiifuu, Fou!).",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


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

    COLOR["mode"] = color
    set_ascii(ascii_cards or not _can_show_marks(), colour=use_color())


def _can_show_marks() -> bool:
    """Whether stdout's encoding has the suit marks."""
    try:
        "♠♥◉⚔★".encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True
