"""Exact endgames in the review (docs/review.md): once the seat to play holds few cards, the
all-cards-visible solver (:mod:`replay.solver`) values a play where rollouts would guess.

Two uses, both for the plays of the games the solver knows:

- **with all cards visible**: each play's loss on the true deal, every hand seen (the solver's
  value of the best card minus that of the card played, for the seat);
- **exact sampled deals**: in the review's own (hidden-information) loss, each sampled deal of
  the hidden cards is valued by the solver, every alternative at once, instead of one rollout an
  alternative. The value of a sampled deal is then what the seat would score if, on that deal,
  every seat played perfectly for itself seeing every hand (perfect-information sampling): the
  rollouts' bot is replaced by perfect play, not by the player's knowledge.

The thresholds are each game's (``exact_cards`` and ``visible_cards`` of its
:class:`~replay.games.solving.GameSolver`): up to ``exact_cards`` in the hand of the seat to
play one solve of a sampled deal costs at most a few times the rollouts it replaces (one an
alternative), up to ``visible_cards`` one solve of the true deal costs less than the decision's
rollouts (``benchmarks/bench_solver.py --review``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from replay.model.cards import popcount
from replay.model.events import Event
from replay.solver import NotSolvable, solve, solver_for


def exact_play(kind: str, state: Any, event: Event, *, visible: bool = False) -> bool:
    """Whether ``event``, a decision at ``state``, is a play the review values with the
    solver: a card of a game it knows, the seat holding at most the game's ``exact_cards``
    (with ``visible``, its ``visible_cards``)."""
    solver = solver_for(kind)
    seat = event.player
    if solver is None or event.type != "play" or event.card is None or seat is None:
        return False
    limit = solver.visible_cards if visible else solver.exact_cards
    return popcount(state.hand(seat)) <= limit


def visible_loss(state: Any, event: Event) -> int | None:
    """What the card played cost its seat with all cards visible (None where the solver has
    no card to value)."""
    try:
        return solve(state, line=False).loss(str(event.card))
    except NotSolvable:
        return None


def exact_values(world: Any, seat: int, cards: Sequence[str]) -> list[float]:
    """Each card's value for ``seat`` on one sampled deal, every seat then playing perfectly
    for itself with every hand seen (the game's scores: the same measure as a rollout's)."""
    values = solve(world, line=False).values
    return [float(values[card][seat]) for card in cards]
