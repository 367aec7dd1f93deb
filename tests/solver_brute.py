"""The solver's reference: a plain max^n search through the reducer (no table, no merging, no
cut-off), and random endgame positions of simulated games to compare the two on.

Used by tests/test_solver.py (a few hundred positions a game) and benchmarks/solver_agreement.py
(10,000 a game).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from replay.engine.simulate import simulate_game
from replay.games import get_rules
from replay.games.base import Game, Phase
from replay.solver import build_model, cards_in_play, deck_order, sign
from replay.solver.search import CardMap, deck_cards, tree_size


def unit_scores(rules: Game[Any], state: Any) -> tuple[int, ...]:
    """Every seat's score for the scoring unit with best play (the reducer's round_scored
    rulings), the seat to play choosing the card best for itself, tie: the first in deck
    order."""
    while True:
        due = rules.due(state)
        if due.phase is Phase.RULING:
            assert due.ruling is not None
            if due.what == "round_scored":
                return _scores(rules, state)
            state = rules.apply(state, due.ruling)
            continue
        assert due.phase is Phase.DECISION and due.what == "play"
        values = card_values(rules, state)
        seat = due.seats[0]
        better = sign(state.kind)
        order = deck_order(state)
        best = min(values, key=lambda code: (-better * values[code][seat], order.index(code)))
        return values[best]


def card_values(rules: Game[Any], state: Any) -> dict[str, tuple[int, ...]]:
    """The unit's scores after each legal play of the seat to play (every legal card)."""
    seat = rules.due(state).seats[0]
    return {
        str(event.card): unit_scores(rules, rules.apply(state, event))
        for event in rules.legal_decisions(state, seat)
    }


def _scores(rules: Game[Any], state: Any) -> tuple[int, ...]:
    """The amounts of the unit's round_scored rulings, seat by seat."""
    scores = []
    for _ in range(state.n):
        due = rules.due(state)
        assert due.ruling is not None and due.what == "round_scored"
        scores.append(int(due.ruling.amount or 0))
        state = rules.apply(state, due.ruling)
    return tuple(scores)


#: The player counts each game is drawn with.
PLAYERS = {"hearts": (4,), "hiifuu": (4, 5, 6), "fou": (4, 5, 6, 7, 8)}


def endgames(
    kind: str,
    seed: int,
    count: int,
    *,
    low: int = 2,
    high: int = 5,
    limit: int = 1000,
    moon: float = 1 / 3,
) -> Iterator[Any]:
    """``count`` states of simulated games (random bots) where a card is to be played and the
    seat to play holds ``low`` to ``high`` cards: one a scoring unit, the number of cards drawn
    uniformly, kept when the plain search tree has fewer than ``limit`` positions (a
    brute force through the reducer costs about 0.1 ms a position). For Hearts, a share
    ``moon`` of the positions (one in three) has the points taken so far moved to one seat, so
    that the moon is still open."""
    rng = random.Random(seed)
    rules = get_rules(kind)
    made = 0
    game = 0
    while made < count:
        players = rng.choice(PLAYERS[kind])
        events = simulate_game(rules, f"e{game}", players=players, seed=seed * 1000 + game)
        game += 1
        for state in _unit_positions(rules, events, rng, low, high):
            if kind == "hearts" and rng.random() < moon:
                _moon_open(state, rng)
            if plain_tree(state, limit) >= limit:
                continue
            yield state
            made += 1
            if made == count:
                return


def plain_tree(state: Any, limit: int) -> int:
    """The size of the plain search tree from a state (up to ``limit``); ``limit`` for a state
    whose result is settled already (a Hearts hand with no points left)."""
    model = build_model(state, CardMap(deck_cards(cards_in_play(state))))
    return limit if model.over() else tree_size(model, limit)


def _unit_positions(
    rules: Game[Any], events: list[Any], rng: random.Random, low: int, high: int
) -> Iterator[Any]:
    """One state a scoring unit with the wanted number of cards (drawn per unit)."""
    state = rules.start(events[0])
    wanted = rng.randint(low, high)
    taken = False
    for event in events[1:]:
        if event.type == "round_scored":
            wanted, taken = rng.randint(low, high), False
        elif not taken and event.type == "play" and event.player is not None:
            held = bin(state.hand(event.player)).count("1")
            if (held == wanted and rng.random() < 0.5) or held < wanted:
                taken = True
                yield state
        state = rules.apply(state, event)


def _moon_open(state: Any, rng: random.Random) -> None:
    """Give every point taken so far in the hand to one seat."""
    total = sum(state.taken)
    state.taken = [0, 0, 0, 0]
    state.taken[rng.randrange(4)] = total
