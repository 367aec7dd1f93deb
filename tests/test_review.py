"""The review's engine: rollouts reach the end of the scoring unit in every game, the loss is
cross-fitted, and on small Hearts endgames the alternatives' values and the best-rated move
agree with a brute-force evaluation over every deal the seat cannot tell apart."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from replay.engine.simulate import simulate_game
from replay.games import available_kinds, get_rules
from replay.games.base import RuleViolation
from replay.games.hearts import DECK
from replay.model.events import Event
from replay.review.engine import Settings, held_out_loss, plan_review, review_steps
from replay.review.rollout import Rollouts, play_unit, score_unit
from replay.review.stats import mean_interval, seat_permutation_p, t975
from replay.solver import solve
from tests.review_support import HEARTS

#: What a seat's result of one unit can be, per game (Hez2: a place).
TRICK = 11
RESULT_RANGE = {"hearts": (0, 26), "hez2": (1, 4), "hiifuu": (0, 8), "fou": (-300, 10)}


@pytest.mark.parametrize("kind", available_kinds())
def test_rollouts_reach_the_seats_result_of_the_unit(kind: str) -> None:
    rules = get_rules(kind)
    events = simulate_game(rules, kind, players=4, seed=3, bots=["heuristic"])
    state = rules.replay(events[: len(events) // 3], check=False)
    low, high = RESULT_RANGE[kind]
    rollouts = Rollouts(rules)
    for seat in range(state.n):
        value = rollouts.value(state.clone(), seat, random.Random(seat))
        assert low <= value <= high and value == int(value)
        assert value == rollouts.value(state.clone(), seat, random.Random(seat))
    assert rollouts.rollouts == 2 * state.n


def test_the_unit_ends_with_the_seats_own_result() -> None:
    events = simulate_game(HEARTS, "h", players=4, seed=4, bots=["heuristic"])
    cut = next(i for i, e in enumerate(events) if e.type == "trick_won")
    scored = {e.player: e.amount for e in events if e.type == "round_scored" and e.round == 1}
    bots = [HEARTS.bots()["heuristic"]] * 4
    for seat in range(4):  # the heuristic bots ignore their generator: the same hand again
        state = HEARTS.replay(events[:cut], check=False)
        assert (
            play_unit(HEARTS, state, seat, bots, random.Random(0), ("round_scored",))
            == (scored[seat])
        )
    assert score_unit("hez2").lower_is_better and not score_unit("fou").lower_is_better


def test_the_held_out_loss_of_equal_moves_is_not_always_above_zero() -> None:
    rng = random.Random(1)
    noise = [[rng.gauss(0, 5) for _ in range(16)] for _ in range(6)]
    losses = [mean_interval(held_out_loss(noise, mine)).mean for mine in range(6)]
    assert min(losses) < 0 < max(losses)
    assert held_out_loss([[1.0, 1.0], [3.0, 3.0]], 1) == [2.0, 2.0]
    assert t975(1) == 12.706 and abs(t975(31) - 2.0395) < 1e-3


def heavy_tailed_hands(rng: random.Random, hands: int, shift: float) -> list[list[list[float]]]:
    """Hands of four seats, 3 to 12 losses each drawn from a heavy-tailed law (as a review's
    losses are), the first seat's shifted by ``shift``."""
    return [
        [
            [rng.paretovariate(2.5) - 1.0 + (shift if seat == 0 else 0.0) for _ in range(n)]
            for seat, n in enumerate(rng.randint(3, 12) for _ in range(4))
        ]
        for _ in range(hands)
    ]


def test_the_seat_permutation_p_value_keeps_its_level_and_finds_a_worse_seat() -> None:
    rng = random.Random(3)
    null = [seat_permutation_p(heavy_tailed_hands(rng, 20, 0.0), 199, k) for k in range(100)]
    assert 1 <= sum(p < 0.05 for p in null) <= 10  # 5 expected; exchangeable seats
    assert sum(p < 0.5 for p in null) in range(35, 66)
    assert seat_permutation_p(heavy_tailed_hands(rng, 20, 0.5)) < 0.01


