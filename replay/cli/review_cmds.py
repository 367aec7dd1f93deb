"""``replay review``: the cost of every decision under hidden information (docs/review.md)."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from replay.cli.app import app
from replay.cli.common import (
    AlternativesOpt,
    GameOpt,
    InputsArg,
    PolicyOpt,
    SamplesOpt,
    SeedOpt,
    echo_problems,
    fail,
    game_of,
    read_inputs,
)
from replay.cli.output import Format, dump, echo, records_text
from replay.review import DEFAULT_ALTERNATIVES, DEFAULT_POLICY, DEFAULT_SAMPLES
from replay.text import shown

if TYPE_CHECKING:
    from replay.model.events import Event


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
    samples: SamplesOpt = DEFAULT_SAMPLES,
    seed: SeedOpt = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Worker processes.")] = 1,
    policy: PolicyOpt = DEFAULT_POLICY,
    alternatives: AlternativesOpt = DEFAULT_ALTERNATIVES,
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
    from replay.review.engine import Settings, review_games
    from replay.review.report import (
        DECISION_COLUMNS,
        PAYOUT_COLUMNS,
        POLICY_COLUMNS,
        decision_row,
        review_document,
        review_html,
        review_jsonl,
        review_markdown,
        review_text,
    )

    games = _games(inputs, game)
    settings = Settings(samples, seed, policy, alternatives)
    problems: list[tuple[str, str]] = []
    reviews = review_games(
        [events for _, events in games], settings, seat, jobs=jobs, problems=problems
    )
    origins = {events[0].game_id: origin for origin, events in games}
    lines = [f"{origins[g]}: game {shown(g)}: {why}" for g, why in problems]
    echo_problems(lines, "warning" if reviews else "error")
    if not reviews:
        raise typer.Exit(2)
    if fmt is ReviewFormat.json:
        echo(dump(review_document(reviews)))
    elif fmt is ReviewFormat.jsonl:
        echo(review_jsonl(reviews))
    elif fmt is ReviewFormat.csv:
        rows = [decision_row(d) for r in reviews for d in r.decisions]
        echo(records_text(rows, Format.csv, (*DECISION_COLUMNS, *POLICY_COLUMNS, *PAYOUT_COLUMNS)))
    elif fmt is ReviewFormat.markdown:
        echo(review_markdown(reviews))
    elif fmt is ReviewFormat.html:
        echo(review_html(reviews))
    else:
        echo(review_text(reviews))


def _games(inputs: list[str], game: str | None) -> list[tuple[str, list[Event]]]:
    """The games to review (one with ``--game``), each in seq order, with the input it came
    from; exit 2 with one line when there are none."""
    sources = read_inputs(inputs)
    if game is not None:
        ref, events = game_of(sources, game)
        loaded = [(ref.origin, events)]
    else:
        loaded = [(ref.origin, sources.load(ref)) for ref in sources.games()]
        echo_problems(sources.collect_problems())
        if not loaded:
            fail(f"{sources.describe()}: no games")
    for _, events in loaded:
        events.sort(key=lambda e: e.seq)
    return loaded
