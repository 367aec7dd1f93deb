"""Property tests over simulated Hearts games: conservation, scores, replay = simulate."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.engine.simulate import simulate_game
from replay.games.hearts import DECK, RULES, HeartsState
from replay.model.events import Event

BOT_MIXES = [("random",), ("heuristic",), ("random", "heuristic")]


def simulate(seed: int, mix: int) -> list[Event]:
    return simulate_game(RULES, f"h{seed}", players=4, seed=seed, bots=BOT_MIXES[mix])


def check_conservation(state: HeartsState, won: int) -> None:
    """All 52 cards are held once: in a hand, set aside for passing, on the table or won."""
    places = [*state.hands, *(p for p in state.passes if p > 0 and state.stage == 1), won]
    places.append(DECK.mask(DECK.order[c] for c in state.table))
    seen = 0
    for mask in places:
        assert not seen & mask, "a card is in two places"
        seen |= mask
    assert seen == DECK.full


def check_steps_conserve_cards_and_replay_reproduces_the_state(events: list[Event]) -> HeartsState:
    """Every event verified by the reducer, all 52 cards held once at each step of the last
    deal's passing and play, and the replay reaches the stepped state (returned)."""
    state = RULES.start(events[0])
    won = 0
    for event in events[1:]:
        state = RULES.step(state, event)  # every recorded decision and ruling verified
        if event.type == "trick_won":
            won |= DECK.mask(event.cards or ())
        elif event.type == "round_scored":
            won = 0
        if state.deals == 4 and state.stage in (1, 2):
            check_conservation(state, won)
    assert state.over and events[-1].type == "game_end"
    assert RULES.replay(events, check=False) == state
    return state


def check_hand_scores_are_26_or_a_moon_and_totals_add_up(
    events: list[Event], final: HeartsState
) -> None:
    """Scores read from the log alone; ``final`` is the state the game replays to."""
    by_round: dict[int, list[int]] = {}
    totals = [0, 0, 0, 0]
    for e in events:
        if e.type == "round_scored":
            assert e.round is not None and e.player is not None and e.amount is not None
            by_round.setdefault(e.round, []).append(e.amount)
            totals[e.player] += e.amount
            assert e.total == totals[e.player]
    for scores in by_round.values():
        assert sorted(scores) in ([0, 26, 26, 26],) or sum(scores) == 26
    assert list(final.totals) == totals
    assert max(totals) >= 100
    winner = events[-1].values
    assert winner is not None and totals.count(min(totals)) == 1
    assert totals[winner[0]] == min(totals)


@settings(max_examples=150)
@given(seed=st.integers(0, 2**32), mix=st.integers(0, 2))
@pytest.mark.slow
def test_each_game_conserves_cards_replays_to_its_state_and_scores_26_a_hand(
    seed: int, mix: int
) -> None:
    """Two properties of each of 150 simulated games (one simulation serves both)."""
    events = simulate(seed, mix)
    final = check_steps_conserve_cards_and_replay_reproduces_the_state(events)
    check_hand_scores_are_26_or_a_moon_and_totals_add_up(events, final)


@settings(max_examples=100)
@given(seed=st.integers(0, 2**32))
@pytest.mark.slow
def test_trick_points_sum_to_26_per_hand(seed: int) -> None:
    events = simulate(seed, 0)
    per_hand: dict[int, int] = {}
    for e in events:
        if e.type == "trick_won":
            assert e.cards is not None and len(e.cards) == 4
            assert e.round is not None and e.amount is not None
            per_hand[e.round] = per_hand.get(e.round, 0) + e.amount
    assert set(per_hand.values()) == {26}


def test_same_seed_gives_the_same_game() -> None:
    assert simulate(42, 2) == simulate(42, 2)
    assert simulate(42, 2) != simulate(43, 2)


@pytest.mark.slow
def test_a_thousand_games_replay_clean() -> None:
    """Thousands of dealt hands: every event of 1,000 games verified by the reducer."""
    hands = 0
    for seed in range(1000):
        events = simulate(seed, seed % 3)
        final = RULES.replay(events, check=True)
        assert final.over
        hands += final.hand_no
        dealt = [c for e in events if e.type == "deal" and e.round == 1 for c in e.cards or ()]
        assert sorted(dealt) == sorted(DECK.order)
    assert hands > 5000
