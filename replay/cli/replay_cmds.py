"""``replay show`` and ``replay step``: any state of a recorded game, as a panel, as JSON, or
stepped through interactively.

Step ``N`` is the state after the event with sequence number ``N`` (step 0: after
``game_start``); a negative step counts from the end (``-1``: the final state). ``--as SEAT``
shows what that seat sees (other hands and secret discards hidden); without it the view is
omniscient. Errors (unknown game, ambiguous prefix, step out of range, unreadable store) are one
line on stderr and exit code 2.

Keys of ``replay step`` (``?`` lists them): ``n``/→ next event, ``p``/← previous,
``t``/``T`` next/previous trick (the step its last card is on the table), ``r``/``R``
next/previous round end (one press per round, whatever the number of scoring events),
``f``/``F`` next/previous finding of the audit, ``<``/Home first step, ``>``/End last step,
``g`` go to a step (prompt), ``0``-``9`` that seat's view, ``a`` all (omniscient), ``s`` the
next seat view, ``q`` quit. On a terminal keys act at once; otherwise (piped input) each line is
read as a sequence of keys, and ``g`` takes the rest of its line (or the next line) as the step.
"""

from __future__ import annotations

import json
import os
import select
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, TextIO

import typer
from rich.console import Console, Group, RenderableType
from rich.text import Text

from replay.cli.app import app
from replay.cli.common import GameOpt, InputsArg, fail, load_one_game
from replay.cli.output import Format, FormatOpt, JsonOpt, chosen, console, records_text
from replay.text import shown

if TYPE_CHECKING:
    from replay.engine.cursor import Cursor, Jump
    from replay.model.events import Event

SeatOpt = Annotated[
    int | None,
    typer.Option("--as", "-a", help="Show the game as this seat sees it (default: all)."),
]

HELP_LINE = (
    "n/→ next  p/← prev  t/T trick  r/R round  f/F finding  </> first/last  g go  ? keys  q quit"
)

#: The keys of the stepper and what they do (``?`` shows this).
KEYS_HELP = """\
n →        next event          p ←      previous event
t          next trick          T        previous trick
r          next round end      R        previous round end
f          next finding        F        previous finding
< Home     first step          > End    last step
g          go to a step (asks for the number)
0-9        that seat's view    a        all hands (omniscient)
s          next seat view      q        quit"""

#: Key -> (jump of Cursor.jump, what a refusal says).
JUMP_KEYS: dict[str, tuple[Jump, str]] = {
    "n": ("next", "at the last step"),
    "RIGHT": ("next", "at the last step"),
    "p": ("prev", "at the first step"),
    "LEFT": ("prev", "at the first step"),
    "t": ("next_trick", "no further trick end"),
    "T": ("prev_trick", "no earlier trick end"),
    "r": ("next_round", "no further round end"),
    "R": ("prev_round", "no earlier round end"),
    "f": ("next_finding", "no further finding"),
    "F": ("prev_finding", "no earlier finding"),
    "<": ("first", "at the first step"),
    "HOME": ("first", "at the first step"),
    ">": ("last", "at the last step"),
    "END": ("last", "at the last step"),
}


# --------------------------------------------------------------------- loading
def open_cursor(paths: list[str], game: str | None) -> Cursor:
    """A replay cursor over one game of the inputs (id in full or a unique prefix)."""
    _, _, events = load_one_game(paths, game)
    return cursor_for(events)


def cursor_for(events: list[Event]) -> Cursor:
    """A replay cursor over a game's events (clean CLI errors for an unusable log)."""
    from replay.engine.cursor import Cursor
    from replay.games import UnknownGame, get_rules
    from replay.games.base import RuleViolation

    kind = events[0].kind
    try:
        return Cursor(get_rules(kind), events)
    except UnknownGame:
        fail(f"game {shown(events[0].game_id)}: unknown game kind {kind!r}")
    except RuleViolation as exc:
        start = shown(events[0].describe())
        fail(f"game {shown(events[0].game_id)}: cannot replay: recorded {start}: {exc}")


def check_seat(cursor: Cursor, seat: int | None) -> None:
    """Fail unless ``seat`` is one of the game's seats (or ``None``: omniscient)."""
    players = int(cursor.state_at(0).n)
    if seat is not None and not 0 <= seat < players:
        fail(f"--as {seat}: the game has seats 0..{players - 1}")


def seek_or_fail(cursor: Cursor, step: int) -> None:
    """Move the cursor to ``step`` or fail with the valid range."""
    from replay.engine.cursor import StepOutOfRange

    try:
        cursor.seek(step)
    except StepOutOfRange:
        fail(f"step {step} is out of range: the game has steps 0..{cursor.last_step}{_why(cursor)}")


