"""``replay fairplay``: how often each player picked the card that is best with every hand
visible, against an honest seat of the same agreement with the policy (docs/review.md, "Fair
play"). A signal for an arbiter to look further, never proof."""

from __future__ import annotations

from dataclasses import asdict
from enum import StrEnum
from typing import Annotated, Any

import typer

from replay.cli.app import app
from replay.cli.common import InputsArg, PolicyOpt, echo_problems, fail, read_inputs
from replay.cli.output import Format, dump, echo, records_text
from replay.review import DEFAULT_POLICY
from replay.text import shown

#: What every output says of the signal.
CAVEAT = "a signal for an arbiter to look further, never proof (docs/review.md, Fair play)"
#: The columns of a player's signal, in order.
COLUMNS = ("kind", "player", "games", "decisions", "hits", "rate", "expected", "agreement", "z",
           "p_value", "flagged")  # fmt: skip


class FairplayFormat(StrEnum):
    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"


@app.command()
def fairplay(
    inputs: InputsArg,
    player: Annotated[
        str | None, typer.Option("--player", "-p", help="Only this player's signal.")
    ] = None,
    max_cards: Annotated[
        int,
        typer.Option(
            "--max-cards",
            min=1,
            max=6,
            help="Judge plays where every hand holds at most this many cards (the exact "
            "solver's range).",
        ),
    ] = 4,
    threshold: Annotated[
        float, typer.Option("--threshold", min=0.0, max=1.0, help="Flag below this p-value.")
    ] = 0.001,
    policy: PolicyOpt = DEFAULT_POLICY,
    fmt: Annotated[
        FairplayFormat, typer.Option("--format", "-f", help="table, json, jsonl or csv.")
    ] = FairplayFormat.table,
) -> None:
    """Per player and game kind (Hearts, Hiifuu, Fou!): at the plays near a unit's end where the
    card best with every hand visible is not the honest policy's, how often the player played
    it, against an honest seat of the same agreement with the policy: z-score, p-value, flag.
    Exit 0 when nobody is flagged, 1 when someone is, 2 when no game could be judged."""
    from replay.review.fairplay import game_plays, signals

    sources = read_inputs(inputs)
    plays = []
    problems: list[str] = []
    for ref in sources.games():
        events = sorted(sources.load(ref), key=lambda e: e.seq)
        try:
            plays += game_plays(events, policy=policy, max_cards=max_cards)
        except (ValueError, KeyError) as exc:
            problems.append(f"{ref.origin}: game {shown(events[0].game_id)}: {exc}")
    echo_problems([*sources.collect_problems(), *problems], "warning" if plays else "error")
    if not plays:
        fail(f"{sources.describe()}: no game the fair-play signal can judge")
    rows = [_row(asdict(s), s.rate) for s in signals(plays, player, threshold)]
    if not rows and player is not None:
        fail(f"{sources.describe()}: no player {shown(player)} in a game it can judge")
    if fmt is FairplayFormat.json:
        settings = {"policy": policy, "max_cards": max_cards, "threshold": threshold}
        echo(dump({"settings": settings, "caveat": CAVEAT, "players": rows}))
    elif fmt in (FairplayFormat.jsonl, FairplayFormat.csv):
        echo(records_text(rows, Format(fmt.value), COLUMNS))
    else:
        echo(_table(rows))
        echo(f"flag: p-value below {threshold}; {CAVEAT}")
    if any(r["flagged"] for r in rows):
        raise typer.Exit(1)


def _table(rows: list[dict[str, Any]]) -> str:
    from replay.text import aligned, escaped

    def cell(name: str, value: Any) -> str:
        if name == "flagged":
            return "FLAGGED" if value else ""
        if name == "p_value":
            return f"{value:.2g}"
        if value is None:
            return "-"
        if isinstance(value, float):
            return f"{value:.3f}" if name != "z" else f"{value:+.2f}"
        return escaped(str(value))

    header = [c.replace("_", " ") for c in COLUMNS]
    body = [[cell(c, r[c]) for c in COLUMNS] for r in rows]
    return aligned([header, *body], right=set(range(2, len(COLUMNS) - 1)))


def _row(signal: dict[str, Any], rate: float) -> dict[str, Any]:
    return {name: (rate if name == "rate" else signal[name]) for name in COLUMNS}
