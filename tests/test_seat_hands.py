"""Hands held one field per seat (``SeatHandsState``) index as the list they replaced, and
Fou!'s ``emptied`` flag says what ``_an_empty_hand`` says."""

from __future__ import annotations

import pytest

from replay.games import get_rules
from replay.games.fou import FouState, _an_empty_hand
from replay.games.hearts import HeartsState
from replay.games.hiifuu import HiifuuState
from replay.simulate import simulate_game


@pytest.mark.parametrize("n", [4, 5, 6])
def test_hands_index_as_a_list_of_n(n: int) -> None:
    state = HiifuuState(game_id="g", kind="hiifuu", n=n, round=1)
    hands = [1 << seat for seat in range(n)]
    state.hands = hands
    assert state.hands == hands
    for seat in range(-n, n):
        assert state.hand(seat) == hands[seat]
    for seat in range(-n, n):
        state.set_hand(seat, 1 << (seat + 10))
        hands[seat] = 1 << (seat + 10)
        assert state.hands == hands
    for seat in (n, -n - 1, 6):
        with pytest.raises(IndexError):
            state.hand(seat)
        with pytest.raises(IndexError):
            state.set_hand(seat, 0)


def test_hands_before_and_after_a_round() -> None:
    assert HiifuuState(game_id="g", kind="hiifuu", n=5).hands == []  # no round yet
    hearts = HeartsState(game_id="g", kind="hearts", n=4)
    assert hearts.hands == [0, 0, 0, 0]
    hearts.hands[0] = 5  # a new list: no hand changes
    assert hearts.hand(0) == 0


@pytest.mark.parametrize("seed", range(6))
def test_fou_emptied_is_an_empty_hand(seed: int) -> None:
    rules = get_rules("fou")
    events = simulate_game(rules, f"fou-{seed}", players=4 + seed % 5, seed=seed)
    state = rules.start(events[0])
    assert isinstance(state, FouState)
    seen = set()
    for event in events[1:]:
        state = rules.apply_in_place(state, event)
        if state.deals == state.n:
            assert state.emptied == _an_empty_hand(state), event
            seen.add(state.emptied)
    assert seen == {False, True}
