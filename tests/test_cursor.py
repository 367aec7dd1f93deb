"""The replay cursor on every available game kind: states equal direct reduction for seeks in any
order, seat views hide other seats' hidden cards, and views match the documented JSON shape
(``docs/state.md``, ``tests/state_schema.json``).

Game kinds are taken from :func:`replay.games.available_kinds`, so a game module that lands is
tested here with no change; Hearts must always be present.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.engine.cursor import Cursor, StepOutOfRange
from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_rules
from replay.games.base import GameState
from replay.model.events import Event
from replay.model.specs import state_schema

KINDS = available_kinds()

DOC_PATH = Path(__file__).parent.parent / "docs" / "state.md"
SCHEMA: dict[str, Any] = state_schema()

#: Events whose cards only their player sees (the cards a seat was dealt, passed, discarded or
#: drew). Every other event's cards are public (played, on the table, in a trick, reshuffled),
#: except the deck in play, which names the cards in the game but not where they are.
PRIVATE_CARD_EVENTS = frozenset({"deal", "pass", "discard", "card_drawn"})
PUBLIC_CARD_EVENTS = frozenset({"play", "trick_won", "start_card", "reshuffle", "fool"})
DECK_EVENTS = frozenset({"deck"})


def test_hearts_is_always_tested() -> None:
    assert "hearts" in KINDS


@cache
def game(kind: str, players: int) -> tuple[Event, ...]:
    """One simulated game of a kind and size (deterministic, cached for the module)."""
    return tuple(simulate_game(get_rules(kind), f"{kind}-{players}", players=players, seed=11))


def sizes(kind: str) -> list[int]:
    """The smallest and the largest table of a game."""
    rules = get_rules(kind)
    return sorted({rules.min_players, rules.max_players})


CASES = [pytest.param(k, n, id=f"{k}-{n}") for k in KINDS for n in sizes(k)]


@cache
def reference_states(kind: str, players: int) -> tuple[Any, ...]:
    """The state after each event, reduced event by event from the start (verified)."""
    rules = get_rules(kind)
    events = game(kind, players)
    state = rules.start(events[0])
    states = [state]
    for event in events[1:]:
        state = rules.step(state, event)  # pure: a new state per event
        states.append(state)
    return tuple(states)


def cursor(kind: str, players: int) -> Cursor:
    return Cursor(get_rules(kind), game(kind, players))


# --------------------------------------------------------------------- equality with reduction
@pytest.mark.parametrize("kind", KINDS)
def test_state_equality_compares_game_fields(kind: str) -> None:
    """Guard: a state's ``==`` covers the game's own fields, so the tests below can fail."""
    state = reference_states(kind, sizes(kind)[0])[-1]
    cls = type(state)
    assert dataclasses.is_dataclass(cls) and "__eq__" in cls.__dict__
    common = {f.name for f in dataclasses.fields(GameState)}
    own = [f.name for f in dataclasses.fields(cls) if f.name not in common]
    assert own, f"{cls.__name__} has no fields of its own"
    states = reference_states(kind, sizes(kind)[0])
    for name in own:
        changed = state.clone()
        setattr(changed, name, other_value(states, name))
        assert changed != state, name


def other_value(states: Sequence[Any], name: str) -> object:
    """A value of field ``name`` (same type, as the compiled build checks) unlike the last
    state's: from an earlier state when the game changes it, else changed by hand."""
    current = getattr(states[-1], name)
    for state in states:
        if getattr(state, name) != current:
            return getattr(state, name)
    if isinstance(current, bool):
        return not current
    if isinstance(current, int):
        return current + 1
    if isinstance(current, tuple):
        return current[:-1] if current else (0,)
    assert dataclasses.is_dataclass(current) and not isinstance(current, type), name
    first = dataclasses.fields(current)[0].name
    return dataclasses.replace(current, **{first: other_value([current], first)})


@pytest.mark.parametrize(("kind", "players"), CASES)
@settings(max_examples=3)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_every_step_in_random_order(kind: str, players: int, seed: int) -> None:
    """Seeking every step in a random order gives the state of direct reduction, and the event."""
    states = reference_states(kind, players)
    events = game(kind, players)
    moving = cursor(kind, players)
    assert moving.last_step == len(events) - 1 and moving.stopped is None
    order = list(range(len(states)))
    random.Random(seed).shuffle(order)
    for step in order:
        moving.seek(step)
        assert moving.step == step
        assert moving.state == states[step], f"state differs at step {step}"
        assert moving.event == events[step]


MOVES = st.lists(
    st.one_of(
        st.tuples(st.just("seek"), st.integers(min_value=0, max_value=10**6)),
        st.tuples(st.just("back"), st.integers(min_value=1, max_value=10**6)),
        st.tuples(st.sampled_from(["next", "prev"]), st.just(0)),
    ),
    min_size=1,
    max_size=60,
)


