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

:data:`EXACT_CARDS` is where one solve of a sampled deal costs less than the rollouts it
replaces (one an alternative); :data:`VISIBLE_CARDS` where one solve of the true deal costs
less than the decision's rollouts (``benchmarks/bench_solver.py --review``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from replay.model.cards import popcount
from replay.model.events import Event
from replay.solver import NotSolvable, solve, solver_for

#: The most cards in the hand of the seat to play for which the review values the sampled deals
#: with the solver.
EXACT_CARDS: Final = 4
#: The most cards for which a play's loss with all cards visible is given.
VISIBLE_CARDS: Final = 6


def exact_play(kind: str, state: Any, event: Event, limit: int = EXACT_CARDS) -> bool:
    """Whether ``event``, a decision at ``state``, is a play the solver values: a card of a
    game it knows, the seat holding at most ``limit`` cards."""
    seat = event.player
    return (
        event.type == "play"
        and event.card is not None
        and seat is not None
        and solver_for(kind) is not None
        and popcount(state.hand(seat)) <= limit
    )


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
