"""Hez2's fast path: :class:`FastHez2`, the rules of :mod:`replay.games.hez2` checked without
building what is due.

The engine's hot loop (replay with checks, the audit) hands every event to
:meth:`~replay.games.rules.Rules.advance`. Here a legal decision, a card drawn from the stock and
the queued ruling (or a reshuffle) are checked and applied in one pass: the checks of
:meth:`~replay.games.rules.Rules.verify` for what is due now, without building the
:class:`~replay.games.rules.Due`, each fault returned by the rules' own functions
(``decision_fault``, ``stock_fault``) instead of raised, and a ruling compared field by field
with the queue entry it comes from. Anything else answers "not sure" and goes to the general
path, which finds the precise rule broken. ``tests/test_fast_paths.py`` checks that the
registered :data:`RULES` and the plain ``replay.games.hez2.RULES`` give the same verdicts and
states on simulated games and their one-field mutants.

>>> from replay.games.hez2 import RULES as PLAIN
>>> from replay.engine.simulate import simulate_game
>>> events = simulate_game(RULES, "doc", players=3, seed=2)
>>> fast, plain = RULES.replay(events), PLAIN.replay(events)
>>> (fast.seq, fast.payouts) == (plain.seq, plain.payouts), fast.seq == len(events)
(True, True)
"""

from __future__ import annotations

from typing import Final

from replay.games.base import round_fault, same
from replay.games.hez2 import (
    DECK,
    DECLARE,
    DRAW,
    ROUND,
    TURN,
    Hez2,
    Hez2State,
    queued_amount,
    queued_round,
    reshuffled,
)
from replay.model.cards import popcount
from replay.model.events import Event


class FastHez2(Hez2):
    """:class:`~replay.games.hez2.Hez2` with the engine's fast path."""

    def advance(self, state: Hez2State, event: Event) -> bool:
        """A legal decision, a card drawn from the stock or the queued ruling, checked and
        applied in one pass (nearly every event)."""
        if event.seq != state.seq:
            return False
        if state.queue or (state.stage == DRAW and not state.stock):  # a ruling is due
            if not self.is_due_ruling(state, event):
                return False
        else:
            player = event.player
            if player is None or player != state.turn:
                return False
            stage = state.stage
            if stage in (TURN, DECLARE):
                if event.type not in self.decision_types:
                    return False
                if self.decision_fault(state, player, event) is not None:
                    return False
            elif stage == DRAW and state.stock and event.type == "card_drawn":
                if self.stock_fault(state, event) is not None:
                    return False
                if round_fault(event, ROUND) is not None:
                    return False
            else:
                return False
        self.reduce(state, event)
        state.seq = event.seq + 1
        state.last = event
        return True

    def is_due_ruling(self, state: Hez2State, event: Event) -> bool:
        """The first queued ruling (but ``game_end``) or a reshuffle as :meth:`due` gives it,
        compared field by field (the same queue entry, the same cards)."""
        if not state.queue:
            if state.stage != DRAW or state.stock or event.type != "reshuffle":
                return False
            moved = reshuffled(state)
            cards = event.cards
            return (
                same(event.round, ROUND) and same(event.amount, popcount(moved))
                and cards is not None and DECK.matches_mask(cards, moved)
                and event.player is None and event.trick is None and event.target is None
                and event.card is None and event.suit is None and event.total is None
                and event.values is None
            )  # fmt: skip
        type_, player, amount, _ = state.queue[0]
        if event.type != type_ or type_ == "game_end":
            return False
        return (
            same(event.round, queued_round(type_)) and same(event.player, player)
            and same(event.amount, queued_amount(type_, amount))
            and event.trick is None and event.target is None and event.card is None
            and event.cards is None and event.suit is None and event.total is None
            and event.values is None
        )  # fmt: skip


#: The Hez2 rules the registry hands out (:func:`replay.games.get_rules`).
RULES: Final = FastHez2()
