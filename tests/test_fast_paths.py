"""Each game's fast path, kept apart in ``replay/games/<game>_fast.py``, agrees with its plain
rules.

The registry hands out each game's fast path (:func:`replay.games.get_fast_path`, a
:class:`~replay.games.fast.FastPath` of ``<game>_fast.py``) beside its plain rules
(:func:`replay.games.get_rules`), which check every event through ``due()`` and the general
:meth:`~replay.games.rules.Rules.verify` (alone, as :class:`FastPath` itself runs them). On
simulated games of every player count, and on one-field mutants of their events, both give the
same verdict (rule, message, recoverable, the ruling the rules give) and reach the same state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from replay.engine import walk
from replay.games import (
    GAME_MODULES,
    available_kinds,
    fast_path,
    get_fast_path,
    get_rules,
    get_spec,
)
from replay.games.base import RuleViolation
from replay.games.fast import FastPath
from replay.model.events import Event
from tests.builders import one_field_away, simulated_games, state_fields

#: The built-in games whose fast path lives apart (every one of them).
FAST_KINDS = ["hearts", "hez2", "hiifuu", "fou"]

Verdict = tuple[str, str, bool, Event | None] | None

#: Events of a game looked at (the rest of a longer game is cut off; the short games of each
#: kind are whole, their ends included).
LONGEST = 2_000
#: Changed places a game, and events walked past each, in the walk of mutated games.
WALKS_A_GAME = 30
WALK_ON = 400


def _games(kind: str, count: int) -> list[list[Event]]:
    """:func:`simulated_games`, each cut after :data:`LONGEST` events (a Hez2 game runs to
    5,000)."""
    return [events[:LONGEST] for events in simulated_games(kind, count)]


def _other_cards(events: list[Event], index: int, later: list[list[str]]) -> list[Event]:
    """``events[index]``, an event naming a card, with each other card its seat names later in
    the same round instead (``later``: :func:`_cards_named_later`): cards the seat holds now, so
    plays that do not follow suit (the one-field mutants name ``2C``, a card of no game's deck
    but Hearts')."""
    event = events[index]
    if event.card is None:
        return []
    others = [card for card in later[index] if card != event.card]
    return [replace(event, card=card) for card in dict.fromkeys(others)]


def _cards_named_later(events: list[Event]) -> list[list[str]]:
    """For each event naming a card: the cards its seat names in the events after it, up to the
    first event of another round, in order (one pass from the end, not a scan per event)."""
    later: list[list[str]] = [[] for _ in events]
    ahead: dict[int | None, list[str]] = {}  # per seat, the cards named after, latest first
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        if index + 1 < len(events) and events[index + 1].round != event.round:
            ahead = {}
        if event.card is not None:
            later[index] = ahead.get(event.player, [])[::-1]
            ahead.setdefault(event.player, []).append(event.card)
    return later


def _cards_named(events: list[Event]) -> tuple[str, ...]:
    """Every card code the events of a game name (its dealt deck)."""
    codes = [code for e in events for code in (e.cards or ())]
    return tuple(dict.fromkeys([*codes, *(e.card for e in events if e.card is not None)]))


def _verdict(rules: Any, state: Any, event: Event) -> Verdict:
    try:
        rules.verify(state, event)
    except RuleViolation as exc:
        return _as_verdict(exc)
    return None


def _as_verdict(violation: RuleViolation | None) -> Verdict:
    if violation is None:
        return None
    return violation.rule, violation.message, violation.recoverable, violation.expected


def _walked(fast: Any, events: list[Event]) -> tuple[list[tuple[Event | None, Verdict]], Any]:
    """What :func:`walk` (the audit's and the cursor's loop) on the fast path ``fast`` gives step
    by step, and the last state."""
    steps = []
    state = None
    for step in walk(fast.rules, events, fast=fast):
        steps.append((step.applied, _as_verdict(step.violation)))
        state = step.state
    return steps, state_fields(state)


def test_the_registry_hands_out_each_games_fast_path() -> None:
    kinds = [kind for kind in available_kinds() if type(get_fast_path(kind)) is not FastPath]
    assert kinds == FAST_KINDS
    for kind in kinds:
        fast, plain = get_fast_path(kind), get_rules(kind)
        assert type(fast).__module__ == GAME_MODULES[kind] + "_fast"
        assert fast.rules is plain and fast_path(plain) is fast
        assert type(fast_path(type(plain)(plain.spec))) is FastPath  # other rules: the plain path


@pytest.mark.parametrize("kind", FAST_KINDS)
def test_fast_and_plain_rules_give_the_same_verdict_on_every_event_and_mutant(kind: str) -> None:
    fast, plain = get_fast_path(kind), get_rules(kind)
    faults = 0
    for events in _games(kind, 4):
        state = plain.start(events[0])
        later = _cards_named_later(events)
        for index, event in enumerate(events[1:], 1):
            mutants = [*one_field_away(event), *_other_cards(events, index, later)]
            for candidate in [event, *mutants, event.at(event.seq + 1)]:
                faults += _judged_alike(fast, plain, state, candidate) is not None
            state = plain.apply(state, event)
    assert faults > 1000  # the mutants break rules: both paths were asked about faults


@pytest.mark.slow
@pytest.mark.parametrize("kind", FAST_KINDS)
def test_fast_and_plain_rules_judge_a_play_of_every_card_of_the_deck_alike(kind: str) -> None:
    """Each event that names a card, naming every card of the game's deck instead: held or
    not, following or not (the one-field mutants name a card of no deck but Hearts')."""
    fast, plain = get_fast_path(kind), get_rules(kind)
    verdicts: set[str | None] = set()
    for events in _games(kind, 2):
        deck = get_spec(kind).deck or _cards_named(events)  # Hiifuu's deck depends on the table
        state = plain.start(events[0])
        for event in events[1:]:
            if event.card is not None:
                for code in deck:
                    verdict = _judged_alike(fast, plain, state, replace(event, card=code))
                    verdicts.add(verdict[0] if verdict is not None else None)
            state = plain.apply(state, event)
    assert None in verdicts and len(verdicts) > 2  # legal cards and cards breaking rules


def _judged_alike(fast: Any, plain: Any, state: Any, candidate: Event) -> Verdict:
    """The plain rules' verdict on ``candidate``, after checking that the fast rules give it
    too and that their ``advance`` reaches the plain rules' state (or leaves ``state`` as it
    was)."""
    verdict = _verdict(plain, state, candidate)
    assert _verdict(fast, state, candidate) == verdict, candidate
    trial = state.clone()
    if fast.advance(trial, candidate):
        assert verdict is None, candidate
        assert state_fields(trial) == state_fields(plain.apply(state, candidate)), candidate
    else:
        assert state_fields(trial) == state_fields(state), candidate  # untouched
    return verdict


@pytest.mark.slow
@pytest.mark.parametrize("kind", FAST_KINDS)
def test_fast_and_plain_rules_walk_every_mutated_game_alike(kind: str) -> None:
    """Games with one event changed, walked on past recoverable faults (rulings replaced,
    illegal plays applied) for up to :data:`WALK_ON` events, to the end or to the first fault
    the state cannot absorb; at most :data:`WALKS_A_GAME` changed places a game (a Hez2 game
    runs to 5,000 events)."""
    fast, plain = get_fast_path(kind), get_rules(kind)
    walks = 0
    for events in _games(kind, 2):
        for index in range(1, len(events), max(11, len(events) // WALKS_A_GAME)):
            for candidate in one_field_away(events[index]):
                mutated = [*events[:index], candidate, *events[index + 1 : index + WALK_ON]]
                assert _walked(fast, mutated) == _walked(FastPath(plain), mutated), candidate
                walks += 1
    assert walks > 100
