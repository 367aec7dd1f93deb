"""Hands held one field per seat (``SeatHandsState``) index as the list they replaced, and
Fou!'s ``emptied`` flag says what ``_an_empty_hand`` says."""

from __future__ import annotations

import pytest

from replay.games import get_rules
from replay.games.base import SeatHandsState
from replay.games.fou import FouState, _an_empty_hand
from replay.games.hearts import HeartsState
from replay.games.hez2 import Hez2State
from replay.games.hiifuu import HiifuuState
from replay.simulate import simulate_game


@pytest.mark.parametrize(
    ("kind", "n"), [("hiifuu", 4), ("hiifuu", 5), ("hiifuu", 6), ("hez2", 2), ("hez2", 3)]
)
def test_hands_index_as_a_list_of_n(kind: str, n: int) -> None:
    state: SeatHandsState
    if kind == "hiifuu":
        state = HiifuuState(game_id="g", kind=kind, n=n)
        state.round = 1
    else:
        state = Hez2State(game_id="g", kind=kind, n=n)
    hands = [1 << seat for seat in range(n)]
    state.hands = hands
    assert state.hands == hands
    for seat in range(-n, n):
        assert state.hand(seat) == hands[seat]
    for seat in range(-n, n):
        state.set_hand(seat, 1 << (seat + 10))
        hands[seat] = 1 << (seat + 10)
        assert state.hands == hands
    for seat in (n, -n - 1, 6, 7):
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
    assert Hez2State(game_id="g", kind="hez2", n=3).hands == [0, 0, 0]  # before the deal


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
