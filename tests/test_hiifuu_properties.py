"""Property tests over simulated Hiifuu games: conservation, tokens, totals, replay = simulate."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.engine import walk
from replay.engine.simulate import simulate_game
from replay.games.base import RuleViolation
from replay.games.hiifuu import PLAY, RULES, TABLE_SIZES, HiifuuState
from replay.model.events import Event

BOT_MIXES = [("random",), ("heuristic",), ("random", "heuristic")]
VARIANTS = [None, {"variant": "random-tokens"}]


def simulate(seed: int, players: int, mix: int = 0, variant: int = 0) -> list[Event]:
    return simulate_game(
        RULES,
        f"h{seed}",
        players=players,
        seed=seed,
        bots=BOT_MIXES[mix],
        options=VARIANTS[variant],
    )


games = st.builds(
    simulate,
    seed=st.integers(0, 2**32),
    players=st.sampled_from([4, 5, 6]),
    mix=st.integers(0, 2),
    variant=st.integers(0, 1),
)


def check_conservation(state: HiifuuState, won: int) -> None:
    """Every card of the deck is in exactly one place: a hand, a discard, the table or won."""
    deck = state.setup.deck
    places = [*state.hands, *state.discards, won, deck.mask(deck.order[c] for c in state.table)]
    seen = 0
    for mask in places:
        assert not seen & mask, "a card is in two places"
        seen |= mask
    assert seen == deck.full


def check_steps_conserve_cards_and_replay_reproduces_the_state(events: list[Event]) -> HiifuuState:
    """Every event verified by the reducer, cards conserved at each step of play, and both replays
    reach the stepped state (returned)."""
    state = RULES.start(events[0])
    won = 0
    for event in events[1:]:
        state = RULES.step(state, event)  # every decision, chance event and ruling verified
        if event.type == "trick_won":
            won |= state.setup.deck.mask(event.cards or ())
        elif event.type == "tokens":
            won = 0
        if state.stage == PLAY:
            check_conservation(state, won)
    assert state.over and events[-1].type == "game_end"
    assert RULES.replay(events, check=True) == state
    assert RULES.replay(events, check=False) == state
    return state


def token_fates(events: list[Event]) -> dict[int, dict[str, list[int]]]:
    """Per round: layout, positions taken, covered, and the seats holding them."""
    fates: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for e in events:
        assert e.round is not None or e.type in ("game_start", "game_end")
        if e.type == "tokens":
            fates[e.round or 0]["layout"] = list(e.values or ())
        elif e.type in ("token_taken", "token_covered"):
            fates[e.round or 0][e.type].append(e.target if e.target is not None else -1)
            fates[e.round or 0][e.type + "_by"].append(e.player if e.player is not None else -1)
            assert e.amount == fates[e.round or 0]["layout"][e.target or 0]
    return fates


def check_each_token_ends_held_covered_or_in_the_centre_exactly_once(events: list[Event]) -> None:
    for fate in token_fates(events).values():
        taken, covered = fate["token_taken"], fate["token_covered"]
        assert taken == list(range(len(taken))), "tokens are taken in layout order"
        assert len(set(fate["token_taken_by"])) == len(taken), "one token per seat"
        assert set(covered) <= set(taken) and len(set(covered)) == len(covered)
        held = set(taken) - set(covered)
        centre = set(range(4)) - set(taken)
        assert sorted([*held, *covered, *centre]) == [0, 1, 2, 3]


def check_totals_are_the_sum_of_kept_tokens_and_the_end_is_right(
    events: list[Event], final: HiifuuState
) -> None:
    """Scores read from the log alone; ``final`` is the state the game replays to."""
    n = final.n
    kept = [0] * n
    tricks: dict[int, list[int]] = defaultdict(lambda: [0] * n)
    layout: tuple[int, ...] = ()
    holder: dict[int, int] = {}
    running = [0] * n
    for e in events:
        seat = e.player if e.player is not None else -1
        if e.type == "tokens":
            layout, holder = tuple(e.values or ()), {}
        elif e.type == "trick_won":
            tricks[e.round or 0][seat] += 1
            assert e.total == tricks[e.round or 0][seat]
        elif e.type == "token_taken":
            holder[seat] = e.target or 0
        elif e.type == "token_covered":
            del holder[seat]
        elif e.type == "round_scored":
            gain = layout[holder[seat]] if seat in holder else 0
            assert e.amount == gain
            if gain:
                assert tricks[e.round or 0][seat] == 2
            kept[seat] += gain
            running[seat] += e.amount or 0
            assert e.total == running[seat]
    assert list(final.totals) == kept
    per_round = TABLE_SIZES[n][1] - TABLE_SIZES[n][2]
    assert all(sum(t) == per_round for t in tricks.values())
    assert (max(kept) >= 10) or final.round == 5
    winners = events[-1].values or ()
    assert list(winners) == [s for s in range(n) if kept[s] == max(kept)]


@settings(max_examples=300)
@given(events=games)
@pytest.mark.slow
def test_each_game_conserves_cards_replays_to_its_state_and_scores_its_tokens(
    events: list[Event],
) -> None:
    """Three properties of each of 300 simulated games (one simulation serves the three)."""
    final = check_steps_conserve_cards_and_replay_reproduces_the_state(events)
    check_each_token_ends_held_covered_or_in_the_centre_exactly_once(events)
    check_totals_are_the_sum_of_kept_tokens_and_the_end_is_right(events, final)


def test_the_game_stops_at_the_first_round_reaching_ten() -> None:
    for seed in range(60):
        events = simulate(seed, 4 + seed % 3, seed % 3, seed % 2)
        totals: dict[int, list[int]] = defaultdict(list)
        for e in events:
            if e.type == "round_scored":
                totals[e.round or 0].append(e.total or 0)
        last = max(totals)
        assert all(max(totals[r]) < 10 for r in range(1, last))
        assert max(totals[last]) >= 10 or last == 5


def test_same_seed_gives_the_same_game() -> None:
    assert simulate(42, 5, 2, 1) == simulate(42, 5, 2, 1)
    assert simulate(42, 5, 2, 1) != simulate(43, 5, 2, 1)


@pytest.mark.slow
def test_thousands_of_games_replay_clean() -> None:
    """Every event of 1,000 games per player count verified by the reducer; cards dealt in full."""
    for players in (4, 5, 6):
        rounds = 0
        for seed in range(1000):
            events = simulate(seed, players, seed % 3, seed % 2)
            final = RULES.replay(events, check=True)
            assert final.over
            rounds += final.round
            deck = final.setup.deck
            dealt = [c for e in events if e.type == "deal" and e.round == 1 for c in e.cards or ()]
            assert sorted(dealt) == sorted(deck.order)
        assert rounds > 3000


MUTATIONS: dict[str, list[object]] = {
    "round": [None, 0, 2, 99],
    "trick": [None, 0, 5, 11],
    "player": [None, -1, 0, 3, 6],
    "target": [None, -1, 0, 4],
    "card": [None, "1R", "ZZ", "18Y"],
    "cards": [None, (), ("1R",), ("1R", "1R"), ("ZZ",)],
    "amount": [None, -1, 0, 100],
    "total": [None, 0, 3],
    "values": [None, (), (4, 3, 2, 1), (1,)],
    "type": ["play", "tokens", "deal", "discard", "trick_won", "game_start", "bogus"],
}


@settings(max_examples=200)
@given(events=games, data=st.data())
@pytest.mark.slow
def test_corrupted_logs_raise_rule_violations_only(
    events: list[Event], data: st.DataObject
) -> None:
    """A damaged field never crashes the tolerant walk, the views or the rendering."""
    index = data.draw(st.integers(1, len(events) - 1))
    field = data.draw(st.sampled_from(sorted(MUTATIONS)))
    value = data.draw(st.sampled_from(MUTATIONS[field]))
    changed: dict[str, Any] = {field: value}
    events[index] = replace(events[index], **changed)
    try:
        for step in walk(RULES, events):
            RULES.view(step.state, 0)
            RULES.render(step.state, 1)
    except RuleViolation as exc:  # only a setup fault escapes the walk
        assert exc.rule == "LOG-SETUP"
