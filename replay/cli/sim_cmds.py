"""``replay simulate``: bot-played games written through the store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from replay.cli import app
from replay.cli.common import fail, progress_bar
from replay.events import Event
from replay.games import UnknownGame, available_kinds, get_rules
from replay.simulate import simulate_corpus
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


@app.command()
def simulate(
    kind: Annotated[str, typer.Argument(help="Game kind: hearts, hez2, hiifuu or fou.")],
    out: Annotated[Path, typer.Option("--out", help="Store to write the games into.")],
    games: Annotated[int, typer.Option("--games", min=1)] = 10,
    seed: Annotated[int, typer.Option("--seed")] = 1,
    players: Annotated[int | None, typer.Option("--players", help="Seats (game default).")] = None,
    bots: Annotated[str, typer.Option("--bots", help="Bots cycled over seats.")] = "random",
    variant: Annotated[str | None, typer.Option("--variant")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", help="key=value")] = None,
) -> None:
    """Simulate complete games with bots and write them into a store (same seed, same games)."""
    try:
        rules = get_rules(kind)
    except UnknownGame:
        fail(f"unknown game kind {kind!r}; available: {', '.join(available_kinds())}")
    seats = players or rules.min_players
    if not rules.min_players <= seats <= rules.max_players:
        fail(f"{kind} takes {rules.min_players} to {rules.max_players} players, not {seats}")
    names = bots.split(",")
    unknown = [b for b in names if b not in rules.bots()]
    if unknown:
        fail(f"unknown bot {unknown[0]!r}; {kind} has {', '.join(rules.bots())}")
    store = EventStore.open(out, create=True)
    corpus = simulate_corpus(
        rules, games=games, seed=seed, players=seats, bots=names,
        options=parse_options(variant, option or []),
    )  # fmt: skip
    written = events = 0
    batch: list[list[Event]] = []
    with progress_bar() as progress:
        task = progress.add_task(f"simulating {kind}", total=games)
        for game in corpus:
            batch.append(game)
            events += len(game)
            progress.advance(task)
            if len(batch) == BATCH:
                written += _ingest(store, batch)
                batch = []
        if batch:
            written += _ingest(store, batch)
    typer.echo(f"{written} {kind} games ({events} events) written to {out}")


def _ingest(store: EventStore, batch: list[list[Event]]) -> int:
    report = store.ingest(batch)
    for rejection in report.rejected:
        typer.echo(f"error: {rejection}", err=True)
    return len(report.ingested)
