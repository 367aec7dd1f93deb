"""All cards visible: the exact value of every legal card of a trick game, and the loss of each
card played against it (docs/solver.md).

Hearts, Hiifuu and Fou! are games of several players, each with a score of their own: "best"
means every seat plays for its own result at the end of the scoring unit (the Hearts hand, the
Hiifuu or Fou! round), knowing every hand (max^n). Tie rule: among cards of equal value to the
seat to play, the first in the game's deck order (Hearts ``2C..AC 2D..AD 2S..AS 2H..AH``).

Two calls make the library's interface:

- :func:`solve` (a state of the reducer, a card to play due or a trick's rulings due): each legal
  card's value for every seat, the best card and the line of best play (:class:`Solution`);
- :func:`card_losses` (a recorded game's events): for each play, the value of the best card
  minus the value of the card played, for the seat that played it (:class:`CardLoss`).

Values are the reducer's round scores: Hearts points taken in the hand (lower is better, the
moon counted), Hiifuu the token's value, Fou! +10, 0 or minus the cards left. The search itself
is :mod:`replay.solver.search` (compiled with the engine).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from replay.games import GAME_MODULES, _import, get_rules
from replay.games.base import Game, Phase, RuleViolation
from replay.model.events import Event
from replay.solver.search import CAPACITY, CardMap, GameSolver, Model, Search, deck_cards

__all__ = [
    "CAPACITY",
    "KINDS",
    "SOLVER_SUFFIX",
    "CardLoss",
    "NotSolvable",
    "Solution",
    "build_model",
    "card_losses",
    "cards_in_play",
    "deck_order",
    "ready_to_play",
    "sign",
    "solvable_kinds",
    "solve",
    "solver_for",
]

#: The suffix of a game module's sibling that holds its part of the solver (``hearts_solver``).
SOLVER_SUFFIX = "_solver"


class NotSolvable(ValueError):
    """No card to solve at this state: another game, a deal or pass due, the unit over."""


def solver_for(kind: str) -> GameSolver | None:
    """The game's part of the solver: the ``SOLVER`` of its ``<module>_solver`` sibling, found
    as the registry finds a ``_fast`` sibling (None for a game without one)."""
    module_name = GAME_MODULES.get(kind)
    module = _import(module_name + SOLVER_SUFFIX) if module_name is not None else None
    solver = getattr(module, "SOLVER", None)
    return solver if isinstance(solver, GameSolver) else None


def solvable_kinds() -> tuple[str, ...]:
    """The registered games the solver knows."""
    return tuple(kind for kind in GAME_MODULES if solver_for(kind) is not None)


#: The games the solver knows (those registered when it is imported: :func:`solvable_kinds`
#: asks again).
KINDS = solvable_kinds()


def _solver(kind: str) -> GameSolver:
    solver = solver_for(kind)
    if solver is None:
        raise NotSolvable(f"the solver knows {', '.join(solvable_kinds())}, not {kind}")
    return solver


@dataclass(frozen=True)
class Solution:
    """The all-cards-visible values of one position.

    ``values``: each legal card of ``seat`` (deck order) -> every seat's score for the unit;
    ``best``: the best card (tie rule of the module); ``line``: the line of best play from here
    as (seat, card), until the unit's result is settled; ``better``: 1 when a higher score is
    better, -1 for Hearts' points. ``nodes``, ``entries`` and ``resets``: the search's work and
    its table (entries stored, clears at the cap).
    """

    kind: str
    seat: int
    values: dict[str, tuple[int, ...]]
    best: str
    line: list[tuple[int, str]]
    better: int
    nodes: int
    entries: int
    resets: int

    def loss(self, card: str) -> int:
        """What ``card`` costs the seat against the best card (0 for a best card)."""
        return self.better * (self.values[self.best][self.seat] - self.values[card][self.seat])


@dataclass(frozen=True)
class CardLoss:
    """One recorded play judged with all cards visible: the seat's score for the unit with the
    card played and with the best card (both with best play after), and ``loss`` = what the
    card cost (in the game's points, never negative)."""

    seq: int
    seat: int
    card: str
    best: str
    played_value: int
    best_value: int
    loss: int
    cards_left: int


@dataclass
class _Unit:
    """The search of one scoring unit, kept from play to play (its table stays valid)."""

    unit: int
    search: Search
    cards: CardMap = field(repr=False)


def sign(kind: str) -> int:
    """1 when a higher score is better, -1 when lower is (Hearts)."""
    return _solver(kind).better


def deck_order(state: Any) -> tuple[str, ...]:
    """The card codes of a state's deck, by index."""
    return _solver(state.kind).deck_order(state)


def ready_to_play(rules: Game[Any], state: Any) -> Any:
    """``state`` with the rulings due applied until a card is to be played (a trick's winner,
    a token, a Fool); :class:`NotSolvable` when no card is (the unit over, a deal due...)."""
    _solver(state.kind)
    while True:
        due = rules.due(state)
        if due.phase is Phase.DECISION and due.what == "play":
            return state
        if due.phase is not Phase.RULING or due.what in ("round_scored", "game_end"):
            raise NotSolvable(f"no card to play: {due.what or due.phase.value} is due")
        assert due.ruling is not None
        state = rules.apply(state, due.ruling)


def cards_in_play(state: Any) -> int:
    """The deck bit set of the cards in the hands and on the table."""
    live = 0
    for seat in range(state.n):
        live |= state.hand(seat)
    for card in state.table:
        live |= 1 << card
    return live


def build_model(state: Any, cards: CardMap) -> Model:
    """The compact model of a reducer state where a card is to be played."""
    return _solver(state.kind).model(state, cards)


def unit_of(state: Any) -> int:
    """Which scoring unit a state is in: its hand or round number."""
    return _solver(state.kind).unit(state)


def solve(
    state: Any,
    rules: Game[Any] | None = None,
    *,
    capacity: int = CAPACITY,
    line: bool = True,
    table: dict[int, tuple[int, ...]] | None = None,
) -> Solution:
    """The all-cards-visible values of the state's position (see the module docstring).

    ``table``: a transposition table to use and fill, shared by positions with the same cards
    in play and the same scoring rules (a new one by default)."""
    rules = rules or get_rules(state.kind)
    state = ready_to_play(rules, state)
    search = Search(build_model(state, CardMap(deck_cards(cards_in_play(state)))), capacity)
    if table is not None:
        search.table = table
    return _solution(state, search, line)


def _solution(state: Any, search: Search, with_line: bool) -> Solution:
    model = search.model
    seat = model.mover()
    order = deck_order(state)
    better = sign(state.kind)
    utilities = search.move_values()
    best = _best(utilities, seat)
    values = {
        order[model.deck_card(card)]: tuple(better * u for u in value)
        for card, value in sorted(utilities.items())
    }
    moves = _line(search, order) if with_line else []
    return Solution(
        state.kind, seat, values, order[model.deck_card(best)], moves, better, search.nodes,
        len(search.table), search.resets,
    )  # fmt: skip


def _best(utilities: dict[int, tuple[int, ...]], seat: int) -> int:
    """The best compact card for ``seat`` (tie: the first in deck order)."""
    return min(utilities, key=lambda card: (-utilities[card][seat], card))


def _line(search: Search, order: tuple[str, ...]) -> list[tuple[int, str]]:
    """The line of best play from the model's position (the model is left as it was)."""
    model = search.model
    moves: list[tuple[int, str]] = []
    while not model.over():
        seat = model.mover()
        card = _best(search.move_values(), seat)
        moves.append((seat, order[model.deck_card(card)]))
        model.play(card)
    for _ in moves:
        model.undo()
    return moves


def card_losses(
    events: Sequence[Event], *, max_cards: int | None = None, capacity: int = CAPACITY
) -> list[CardLoss]:
    """The all-cards-visible loss of every play of a recorded game (in order), for the plays
    whose seat holds at most ``max_cards`` cards (all by default). A game of another kind gives
    no play; the walk stops at an event that breaks the rules (the plays before it are kept)."""
    if not events or solver_for(events[0].kind) is None:
        return []
    rules = get_rules(events[0].kind)
    out: list[CardLoss] = []
    unit: _Unit | None = None
    try:
        state = rules.start(events[0])
        for event in events[1:]:
            rules.verify(state, event)
            if event.type == "play" and event.player is not None and event.card is not None:
                held = len(deck_cards(state.hand(event.player)))
                if max_cards is None or held <= max_cards:
                    unit = _unit_for(state, unit, capacity)
                    out.append(_judge(state, event, unit, held))
            state = rules.apply(state, event)
    except RuleViolation:
        pass
    return out


def _unit_for(state: Any, unit: _Unit | None, capacity: int) -> _Unit:
    """The search for this state's position: the unit's search when the state is in it (its
    table kept), a new one otherwise."""
    live = cards_in_play(state)
    key = unit_of(state)
    if (
        unit is not None
        and unit.unit == key
        and all(c in unit.cards.index for c in deck_cards(live))
    ):
        unit.search.model = build_model(state, unit.cards)
        return unit
    cards = CardMap(deck_cards(live))
    return _Unit(key, Search(build_model(state, cards), capacity), cards)


def _judge(state: Any, event: Event, unit: _Unit, held: int) -> CardLoss:
    solution = _solution(state, unit.search, with_line=False)
    card = str(event.card)
    seat = solution.seat
    return CardLoss(
        event.seq, seat, card, solution.best, solution.values[card][seat],
        solution.values[solution.best][seat], solution.loss(card), held,
    )  # fmt: skip
