"""The search of the all-cards-visible solver: max^n over a game's compact model
(:class:`replay.games.solving.Model`), compiled by mypyc.

:class:`Search` is max^n: every seat chooses the card best for its own score at the end of the
unit (each value is a vector: one utility per seat, higher is better; Hearts' utility is minus
the points). The tie rule: among cards of equal value to the seat to play, the first in the
game's deck order. On top of the plain recursion, all exact under that rule:

- the cards are searched in deck order, one of each group of equivalent cards
  (:meth:`Model.same_move`: cards of one suit held by the seat, no card still in play between
  them, the same points), so the first card of the best value is the tie rule's;
- a bound: after each card, the seat's best reachable result (:meth:`Model.upper`: Hearts, no
  more points while the moon is open, else the points taken and those of a trick already surely
  won; Hiifuu, the token held or still to take, 0 once two tricks are out of reach); a later
  card whose bound is no better than the best so far can at most tie, and a tie goes to the
  earlier card, so it is not searched;
- quick ends at a trick's start: the last forced tricks, and a leader holding in every suit a
  card above all the others' (:meth:`Model.sweeps`), are played out along one line, since every
  line gives the same result; a Hearts hand with no point left in play is over;
- a transposition table keyed by the remaining hands, the leader and what of the past still
  matters (:meth:`Model.key`), probed at the start of each trick, capped at ``capacity``
  entries (cleared when full: counted in ``resets``).
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

from replay.games.solving import CardMap, GameSolver, Model, deck_cards

__all__ = ["CAPACITY", "CardMap", "GameSolver", "Model", "Search", "deck_cards", "tree_size"]

#: The table's default cap: about 160 bytes an entry, so at most about 160 MB.
CAPACITY: Final = 1_000_000


class Search:
    """Max^n over a :class:`Model` with the table, the merging, the ordering and the cut-off
    of the module docstring. ``nodes`` counts the positions visited."""

    def __init__(self, model: Model, capacity: int = CAPACITY) -> None:
        self.model = model
        self.table: dict[int, tuple[int, ...]] = {}
        self.capacity = capacity
        self.nodes = 0
        self.resets = 0

    def value(self) -> tuple[int, ...]:
        """Every seat's utility with best play from the model's position."""
        model = self.model
        self.nodes += 1
        if model.over():
            return model.final()
        if not model.trick_start():
            return self.best(model.mover())
        if model.forced():
            return model.forced_out()
        if model.sweeps():
            return model.swept()
        key = model.key()
        stored = self.table.get(key)
        if stored is not None:
            return model.absolute(stored)
        value = self.best(model.mover())
        if len(self.table) >= self.capacity:
            self.table.clear()
            self.resets += 1
        self.table[key] = model.relative(value)
        return value

    def best(self, seat: i64) -> tuple[int, ...]:
        """The value of the best move of ``seat``, the seat to play (tie: the first card).

        The cards are searched in deck order, one of each group of equivalent cards, so the
        first card of the best value is the tie rule's. A later card is not searched when the
        seat's bound after it (:meth:`Model.upper`) is no better than the best so far: it can
        at most tie, and a tie goes to the earlier card."""
        model = self.model
        best: tuple[int, ...] = ()
        moves = model.legal()
        previous = -1
        while moves:
            low = moves & -moves
            moves ^= low
            card = low.bit_length() - 1
            if previous >= 0 and model.same_move(previous, card):
                previous = card
                continue  # the group's lowest card stands for it
            previous = card
            model.play(card)
            if best and model.upper(seat) <= best[seat]:
                model.undo()
                continue
            value = self.value()
            model.undo()
            if not best or value[seat] > best[seat]:
                best = value
        return best

    def move_values(self) -> dict[int, tuple[int, ...]]:
        """The value of each legal card of the seat to play (compact cards; every card of a
        group of equivalent cards has its group's value)."""
        model = self.model
        legal = model.legal()
        groups = model.merged(legal)
        values: dict[int, tuple[int, ...]] = {}
        for card in groups:
            model.play(card)
            values[card] = self.value()
            model.undo()
        group = -1
        while legal:
            low = legal & -legal
            card = low.bit_length() - 1
            legal ^= low
            if card in values:
                group = card
            else:
                values[card] = values[group]
        return values


def tree_size(model: Model, limit: int) -> int:
    """The positions of the plain max^n tree from the model's position (every legal card, no
    table, no merging), counted up to ``limit`` (a bigger tree answers ``limit``): the size
    of a brute-force search, to choose test positions and to report what the search saves."""
    if model.finished():
        return 1
    size = 1
    legal = model.legal()
    while legal and size < limit:
        low = legal & -legal
        legal ^= low
        model.play(low.bit_length() - 1)
        size += tree_size(model, limit - size)
        model.undo()
    return min(size, limit)
