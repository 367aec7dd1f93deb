"""Helpers shared by the command modules: clean errors without tracebacks."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import Progress

from replay.text import escaped
from replay.words import did_you_mean

if TYPE_CHECKING:
    from replay.games.base import Game
    from replay.model.events import Event

if TYPE_CHECKING:
    from replay.sources import GameRef, Sources
    from replay.store import EventStore

#: The inputs of every reading command (see :mod:`replay.sources`).
INPUTS_HELP = (
    "Event stores, JSON Lines files, folders (searched recursively for both) or - for "
    "standard input."
)
InputsArg = Annotated[list[str], typer.Argument(metavar="INPUT...", help=INPUTS_HELP)]
#: The one name of a store argument (commands that need a store, not any input).
StoreArg = Annotated[Path, typer.Argument(metavar="STORE", help="An event store (a directory).")]
GameOpt = Annotated[
    str | None,
    typer.Option(
        "--game", "-g", help="Game id, in full or a unique prefix (not needed for one game)."
    ),
]


class Engine(StrEnum):
    local = "local"
    spark = "spark"


EngineOpt = Annotated[
    Engine,
    typer.Option(
        "--engine",
        # ``\\[``: typer reads help as Rich markup, where ``[spark]`` alone is a tag
        help="local (default: this machine, no Java) or spark "
        "(pip install 'cardgame-replay\\[spark]').",
    ),
]
MasterOpt = Annotated[
    str | None,
    typer.Option("--master", help="With --engine spark: the Spark master URL (default local[*])."),
]


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` on stderr (control characters escaped: :mod:`replay.text`) and
    exit with ``code`` (2: input could not be used)."""
    typer.echo(f"error: {escaped(message)}", err=True)
    raise typer.Exit(code)


def game_rules(kind: str) -> Game[Any]:
    """The rules of a game kind, or exit 2 naming the known kinds (kinds are case-sensitive)."""
    from replay.games import UnknownGame, available_kinds, get_rules

    try:
        return get_rules(kind)
    except UnknownGame:
        fail(f"unknown game kind {kind!r}; known kinds: {', '.join(available_kinds())}")


def known_kind(kind: str | None) -> str | None:
    """The callback of every ``--kind`` option: the kind, checked by :func:`game_rules`."""
    if kind is not None:
        game_rules(kind)
    return kind


KindOpt = Annotated[
    str | None, typer.Option("--kind", callback=known_kind, help="Only games of this kind.")
]

# The settings of a review (replay review, reindex --reviews, export --review: docs/review.md).
SamplesOpt = Annotated[
    int, typer.Option("--samples", "-n", min=1, help="Deals of the hidden cards per decision.")
]
SeedOpt = Annotated[int, typer.Option("--seed", help="The same seed gives the same review.")]
PolicyOpt = Annotated[str, typer.Option("--policy", help="The bot that plays the rollouts on.")]
AlternativesOpt = Annotated[
    int,
    typer.Option(
        "--alternatives",
        min=2,
        help="The most moves valued at a decision (beyond: the move played, the policy's and "
        "a seeded draw of the others).",
    ),
]


def open_store(path: Path, *, create: bool = False) -> EventStore:
    """Open a store (``create``: make it when missing), or exit 2 with a clear error."""
    from replay.store import EventStore, StorageFailure, StoreError

    try:
        return EventStore.open(path, create=create)
    except StorageFailure as exc:  # a store that cannot be created: exit 4
        fail(str(exc), exc.exit_code)
    except StoreError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(os_error(exc, path))


@contextlib.contextmanager
def removed_when_failed(store: Path) -> Iterator[None]:
    """Around a command that may create the store ``store``: when the command fails (an
    exception, a non-zero exit), a store it created that holds no events yet (the skeleton a
    failed first write leaves) is removed, with the folders made for it, so that nothing
    reads as an empty store there."""
    from replay.store.storage import remove_skeleton

    made = _first_missing(store)
    try:
        yield
    except BaseException as exc:
        failed = not isinstance(exc, typer.Exit) or exc.exit_code != 0
        if made is not None and failed and remove_skeleton(store):
            for parent in store.parents:
                if not parent.is_relative_to(made):
                    break
                with contextlib.suppress(OSError):
                    parent.rmdir()
        raise