@pytest.mark.parametrize(("kind", "players"), CASES)
@settings(max_examples=15)
@given(moves=MOVES)
def test_random_moves_match_reduction(
    kind: str, players: int, moves: list[tuple[str, int]]
) -> None:
    """Seeks (also from the end), next and prev, in any mix, land on the reduced state."""
    states = reference_states(kind, players)
    size = len(states)
    moving = cursor(kind, players)
    expected = 0
    for move, value in moves:
        if move == "seek":
            expected = value % size
            moving.seek(expected)
        elif move == "back":
            offset = -(value % size) - 1  # -1 .. -size
            expected = size + offset
            moving.seek(offset)
        elif move == "next":
            expected = min(expected + 1, size - 1)
            moving.next()
        else:
            expected = max(expected - 1, 0)
            moving.prev()
        assert moving.step == expected
        assert moving.state == states[expected]


@pytest.mark.parametrize(("kind", "players"), CASES)
@settings(max_examples=10)
@given(data=st.data())
def test_state_equals_replay_of_prefix(kind: str, players: int, data: st.DataObject) -> None:
    """The cursor's state at N equals reducing events 0..N from scratch with the rules."""
    events = game(kind, players)
    step = data.draw(st.integers(min_value=0, max_value=len(events) - 1), label="step")
    direct = get_rules(kind).replay(list(events[: step + 1]))
    assert cursor(kind, players).state_at(step) == direct


@pytest.mark.parametrize("kind", KINDS)
def test_steps_out_of_range_raise(kind: str) -> None:
    moving = cursor(kind, sizes(kind)[0])
    size = len(moving)
    assert moving.seek(-size).step == 0
    for bad in (size, size + 5, -size - 1):
        with pytest.raises(StepOutOfRange):
            moving.seek(bad)
    assert moving.step == 0


# --------------------------------------------------------------------- hidden information
def card_codes(event: Event) -> set[str]:
    return ({event.card} if event.card else set()) | set(event.cards or ())


def known_cards(events: tuple[Event, ...], upto: int, seat: int) -> Iterator[set[str]]:
    """For each step 0..upto: the cards ``seat`` has seen so far, besides its own hand
    (public events, and its own private events)."""
    known: set[str] = set()
    for event in events[: upto + 1]:
        if event.type in PRIVATE_CARD_EVENTS:
            if event.player == seat:
                known |= card_codes(event)
        elif event.type not in DECK_EVENTS:
            known |= card_codes(event)
        yield set(known)


def strings_in(value: Any) -> list[str]:
    """Every string in a JSON value (keys included), in no particular order."""
    found: list[str] = []
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            found.extend(map(str, item))
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return found


#: A word of a string: where a card code would show.
WORD = re.compile(r"[0-9A-Za-z]+")


def tokens(view: dict[str, Any]) -> set[str]:
    """The alphanumeric words of every string of a view (the strings joined by a line break, no
    part of a word, so each word stays within its string)."""
    return set(WORD.findall("\n".join(strings_in(view))))


def per_seat_card_lists(view: dict[str, Any], players: int) -> list[str]:
    """``game`` keys holding one card list per seat (hands passed, discards...)."""
    out = []
    for key, value in view["game"].items():
        per_seat = isinstance(value, list) and len(value) == players
        if per_seat and all(
            isinstance(v, list) and all(isinstance(c, str) for c in v) for v in value
        ):
            out.append(key)
    return out


def hidden_cards(omniscient: dict[str, Any], seat: int) -> set[str]:
    """The cards of other seats' hands and secret per-seat lists in the omniscient view."""
    players = omniscient["players"]
    secret_lists = per_seat_card_lists(omniscient, players)
    hidden: set[str] = set()
    for other in range(players):
        if other == seat:
            continue
        if omniscient["hands"]:
            hidden |= set(omniscient["hands"][other])
        for key in secret_lists:
            hidden |= set(omniscient["game"][key][other])
    return hidden


def test_card_carrying_event_types_are_classified() -> None:
    """Every event type that carries cards is known here as public, private or the deck, so a
    new game's card events cannot slip past the hidden-card test."""
    for kind in KINDS:
        for players in sizes(kind):
            for event in game(kind, players):
                if card_codes(event):
                    assert event.type in PRIVATE_CARD_EVENTS | PUBLIC_CARD_EVENTS | DECK_EVENTS, (
                        f"{kind}: classify event type {event.type!r}"
                    )


@pytest.mark.parametrize(("kind", "players"), CASES)
def test_seat_view_hides_other_hands(kind: str, players: int) -> None:
    """Structure of a seat view: other hands and other seats' secret lists are null, the own
    hand is the real one."""
    moving = cursor(kind, players)
    for step in range(len(moving)):
        moving.seek(step)
        omniscient = moving.view()
        secret = per_seat_card_lists(omniscient, players)
        for seat in range(players):
            view = moving.view(seat)
            assert view["seat_view"] == seat
            if not omniscient["hands"]:
                assert view["hands"] == []
                continue
            assert view["hands"][seat] == omniscient["hands"][seat]
            assert all(view["hands"][t] is None for t in range(players) if t != seat)
            for key in secret:
                assert view["game"][key][seat] == omniscient["game"][key][seat]
                assert all(view["game"][key][t] is None for t in range(players) if t != seat), (
                    f"step {step}: game.{key} of another seat shown to seat {seat}"
                )


