"""Disputed logs: a clean game with exactly one recorded event changed to break one rule.

Used to build ``sample_logs/disputes/`` and by the tests that check the audit finds a ruling
changed by one field. Generic over the games: it changes fields of recorded events (the card, the
cards, the seat, the amount, the total...) using only values seen in the game's own log, or
records the next event in its place, asks the rules which rule the change breaks, and plays the
game on with bots after it (from the state the audit would reach), so the finding is the only one.

>>> from replay.games import get_rules
>>> from replay.engine.simulate import simulate_game
>>> rules = get_rules("hearts")
>>> found = find_disputes(rules, [simulate_game(rules, "doc", players=4, seed=4)])
>>> "HEARTS-FOLLOW" in found and "HEARTS-TRICK" in found
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from replay.audit import audit_game
from replay.engine.simulate import play_out, seat_bots
from replay.games.base import Game, RuleViolation
from replay.model.events import Category, Event
from replay.model.violation import LogRule


@dataclass(frozen=True, slots=True)
class Dispute:
    """A log with one wrong event, and the finding the audit must give for it."""

    rule: str
    seq: int
    events: list[Event]
    message: str


def renamed(dispute: Dispute, game_id: str) -> Dispute:
    """The dispute with its game under another id (each file of the dispute set has its own,
    ``<kind>-<RULE>``, so that all of them can share one store)."""
    events = [replace(e, game_id=game_id) for e in dispute.events]
    return Dispute(dispute.rule, dispute.seq, events, dispute.message)


def _codes_in(events: Sequence[Event]) -> list[str]:
    """Every card code seen in a log (the values a change may use)."""
    seen: dict[str, None] = {}
    for e in events:
        if e.card is not None:
            seen[e.card] = None
        for c in e.cards or ():
            seen[c] = None
    return list(seen)


def variants(
    event: Event, players: int, codes: Sequence[str], suits: Sequence[str]
) -> Iterator[Event]:
    """Events that differ from ``event`` in one field."""
    for seat in range(players):
        if event.player is not None and seat != event.player:
            yield replace(event, player=seat)
        if event.target is not None and seat != event.target:
            yield replace(event, target=seat)
    if event.card is not None:
        for code in codes:
            if code != event.card:
                yield replace(event, card=code)
    if event.cards:
        yield replace(event, cards=event.cards[:-1])
        if len(event.cards) > 1:
            yield replace(event, cards=tuple(reversed(event.cards)))
        for code in codes:
            if code not in event.cards:
                yield replace(event, cards=(*event.cards[:-1], code))
    for name in ("amount", "total"):
        value = getattr(event, name)
        if value is not None:
            yield replace(event, **{name: value + 1})
            yield replace(event, **{name: value - 1})
    if event.values:
        yield replace(event, values=tuple((v + 1) % max(players, 2) for v in event.values))
        yield replace(event, values=(*event.values, *event.values))
    if event.suit is not None:
        for suit in suits:
            if suit != event.suit:
                yield replace(event, suit=suit)


def _moved_up(game: Sequence[Event], index: int) -> list[Event]:
    """The event after ``game[index]`` recorded in its place (a seat acting before its turn,
    with a card it holds: what breaks a TURN rule once a card not held is LOG-CARD)."""
    if index + 1 >= len(game):
        return []
    return [game[index + 1].at(game[index].seq)]


def _dispute_from(
    rules: Game[Any],
    events: Sequence[Event],
    index: int,
    changed: Event,
    state: Any,
    violation: RuleViolation,
    seed: int,
) -> Dispute | None:
    """The log with ``events[index]`` replaced by ``changed``, played on when sound."""
    log = [*events[:index], changed]
    if violation.recoverable:
        applied = violation.expected if violation.expected is not None else changed
        after = rules.apply(state, applied)
        bots = seat_bots(rules, state.n, ("random",))
        log = play_out(rules, after, log, random.Random(seed), bots)
    audit = audit_game(log)
    if [(f.rule, f.seq) for f in audit.findings] != [(violation.rule, changed.seq)]:
        return None
    return Dispute(violation.rule, changed.seq, log, violation.message)


def find_disputes(
    rules: Game[Any], games: Sequence[Sequence[Event]], *, per_rule: int = 1, seed: int = 0
) -> dict[str, list[Dispute]]:
    """One-event disputes for as many rule IDs as the given clean games allow."""
    found: dict[str, list[Dispute]] = {}
    for game in games:
        codes = _codes_in(game)
        suits = sorted({e.suit for e in game if e.suit is not None})
        state = rules.start(game[0])
        for index in range(1, len(game)):
            event = game[index]
            if rules.event_types.get(event.type) is not Category.SETUP:
                _try_variants(rules, game, index, state, codes, suits, found, per_rule, seed)
            state = rules.apply(state, event)
    return found


def _try_variants(
    rules: Game[Any],
    game: Sequence[Event],
    index: int,
    state: Any,
    codes: Sequence[str],
    suits: Sequence[str],
    found: dict[str, list[Dispute]],
    per_rule: int,
    seed: int,
) -> None:
    for changed in [*variants(game[index], state.n, codes, suits), *_moved_up(game, index)]:
        try:
            rules.verify(state, changed)
        except RuleViolation as violation:
            if len(found.get(violation.rule, [])) >= per_rule:
                continue
            dispute = _dispute_from(rules, game, index, changed, state, violation, seed)
            if dispute is not None:
                found.setdefault(violation.rule, []).append(dispute)


def integrity_disputes(game: Sequence[Event]) -> dict[str, Dispute]:
    """LOG-SEQUENCE (a gap), LOG-AFTER-END and LOG-SETUP disputes made from one clean game."""
    events = list(game)
    gap = [*events[:5], *events[6:]]
    after_end = [*events, replace(events[-1], seq=len(events))]
    bad_setup = [replace(events[0], data="not json"), *events[1:]]
    return {
        LogRule.SEQUENCE: Dispute(LogRule.SEQUENCE, 6, gap, "seq 5 missing"),
        LogRule.AFTER_END: Dispute(
            LogRule.AFTER_END, len(events), after_end, "event after the end"
        ),
        LogRule.SETUP: Dispute(LogRule.SETUP, 0, bad_setup, "game_start data is not JSON"),
    }