# --------------------------------------------------------------------- brute force
def no_pass_endgames(games: int) -> Iterator[tuple[list[Event], int, int]]:
    """Plays of the second-last trick of a no-pass hand (the 4th) of heuristic games with a
    choice: the log, the position of the play, the first deal of the hand."""
    for seed in range(games):
        events = simulate_game(HEARTS, f"e{seed}", players=4, seed=seed, bots=["heuristic"])
        start = next((i for i, e in enumerate(events) if e.type == "deal" and e.round == 4), None)
        if start is None:
            continue
        for i in range(start, len(events)):
            e = events[i]
            if e.type == "play" and e.round == 4 and e.trick == TRICK:
                state = HEARTS.replay(events[:i], check=False)
                assert e.player is not None
                if len(HEARTS.legal_decisions(state, e.player)) > 1:
                    yield events, i, start
                    break


def exact_values(events: list[Event], i: int, start: int, *, solved: bool = False) -> list[float]:
    """Each legal move's mean result for the seat over every deal of the hidden cards under
    which the recorded log is legal (brute force: each deal tried through the rules), each
    deal valued by a heuristic rollout, or with ``solved`` by the all-cards-visible solver
    (every seat then playing perfectly for itself; tests/test_solver.py checks the solver)."""
    seat = events[i].player
    assert seat is not None
    played: dict[int, set[str]] = {s: set() for s in range(4)}
    for e in events[start:i]:
        if e.type == "play" and e.player is not None and e.card is not None:
            played[e.player].add(e.card)
    deals = {e.player: e for e in events[start : start + 4]}
    others = [s for s in range(4) if s != seat]
    unseen = sorted(c for s in others for c in deals[s].cards or () if c not in played[s])
    sizes = [13 - len(played[s]) for s in others]
    before = HEARTS.replay(events[:start], check=False)
    legal = HEARTS.legal_decisions(HEARTS.replay(events[:i], check=False), seat)
    totals = [0.0] * len(legal)
    consistent = 0
    bot = HEARTS.bots()["heuristic"]
    for hands in _splits(unseen, sizes):
        state = before.clone()
        try:
            for e in events[start:i]:
                if e.type == "deal" and e.player in others:
                    cards = played[e.player] | set(hands[others.index(e.player)])
                    e = Event(e.game_id, e.seq, e.kind, "deal", round=e.round, player=e.player,
                              cards=tuple(sorted(cards, key=DECK.find)))  # fmt: skip
                state = HEARTS.step(state, e)
        except RuleViolation:
            continue
        consistent += 1
        if solved:
            values = solve(state, HEARTS, line=False).values
            for a, move in enumerate(legal):
                totals[a] += values[str(move.card)][seat]
            continue
        for a, move in enumerate(legal):
            after = HEARTS.apply(state, move)
            totals[a] += play_unit(
                HEARTS, after, seat, [bot] * 4, random.Random(0), ("round_scored",)
            )
    assert consistent
    return [t / consistent for t in totals]


def _splits(cards: list[str], sizes: list[int]) -> Iterator[list[tuple[str, ...]]]:
    if not sizes:
        yield []
        return
    for first in itertools.combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in first]
        for tail in _splits(rest, sizes[1:]):
            yield [first, *tail]


@pytest.mark.parametrize("solved", [False, True])
def test_the_best_rated_move_agrees_with_brute_force_on_small_endgames(solved: bool) -> None:
    """With rollouts (an evaluator given), and by default, where the seat holds few enough
    cards for the review to value each sampled deal with the solver."""
    clear = 0
    for events, i, start in itertools.islice(no_pass_endgames(12), 4):
        exact = exact_values(events, i, start, solved=solved)
        settings = Settings(samples=40, seed=3)
        seat = events[i].player
        assert seat is not None
        review = plan_review(events, [seat], settings)
        evaluator = None if solved else Rollouts(HEARTS, settings.policy)
        (decision,) = review_steps(events, [i], settings, evaluator=evaluator)
        assert decision.visible_loss is not None  # three cards in hand: solved
        rated = {a.move: a for a in decision.alternatives}
        legal = HEARTS.legal_decisions(HEARTS.replay(events[:i], check=False), seat)
        by_move = dict(zip((f"play {e.card}" for e in legal), exact, strict=True))
        for move, alternative in rated.items():
            value = alternative.value
            assert value.low - 1e-9 <= by_move[move] <= value.high + 1e-9, (move, value, by_move)
        ranked = sorted(by_move.values())
        if ranked[1] - ranked[0] >= 1:
            clear += 1
            assert by_move[decision.best] == ranked[0], (decision.best, by_move)
        assert review.stopped_at is None
    assert clear >= 1