def _first_missing(path: Path) -> Path | None:
    """The outermost of ``path`` and its parents that does not exist (None: ``path`` does)."""
    missing = None
    for candidate in (path, *path.parents):
        if candidate.exists():
            return missing
        missing = candidate
    return missing


def os_error(exc: OSError, path: Path) -> str:
    """``file: reason`` of an I/O error (the file it names, else ``path``)."""
    return f"{exc.filename or path}: {exc.strerror or exc}"


#: The most problems a command lists; the rest are counted ("... and N more").
MAX_PROBLEMS = 20


def echo_problems(problems: Iterable[object], label: str = "warning") -> None:
    """One ``label: problem`` line each on stderr (e.g. a store's problems: unreadable data
    files, journals kept...), a long one cut (:func:`replay.audit.report.clip`), a long list cut
    after :data:`MAX_PROBLEMS` with the number left out."""
    from replay.audit.report import clip

    listed = list(problems)
    for problem in listed[:MAX_PROBLEMS]:
        typer.echo(f"{label}: {clip(escaped(str(problem)))}", err=True)
    if len(listed) > MAX_PROBLEMS:
        typer.echo(f"{label}: ... and {len(listed) - MAX_PROBLEMS} more", err=True)


def read_events_file(path: Path) -> tuple[list[Event], list[str]]:
    """The events of a JSON Lines file, and one problem line per line that could not be read."""
    from replay.model.decode import events_from_table
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
    Off when stderr is not a terminal (a stopped bar still writes a blank line there).
    """
    console = Console(stderr=True)
    return Progress(
        console=console,
        transient=True,
        auto_refresh=auto_refresh,
        disable=not console.is_terminal,
    )


def pick_game(path: Path, games: Sequence[list[Event]], prefix: str) -> list[Event]:
    """The one game of a file whose id is ``prefix`` or, failing that, starts with it (as
    ``EventStore.resolve_game_id`` does for a store), or exit with a clear error."""
    matching = [g for g in games if g[0].game_id.startswith(prefix)]
    exact = [g for g in matching if g[0].game_id == prefix]
    if exact or len(matching) == 1:
        return (exact or matching)[0]
    if not matching:
        hint = did_you_mean(prefix, [g[0].game_id for g in games])
        fail(f"{path}: no game id starts with {prefix!r}{hint}")
    shown = ", ".join(g[0].game_id for g in matching[:10])
    fail(f"{path}: game id prefix {prefix!r} matches several games: {shown}")


def read_inputs(paths: Sequence[str], *, code: int = 2) -> Sources:
    """Open the inputs of a reading command; when none can be read, print why and exit with
    ``code``. The problems of the inputs that could be read are left to the caller."""
    from replay.sources import open_sources

    sources = open_sources(paths)
    if not sources.inputs:
        echo_problems(sources.problems, "error")
        raise typer.Exit(code)
    return sources


def load_one_game(paths: Sequence[str], prefix: str | None) -> tuple[Sources, GameRef, list[Event]]:
    """The inputs and one game of them (id or unique prefix), the inputs' problems printed as
    warnings; or exit 2 with the problems and one line naming the input and game."""
    sources = read_inputs(paths)
    ref, events = game_of(sources, prefix)
    return sources, ref, events


def game_of(sources: Sources, prefix: str | None, *, code: int = 2) -> tuple[GameRef, list[Event]]:
    """One game of open inputs (see :func:`load_one_game`; exit ``code`` when not found).
    Without ``prefix``, the inputs' only game."""
    from replay.games.base import RuleViolation
    from replay.sources import SourceError, cut_list
    from replay.store import StoreError

    try:
        if prefix is None:
            games = sources.games()
            if len(games) != 1:
                ids = cut_list([g.game_id for g in games])
                raise SourceError(
                    f"{sources.describe()}: {len(games)} games ({ids or 'none'}): give --game ID"
                )
            prefix = games[0].game_id
        ref = sources.resolve(prefix)
        events = sources.load(ref)
    except SourceError as exc:
        message = str(exc)
    except (StoreError, RuleViolation) as exc:
        message = str(exc)
    except OSError as exc:
        message = f"{os_error(exc, Path(sources.describe()))} (game {prefix})"
    else:
        echo_problems(sources.collect_problems())
        return ref, events
    echo_problems(sources.collect_problems(), "error")
    fail(message, code)
