"""The engine's fast paths agree with the general path they shortcut.

``FastPath.advance`` (verify and apply in one pass) must accept exactly what ``verify`` accepts
and reach the state ``apply`` reaches; ``FastPath.is_due_ruling`` must answer True only for the
ruling ``due`` gives; ``clone`` must copy the lists the reducer changes in place.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from replay.engine import walk
from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_fast_path, get_rules
from replay.games.base import Phase, RuleViolation
from replay.model.events import Category, Event, same_payload
from tests.builders import one_field_away, simulated_games, state_fields

KINDS = available_kinds()


def _accepted(rules: Any, state: Any, event: Event) -> bool:
    try:
        rules.verify(state, event)
    except RuleViolation:
        return False
    return True


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.slow
def test_advance_is_verify_then_apply(kind: str) -> None:
    rules = get_rules(kind)
    for events in simulated_games(kind, 4):
        state = rules.start(events[0])
        for event in events[1:]:
            for candidate in [event, *one_field_away(event), event.at(event.seq + 1)]:
                trial = state.clone()
                if get_fast_path(kind).advance(trial, candidate):
                    assert _accepted(rules, state, candidate), candidate
                    assert state_fields(trial) == state_fields(rules.apply(state, candidate)), (
                        candidate
                    )
                else:
                    assert state_fields(trial) == state_fields(state), candidate  # untouched
            state = rules.apply(state, event)


@pytest.mark.parametrize("kind", KINDS)
def test_is_due_ruling_only_for_the_ruling_due(kind: str) -> None:
    rules = get_rules(kind)
    for events in simulated_games(kind, 4):
        state = rules.start(events[0])
        for event in events[1:]:
            due = rules.due(state)
            for candidate in [event, *one_field_away(event)]:
                if get_fast_path(kind).is_due_ruling(state, candidate):
                    assert due.phase is Phase.RULING and due.ruling is not None
                    assert same_payload(candidate, due.ruling), candidate
            state = rules.apply(state, event)


@pytest.mark.parametrize("kind", KINDS)
def test_every_correct_ruling_is_recognised_without_building_it(kind: str) -> None:
    """The other half of the fast path's agreement: a ruling recorded as the rules give it is
    recognised (``game_end``, once a game, is left to the general path)."""
    rules = get_rules(kind)
    recognised: set[str] = set()
    for events in simulated_games(kind, 6):
        state = rules.start(events[0])
        for event in events[1:]:
            if rules.event_types[event.type] is Category.RULING and event.type != "game_end":
                assert get_fast_path(kind).is_due_ruling(state, event), event
                recognised.add(event.type)
            state = rules.apply(state, event)
    assert recognised == rules.ruling_types - {"game_end"}


@pytest.mark.parametrize("kind", KINDS)
def test_apply_leaves_the_old_state_as_it_was(kind: str) -> None:
    rules = get_rules(kind)
    events = simulated_games(kind, 1)[0]
    state = rules.start(events[0])
    for event in events[1:]:
        before = {k: v.copy() if isinstance(v, list) else v for k, v in state_fields(state).items()}
        new = rules.apply(state, event)
        assert new is not state
        assert state_fields(state) == before, event
        for name, value in state_fields(state).items():
            if isinstance(value, list):
                assert getattr(new, name) is not value, name  # clone copied it
        state = new


#: The event types of a clean game that take the general path (once or a few times a game).
SLOW_TYPES = {
    "hearts": {"game_end"},
    "hez2": {"deal", "start_card", "game_end"},
    "hiifuu": {"first_leader", "game_end"},
    "fou": {"deck", "dealer", "game_end"},
}


@pytest.mark.parametrize("kind", KINDS)
def test_advance_takes_every_event_of_a_clean_game_but_a_few(kind: str) -> None:
    """Plays, rulings, deals, passes, discards, tokens and reshuffles take the fast path."""
    rules = get_rules(kind)
    for events in simulated_games(kind, 3):
        state = rules.start(events[0])
        for event in events[1:]:
            if event.type in SLOW_TYPES[kind]:
                state = rules.apply(state, event)
                continue
            trial = state.clone()
            assert get_fast_path(kind).advance(trial, event), event
            state = rules.apply(state, event)
            assert state_fields(trial) == state_fields(state), event


@pytest.mark.parametrize("kind", KINDS)
def test_setups_are_shared_and_still_checked(kind: str) -> None:
    """A repeated ``game_start`` text is parsed once (the games share what it gives), and a
    game_start that cannot start a game is refused even when its text was seen before."""
    rules = get_rules(kind)
    first = simulate_game(rules, f"{kind}-a", players=rules.min_players, seed=1)[0]
    again = replace(first, game_id=f"{kind}-b")
    a, b = rules.start(first), rules.start(again)
    assert state_fields(a) | {"game_id": "", "last": None} == state_fields(b) | {
        "game_id": "",
        "last": None,
    }
    for bad in (replace(again, seq=1), replace(again, type="deal"), replace(again, kind="other")):
        with pytest.raises(RuleViolation) as caught:
            rules.start(bad)
        assert caught.value.rule == "LOG-SETUP"


def test_setup_cache_is_bounded_and_kept_per_kind() -> None:
    from replay.games import base

    rules = get_rules("hearts")
    first = simulate_game(rules, "bound", players=4, seed=1)[0]
    for i in range(base.SETUPS_KEPT + 5):
        names = [f"n{i}", "b", "c", "d"]
        rules.start(replace(first, data=json.dumps({"players": 4, "names": names})))
        assert len(base._SETUPS) <= base.SETUPS_KEPT
    # The same text under another kind is that kind's own setup, never the cached value.
    fou = get_rules("fou")
    text = json.dumps({"players": 4, "names": ["a", "b", "c", "d"]})
    hearts_state = rules.start(replace(first, data=text))
    fou_state = fou.start(Event("g", 0, "fou", "game_start", data=text))
    assert hearts_state.names == fou_state.names == ("a", "b", "c", "d")
    assert fou_state.bots == (False,) * 4  # a setup that names no bot: none is


def test_popcount_and_mask_matching_agree_with_their_definitions() -> None:
    import random

    from replay.model.cards import Deck, popcount

    rng = random.Random(5)
    for bits in (1, 13, 52, 61, 62, 63, 88, 200):
        for _ in range(200):
            mask = rng.getrandbits(bits)
            assert popcount(mask) == mask.bit_count()
    deck = Deck([f"c{i}" for i in range(70)])
    for _ in range(200):
        mask = rng.getrandbits(70)
        codes = tuple(deck.codes(mask))
        assert deck.matches_mask(codes, mask)
        assert not deck.matches_mask((*codes, "c0"), mask)
        if codes:
            assert not deck.matches_mask(codes[:-1], mask)
            assert not deck.matches_mask(tuple(reversed(codes)), mask) or len(codes) == 1
    assert not deck.matches_mask((), 1 << 70)


@pytest.mark.parametrize("kind", KINDS)
def test_audit_walk_finds_what_the_full_walk_finds(kind: str) -> None:
    """``walk(faults_only=True)`` (the audit's: clean stretches in a plain loop) yields the same
    violations, and ends in the same state, as the full walk, on logs with one event changed."""
    rules = get_rules(kind)
    for s, events in enumerate(simulated_games(kind, 3)):
        for at in (1 + s, len(events) // 3, len(events) // 2 + s, len(events) - 2):
            for bad in one_field_away(events[at])[s::4]:
                log = [*events[:at], bad, *events[at + 1 :]]
                full = list(walk(rules, log))
                brief = list(walk(rules, log, faults_only=True))
                faults = [(st.event, st.violation and st.violation.rule) for st in full
                          if st.violation is not None]  # fmt: skip
                assert faults == [
                    (st.event, st.violation.rule) for st in brief if st.violation is not None
                ]
                assert state_fields(full[-1].state) == state_fields(brief[-1].state)
