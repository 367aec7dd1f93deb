"""Hands held one field per seat (``SeatHandsState``) or in two halves per seat
(``SplitHandsState``) index as a list of bit sets would; Fou!'s fast FOU-FOLLOW on the halves
answers as the rule (``may_play``) does, and its ``emptied`` flag says whether a hand is empty."""

from __future__ import annotations

import random

import pytest

from replay.engine.simulate import simulate_game
from replay.games import get_rules
from replay.games.base import SeatHandsState, new_state
from replay.games.fast import apply_in_place
from replay.games.fou import COLOUR_MASK, DECK, FouState, may_play
from replay.games.fou_fast import _may_play_now
from replay.games.hearts import HeartsState
from replay.games.hez2 import Hez2State
from replay.games.hiifuu import HiifuuState


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
    assert new_state(HiifuuState, "g", "hiifuu", 5).hands == []  # no round yet
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
        state = apply_in_place(rules, state, event)
        if state.deals == state.n:
            assert state.emptied == (0 in state.hands), event
            seen.add(state.emptied)
    assert seen == {False, True}


@pytest.mark.parametrize("n", [4, 6, 8])
def test_split_hands_index_as_a_list_of_n(n: int) -> None:
    rng = random.Random(n)
    state = FouState(game_id="g", kind="fou", n=n)
    hands = [rng.getrandbits(len(DECK)) for _ in range(n)]
    for seat, hand in enumerate(hands):
        state.set_hand(seat, hand)
    assert state.hands == hands
    for seat in range(n):
        for card in range(len(DECK)):
            assert state.holds(seat, card) == bool(hands[seat] >> card & 1)
    for seat in (n, 8, 9):
        with pytest.raises(IndexError):
            state.hand(seat)
        with pytest.raises(IndexError):
            state.set_hand(seat, 0)
    for card in rng.sample(range(len(DECK)), 30):
        seat = rng.randrange(n)
        hands[seat] &= ~(1 << card)
        assert state.remove(seat, card) == (hands[seat] == 0)
        assert state.hands == hands
    state.clear_hands()
    assert state.hands == [0] * n and state.an_empty_hand()


def test_the_fast_follow_rule_answers_as_may_play() -> None:
    """``_may_play_now`` (FOU-FOLLOW on the halves) against ``may_play`` (the rule) for every
    card and led colour, on random hands, sparse ones (void in colours) among them."""
    rng = random.Random(27)
    state = FouState(game_id="g", kind="fou", n=4)
    for trial in range(1500):
        hand = rng.getrandbits(len(DECK))
        for colour in rng.sample(range(4), trial % 4):  # voids
            hand &= ~COLOUR_MASK[colour]
        state.set_hand(trial % 4, hand)
        for led in (-1, 0, 1, 2, 3):
            state.led = led
            for card in range(len(DECK)):
                fast = _may_play_now(state, trial % 4, card)
                assert fast == may_play(hand, led, card), (DECK.codes(hand), led, card)