@pytest.mark.parametrize(("kind", "players"), [(k, n) for k in KINDS for n in sizes(k)])
@pytest.mark.slow
def test_seat_view_never_names_hidden_cards(kind: str, players: int) -> None:
    """No card of another seat's hand (or secret discard/pass) appears anywhere in a seat's
    view, unless that seat has legitimately seen it (played publicly, or its own deal/pass/draw).
    """
    moving = cursor(kind, players)
    events = game(kind, players)
    leaks: list[str] = []
    seen = [known_cards(events, moving.last_step, seat) for seat in range(players)]
    for step, known_by_seat in enumerate(zip(*seen, strict=True)):
        moving.seek(step)
        omniscient = moving.view()
        for seat, known in enumerate(known_by_seat):
            own = set(omniscient["hands"][seat]) if omniscient["hands"] else set()
            secret = hidden_cards(omniscient, seat) - known - own
            shown = secret & tokens(moving.view(seat))
            if shown:
                leaks.append(f"step {step} seat {seat} sees {sorted(shown)}")
    assert not leaks, f"{len(leaks)} leaks, first: {leaks[:3]}"


def test_hidden_card_check_detects_a_leak() -> None:
    """Guard for the check above: a view naming another seat's card is caught."""
    rules = get_rules("hearts")
    events = game("hearts", 4)
    moving = Cursor(rules, events).seek(60)
    omniscient = moving.view()
    view = moving.view(0)
    other_card = omniscient["hands"][1][0]
    known = list(known_cards(events, 60, 0))[-1]
    assert other_card in hidden_cards(omniscient, 0) - known
    view["last_event"] = f"#61 something {other_card}"
    assert other_card in tokens(view)


# --------------------------------------------------------------------- the documented shape
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
#: The same schema compiled by a second, native implementation of the same draft (two orders of
#: magnitude faster): it checks the thousands of views, the reference one the schema itself.
FAST_VALIDATOR = jsonschema_rs.Draft202012Validator(SCHEMA)
#: Steps of a game validated against the full schema (the cheap consistency checks run on all).
SCHEMA_STEPS = 300


def test_schema_is_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def check_consistency(view: dict[str, Any], seat: int | None) -> None:
    """What the schema cannot say: lengths per seat, step and seq, phase and turn."""
    players = view["players"]
    assert view["seat_view"] == seat
    assert view["seq"] == view["step"] + 1
    assert len(view["names"]) == players and len(view["totals"]) == players
    assert len(view["hands"]) in (0, players)  # empty only before the first deal
    assert len(view["hand_sizes"]) == len(view["hands"])
    for hand, size in zip(view["hands"], view["hand_sizes"], strict=True):
        assert hand is None or len(hand) == size
    assert all(0 <= s < players for s in view["turn"])
    assert (view["phase"] == "decision") == bool(view["turn"])
    assert (view["phase"] == "over") == view["over"]
    assert all(t["seat"] is None or 0 <= t["seat"] < players for t in view["table"])


@pytest.mark.parametrize(("kind", "players"), CASES)
@pytest.mark.slow
def test_views_validate_against_documented_shape(kind: str, players: int) -> None:
    """Every step's view, omniscient and from each seat, validates against the schema, and the
    game's own ``game`` keys are documented there."""
    assert f"{kind}_game" in SCHEMA["$defs"], f"document {kind}'s game keys in the schema"
    moving = cursor(kind, players)
    stride = -(-len(moving) // SCHEMA_STEPS)  # full schema check on about SCHEMA_STEPS steps
    for step in range(len(moving)):
        moving.seek(step)
        for seat in [None, *range(players)]:
            view = moving.view(seat)
            check_consistency(view, seat)
            if step % stride == 0 or step == moving.last_step:
                errors = list(FAST_VALIDATOR.iter_errors(json.loads(json.dumps(view))))
                assert not errors, f"step {step} seat {seat}: {errors[0]}"


def test_schema_rejects_a_malformed_view() -> None:
    """Guard: the schema is not vacuous."""
    for validator in (VALIDATOR, FAST_VALIDATOR):
        view = cursor("hearts", 4).seek(10).view(1)
        assert validator.is_valid(view)
        for key, bad in (("phase", "thinking"), ("hands", [["QS"], 3]), ("extra", 1)):
            assert not validator.is_valid({**view, key: bad})
        del view["game"]["hearts_broken"]
        assert not validator.is_valid(view)


def test_every_documented_key_is_described_in_the_doc() -> None:
    doc = DOC_PATH.read_text(encoding="utf-8")
    keys = list(SCHEMA["properties"])
    for name, definition in SCHEMA["$defs"].items():
        if name.endswith("_game"):
            keys += list(definition["properties"])
    missing = [k for k in keys if f"`{k}`" not in doc]
    assert not missing, f"docs/state.md does not describe {missing}"
