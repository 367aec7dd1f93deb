"""A club's season: the sample corpus of ``sample_logs/`` (``make samples``).

Some thirty named members meet on club nights (Tuesdays and Fridays over twenty weeks) at
tables of changing membership: who comes on a night is drawn from each member's attendance
and the weeks they belong to the club, and the night's tables are dealt out of a shuffled block
that gives every game kind the same share of tables, cycling through all its player counts.
The club's bots (both of the simulator's bots, ``random`` and ``heuristic``, under names that
say which) fill the seats the humans leave empty. On Fridays the humans stake (most of them) at
the games that take stakes (Hez2), and the games with variants play their second one (Hiifuu,
random tokens).

Humans are played by the simulator's bots too (each member always by the same one: most by the
heuristic bot, the beginners by the random one), but ``game_start`` records them as humans, with
their names and the table's date and time. The same code gives the same season, event for event.

>>> tables = plan()
>>> tables[0].game_id
'hearts-2026-03-03-t1'
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_rules, get_spec
from replay.model.events import Event

#: The first club night (a Tuesday), the season's length, the nights of a week (days after
#: Monday) and when the first table of a night starts (UTC).
START = dt.date(2026, 3, 3)
WEEKS = 20
NIGHTS = (1, 4)  # Tuesday, Friday
STAKES_NIGHT = 4  # Friday
OPENING = dt.time(19, 0)
#: Minutes between the starts of a night's tables.
TABLE_GAP = 10
#: Drives every draw of the season: attendance, tables, seats, stakes, game seeds.
SEED = 2026
#: Stakes a human may put on a Hez2 table (minor units); None: this one does not stake.
STAKES = (None, 100, 250, 250, 500, 1000)


@dataclass(frozen=True)
class Member:
    """A club member (a human or one of the club's bots)."""

    name: str
    strategy: str  # the simulator's bot that plays the seat: "heuristic" or "random"
    bot: bool = False  # recorded as a bot in game_start
    attendance: float = 0.7  # chance of coming to a club night
    weeks: tuple[int, int] = (0, WEEKS)  # member from week ... to before week ...


def _human(name: str, attendance: float, strategy: str = "heuristic", **kw: Any) -> Member:
    return Member(name, strategy, attendance=attendance, **kw)


HUMANS: tuple[Member, ...] = (
    _human("Ada", 0.9),
    _human("Bruno", 0.8),
    _human("Chloé", 0.8),
    _human("Dmitri", 0.7),
    _human("Esther", 0.9),
    _human("Farid", 0.6),
    _human("Greta", 0.7),
    _human("Hugo", 0.5),
    _human("Inès", 0.8),
    _human("Jonas", 0.6),
    _human("Keiko", 0.7),
    _human("Lars", 0.4),
    _human("Maya", 0.8),
    _human("Nadia", 0.6),
    _human("Omar", 0.7),
    _human("Pia", 0.5),
    _human("Quentin", 0.6, weeks=(0, 11)),  # moves away mid-season
    _human("Rosa", 0.7, weeks=(0, 14)),
    _human("Søren", 0.6),
    _human("Tessa", 0.8),
    _human("Zoë", 0.7, weeks=(6, WEEKS)),  # joins later
    _human("Wim", 0.4, "random"),  # the beginners, played by the random bot
    _human("Xenia", 0.5, "random"),
    _human("Yusuf", 0.6, "random", weeks=(3, WEEKS)),
    _human("Vera", 0.5, "random", weeks=(10, WEEKS)),
    _human("Umar", 0.4, "random"),
    _human("Lena", 0.6, weeks=(2, WEEKS)),
    _human("Marek", 0.5, weeks=(4, 16)),
)

BOTS: tuple[Member, ...] = tuple(
    Member(f"{strategy}-bot-{i}", strategy, bot=True, attendance=1.0)
    for strategy in ("random", "heuristic")
    for i in (1, 2, 3)
)

MEMBERS: tuple[Member, ...] = HUMANS + BOTS


@dataclass(frozen=True)
class Table:
    """One game of the season: where, when, who (by seat), with which options and seed."""

    game_id: str
    kind: str
    start: dt.datetime
    seats: tuple[Member, ...]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)


