"""``replay solve``: the position after a step with every card's value with all cards visible.

Step N is the state after the event of seq N (as ``replay show``); the trick's rulings due there
are applied first, so the step of a trick's last card shows the next trick's lead. Errors (no
card to play there, a game the solver does not know, a step out of range) are one line on stderr
and exit code 2. The JSON is described by docs/schemas/cli-solve.json.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer

from replay.cli.app import app
from replay.cli.common import GameOpt, InputsArg, fail, load_one_game
from replay.cli.output import Format, FormatOpt, JsonOpt, chosen, dump, records_text
from replay.cli.replay_cmds import cursor_for, seek_or_fail
from replay.text import shown

if TYPE_CHECKING:
    from replay.solver import Solution

CARD_COLUMNS = ("step", "seat", "card", "best", "loss", "values")


@app.command("solve")
def solve_cmd(
    inputs: InputsArg,
    step: Annotated[
        int,
        typer.Option(
            "--step",
            "-s",
            help="Step N: the position after the event of seq N; negative from the end.",
        ),
    ],
    game: GameOpt = None,
    capacity: Annotated[
        int | None,
        typer.Option(
            "--capacity",
            min=1,
            help="Positions the search's table keeps at most (default 1,000,000).",
        ),
    ] = None,
    fmt: FormatOpt = Format.table,
    as_json: JsonOpt = False,
) -> None:
    """Every legal card's value with all cards visible (Hearts, Hiifuu, Fou!), and the line of
    best play: each seat plays for its own score at the end of the hand or round (docs/solver.md).

    json: docs/schemas/cli-solve.json; jsonl: the same on one line; csv: one row per card.
    """
    from replay.solver import CAPACITY, NotSolvable, solve

    _, ref, events = load_one_game(inputs, game)
    cursor = cursor_for(events)
    seek_or_fail(cursor, step)
    where = f"{ref.origin}: game {shown(ref.game_id)}, step {cursor.step}"
    try:
        solution = solve(cursor.state, capacity=capacity or CAPACITY)
    except NotSolvable as exc:
        fail(f"{where}: {exc}")
    record = solution_record(solution, cursor.step, cursor.view(None))
    fmt = chosen(fmt, as_json)
    if fmt is Format.json:
        typer.echo(dump(record))
    elif fmt is Format.jsonl:
        typer.echo(json.dumps(record, ensure_ascii=False))
    elif fmt is Format.csv:
        rows = [{"step": cursor.step, "seat": solution.seat, **c} for c in record["cards"]]
        typer.echo(records_text(rows, fmt, CARD_COLUMNS))
    else:
        typer.echo(solution_text(solution, cursor.render(None)))


def solution_record(solution: Solution, step: int, view: dict[str, Any]) -> dict[str, Any]:
    """The JSON of ``replay solve`` (docs/schemas/cli-solve.json)."""
    return {
        "game_id": view["game_id"],
        "kind": solution.kind,
        "step": step,
        "seat": solution.seat,
        "better": "lower" if solution.better < 0 else "higher",
        "best": solution.best,
        "cards": [
            {
                "card": card,
                "values": list(values),
                "loss": solution.loss(card),
                "best": card == solution.best,
            }
            for card, values in solution.values.items()
        ],
        "line": [{"seat": seat, "card": card} for seat, card in solution.line],
        "search": {
            "nodes": solution.nodes,
            "table_entries": solution.entries,
            "table_resets": solution.resets,
        },
        "state": view,
    }


def solution_text(solution: Solution, position: str) -> str:
    """The position, then one line per legal card and the line of best play."""
    unit = "points taken in the hand, lower is better" if solution.better < 0 else "round score"
    lines = [
        position,
        "",
        f"seat {solution.seat} to play; values with all cards visible ({unit}), each seat "
        "playing for its own score:",
    ]
    seats = len(next(iter(solution.values.values())))
    lines.append("  card   " + " ".join(f"{'seat ' + str(s):>7}" for s in range(seats)) + "   loss")
    for card, values in solution.values.items():
        mark = "*" if card == solution.best else " "
        cells = " ".join(f"{v:>7}" for v in values)
        lines.append(f"{mark} {card:<6} {cells}   {solution.loss(card):>4}")
    moves = " ".join(f"{seat}:{card}" for seat, card in solution.line)
    lines.append(f"best line: {moves or '-'}")
    lines.append(
        f"search: {solution.nodes:,} positions, table {solution.entries:,} entries"
        + (f", cleared {solution.resets} times at its cap" if solution.resets else "")
    )
    return "\n".join(lines)
