"""``replay simulate``: bot-played games written through the store."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand

from replay.cli.app import app
from replay.cli.common import (
    echo_problems,
    fail,
    game_rules,
    open_store,
    os_error,
    progress_bar,
    removed_when_failed,
)
from replay.cli.sink import atomic_output

if TYPE_CHECKING:
    from replay.games.base import Game
    from replay.model.events import Event
    from replay.store import EventStore

BATCH = 200


def parse_options(variant: str | None, options: list[str]) -> dict[str, Any]:
    """``--variant`` and ``--option key=value`` (values parsed as JSON when they can be)."""
    out: dict[str, Any] = {}
    if variant:
        out["variant"] = variant
    for item in options:
        key, sep, raw = item.partition("=")
        if not sep:
            fail(f"--option {item!r}: expected key=value")
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    return out


def check_options(rules: Game[Any], seats: int, options: dict[str, Any]) -> None:
    """Fail unless the game takes every option as given: a trial game_start must record each
    one with its value (the log says how a game was set up), and the game must accept it."""
    try:
        event = rules.setup_event("options-check", seats, random.Random(0), options)
        recorded = json.loads(event.data or "{}")
    except Exception as exc:  # options are any JSON the user typed, handed to the game's code
        fail(f"{rules.kind}: cannot set up a game with {_shown(options)}: {exc}")
    for key, value in options.items():
        if key not in recorded or recorded[key] != value:
            fail(
                f"{rules.kind} does not take {_shown({key: value})}; its game_start records "
                f"{', '.join(recorded)}"
            )
    try:
        rules.start(event)
    except Exception as exc:  # a RuleViolation naming the setup rule, or the game's own error
        fail(f"{rules.kind}: {_shown(options)} refused: {exc}")


def _shown(options: dict[str, Any]) -> str:
    return " ".join(f"{k}={json.dumps(v)}" for k, v in options.items())


def games_help() -> str:
    """Per game: its seats, bots, and the options its game_start records (with defaults).

    >>> "hiifuu: 4-6 players" in games_help() and "variant=normal" in games_help()
    True
    """
    from replay.games import available_kinds, get_rules

    lines = []
    for kind in available_kinds():
        rules = get_rules(kind)
        event = rules.setup_event("help", rules.min_players, random.Random(0), {})
        recorded = json.loads(event.data or "{}")
        shown = [f"{k}={json.dumps(v)}" for k, v in recorded.items() if k not in ("names", "bots")]
        lines.append(
            f"{kind}: {rules.min_players}-{rules.max_players} players; bots "
            f"{', '.join(rules.bots())}; options (defaults at {rules.min_players} players) "
            f"{' '.join(shown)}"
        )
    return "\n\n".join(lines)


class _GamesEpilog(TyperCommand):
    """A command whose help ends with :func:`games_help`, built when the help is shown (it
    loads every game)."""

    @property
    def epilog(self) -> str:
        return games_help()

    @epilog.setter
    def epilog(self, value: str | None) -> None:
        pass


@app.command(cls=_GamesEpilog)
def simulate(
    kind: Annotated[str, typer.Argument(help="Game kind: hearts, hez2, hiifuu or fou.")],
    out: Annotated[
        Path,
        typer.Option(
            "--out", "-o", help="A store to write the games into, or a .jsonl file (- : stdout)."
        ),
    ],
    games: Annotated[int, typer.Option("--games", "-n", min=1)] = 10,
    seed: Annotated[int, typer.Option("--seed")] = 1,
    players: Annotated[int | None, typer.Option("--players", help="Seats (game default).")] = None,
    bots: Annotated[
        str, typer.Option("--bots", help="Bots cycled over seats (see below).")
    ] = "random",
    variant: Annotated[
        str | None, typer.Option("--variant", help="The game's variant (see below).")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", help="key=value, as game_start records it.")
    ] = None,
) -> None:
    """Simulate complete games with bots into a store or a JSON Lines file (same seed, same
    games)."""
    from replay.engine.simulate import simulate_corpus

    rules = game_rules(kind)
    seats = players if players is not None else rules.min_players
    if not rules.min_players <= seats <= rules.max_players:
        fail(f"{kind} takes {rules.min_players} to {rules.max_players} players, not {seats}")
    names = bots.split(",")
    unknown = [b for b in names if b not in rules.bots()]
    if unknown:
        fail(f"unknown bot {unknown[0]!r}; {kind} has {', '.join(rules.bots())}")
    options = parse_options(variant, option or [])
    check_options(rules, seats, options)
    corpus = simulate_corpus(
        rules, games=games, seed=seed, players=seats, bots=names, options=options
    )
    if str(out) == "-" or out.suffix == ".jsonl":
        _write_jsonl(corpus, out, kind, games)
        return
    with removed_when_failed(out):
        store = open_store(out, create=True)
        _simulate_into(store, corpus, kind, games)


def _simulate_into(store: EventStore, corpus: Iterable[list[Event]], kind: str, games: int) -> None:
    """The games ingested into the store, :data:`BATCH` games a commit."""
    written = events = 0
    batch: list[list[Event]] = []
    with progress_bar() as progress:
        task = progress.add_task(f"simulating {kind}", total=games)
        for game in corpus:
            batch.append(game)
            events += len(game)
            progress.advance(task)
            if len(batch) == BATCH:
                written += _ingest(store, batch, written)
                batch = []
        if batch:
            written += _ingest(store, batch, written)
    typer.echo(f"{written} {kind} games ({events} events) written to {store.path}")


def _write_jsonl(corpus: Iterable[list[Event]], out: Path, kind: str, games: int) -> None:
    """The games as canonical JSON Lines in a file, written whole or not at all (or on
    stdout)."""
    from replay.store.jsonl import event_to_line

    events = written = 0
    with atomic_output(out) as sink, progress_bar() as progress:
        task = progress.add_task(f"simulating {kind}", total=games)
        for game in corpus:
            sink.writelines(event_to_line(e) + "\n" for e in game)
            events += len(game)
            written += 1
            progress.advance(task)
    typer.echo(f"{written} {kind} games ({events} events) written to {out}", err=str(out) == "-")


def _ingest(store: EventStore, batch: list[list[Event]], written: int) -> int:
    """Ingest one batch (``written`` games stored before it); the games stored."""
    from replay.store import StorageFailure, StoreError

    try:
        report = store.ingest(batch)
    except StorageFailure as exc:  # disk full, quota, permission...: its own exit code
        told = exc.after(f"the first {written} games", f"the next {len(batch)}")
        fail(told if written else str(exc), exc.exit_code)
    except StoreError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write into the store: {os_error(exc, store.path)}")
    echo_problems(report.rejected, "error")
    return len(report.ingested)
