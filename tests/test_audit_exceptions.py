"""The audit leaves no exception behind: after auditing faulty games, ``sys.exc_info()`` is
empty and a fresh raise has no ``__context__`` (a walk that yielded inside an ``except`` block
left, compiled by mypyc, the handled violation in place: every later raise chained onto it, and
each raise walked the whole chain, so the audit of a store of faulty games went quadratic)."""

from __future__ import annotations

import dataclasses
import sys
from functools import cache

import pyarrow as pa

from replay.audit import audit_game, audit_many
from replay.engine.simulate import simulate_game
from replay.games import get_rules
from replay.model.events import Event, events_to_table

#: Copies of each faulty game: thousands of findings in all.
COPIES = 1_000


@cache
def faulty_games() -> tuple[list[Event], list[Event]]:
    """The first tricks of a Hearts game twice: a trick given to the wrong seat (the audit
    goes on), and a card played that its player does not hold (the audit stops)."""
    events = simulate_game(get_rules("hearts"), "h", players=4, seed=1, bots=("random",))
    plays = [i for i, e in enumerate(events) if e.type == "play"]
    won = next(i for i, e in enumerate(events) if e.type == "trick_won")
    head = events[: plays[12]]
    winner = events[won].player
    assert winner is not None
    recoverable = list(head)
    recoverable[won] = dataclasses.replace(events[won], player=(winner + 1) % 4)
    stopped = list(head)
    stopped[plays[9]] = dataclasses.replace(events[plays[9]], card=events[plays[10]].card)
    return recoverable, stopped


def corpus(copies: int) -> pa.Table:
    """``copies`` of each faulty game, each under its own game id."""
    rows: list[Event] = []
    for n in range(copies):
        for name, events in zip(("r", "s"), faulty_games(), strict=True):
            rows += [dataclasses.replace(e, game_id=f"{name}{n}") for e in events]
    return events_to_table(rows)


def test_each_faulty_game_has_a_finding_and_one_stops() -> None:
    recoverable, stopped = (audit_game(g) for g in faulty_games())
    assert [f.rule for f in recoverable.findings] == ["HEARTS-TRICK"]
    assert recoverable.stopped_at is None
    assert stopped.findings and stopped.stopped_at is not None


def test_no_exception_is_left_after_auditing_faulty_games() -> None:
    report = audit_many(corpus(COPIES), jobs=1)
    assert len(report.findings) >= 2 * COPIES
    assert sys.exc_info() == (None, None, None)
    try:
        raise ValueError("fresh")
    except ValueError as fresh:
        assert fresh.__context__ is None, _chain_length(fresh)


def test_no_exception_is_left_after_one_game_audit() -> None:
    for events in faulty_games():
        audit_game(events)
        assert sys.exc_info() == (None, None, None)


def _chain_length(error: BaseException) -> str:
    links = 0
    context = error.__context__
    while context is not None and links < 1_000_000:
        links += 1
        context = context.__context__
    return f"a fresh raise chains onto {links} earlier exceptions"
