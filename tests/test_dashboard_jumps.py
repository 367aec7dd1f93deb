"""Replay jumps (``Cursor.jump``): tricks, rounds, findings, ends, on simulated games of every
kind, read only from the ``round``/``trick`` columns and the event categories."""

from __future__ import annotations

from functools import cache

import pytest

from replay.audit import audit_game
from replay.engine.cursor import JUMPS, Continues, Cursor, round_ends, trick_ends
from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_rules
from replay.model.events import Category, Event

KINDS = available_kinds()


@cache
def cursor_of(kind: str) -> Cursor:
    rules = get_rules(kind)
    return Cursor(rules, simulate_game(rules, f"jumps-{kind}", players=rules.min_players, seed=5))


def fresh(kind: str) -> Cursor:
    return cursor_of(kind).seek(0)


@pytest.mark.parametrize("kind", KINDS)
def test_a_trick_stop_shows_the_whole_trick_on_the_table(kind: str) -> None:
    cursor = fresh(kind)
    stops = cursor.trick_stops
    keys = {(e.round, e.trick) for e in cursor.events if e.trick is not None}
    assert len(stops) == len(keys) and stops == sorted(set(stops))
    categories = cursor.rules.event_types
    for stop in stops:
        event = cursor.events[stop]
        played = [
            e for e in cursor.events[: stop + 1]
            if (e.round, e.trick) == (event.round, event.trick) and e.type == "play"
        ]  # fmt: skip
        assert categories[event.type] is Category.DECISION
        table = cursor.seek(stop).view()["table"]
        assert [t["card"] for t in table] == [e.card for e in played]
        later = cursor.events[stop + 1 :]
        assert all(
            categories[e.type] is not Category.DECISION
            for e in later
            if (e.round, e.trick) == (event.round, event.trick)
        )


@pytest.mark.parametrize("kind", KINDS)
def test_a_round_stop_is_the_round_scored(kind: str) -> None:
    cursor = fresh(kind)
    rounds = sorted({e.round for e in cursor.events if e.round is not None})
    assert len(cursor.round_stops) == len(rounds)
    for stop, number in zip(cursor.round_stops, rounds, strict=True):
        assert cursor.events[stop].round == number
        assert all(e.round != number for e in cursor.events[stop + 1 :])
        totals = {e.player: e.total for e in cursor.events[: stop + 1] if e.type == "round_scored"}
        view = cursor.seek(stop).view()
        assert all(view["totals"][seat] == total for seat, total in totals.items())


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("what", ["trick", "round"])
def test_jumps_visit_every_stop_forward_and_back(kind: str, what: str) -> None:
    cursor = fresh(kind)
    stops = cursor.trick_stops if what == "trick" else cursor.round_stops
    forward = []
    while cursor.can_jump(f"next_{what}"):  # type: ignore[arg-type]
        forward.append(cursor.jump(f"next_{what}").step)  # type: ignore[arg-type]
    assert forward == stops
    cursor.jump("last")
    backward = []
    while cursor.can_jump(f"prev_{what}"):  # type: ignore[arg-type]
        backward.append(cursor.jump(f"prev_{what}").step)  # type: ignore[arg-type]
    assert backward == [s for s in reversed(stops) if s < cursor.last_step]
    assert cursor.jump(f"prev_{what}").step == cursor.step  # type: ignore[arg-type]


def test_hez2_has_rounds_but_no_tricks() -> None:
    cursor = fresh("hez2")
    assert cursor.trick_stops == [] and not cursor.can_jump("next_trick")
    assert cursor.jump("next_trick").step == 0
    assert len(cursor.round_stops) == 1


def test_finding_jumps_go_to_the_findings_steps_in_order() -> None:
    cursor = fresh("hearts")
    seqs = [40, 12, 12, 10_000]  # duplicates and one past the replay's end
    assert cursor.jump("next_finding", seqs).step == 12
    assert cursor.jump("next_finding", seqs).step == 40
    assert cursor.jump("next_finding", seqs).step == cursor.last_step
    assert not cursor.can_jump("next_finding", seqs)
    assert cursor.jump("prev_finding", seqs).step == 40
    assert cursor.jump("prev_finding", seqs).step == 12
    assert not cursor.can_jump("prev_finding", seqs) and not cursor.can_jump("next_finding", [])


def test_first_last_next_prev_and_unknown() -> None:
    cursor = fresh("fou")
    assert not cursor.can_jump("first") and not cursor.can_jump("prev")
    assert cursor.jump("next").step == 1 and cursor.jump("prev").step == 0
    assert cursor.jump("last").step == cursor.last_step and not cursor.can_jump("next")
    assert set(JUMPS) == {
        "first", "last", "next", "prev", "next_trick", "prev_trick", "next_round",
        "prev_round", "next_finding", "prev_finding",
    }  # fmt: skip
    with pytest.raises(ValueError, match="unknown jump"):
        cursor.jump("sideways")  # type: ignore[arg-type]


def test_a_log_that_stops_early_jumps_only_within_its_replay() -> None:
    events = list(cursor_of("hearts").events)
    cut = 30
    broken = [*events[:cut], Event(game_id=events[0].game_id, seq=cut, kind="hearts",
                                   type="play", round=1, trick=5, player=0, card="ZZ"),
              *events[cut + 1 :]]  # fmt: skip
    cursor = Cursor(get_rules("hearts"), broken)
    # the event it cannot absorb is the last step, shown in the state before it
    assert cursor.stopped is not None and cursor.last_step == cut
    assert cursor.outcome(cut).continues is Continues.STOPPED
    render = cursor.rules.render
    assert render(cursor.state_at(cut)) == render(cursor.state_at(cut - 1))
    assert all(s <= cursor.last_step for s in cursor.trick_stops + cursor.round_stops)
    finding = audit_game(broken).findings[0].seq
    assert cursor.jump("next_finding", [finding]).step == cursor.last_step


def test_stop_functions_need_no_game_rules() -> None:
    """Stops come from the columns and the categories alone: any event types will do."""
    rows = [("start", None, None), ("p", 1, 1), ("p", 1, 1), ("won", 1, 1), ("p", 1, 2),
            ("won", 1, 2), ("score", 1, None), ("p", 2, 1), ("won", 2, 1), ("score", 2, None),
            ("end", None, None)]  # fmt: skip
    events = [
        Event(game_id="g", seq=i, kind="x", type=t, round=r, trick=k)
        for i, (t, r, k) in enumerate(rows)
    ]
    categories = {"p": Category.DECISION, "won": Category.RULING}
    assert trick_ends(events, categories) == [2, 4, 7]
    assert round_ends(events) == [6, 9]