def _why(cursor: Cursor) -> str:
    stop = cursor.stopped
    if stop is None:
        return ""
    return f" (the log cannot be replayed from seq {stop.seq}: {stop.violation})"


# --------------------------------------------------------------------- show
@app.command()
def show(
    inputs: InputsArg,
    game: GameOpt = None,
    step: Annotated[
        int,
        typer.Option(
            "--step",
            "-s",
            help="Step N: the state after the event of seq N; negative from the end.",
        ),
    ] = -1,
    seat: SeatOpt = None,
    fmt: FormatOpt = Format.table,
    as_json: JsonOpt = False,
) -> None:
    """Show the state of a game at one step (default: the final state).

    json: the state view of docs/state.md; jsonl: the same on one line; csv: one row per seat.
    """
    from replay.render.terminal import extras, state_panel

    cursor = open_cursor(inputs, game)
    check_seat(cursor, seat)
    seek_or_fail(cursor, step)
    view = cursor.view(seat)
    fmt = chosen(fmt, as_json)
    if fmt is Format.json:
        typer.echo(json.dumps(view, indent=2, ensure_ascii=False))
    elif fmt is Format.jsonl:
        typer.echo(json.dumps(view, ensure_ascii=False))
    elif fmt is Format.csv:
        typer.echo(records_text(seat_rows(view), fmt, SEAT_COLUMNS))
    else:
        console().print(state_panel(view, more=extras(cursor)))


SEAT_COLUMNS = ("step", "seat", "name", "total", "hand_size", "hand")


def seat_rows(view: dict[str, Any]) -> list[dict[str, Any]]:
    """One record per seat of a state view (hands hidden from a seat view stay empty)."""

    def at(key: str, seat: int) -> Any:
        values = view.get(key) or []
        return values[seat] if seat < len(values) else None

    return [
        {
            "step": view.get("step"),
            "seat": seat,
            "name": at("names", seat),
            "total": at("totals", seat),
            "hand_size": at("hand_sizes", seat),
            "hand": at("hands", seat),
        }
        for seat in range(int(view.get("players", 0)))
    ]


# --------------------------------------------------------------------- the stepper
@dataclass
class Stepper:
    """The state of an interactive session: the cursor, the seat view, the findings of the
    audit (their seqs) and a status message."""

    cursor: Cursor
    seat: int | None = None
    findings: list[int] = field(default_factory=list)
    message: str = ""
    players: int = field(init=False)

    def __post_init__(self) -> None:
        self.players = int(self.cursor.state_at(0).n)

    def handle(self, key: str, ask: Callable[[str], str | None]) -> bool:
        """Act on one key; ``ask`` prompts for a line (the step of ``g``). False means quit."""
        self.message = ""
        if key == "q":
            return False
        if key == "g":
            self.go(ask("go to step: "))
        elif key == "?":
            self.message = KEYS_HELP
        elif key in JUMP_KEYS:
            self.jump(*JUMP_KEYS[key])
        elif key.isdigit():
            self.choose_seat(int(key))
        elif key == "a":
            self.seat = None
        elif key == "s":
            self.switch_seat()
        else:
            self.message = f"unknown key {key!r} (? lists the keys)"
        return True

    def jump(self, where: Jump, refusal: str) -> None:
        """Move by one jump of the cursor, or say why not."""
        if not self.cursor.can_jump(where, self.findings):
            self.message = refusal
            return
        self.cursor.jump(where, self.findings)

    def choose_seat(self, seat: int) -> None:
        if seat < self.players:
            self.seat = seat
        else:
            self.message = f"the game has seats 0..{self.players - 1}"

    def switch_seat(self) -> None:
        """omniscient → 0 → 1 → ... → n-1 → omniscient."""
        if self.seat is None:
            self.seat = 0
        elif self.seat + 1 < self.players:
            self.seat += 1
        else:
            self.seat = None

    def go(self, answer: str | None) -> None:
        from replay.engine.cursor import StepOutOfRange

        text = (answer or "").strip()
        try:
            self.cursor.seek(int(text))
        except ValueError:
            self.message = f"not a step number: {text!r}"
        except StepOutOfRange:
            self.message = f"step {text} is out of range 0..{self.cursor.last_step}"

    def frame(self) -> RenderableType:
        """What the screen shows now."""
        from replay.render.terminal import extras, state_panel

        view = self.cursor.view(self.seat)
        finding = " ".join(f"finding at step {s}" for s in self.findings if s == self.cursor.step)
        parts: list[RenderableType] = [state_panel(view, more=extras(self.cursor))]
        if finding:
            parts.append(Text(finding, style="bold red"))
        parts.append(Text(HELP_LINE, style="dim"))
        if self.message:
            parts.append(Text(self.message, style="bold yellow"))
        return Group(*parts)