def nights() -> list[dt.date]:
    """The season's club nights, in order."""
    monday = START - dt.timedelta(days=START.weekday())
    days = [monday + dt.timedelta(weeks=w, days=d) for w in range(WEEKS) for d in NIGHTS]
    return [day for day in days if day >= START]


def formats(kinds: Sequence[str]) -> Iterator[list[tuple[str, int]]]:
    """Blocks of tables, one block per ``len(kinds)`` nights: every kind the same number of
    tables, its player counts taken in turn from one block to the next."""
    counts = {k: get_spec(k).players for k in kinds}
    turn = dict.fromkeys(kinds, 0)
    while True:
        block = []
        for kind in kinds:
            for _ in range(len(kinds)):
                block.append((kind, counts[kind][turn[kind] % len(counts[kind])]))
                turn[kind] += 1
        yield block


def plan(kinds: Sequence[str] | None = None) -> list[Table]:
    """Every table of the season, night by night (tables of a night numbered from 1)."""
    kinds = list(kinds or available_kinds())
    rng = random.Random(SEED)
    blocks = formats(kinds)
    pending: list[tuple[str, int]] = []
    tables: list[Table] = []
    for day in nights():
        if not pending:
            pending = next(blocks)
            rng.shuffle(pending)
        tonight, pending = pending[: len(kinds)], pending[len(kinds) :]
        tables += _night(day, tonight, rng)
    return tables


def _night(day: dt.date, tonight: list[tuple[str, int]], rng: random.Random) -> list[Table]:
    """The tables of one night: the biggest are seated first, humans before bots."""
    week = (day - START).days // 7
    present = [m for m in HUMANS if m.weeks[0] <= week < m.weeks[1] and rng.random() < m.attendance]
    rng.shuffle(present)
    opening = dt.datetime.combine(day, OPENING, tzinfo=dt.UTC)
    order = sorted(range(len(tonight)), key=lambda t: -tonight[t][1])
    tables: dict[int, Table] = {}
    for t in order:
        kind, players = tonight[t]
        bots = min(players, max(players - len(present), rng.choice((0, 0, 0, 1, 1, 2))))
        seats = [present.pop() for _ in range(players - bots)] + rng.sample(BOTS, bots)
        rng.shuffle(seats)
        start = opening + dt.timedelta(minutes=TABLE_GAP * t)
        game_id = f"{kind}-{day.isoformat()}-t{t + 1}"
        options = _options(kind, day, seats, rng)
        tables[t] = Table(game_id, kind, start, tuple(seats), rng.randrange(1 << 31), options)
    return [tables[t] for t in sorted(tables)]


def _options(
    kind: str, day: dt.date, seats: Sequence[Member], rng: random.Random
) -> dict[str, Any]:
    """The game's options at one table, from its spec: on Fridays the humans stake at a game
    that takes stakes (Hez2), and a game with variants plays its second one (Hiifuu's random
    tokens); other nights, no stakes and the default variant."""
    spec = get_spec(kind)
    options: dict[str, Any] = {"names": [m.name for m in seats], "bots": [m.bot for m in seats]}
    friday = day.weekday() == STAKES_NIGHT
    if "stakes" in spec.options:
        options["stakes"] = [None if m.bot or not friday else rng.choice(STAKES) for m in seats]
    if spec.variants:
        options["variant"] = spec.variants[1 if friday and len(spec.variants) > 1 else 0]
    return options


def play(table: Table) -> list[Event]:
    """The events of one table's game, dated from its start."""
    events = simulate_game(
        get_rules(table.kind),
        table.game_id,
        players=len(table.seats),
        seed=table.seed,
        bots=[m.strategy for m in table.seats],
        options=table.options,
    )
    return dated(events, table.start)


def dated(events: list[Event], start: dt.datetime) -> list[Event]:
    """The game moved in time so that it starts at ``start`` (its durations kept)."""
    first = events[0].ts
    assert first is not None, "a simulated game_start has a time"
    shift = start - first
    return [e if e.ts is None else replace(e, ts=e.ts + shift) for e in events]


def season_games(kinds: Sequence[str] | None = None) -> Iterator[list[Event]]:
    """Every game of the season, table by table."""
    for table in plan(kinds):
        yield play(table)
