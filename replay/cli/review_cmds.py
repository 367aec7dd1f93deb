"""``replay review``: the cost of every decision under hidden information (docs/review.md)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from replay.cli import app
from replay.cli.common import GameOpt, InputsArg, echo_problems, fail, game_of, read_inputs
from replay.cli.output import Format, dump, echo, records_text
from replay.events import Event
from replay.review.engine import DEFAULT_ALTERNATIVES, DEFAULT_SAMPLES, Settings, review_games
from replay.review.report import (
    DECISION_COLUMNS,
    decision_row,
    review_document,
    review_html,
    review_jsonl,
    review_markdown,
    review_text,
)
from replay.review.rollout import DEFAULT_POLICY
from replay.text import shown


class ReviewFormat(StrEnum):
    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"
    markdown = "markdown"
    html = "html"


@app.command()
def review(
    inputs: InputsArg,
    game: GameOpt = None,
    seat: Annotated[
        list[int] | None,
        typer.Option("--seat", "-s", help="Review this seat (repeat for several; default all)."),
    ] = None,
    samples: Annotated[
        int,
        typer.Option("--samples", "-n", min=1, help="Deals of the hidden cards per decision."),
    ] = DEFAULT_SAMPLES,
    seed: Annotated[int, typer.Option("--seed", help="The same seed gives the same review.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes.")] = 1,
    policy: Annotated[
        str, typer.Option("--policy", help="The bot that plays the rollouts on.")
    ] = DEFAULT_POLICY,
    alternatives: Annotated[
        int,
        typer.Option(
            "--alternatives",
            min=2,
            help="The most moves valued at a decision (beyond: the move played, the "
            "policy's and a seeded draw of the others).",
        ),
    ] = DEFAULT_ALTERNATIVES,
    fmt: Annotated[
        ReviewFormat,
        typer.Option(
            "--format", "-f", help="table, json, jsonl or csv (one decision a row), markdown, html."
        ),
    ] = ReviewFormat.table,
) -> None:
    """Value every decision of the chosen seats against its alternatives, on sampled deals of
    what the seat could not see. A game is reviewed up to its first audit finding. Nothing is
    written anywhere."""
    games = _games(inputs, game)
    settings = Settings(samples, seed, policy, alternatives)
    try:
        reviews = review_games([events for _, events in games], settings, seat, jobs=jobs)
    except ValueError as exc:
        fail(str(exc))
    if fmt is ReviewFormat.json:
        echo(dump(review_document(reviews)))
    elif fmt is ReviewFormat.jsonl:
        echo(review_jsonl(reviews))
    elif fmt is ReviewFormat.csv:
        rows = [decision_row(d) for r in reviews for d in r.decisions]
        echo(records_text(rows, Format.csv, DECISION_COLUMNS))
    elif fmt is ReviewFormat.markdown:
        echo(review_markdown(reviews))
    elif fmt is ReviewFormat.html:
        echo(review_html(reviews))
    else:
        echo(review_text(reviews))


def _games(inputs: list[str], game: str | None) -> list[tuple[str, list[Event]]]:
    """The games to review (one with ``--game``), each checked to be reviewable: one clear
    line and exit 2 otherwise."""
    sources = read_inputs(inputs)
    if game is not None:
        ref, events = game_of(sources, game)
        loaded = [(ref.origin, events)]
    else:
        loaded = [(ref.origin, sources.load(ref)) for ref in sources.games()]
        echo_problems(sources.collect_problems())
        if not loaded:
            fail(f"{sources.describe()}: no games")
    for origin, events in loaded:
        events.sort(key=lambda e: e.seq)
        where = f"{origin}: game {shown(events[0].game_id)}"
        if events[0].type != "game_start" or events[0].seq != 0:
            fail(f"{where}: the log does not begin with game_start")
        if [e.seq for e in events] != list(range(len(events))):
            fail(f"{where}: steps missing or repeated")
    return loaded
