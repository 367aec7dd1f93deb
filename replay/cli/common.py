"""Helpers shared by the command modules: clean errors without tracebacks."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.progress import Progress

from replay.events import Event, events_from_table


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` on stderr and exit with ``code`` (2: input could not be used)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def open_store(path: Path) -> Any:
    """Open an existing store, or exit with a clear error."""
    from replay.store import EventStore, StoreError

    try:
        return EventStore.open(path)
    except StoreError as exc:
        fail(str(exc))


def read_events_file(path: Path) -> tuple[list[Event], list[str]]:
    """The events of a JSON Lines file, and one problem line per line that could not be read."""
    from replay.store.jsonl import read_jsonl

    try:
        read = read_jsonl(path)
    except OSError as exc:
        fail(f"{path}: {exc.strerror or exc}")
    return events_from_table(read.table), [str(r) for r in read.rejected]


def progress_bar(*, auto_refresh: bool = True) -> Progress:
    """A transient progress bar on stderr, so that stdout holds only the command's output.

    ``auto_refresh=False``: no refresh thread (the caller refreshes as it advances), for a
    command that forks worker processes: a fork copies the locks another thread holds (the
    console's, stderr's), and a child that met one of them held would wait forever.
    """
    return Progress(console=Console(stderr=True), transient=True, auto_refresh=auto_refresh)


def pick_game(path: Path, games: Sequence[list[Event]], prefix: str) -> list[Event]:
    """The one game of a file whose id is ``prefix`` or, failing that, starts with it (as
    ``EventStore.resolve_game_id`` does for a store), or exit with a clear error."""
    matching = [g for g in games if g[0].game_id.startswith(prefix)]
    exact = [g for g in matching if g[0].game_id == prefix]
    if exact or len(matching) == 1:
        return (exact or matching)[0]
    if not matching:
        fail(f"{path}: no game id starts with {prefix!r}")
    shown = ", ".join(g[0].game_id for g in matching[:10])
    fail(f"{path}: game id prefix {prefix!r} matches several games: {shown}")