def split_keys(text: str) -> list[str]:
    """The keys in a line of input (arrow escape sequences become ``RIGHT``/``LEFT``, Home
    and End ``HOME``/``END``, in their 3- and 4-character forms).

    >>> split_keys("nn\\x1b[Dq\\x1b[4~")
    ['n', 'n', 'LEFT', 'q', 'END']
    """
    arrows = {
        "\x1b[C": "RIGHT", "\x1b[D": "LEFT", "\x1bOC": "RIGHT", "\x1bOD": "LEFT",
        "\x1b[H": "HOME", "\x1b[F": "END", "\x1bOH": "HOME", "\x1bOF": "END",
    }  # fmt: skip
    keys: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "\x1b":
            long = LONG_KEYS.get(text[i : i + 4])
            keys.append(long or arrows.get(text[i : i + 3], "ESC"))
            i += 4 if long else 3
            continue
        if not text[i].isspace():
            keys.append(text[i])
        i += 1
    return keys


#: The 4-character escape sequences of Home and End (the 3-character ones: ``\x1b[H``...).
LONG_KEYS = {"\x1b[1~": "HOME", "\x1b[4~": "END"}


def _key_length(text: str) -> int:
    """How many characters the first key of ``text`` takes (an escape sequence: 3 or 4)."""
    if not text.startswith("\x1b"):
        return 1
    return 4 if text[:4] in LONG_KEYS else 3


class LineKeys:
    """Keys read from lines of a non-terminal stream (each line: a sequence of keys)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.rest = ""  # the unread part of the current line

    def pressed(self) -> Iterator[str]:
        while True:
            if not self.rest:
                line = self.stream.readline()
                if not line:
                    return
                self.rest = line.rstrip("\n")
            size = _key_length(self.rest)
            keys = split_keys(self.rest[:size])
            self.rest = self.rest[size:]
            yield from keys

    @contextmanager
    def session(self) -> Iterator[None]:
        yield

    def ask(self, prompt: str) -> str | None:
        """The rest of the current line if any, else the next line."""
        if self.rest.strip():
            answer, self.rest = self.rest, ""
            return answer
        line = self.stream.readline()
        return line.rstrip("\n") if line else None


class TerminalKeys:
    """Single keys read from a terminal in cbreak mode (no Enter needed).

    The terminal stays in cbreak mode for the whole session (keys typed while a frame is drawn
    are kept), and is back in line mode for the ``g`` prompt and on exit.
    """

    def __init__(self, stream: TextIO) -> None:
        self.fd = stream.fileno()
        self.saved: list[Any] | None = None

    @contextmanager
    def session(self) -> Iterator[None]:
        import termios
        import tty

        self.saved = termios.tcgetattr(self.fd)
        try:
            tty.setcbreak(self.fd)
            yield
        finally:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)

    def read_key(self) -> str | None:
        first = os.read(self.fd, 1).decode(errors="replace")
        if first == "\x1b":
            while len(first) < 4 and select.select([self.fd], [], [], 0.05)[0]:
                first += os.read(self.fd, 1).decode(errors="replace")
        if not first or first == "\x04":  # EOF or Ctrl-D
            return None
        keys = split_keys(first)
        return keys[0] if keys else ""

    def pressed(self) -> Iterator[str]:
        while (key := self.read_key()) is not None:
            if key:
                yield key

    def ask(self, prompt: str) -> str | None:
        import termios
        import tty

        if self.saved is not None:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)
        try:
            return input(prompt)
        except EOFError:
            return None
        finally:
            if self.saved is not None:
                tty.setcbreak(self.fd)


def key_source(stream: TextIO) -> LineKeys | TerminalKeys:
    """Single keys on a terminal, lines of keys otherwise."""
    return TerminalKeys(stream) if stream.isatty() else LineKeys(stream)


def run_stepper(stepper: Stepper, console: Console, stream: TextIO) -> None:
    """Draw, read a key, act, until ``q`` or the end of the input."""
    source = key_source(stream)

    def draw() -> None:
        console.clear()
        console.print(stepper.frame())

    with source.session():
        draw()
        for key in source.pressed():
            if not stepper.handle(key, source.ask):
                return
            draw()


@app.command()
def step(inputs: InputsArg, game: GameOpt = None, seat: SeatOpt = None) -> None:
    """Step through a game interactively (keys: n/→ p/← g t r s q; ? lists them)."""
    from replay.audit import audit_game

    if "-" in inputs:
        fail("step reads its keys from standard input: give the game as a file or store")
    _, _, events = load_one_game(inputs, game)
    cursor = cursor_for(events)
    check_seat(cursor, seat)
    findings = [f.seq for f in audit_game(events).findings]
    try:
        run_stepper(Stepper(cursor, seat, findings), console(), sys.stdin)
    except KeyboardInterrupt:
        return
